// SPDX-License-Identifier: MIT
/*
 * fio's workload vocabulary onto ssdbench's, for fiojob.c: bssplit, random_distribution,
 * percentage_random, the random map, dedupe_percentage and buffer_pattern (docs/import.md#job-options).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fiojob.h"

#define FIO_SPLIT_MAX 64   /* fio's BSSPLIT_MAX: entries of one direction's list */

/* job_set with the value as text; a refusal names fio's option. */
static int set_from(struct fjob *f, const char *opt, const char *value, const char *name, const char *text)
{
	char e[200];

	if (!job_set(&f->j, name, text, e, sizeof(e)))
		return 0;
	return fiojob_fail(f, "%s=%s: %s", opt, value, e);
}

/*
 * One direction's part of an option of fio's per-direction form (READ,WRITE,TRIM), into buf: as
 * fio's str_split_parse reads it, one list applies to all, and with two the writes' applies to trims.
 */
static void dir_part(const char *v, unsigned dir, char *buf, size_t len)
{
	const char *p = v, *c;

	for (unsigned i = 0; i < dir; i++) {
		if (!(c = strchr(p, ',')))
			break;   /* no more parts: the last applies */
		p = c + 1;
	}
	c = strchr(p, ',');
	snprintf(buf, len, "%.*s", (int)(c ? (size_t)(c - p) : strlen(p)), p);
}

/*
 * The value of a per-direction option for the directions the job has: the reads', the writes', or
 * for a mix the one both share. -EINVAL (the job's error) where a mix's differ.
 */
static int dir_value(struct fjob *f, const char *opt, const char *shown, const char *v, char *buf, size_t len)
{
	char r[256], w[256];

	dir_part(v, 0, r, sizeof(r));
	dir_part(v, 1, w, sizeof(w));
	if (job_reads(&f->j) && job_writes(&f->j) && strcmp(r, w))
		return fiojob_fail(f, "%s=%s: reads and writes differ, and ssdbench has one for both", opt, shown);
	snprintf(buf, len, "%s", job_reads(&f->j) ? r : w);
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/*
 * One direction's bssplit list, as fio's bssplit_ddir reads it: SIZE/PCT entries, a missing or 0
 * PCT sharing what the others leave (whole percents, fio's integer division), a PCT above 100 read as
 * 100. Written with the shares fio gives into out (bytes/percent), the smallest size into *min.
 * Exact only where the shares add up to 100 and every size is a multiple of the smallest (fio
 * rounds the others down to it): else the job's error.
 */
static int split_text(struct fjob *f, const char *v, const char *list, char *out, size_t len, uint64_t *min)
{
	uint64_t size[FIO_SPLIT_MAX];
	unsigned pct[FIO_SPLIT_MAX], n = 0, sum = 0, missing = 0;
	char buf[1024], *save = NULL, *tok, *slash;
	size_t o = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	*min = UINT64_MAX;
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (n == FIO_SPLIT_MAX)
			return fiojob_fail(f, "bssplit=%s: more than %d sizes", v, FIO_SPLIT_MAX);
		if ((slash = strchr(tok, '/')))
			*slash++ = '\0';
		if (fiojob_size(tok, &size[n]) || !size[n])
			return fiojob_fail(f, "bssplit=%s: '%s' is not a request size", v, tok);
		if (slash && *slash && !all_digits(slash))
			return fiojob_fail(f, "bssplit=%s: '%s' is not a whole percent (fio reads whole percents)", v,
					   slash);
		pct[n] = slash && *slash ? (unsigned)atoi(slash) : 0;   /* 0: shares the rest, as fio */
		pct[n] = pct[n] > 100 ? 100 : pct[n];
		missing += !pct[n];
		sum += pct[n];
		*min = size[n] < *min ? size[n] : *min;
		n++;
	}
	if (!n)
		return fiojob_fail(f, "bssplit=%s: a direction without sizes (fio gives it bs) is not mapped", v);
	for (unsigned i = 0; i < n; i++) {
		if (!pct[i])
			pct[i] = missing == 1 && n == 1 ? 100 : (sum < 100 ? 100 - sum : 0) / missing;
	}
	for (unsigned i = 0, total = 0; i < n; i++) {
		total += pct[i];
		if (i == n - 1 && total != 100)
			return fiojob_fail(f, "bssplit=%s: the shares fio gives add up to %u%%, not 100%% (fio "
					   "gives the rest to one size by its order), which ssdbench cannot say", v,
					   total);
	}
	for (unsigned i = 0; i < n; i++)
		if (!pct[i] && size[i] == *min)
			return fiojob_fail(f, "bssplit=%s: %llu has no share left, yet fio aligns to it as the "
					   "smallest size", v, (unsigned long long)size[i]);
	for (unsigned i = 0; i < n; i++) {
		if (size[i] % *min)
			return fiojob_fail(f, "bssplit=%s: %llu is not a multiple of the smallest size %llu (fio "
					   "rounds it down to one)", v, (unsigned long long)size[i],
					   (unsigned long long)*min);
		if (pct[i])
			o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%llu/%u", o ? ":" : "",
					      (unsigned long long)size[i], pct[i]);
	}
	return o < len ? 0 : fiojob_fail(f, "bssplit=%s: too long", v);
}

/*
 * bssplit (fio's READ,WRITE,TRIM lists): the reads' list as bssplit, the writes' as bssplit_write
 * where a mix's differ; a trim list is not used, as the job does not trim. bs becomes the smallest
 * size, as a run resolves it. A random mix whose directions' smallest sizes differ is refused: fio
 * aligns each direction's offsets to its own smallest size, ssdbench to the job's.
 */
int fiovocab_bssplit(struct fjob *f, const char *v)
{
	char r[256], w[256], rt[1024], wt[1024];
	uint64_t rmin = 0, wmin = 0;
	bool reads = job_reads(&f->j), writes = job_writes(&f->j);
	bool random = f->j.rw == RW_RANDREAD || f->j.rw == RW_RANDWRITE || f->j.rw == RW_RANDMIX;

	dir_part(v, 0, r, sizeof(r));
	dir_part(v, 1, w, sizeof(w));
	if ((reads && split_text(f, v, r, rt, sizeof(rt), &rmin)) ||
	    (writes && split_text(f, v, w, wt, sizeof(wt), &wmin)))
		return -EINVAL;
	if (strchr(v, ',') && strchr(strchr(v, ',') + 1, ','))
		fiojob_note(f->notes, "bssplit=%s: the trims' list is not used (the job does not trim)", v);
	if (reads && writes && strcmp(rt, wt) && random && rmin != wmin)
		return fiojob_fail(f, "bssplit=%s: a random mix whose reads and writes have different smallest "
				   "sizes (fio aligns each direction to its own, ssdbench to the job's)", v);
	if (fiojob_opt(f, "bs") || fiojob_opt(f, "blocksize"))
		fiojob_note(f->notes, "bs=%s: not used, as bssplit gives the sizes (as in fio)",
			    fiojob_opt(f, "bs") ?: fiojob_opt(f, "blocksize"));
	if (set_from(f, "bssplit", v, "bssplit", reads ? rt : wt) ||
	    (reads && writes && strcmp(rt, wt) && set_from(f, "bssplit", v, "bssplit_write", wt)))
		return -EINVAL;
	f->j.bs = reads && writes ? (rmin < wmin ? rmin : wmin) : reads ? rmin : wmin;
	return 0;
}

/*
 * One direction's zones, as fio's zone_split_ddir reads them (whole percents; an empty or 0 range
 * percent shares what the others leave, by integer division), into out: A/R or A/BYTES entries.
 */
static int zoned_text(struct fjob *f, const char *v, const char *list, bool abs, char *out, size_t len)
{
	char buf[1024], *save = NULL, *tok, *slash;
	unsigned acc[FIO_SPLIT_MAX], rng[FIO_SPLIT_MAX], n = 0, rsum = 0, missing = 0;
	uint64_t bytes[FIO_SPLIT_MAX];
	size_t o = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (n == FIO_SPLIT_MAX)
			return fiojob_fail(f, "random_distribution=%s: more than %d zones", v, FIO_SPLIT_MAX);
		slash = strchr(tok, '/');
		if (!slash || (abs && !slash[1]))
			return fiojob_fail(f, "random_distribution=%s: zone '%s' without its %s", v, tok,
					   abs ? "size" : "range percent");
		*slash++ = '\0';
		if (!all_digits(tok) || (!abs && *slash && !all_digits(slash)))
			return fiojob_fail(f, "random_distribution=%s: '%s/%s' is not in whole percents (fio "
					   "reads whole percents)", v, tok, slash);
		if (abs && (fiojob_size(slash, &bytes[n]) || !bytes[n]))
			return fiojob_fail(f, "random_distribution=%s: '%s' is not a size", v, slash);
		acc[n] = (unsigned)atoi(tok);
		rng[n] = abs ? 0 : (unsigned)atoi(slash);
		rng[n] = rng[n] > 100 ? 100 : rng[n];
		missing += !abs && !rng[n];   /* 0 shares the rest, as fio */
		rsum += rng[n];
		n++;
	}
	for (unsigned i = 0; !abs && i < n; i++)
		if (!rng[i])
			rng[i] = missing == 1 && n == 1 ? 100 : (rsum < 100 ? 100 - rsum : 0) / missing;
	for (unsigned i = 0; i < n; i++) {
		if (abs)
			o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%u/%llu", i ? ":" : "", acc[i],
					      (unsigned long long)bytes[i]);
		else
			o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%u/%u", i ? ":" : "", acc[i],
					      rng[i]);
	}
	return o < len ? 0 : fiojob_fail(f, "random_distribution=%s: too long", v);
}

/* zipf, pareto: THETA or H, fio's default where none is given; a center has no ssdbench equivalent. */
static int skew_text(struct fjob *f, const char *v, const char *kind, const char *arg, const char *def,
		     char *out, size_t len)
{
	char *end;

	if (arg && strchr(arg, ':'))
		return fiojob_fail(f, "random_distribution=%s: a center (the hot spot's place) has no ssdbench "
				   "equivalent (ssdbench scatters the ranks over the range)", v);
	if (arg && (strtod(arg, &end), end == arg || *end))
		return fiojob_fail(f, "random_distribution=%s: '%s' is not a number", v, arg);
	snprintf(out, len, "%s:%s", kind, arg ?: def);
	return 0;
}

/*
 * random_distribution: random as uniform, zipf:THETA and pareto:H (fio's defaults 1.1 and 0.2 where
 * no value is given; no center), zoned:A/R:... with fio's resolved range percents, zoned_abs:A/SIZE:...
 * in bytes. fio's normal is not a Gaussian of sigma DEV% (the mean of 12 uniform draws plus a uniform
 * offset DEV% wide), and sequence has no equivalent: both refused.
 */
static int map_distribution(struct fjob *f, bool random)
{
	const char *v = fiojob_opt(f, "random_distribution");
	char part[256], text[1200];
	const char *arg;
	int ret;

	if (!v)
		return 0;
	if (!random) {
		fiojob_note(f->notes, "random_distribution=%s: not used (rw=%s is sequential, as fio does)", v,
			    fiojob_opt(f, "rw") ?: fiojob_opt(f, "readwrite") ?: "read");
		return 0;
	}
	if (!strncmp(v, "zoned:", 6) || !strncmp(v, "zoned_abs:", 10)) {
		bool abs = v[5] == '_';

		if (dir_value(f, "random_distribution", v, v + (abs ? 10 : 6), part, sizeof(part)) ||
		    zoned_text(f, v, part, abs, text + (abs ? 10 : 6), sizeof(text) - 10))
			return -EINVAL;
		memcpy(text, abs ? "zoned_abs:" : "zoned:", abs ? 10 : 6);
		return set_from(f, "random_distribution", v, "distribution", text);
	}
	arg = strchr(v, ':') ? strchr(v, ':') + 1 : NULL;
	if (!strcmp(v, "random"))
		ret = (snprintf(text, sizeof(text), "uniform"), 0);
	else if (!strncmp(v, "zipf", 4) && (!v[4] || v[4] == ':'))
		ret = skew_text(f, v, "zipf", arg, "1.1", text, sizeof(text));
	else if (!strncmp(v, "pareto", 6) && (!v[6] || v[6] == ':'))
		ret = skew_text(f, v, "pareto", arg, "0.2", text, sizeof(text));
	else if (!strncmp(v, "normal", 6) || !strncmp(v, "gauss", 5))
		return fiojob_fail(f, "random_distribution=%s: fio's normal is the mean of 12 uniform draws plus a "
				   "uniform offset DEV%% of the range wide, not ssdbench's Gaussian of sigma DEV%%", v);
	else
		return fiojob_fail(f, "random_distribution=%s has no ssdbench distribution", v);
	return ret ? ret : set_from(f, "random_distribution", v, "distribution", text);
}

/* percentage_random (per direction, as bs): the job's directions' value, where a mix's agree. */
static int map_pct_random(struct fjob *f, bool random)
{
	const char *v = fiojob_opt(f, "percentage_random");
	char part[64];

	if (!v)
		return 0;
	if (!random) {
		fiojob_note(f->notes, "percentage_random=%s: not used (the pattern is sequential, as fio does)", v);
		return 0;
	}
	if (dir_value(f, "percentage_random", v, v, part, sizeof(part)))
		return -EINVAL;
	if (!*part)
		return 0;   /* fio's default for that direction: 100 */
	if (!all_digits(part))
		return fiojob_fail(f, "percentage_random=%s: not a percentage", v);
	return set_from(f, "percentage_random", v, "percentage_random", atoi(part) > 100 ? "100" : part);
}

/* Why fio's random map cannot be said here, or NULL where randommap=true says it. */
static const char *map_unsaid(struct fjob *f)
{
	if (f->j.threads > 1)
		return "each of fio's numjobs jobs keeps its own map over the whole span, and ssdbench's threads "
		       "take disjoint slices";
	if (f->j.bssplit.n > 1 || f->j.bssplit_write.n)
		return "with several sizes fio's map shortens requests that overlap blocks already done, and "
		       "ssdbench's lays a pass out in decks of the split";
	if (f->j.pct_random < 100)
		return "ssdbench's randommap takes no percentage_random";
	return NULL;
}

/*
 * fio's random map (docs: norandommap; init.c): on for random patterns unless norandommap, a
 * random_distribution other than random, or a blockalign other than the smallest size turns it off;
 * random_generator=lfsr covers every block once per cycle without one, norandommap or not (for one
 * size: with several, fio says some blocks may be done twice). Where it is on and
 * ssdbench's randommap means the same (one thread, one size, every request random), randommap=true;
 * where it is on and cannot be said, unmapped lists norandommap=0 and the notes say why.
 */
static int map_randommap(struct fjob *f, bool random)
{
	const char *nrm = fiojob_opt(f, "norandommap"), *gen = fiojob_opt(f, "random_generator"), *why;
	bool lfsr = gen && !strcmp(gen, "lfsr");   /* its offsets whether or not norandommap (io_u.c) */

	if (!random || (nrm && strcmp(nrm, "0") && strcasecmp(nrm, "false") && !lfsr) ||
	    f->j.dist.kind != DIST_UNIFORM || fiojob_opt(f, "blockalign") || fiojob_opt(f, "ba"))
		return 0;
	if (!(why = map_unsaid(f)))
		return job_set(&f->j, "randommap", "true", f->err, sizeof(f->err)) ? -EINVAL : 0;
	fiojob_note(f->unmapped, "norandommap=0");
	fiojob_note(f->notes, "fio's random map (every block once per pass, its default for a random job) is not "
		    "in the job: %s", why);
	return 0;
}

int fiovocab_map(struct fjob *f)
{
	bool random = f->j.rw == RW_RANDREAD || f->j.rw == RW_RANDWRITE || f->j.rw == RW_RANDMIX;

	if (map_distribution(f, random) || map_pct_random(f, random) || map_randommap(f, random))
		return -EINVAL;
	return 0;
}

/*
 * dedupe_percentage: ssdbench's dedupe (the share of written 4 KiB blocks that repeat an earlier one
 * of the thread), fio's the share of write buffers that repeat an earlier one: the same share where
 * every request is whole 4 KiB blocks, with dedupe_mode=repeat (fio's default) and no dedupe_global.
 */
int fiovocab_dedupe(struct fjob *f)
{
	const char *v = fiojob_opt(f, "dedupe_percentage"), *mode = fiojob_opt(f, "dedupe_mode");
	const char *glob = fiojob_opt(f, "dedupe_global");
	const struct bssplit *sp[2] = { &f->j.bssplit, &f->j.bssplit_write };

	if (!v || !strcmp(v, "0"))
		return 0;
	if (!job_writes(&f->j)) {
		fiojob_note(f->notes, "dedupe_percentage=%s: not used (the job writes nothing)", v);
		return 0;
	}
	if (mode && strcmp(mode, "repeat"))
		return fiojob_fail(f, "dedupe_percentage=%s with dedupe_mode=%s: ssdbench repeats earlier blocks of "
				   "the thread (fio's repeat)", v, mode);
	if (glob && strcmp(glob, "0") && strcasecmp(glob, "false"))
		return fiojob_fail(f, "dedupe_percentage=%s with dedupe_global=%s: ssdbench repeats blocks of the "
				   "same thread only", v, glob);
	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = 0; i < sp[k]->n; i++)
			if (sp[k]->size[i] % 4096)
				return fiojob_fail(f, "dedupe_percentage=%s: fio repeats whole requests, ssdbench 4 KiB "
						   "blocks; the same share only where every size is whole 4 KiB "
						   "blocks (not %u)", v, sp[k]->size[i]);
	if (!sp[0]->n && !sp[1]->n && f->j.bs % 4096)
		return fiojob_fail(f, "dedupe_percentage=%s: fio repeats whole requests, ssdbench 4 KiB blocks; the "
				   "same share only where bs is whole 4 KiB blocks (not %llu)", v, (unsigned long long)f->j.bs);
	return set_from(f, "dedupe_percentage", v, "dedupe", v);
}

/*
 * buffer_pattern: a plain hex pattern (0x...: fio writes its bytes in that order, from the start of
 * every buffer) as data=pattern:HEX, where its length divides 512 so that ssdbench's blocks and fio's
 * buffers (whole 512-byte sectors) repeat it alike. Strings, files, decimals and mixes are refused.
 */
int fiovocab_pattern(struct fjob *f, char *out, size_t len)
{
	const char *v = fiojob_opt(f, "buffer_pattern");
	size_t n;

	if (strncasecmp(v, "0x", 2) || !(n = strlen(v + 2)) || strspn(v + 2, "0123456789abcdefABCDEF") != n)
		return fiojob_fail(f, "buffer_pattern=%s: only a plain hex pattern (0x...) has an ssdbench "
				   "equivalent (data=pattern:HEX), not strings, files, numbers or mixes", v);
	if (n % 2 || 512 % (n / 2))
		return fiojob_fail(f, "buffer_pattern=%s: %zu bytes%s; ssdbench repeats a pattern whose length "
				   "divides 512 alike", v, (n + 1) / 2, n % 2 ? " (an odd count of digits)" : "");
	snprintf(out, len, "pattern:%s", v + 2);
	return 0;
}
