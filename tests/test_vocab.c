// SPDX-License-Identifier: MIT
/*
 * vocab: bssplit parses fio's syntax and refuses what it cannot mean, its deck keeps every size to
 * its share exactly; each distribution fits its exact pmf (chi-square at 0.999), the scatter is a
 * bijection, zones get their shares; the random map visits every index once per pass.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "vocab.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- bssplit -------------------------------------------------------------------------------- */

static void parse_ok(const char *text, struct bssplit *b)
{
	char err[256] = "";

	if (bssplit_parse(b, text, err, sizeof(err)))
		fail_msg("bssplit '%s' refused: %s", text, err);
}

static void test_bssplit_parses_good_inputs(void **state)
{
	static const struct {
		const char *text;
		unsigned n;
		uint32_t size[4], share[4];
	} cases[] = {
		{ "4k/67:8k/10:64k/23", 3, { 4096, 8192, 65536 }, { 6700, 1000, 2300 } },
		{ "4k/50:8k/:16k/", 3, { 4096, 8192, 16384 }, { 5000, 2500, 2500 } },
		/* 50 over three blanks: 16.68 for the first, 16.66 for the others */
		{ "4k/50:8k/:16k/:32k/", 4, { 4096, 8192, 16384, 32768 }, { 5000, 1668, 1666, 1666 } },
		{ "8k/:4k/", 2, { 4096, 8192 }, { 5000, 5000 } },
		{ "4k/10.5:8k/89.5", 2, { 4096, 8192 }, { 1050, 8950 } },
		{ "4k/33.33:8k/33.33:16k/33.34", 3, { 4096, 8192, 16384 }, { 3333, 3333, 3334 } },
		{ "4k/30:8k/40:4k/30", 2, { 4096, 8192 }, { 6000, 4000 } },
		{ "1m/50:512/50", 2, { 512, 1 << 20 }, { 5000, 5000 } },
		{ "4K/25:4096/25:8KiB/50", 2, { 4096, 8192 }, { 5000, 5000 } },
		{ "64m/100", 1, { 64 << 20 }, { 10000 } },
		{ "4k/100:8k/0", 1, { 4096 }, { 10000 } },
		{ "4k/100:8k/", 1, { 4096 }, { 10000 } },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bssplit b;

		parse_ok(cases[i].text, &b);
		assert_int_equal(b.n, cases[i].n);
		for (unsigned j = 0; j < b.n; j++) {
			assert_int_equal(b.size[j], cases[i].size[j]);
			assert_int_equal(b.share[j], cases[i].share[j]);
		}
	}
}

static void test_bssplit_refuses_bad_inputs_naming_the_problem(void **state)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "4k/50:8k/40", "'4k/50:8k/40': the shares sum to 90%, not 100%" },
		{ "4k/60:8k/50", "sum to 110%" },
		{ "4k/60:8k/40.5:16k/", "sum to 100.5%" },
		{ "1000/100", "'1000': not a multiple of 512 bytes" },
		{ "4k/50:0/50", "'0': a request size of 0 bytes" },
		{ "128m/100", "'128m': larger than 64m" },
		{ "garbage", "'garbage': expected SIZE/PERCENT" },
		{ "4k", "'4k': expected SIZE/PERCENT" },
		{ "4k/50:", "'': expected SIZE/PERCENT" },
		{ "4k/50::8k/50", "'': expected SIZE/PERCENT" },
		{ "4k/abc", "'abc': expected a share in percent" },
		{ "4k/50%", "'50%': expected a share in percent" },
		{ "4k/-5:8k/105", "'-5': expected a share in percent" },
		{ "4k/10.125:8k/89.875", "'10.125': a share has at most two decimals" },
		{ "4k/150", "'150': a share of more than 100%" },
		{ "4q/100", "'4q': unknown size suffix" },
		{ " 4k/100", "' 4k': not a size" },
		{ "", "empty bssplit" },
	};
	char many[2048] = "";

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bssplit b;
		char err[256] = "";

		assert_int_equal(bssplit_parse(&b, cases[i].text, err, sizeof(err)), -EINVAL);
		if (!strstr(err, cases[i].msg))
			fail_msg("bssplit '%s': message '%s' lacks '%s'", cases[i].text, err, cases[i].msg);
	}
	for (int i = 0; i <= BSSPLIT_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%dk/", i ? ":" : "", 4 * (i + 1));
	{
		struct bssplit b;
		char err[256] = "";

		assert_int_equal(bssplit_parse(&b, many, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "more than 64 entries"));
	}
}

static void test_bssplit_format_round_trips(void **state)
{
	static const struct { const char *text, *canon; } cases[] = {
		{ "4k/67:8k/10:64k/23", "4k/67:8k/10:64k/23" },
		{ "8k/10.5:4k/89.5", "4k/89.5:8k/10.5" },
		{ "4k/50:8k/:16k/:32k/", "4k/50:8k/16.68:16k/16.66:32k/16.66" },
		{ "1536/0.25:4k/99.75", "1536/0.25:4k/99.75" },
		{ "4k/30:4096/70", "4k/100" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct bssplit a, b;
		char buf[256];

		parse_ok(cases[i].text, &a);
		assert_int_equal(bssplit_format(&a, buf, sizeof(buf)), (int)strlen(cases[i].canon));
		assert_string_equal(buf, cases[i].canon);
		parse_ok(buf, &b);
		assert_memory_equal(&a, &b, sizeof(a));
	}
}

static void test_bssplit_mean_is_exact(void **state)
{
	struct bssplit b;

	(void)state;
	parse_ok("4k/50:8k/25:16k/25", &b);
	assert_true(bssplit_mean(&b) == 8192);
	parse_ok("512/0.01:1m/99.99", &b);
	assert_true(bssplit_mean(&b) == (512 * 1.0 + 1048576 * 9999.0) / 10000);
}

/* ---- bsgen ---------------------------------------------------------------------------------- */

static void check_one_deck(const char *text, unsigned deck)
{
	static struct bsgen g;
	unsigned count[BSSPLIT_MAX] = { 0 };
	struct bssplit b;

	parse_ok(text, &b);
	bsgen_init(&g, &b, 7);
	assert_int_equal(g.cards, deck);
	for (unsigned k = 0; k < deck; k++)
		count[bsgen_next(&g)]++;
	for (unsigned i = 0; i < b.n; i++)
		assert_int_equal(count[i], b.share[i] / (BSSPLIT_SCALE / deck));
}

static void test_bsgen_one_deck_has_the_shares_exactly(void **state)
{
	(void)state;
	check_one_deck("4k/67:8k/10:64k/23", 100);
	check_one_deck("4k/50:8k/:16k/:32k/", 10000);
	check_one_deck("512/0.01:4k/49.99:8k/50", 10000);
}

static void test_bsgen_counts_stay_within_one_deck_of_the_shares(void **state)
{
	static const char *const texts[] = { "4k/67:8k/10:64k/3:128k/20", "4k/33.33:8k/33.33:16k/33.34" };

	(void)state;
	for (size_t t = 0; t < ARRAY_SIZE(texts); t++) {
		static struct bsgen g;
		uint64_t count[BSSPLIT_MAX] = { 0 };
		struct bssplit b;

		parse_ok(texts[t], &b);
		bsgen_init(&g, &b, 11 + t);
		for (uint64_t k = 1; k <= 1000000; k++) {
			count[bsgen_next(&g)]++;
			for (unsigned i = 0; i < b.n; i++) {
				double want = (double)k * b.share[i] / BSSPLIT_SCALE;
				double cards = (double)b.share[i] * g.cards / BSSPLIT_SCALE;

				if (fabs((double)count[i] - want) > cards)
					fail_msg("'%s' after %llu draws: %llu of size %u, want %.1f within %.0f",
						 texts[t], (unsigned long long)k, (unsigned long long)count[i],
						 b.size[i], want, cards);
			}
		}
	}
}

static void test_bsgen_order_is_random_and_not_periodic(void **state)
{
	static struct bsgen a, b;
	unsigned first[100], differ_seed = 0, differ_deck = 0, sorted = 1;
	struct bssplit s;

	(void)state;
	parse_ok("4k/67:8k/10:64k/23", &s);
	bsgen_init(&a, &s, 1);
	bsgen_init(&b, &s, 2);
	for (int k = 0; k < 100; k++) {
		first[k] = bsgen_next(&a);
		differ_seed += first[k] != bsgen_next(&b);
		sorted &= k == 0 || first[k] >= first[k - 1];
	}
	for (int k = 0; k < 100; k++)
		differ_deck += first[k] != bsgen_next(&a);
	assert_false(sorted);
	assert_true(differ_seed > 10);
	assert_true(differ_deck > 10);
}

static void test_bsgen_no_split_gives_index_0(void **state)
{
	static struct bsgen g;
	struct bssplit b = { .n = 0 };

	(void)state;
	bsgen_init(&g, &b, 3);
	for (int k = 0; k < 10; k++)
		assert_int_equal(bsgen_next(&g), 0);
}

/* ---- distributions -------------------------------------------------------------------------- */

static void dist_ok(struct distgen *g, const char *text, uint64_t n, uint64_t unit, uint64_t seed)
{
	struct dist_spec d;
	char err[256] = "";

	if (dist_parse(&d, text, err, sizeof(err)))
		fail_msg("distribution '%s' refused: %s", text, err);
	if (dist_init(g, &d, n, unit, seed, err, sizeof(err)))
		fail_msg("distribution '%s' over %llu: %s", text, (unsigned long long)n, err);
}

/* The chi-square quantile p of df degrees of freedom (Wilson-Hilferty); z is the normal quantile of p. */
static double chi2_critical(unsigned df, double z)
{
	double k = df, t = 1 - 2 / (9 * k) + z * sqrt(2 / (9 * k));

	return k * t * t * t;
}

#define Z_0999 3.090232306167813
#define MIN_EXPECTED 20.0

/*
 * The chi-square statistic of draws ranks of g against model's pmf (g itself for a fit): ranks in
 * [0, head) pooled in order into bins of at least MIN_EXPECTED expected draws (one rank a bin where
 * it is that likely), the ranks from head on one more bin. Where head is n, the pmf must sum to 1.
 */
static double chi_square(struct distgen *g, const struct distgen *model, uint64_t head, unsigned long draws,
			 unsigned *df)
{
	uint32_t *bin_of = malloc(head * sizeof(*bin_of));
	double *expect = calloc(head + 2, sizeof(*expect)), acc = 0, sum = 0, chi = 0;
	unsigned long *count = calloc(head + 2, sizeof(*count));
	unsigned nb = 0;

	assert_non_null(bin_of);
	assert_non_null(expect);
	assert_non_null(count);
	for (uint64_t k = 0; k < head; k++) {
		double p = dist_pmf_rank(model, k);

		sum += p;
		acc += p * (double)draws;
		bin_of[k] = nb;
		if (acc >= MIN_EXPECTED) {
			expect[nb++] = acc;
			acc = 0;
		}
	}
	if (head < g->n) {
		expect[nb++] = acc + (1 - sum) * (double)draws;   /* the open bin and the tail */
	} else if (acc > 0 && nb && acc < MIN_EXPECTED) {
		expect[nb - 1] += acc;   /* the last few ranks join the bin before them */
		for (uint64_t k = head; k-- > 0 && bin_of[k] == nb;)
			bin_of[k] = nb - 1;
	} else if (acc > 0) {
		expect[nb++] = acc;
	}
	if (head == g->n && fabs(sum - 1) > 1e-9)
		fail_msg("the pmf sums to %.15f", sum);
	for (unsigned long i = 0; i < draws; i++) {
		uint64_t r = dist_next_rank(g);

		if (r >= g->n)
			fail_msg("rank %llu outside [0, %llu)", (unsigned long long)r, (unsigned long long)g->n);
		count[r < head ? bin_of[r] : nb - 1]++;
	}
	for (unsigned b = 0; b < nb; b++)
		chi += ((double)count[b] - expect[b]) * ((double)count[b] - expect[b]) / expect[b];
	*df = nb - 1;
	assert_true(*df >= 1);
	free(bin_of);
	free(expect);
	free(count);
	return chi;
}

/* g's ranks fit its own pmf: the statistic below the 0.999 critical value. */
static void chi_square_fit(struct distgen *g, const char *name, uint64_t head, unsigned long draws)
{
	unsigned df;
	double chi = chi_square(g, g, head, draws, &df), crit = chi2_critical(df, Z_0999);

	print_message("[ chi2     ] %-28s %8.1f, %5u degrees of freedom, 0.999 critical value %8.1f\n", name,
		      chi, df, crit);
	assert_true(chi < crit);
}

static void test_dist_ranks_fit_the_exact_pmf(void **state)
{
	static const struct { const char *text; uint64_t n; } cases[] = {
		{ "uniform", 100000 },
		{ "zipf:1.2", 100000 },
		{ "zipf:0.8", 100000 },
		{ "zipf:2.5", 50 },
		{ "zipf:0.3", 1000 },
		{ "zipf:1.01", 1000000 },
		{ "pareto:0.2", 100000 },
		{ "pareto:0.4", 1000 },
		{ "pareto:0.7", 100000 },
		{ "normal:10", 100000 },
		{ "normal:50", 10000 },
		{ "normal:1%", 1000 },
		{ "zoned:50/5:30/15:20/80", 100000 },
		{ "zoned:60/10:0/20:40/70", 999 },
		{ "zoned_abs:60/1m:30/2m:10/1m", 1280 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		static struct distgen g;
		char name[64];

		dist_ok(&g, cases[i].text, cases[i].n, 4096, 42 + i);
		snprintf(name, sizeof(name), "%s n=%llu", cases[i].text, (unsigned long long)cases[i].n);
		chi_square_fit(&g, name, cases[i].n, 1000000);
	}
}

/* The head of a zipf over 2^40 blocks against the pmf: checks the Euler-Maclaurin normaliser too. */
static void test_dist_zipf_head_fits_over_2_to_the_40(void **state)
{
	static const char *const texts[] = { "zipf:1.2", "zipf:0.8", "pareto:0.2" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		static struct distgen g;
		char name[64];

		dist_ok(&g, texts[i], 1ull << 40, 4096, 5);
		snprintf(name, sizeof(name), "%s n=2^40 (head)", texts[i]);
		chi_square_fit(&g, name, 100000, 1000000);
	}
}

/*
 * zipf and pareto draw from bins (one rank each below 64, then 32 an octave, the last cut at n):
 * ranges that end inside the first wide bins, on a bin's edge and past it fit the pmf, pareto:0.7
 * (a pmf rising to the last bin) too; a range of one rank gives rank 0.
 */
static void test_dist_binned_sampler_fits_at_bin_edges(void **state)
{
	static const char *const texts[] = { "zipf:1.2", "zipf:0.3", "pareto:0.2", "pareto:0.7" };
	static const uint64_t ns[] = { 2, 63, 64, 65, 66, 97, 128, 129, 4097, 1000003 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(ns); j++) {
			static struct distgen g;
			char name[64];

			dist_ok(&g, texts[i], ns[j], 4096, 11 + j);
			snprintf(name, sizeof(name), "%s n=%llu", texts[i], (unsigned long long)ns[j]);
			chi_square_fit(&g, name, ns[j], 200000);
		}
		{
			static struct distgen g;

			dist_ok(&g, texts[i], 1, 4096, 1);
			for (int k = 0; k < 100; k++)
				assert_int_equal(dist_next(&g), 0);
		}
	}
}

/*
 * Laws too steep for the bins (an exponent above 16) keep their own samplers: pareto's fit the pmf;
 * zipf's put all but 2^-17 of the draws on rank 0, too few elsewhere for a chi-square test.
 */
static void test_dist_steep_laws_fall_back_and_fit(void **state)
{
	static const struct { const char *text; uint64_t n; } cases[] = {
		{ "pareto:0.9", 100000 }, { "pareto:0.95", 1000 }, { "zipf:20", 50 }, { "zipf:17", 1ull << 40 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		static struct distgen g;
		char name[64];
		unsigned long zeros = 0;

		dist_ok(&g, cases[i].text, cases[i].n, 4096, 7 + i);
		assert_int_equal(g.t.nbins, 0);
		if (g.kind == DIST_PARETO) {
			snprintf(name, sizeof(name), "%s n=%llu", cases[i].text, (unsigned long long)cases[i].n);
			chi_square_fit(&g, name, cases[i].n, 200000);
			continue;
		}
		for (int k = 0; k < 100000; k++) {
			uint64_t r = dist_next_rank(&g);

			assert_true(r < cases[i].n);
			zeros += r == 0;
		}
		assert_true(zeros >= 99990);
	}
}

/* The test has power: draws of one law against the pmf of a close one fail it. */
static void test_dist_chi_square_detects_a_slightly_wrong_law(void **state)
{
	static const struct { const char *drawn, *model; } cases[] = {
		{ "zipf:1.2", "zipf:1.22" },
		{ "zipf:0.8", "zipf:0.82" },
		{ "pareto:0.2", "pareto:0.21" },
		{ "normal:10", "normal:10.5" },
		{ "zoned:50/5:30/15:20/80", "zoned:52/5:28/15:20/80" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		static struct distgen g, model;
		unsigned df;
		double chi, crit;

		dist_ok(&g, cases[i].drawn, 100000, 4096, 3);
		dist_ok(&model, cases[i].model, 100000, 4096, 3);
		chi = chi_square(&g, &model, 100000, 1000000, &df);
		crit = chi2_critical(df, Z_0999);
		print_message("[ chi2     ] %s against %s: %.1f, %u degrees of freedom, critical value %.1f\n",
			      cases[i].drawn, cases[i].model, chi, df, crit);
		assert_true(chi > crit);
	}
}

static void test_dist_scatter_is_a_bijection_inside_the_range(void **state)
{
	static const char *const texts[] = { "zipf:1.2", "pareto:0.2", "normal:10" };
	static const uint64_t ns[] = { 1, 2, 3, 7, 10, 64, 1000, 4096, 65537, 1000003 };

	(void)state;
	for (size_t t = 0; t < ARRAY_SIZE(texts); t++) {
		for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
			uint8_t *seen = calloc(ns[i], 1);
			static struct distgen g;

			assert_non_null(seen);
			dist_ok(&g, texts[t], ns[i], 4096, 1);
			for (uint64_t r = 0; r < ns[i]; r++) {
				uint64_t x = dist_scatter(&g, r);

				assert_true(x < ns[i]);
				assert_false(seen[x]);
				seen[x] = 1;
			}
			for (int k = 0; k < 10000; k++)
				assert_true(dist_next(&g) < ns[i]);
			free(seen);
		}
	}
}

/* Large ranges, below and above the 2^50 where the scatter changes its arithmetic. */
static void test_dist_scatter_of_large_ranges_matches_128_bit_arithmetic(void **state)
{
	static const uint64_t ns[] = { (1ull << 40) + 12345, (1ull << 50) - 1, (1ull << 50) + 3,
				       (1ull << 62) + 1 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
		static struct distgen g;
		uint64_t r = 0;

		dist_ok(&g, "zipf:0.9", ns[i], 512, 1);
		for (int k = 0; k < 100000; k++) {
			uint64_t want = (uint64_t)(((unsigned __int128)g.perm_mul * r + g.perm_add) % ns[i]);

			assert_int_equal(dist_scatter(&g, r), want);
			assert_true(dist_next(&g) < ns[i]);
			r = k & 1 ? ns[i] - 1 - r / 3 : r * 7 + (uint64_t)k;
			r %= ns[i];
		}
	}
}

/* dist_next is dist_scatter of dist_next_rank, draw for draw, on both sides of 2^50 (two scatters). */
static void test_dist_next_is_the_scattered_rank(void **state)
{
	static const char *const texts[] = { "zipf:1.2", "zipf:0.8", "pareto:0.2", "pareto:0.7", "normal:10" };
	static const uint64_t ns[] = { 1000, (1ull << 50) - 1, (1ull << 50) + 3 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		for (size_t j = 0; j < ARRAY_SIZE(ns); j++) {
			static struct distgen a, b;

			dist_ok(&a, texts[i], ns[j], 4096, 9);
			dist_ok(&b, texts[i], ns[j], 4096, 9);
			for (int k = 0; k < 20000; k++)
				assert_int_equal(dist_next(&a), dist_scatter(&b, dist_next_rank(&b)));
		}
	}
}

static void test_dist_zoned_shares_within_4_sigma_and_uniform_inside(void **state)
{
	static const double access[] = { 0.5, 0.3, 0.2 };
	static struct distgen g;
	const uint64_t n = 100000, draws = 1000000;
	uint64_t zone_count[3] = { 0 }, *in[3];

	(void)state;
	dist_ok(&g, "zoned:50/5:30/15:20/80", n, 4096, 9);
	assert_int_equal(g.nz, 3);
	for (unsigned z = 0; z < 3; z++)
		in[z] = calloc(50, sizeof(uint64_t));
	for (uint64_t k = 0; k < draws; k++) {
		uint64_t x = dist_next(&g);
		unsigned z = x < 5000 ? 0 : x < 20000 ? 1 : 2;

		zone_count[z]++;
		in[z][(x - g.zstart[z]) * 50 / g.zlen[z]]++;
	}
	for (unsigned z = 0; z < 3; z++) {
		double want = draws * access[z], sd = sqrt(draws * access[z] * (1 - access[z]));
		double chi = 0, e = (double)zone_count[z] / 50;

		print_message("[ zone     ] %u: %llu draws, want %.0f +- %.0f (4 sigma)\n", z,
			      (unsigned long long)zone_count[z], want, 4 * sd);
		assert_true(fabs((double)zone_count[z] - want) <= 4 * sd);
		for (unsigned b = 0; b < 50; b++)
			chi += ((double)in[z][b] - e) * ((double)in[z][b] - e) / e;
		print_message("[ chi2     ] zone %u inside: %.1f, 49 degrees of freedom, 0.999 critical value %.1f\n",
			      z, chi, chi2_critical(49, Z_0999));
		assert_true(chi < chi2_critical(49, Z_0999));
		free(in[z]);
	}
}

static void test_dist_parse_and_format_round_trip(void **state)
{
	static const struct { const char *text, *canon; } cases[] = {
		{ "uniform", "uniform" },
		{ "random", "uniform" },
		{ "zipf:1.2", "zipf:1.2" },
		{ "zipf:0.8", "zipf:0.8" },
		{ "pareto:0.2", "pareto:0.2" },
		{ "normal:10", "normal:10%" },
		{ "normal:2.5%", "normal:2.5%" },
		{ "zoned:50/5:50/95", "zoned:50/5:50/95" },
		{ "zoned:50/5:30/15:20/80", "zoned:50/5:30/15:20/80" },
		{ "zoned:33.33/10:66.67/90", "zoned:33.33/10:66.67/90" },
		{ "zoned:50/5:30/15:20/", "zoned:50/5:30/15:20/80" },     /* fio's examples/rand-zones.fio */
		{ "zoned:50/5:25/:25/", "zoned:50/5:25/47.5:25/47.5" },
		{ "zoned:40/:30/:30/", "zoned:40/33.34:30/33.33:30/33.33" },
		{ "zoned_abs:60/20g:40/80g", "zoned_abs:60/20g:40/80g" },
		{ "zoned_abs:60/20480m:40/1048576k", "zoned_abs:60/20g:40/1g" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct dist_spec a, b;
		char buf[256], err[256] = "";

		if (dist_parse(&a, cases[i].text, err, sizeof(err)))
			fail_msg("'%s' refused: %s", cases[i].text, err);
		assert_int_equal(dist_format(&a, buf, sizeof(buf)), (int)strlen(cases[i].canon));
		assert_string_equal(buf, cases[i].canon);
		assert_int_equal(dist_parse(&b, buf, err, sizeof(err)), 0);
		assert_memory_equal(&a, &b, sizeof(a));
	}
}

static void test_dist_parse_refuses_bad_inputs_naming_the_problem(void **state)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "zipf:1", "'zipf:1': expected zipf:THETA with THETA above 0 and not 1" },
		{ "zipf:0", "above 0 and not 1" },
		{ "zipf:", "'zipf:': not a plain decimal" },
		{ "zipf:1.2x", "'zipf:1.2x': trailing text" },
		{ "zipf:1e3", "exponents are not accepted" },
		{ "pareto:1", "'pareto:1': expected pareto:H with H above 0 and below 1" },
		{ "pareto:0", "above 0 and below 1" },
		{ "normal:0", "'normal:0': expected normal:SIGMA%" },
		{ "normal:101", "at most 100" },
		{ "zoned:50/5:40/95", "'zoned:50/5:40/95': the access percents sum to 90%, not 100%" },
		{ "zoned:50/5:50/90", "the range percents sum to 95%, not 100%" },
		{ "zoned:50/0:50/100", "'50/0': a zone of 0% of the range" },
		{ "zoned:50/100:50/", "range percents sum to 100%, leaving nothing for the zones with none" },
		{ "zoned:50/60:50/60", "the range percents sum to 120%, not 100%" },
		{ "zoned:50:50/100", "'50': expected ACCESS%/RANGE%" },
		{ "zoned:50/5x:50/95", "'50/5x': expected ACCESS%/RANGE%" },
		{ "zoned_abs:60/0:40/1g", "'60/0': a zone of 0 bytes" },
		{ "zoned_abs:60/1q:40/1g", "'60/1q': '1q': unknown size suffix" },
		{ "zoned_abs:60/1g:30/1g", "sum to 90%" },
		{ "gauss", "'gauss': expected uniform, zipf:THETA" },
		{ "", "expected uniform" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct dist_spec d;
		char err[256] = "";

		assert_int_equal(dist_parse(&d, cases[i].text, err, sizeof(err)), -EINVAL);
		if (!strstr(err, cases[i].msg))
			fail_msg("'%s': message '%s' lacks '%s'", cases[i].text, err, cases[i].msg);
	}
}

static void test_dist_init_refuses_what_the_range_cannot_hold(void **state)
{
	static const struct { const char *text; uint64_t n, unit; const char *msg; } cases[] = {
		{ "zoned_abs:60/1m:40/4m", 1024, 4096, "cover 5242880 bytes, more than the range's 4194304" },
		{ "zoned:50/0.01:50/99.99", 100, 4096, "zone 1 (50% of the accesses) holds none" },
		{ "uniform", 0, 4096, "empty range" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		static struct distgen g;
		struct dist_spec d;
		char err[256] = "";

		assert_int_equal(dist_parse(&d, cases[i].text, err, sizeof(err)), 0);
		assert_int_equal(dist_init(&g, &d, cases[i].n, cases[i].unit, 1, err, sizeof(err)), -EINVAL);
		if (!strstr(err, cases[i].msg))
			fail_msg("'%s': message '%s' lacks '%s'", cases[i].text, err, cases[i].msg);
	}
}

/* zoned_abs zones short of the end: the rest of the range is never drawn. */
static void test_dist_zoned_abs_leaves_the_rest_alone(void **state)
{
	static struct distgen g;

	(void)state;
	dist_ok(&g, "zoned_abs:70/64k:30/64k", 1000, 4096, 3);
	for (int k = 0; k < 100000; k++)
		assert_true(dist_next(&g) < 32);
	assert_true(dist_pmf_rank(&g, 40) == 0);
	assert_true(fabs(dist_pmf_rank(&g, 0) - 0.7 / 16) < 1e-15);
}

/* ---- permgen -------------------------------------------------------------------------------- */

static void test_permgen_visits_every_index_once_per_pass(void **state)
{
	static const uint64_t ns[] = { 1, 2, 3, 5, 1000, 4096, 65537, 1000000 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ns); i++) {
		uint64_t n = ns[i], *first = malloc(n * sizeof(uint64_t)), adjacent = 0, fixed = 0;
		uint8_t *seen = malloc(n);
		bool differ = false;
		struct permgen g;

		assert_non_null(first);
		assert_non_null(seen);
		permgen_init(&g, n, 77);
		for (int pass = 0; pass < 8; pass++) {
			memset(seen, 0, n);
			for (uint64_t k = 0; k < n; k++) {
				uint64_t x = permgen_next(&g);

				if (x >= n || seen[x])
					fail_msg("n %llu pass %d draw %llu: %llu %s", (unsigned long long)n, pass,
						 (unsigned long long)k, (unsigned long long)x,
						 x >= n ? "outside the range" : "drawn twice");
				seen[x] = 1;
				if (pass == 0) {
					first[k] = x;
					adjacent += k && (x == first[k - 1] + 1 || x + 1 == first[k - 1]);
					fixed += x == k;
				} else {
					differ |= first[k] != x;
				}
			}
		}
		if (n >= 3)
			assert_true(differ);
		if (n >= 1000) {
			print_message("[ permgen  ] n %llu: %llu adjacent, %llu fixed points in the first pass\n",
				      (unsigned long long)n, (unsigned long long)adjacent, (unsigned long long)fixed);
			assert_true(adjacent * 100 < n);
			assert_true(fixed * 100 < n);
		}
		free(first);
		free(seen);
	}
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void test_permgen_large_range_draws_are_distinct(void **state)
{
	const uint64_t n = (1ull << 40) + 7, draws = 200000;
	uint64_t *x = malloc(draws * sizeof(uint64_t));
	struct permgen a, b;
	unsigned differ = 0;

	(void)state;
	assert_non_null(x);
	permgen_init(&a, n, 1);
	permgen_init(&b, n, 2);
	for (uint64_t k = 0; k < draws; k++) {
		x[k] = permgen_next(&a);
		assert_true(x[k] < n);
		differ += x[k] != permgen_next(&b);
	}
	assert_true(differ > draws - 10);
	qsort(x, draws, sizeof(uint64_t), u64_cmp);
	for (uint64_t k = 1; k < draws; k++)
		assert_true(x[k] != x[k - 1]);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bssplit_parses_good_inputs),
		cmocka_unit_test(test_bssplit_refuses_bad_inputs_naming_the_problem),
		cmocka_unit_test(test_bssplit_format_round_trips),
		cmocka_unit_test(test_bssplit_mean_is_exact),
		cmocka_unit_test(test_bsgen_one_deck_has_the_shares_exactly),
		cmocka_unit_test(test_bsgen_counts_stay_within_one_deck_of_the_shares),
		cmocka_unit_test(test_bsgen_order_is_random_and_not_periodic),
		cmocka_unit_test(test_bsgen_no_split_gives_index_0),
		cmocka_unit_test(test_dist_ranks_fit_the_exact_pmf),
		cmocka_unit_test(test_dist_zipf_head_fits_over_2_to_the_40),
		cmocka_unit_test(test_dist_binned_sampler_fits_at_bin_edges),
		cmocka_unit_test(test_dist_steep_laws_fall_back_and_fit),
		cmocka_unit_test(test_dist_chi_square_detects_a_slightly_wrong_law),
		cmocka_unit_test(test_dist_scatter_is_a_bijection_inside_the_range),
		cmocka_unit_test(test_dist_scatter_of_large_ranges_matches_128_bit_arithmetic),
		cmocka_unit_test(test_dist_next_is_the_scattered_rank),
		cmocka_unit_test(test_dist_zoned_shares_within_4_sigma_and_uniform_inside),
		cmocka_unit_test(test_dist_parse_and_format_round_trip),
		cmocka_unit_test(test_dist_parse_refuses_bad_inputs_naming_the_problem),
		cmocka_unit_test(test_dist_init_refuses_what_the_range_cannot_hold),
		cmocka_unit_test(test_dist_zoned_abs_leaves_the_rest_alone),
		cmocka_unit_test(test_permgen_visits_every_index_once_per_pass),
		cmocka_unit_test(test_permgen_large_range_draws_are_distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
