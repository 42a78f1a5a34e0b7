// SPDX-License-Identifier: MIT
/*
 * store: the database argument, --where and its times, the schema made and migrated on an in-memory
 * SQLite database, a run stored once however often it is put, and read back as its document.
 */
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "store.h"

static void test_store_db_parse_names_the_backend(void **state)
{
	struct store_db db;

	(void)state;
	assert_true(store_db_parse("sqlite:results.db", &db));
	assert_ptr_equal(db.ops, &store_sqlite_ops);
	assert_string_equal(db.where, "results.db");
	assert_true(store_db_parse("postgresql://u@h/db", &db));
	assert_ptr_equal(db.ops, &store_pg_ops);
	assert_string_equal(db.where, "postgresql://u@h/db");
	assert_true(store_db_parse("postgres:///db?host=/tmp", &db));
	assert_ptr_equal(db.ops, &store_pg_ops);
	assert_false(store_db_parse("results/", &db));
	assert_false(store_db_parse("results.db", &db));   /* a plain file: the caller decides */
	assert_false(store_db_parse("mysql://x", &db));
}

static void test_store_parse_time_rfc3339_and_dates(void **state)
{
	double t;

	(void)state;
	assert_int_equal(store_parse_time("1970-01-01", &t), 0);
	assert_true(t == 0);
	assert_int_equal(store_parse_time("2026-11-23T22:05:28.903Z", &t), 0);
	assert_true(fabs(t - 1795471528.903) < 1e-6);
	assert_int_equal(store_parse_time("2026-11-23T23:05:28.903+01:00", &t), 0);
	assert_true(fabs(t - 1795471528.903) < 1e-6);
	assert_int_equal(store_parse_time("2000-02-29", &t), 0);
	assert_true(t == 951782400);
	assert_int_equal(store_parse_time("yesterday", &t), -EINVAL);
	assert_int_equal(store_parse_time("2026-13-01", &t), -EINVAL);
	assert_int_equal(store_parse_time("2026-11-23T22:05", &t), -EINVAL);
	assert_int_equal(store_parse_time("2026-11-23T22:05:28", &t), -EINVAL);   /* no zone: ambiguous */
	assert_int_equal(store_parse_time("2026-11-23Tx", &t), -EINVAL);
}

static void test_store_where_keys_values_and_errors(void **state)
{
	struct store_filter f = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(store_where_add(&f, "firmware=FW-A", err, sizeof(err)), 0);
	assert_int_equal(store_where_add(&f, "model=ACME X1", err, sizeof(err)), 0);
	assert_int_equal(store_where_add(&f, "since=2026-01-01", err, sizeof(err)), 0);
	assert_int_equal(store_where_add(&f, "drive=S123=x", err, sizeof(err)), 0);
	assert_int_equal(f.n, 4);
	assert_int_equal(f.terms[0].key, SK_FIRMWARE);
	assert_string_equal(f.terms[1].value, "ACME X1");
	assert_int_equal(f.terms[2].key, SK_SINCE);
	assert_true(f.terms[2].t == 1767225600);
	assert_string_equal(f.terms[3].value, "S123=x");
	assert_int_equal(store_where_add(&f, "colour=red", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "unknown key 'colour'"));
	assert_int_equal(store_where_add(&f, "firmware", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "expected KEY=VALUE"));
	assert_int_equal(store_where_add(&f, "=x", err, sizeof(err)), -EINVAL);
	assert_int_equal(store_where_add(&f, "until=soon", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "RFC 3339"));
	assert_int_equal(f.n, 4);
	store_filter_release(&f);
	assert_int_equal(f.n, 0);
}

static int count_row(void *arg, const char *const *col, const size_t *len, int ncol)
{
	(void)len;
	assert_true(ncol >= 1);
	*(long *)arg = strtol(col[0], NULL, 10);
	return 0;
}

static long count(struct store *st, const char *sql)
{
	char err[256];
	long n = -1;

	assert_int_equal(st->ops->run(st, sql, NULL, 0, count_row, &n, err, sizeof(err)), 0);
	return n;
}

static json_t *doc(const char *serial, const char *fw, double iops)
{
	json_t *d = json_pack("{s:s, s:i, s:s, s:s, s:{s:s}, s:{s:s, s:s, s:s, s:s, s:s}, s:{s:s, s:i}, "
			      "s:{s:{s:i, s:f, s:{s:{s:i, s:i}}}, s:{s:i, s:[i, i], s:[f, f], s:[f, f]}}}",
			      "schema", "ssdbench-result", "schema_version", 1, "started_at", "2026-11-23T22:05:28.903Z",
			      "status", "ok", "host", "hostname", "vm",
			      "target", "path", "/dev/nvme0n1", "kind", "block", "serial", serial, "model", "ACME X1",
			      "firmware", fw,
			      "job", "rw", "randread", "bs", 4096,
			      "results", "read", "ios", 1000, "iops", iops, "lat_ns", "percentiles", "99.9", 900,
			      "99.99", 1200, "timeseries", "interval_ns", 500000000, "iops", 1, 2, "bw_bytes", 1.0, 2.0,
			      "lat_mean_ns", 3.0, 4.0);

	assert_non_null(d);
	return d;
}

static void test_store_schema_made_once_runs_stored_once(void **state)
{
	struct store_db db = { .ops = &store_sqlite_ops, .where = ":memory:" };
	struct store st;
	char err[512];
	json_t *a = doc("S1", "FW-A", 100.5), *b = doc("S2", "FW-B", 200);

	(void)state;
	assert_int_equal(store_open(&st, &db, true, err, sizeof(err)), 0);
	assert_int_equal(count(&st, "SELECT version FROM ssdbench_schema"), STORE_SCHEMA_VERSION);
	assert_int_equal(store_put(&st, a, "a.json", err, sizeof(err)), 0);
	assert_int_equal(store_put(&st, b, "b.json", err, sizeof(err)), 0);
	assert_int_equal(store_put(&st, a, "a-copy.json", err, sizeof(err)), 0);
	assert_int_equal(st.added, 2);
	assert_int_equal(st.present, 1);
	assert_int_equal(count(&st, "SELECT count(*) FROM runs"), 2);
	assert_int_equal(count(&st, "SELECT count(*) FROM hosts"), 1);
	assert_int_equal(count(&st, "SELECT count(*) FROM drives WHERE ident IN ('S1@vm', 'S2@vm')"), 2);
	assert_int_equal(count(&st, "SELECT count(*) FROM timeseries"), 4);
	assert_int_equal(count(&st, "SELECT p9999_ns FROM op_stats o JOIN runs r ON r.id = o.run_id "
			 "WHERE r.firmware = 'FW-B' AND o.op = 'read'"), 1200);
	assert_int_equal(count(&st, "SELECT count(*) FROM runs WHERE typeof(started_s) = 'real' AND bs = 4096"), 2);
	assert_int_equal(store_close(&st, true, err, sizeof(err)), 0);
	json_decref(a);
	json_decref(b);
}

static void test_store_migrations_are_statements_of_every_table(void **state)
{
	static const char *const tables[] = {
		"hosts", "drives", "runs", "op_stats", "timeseries", "health", "verify", "search", "group_members",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		char want[64];

		snprintf(want, sizeof(want), "CREATE TABLE %s (", tables[i]);
		assert_non_null(strstr(store_migrations[0], want));
	}
	assert_non_null(strstr(store_migrations[1], "CREATE TABLE interval_lat ("));
	assert_non_null(strstr(store_migrations[1], "CREATE TABLE realized_sizes ("));
	assert_non_null(strstr(store_migrations[1], "CREATE TABLE realized_heat ("));
}

static void test_store_open_refuses_a_newer_schema(void **state)
{
	char path[] = "/tmp/test_store.XXXXXX";
	struct store_db db = { .ops = &store_sqlite_ops, .where = path };
	struct store st;
	char err[512];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(store_open(&st, &db, true, err, sizeof(err)), 0);
	assert_int_equal(st.ops->exec(&st, "UPDATE ssdbench_schema SET version = 99", err, sizeof(err)), 0);
	assert_int_equal(store_close(&st, true, err, sizeof(err)), 0);
	assert_int_equal(store_open(&st, &db, false, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "schema version 99 is newer"));
	assert_int_equal(store_open(&st, &db, true, err, sizeof(err)), -EINVAL);
	unlink(path);
}

/*
 * A database of version 1 (made here as version 2 less what migration 2 adds) is taken to version 2
 * by the next store: interval_lat and the runs' outlier columns, filled for the runs stored after.
 */
static void test_store_migrates_version_1_to_2(void **state)
{
	char path[] = "/tmp/test_store.XXXXXX";
	struct store_db db = { .ops = &store_sqlite_ops, .where = path };
	struct store st;
	char err[512];
	int fd = mkstemp(path);
	json_t *d = doc("S3", "FW-C", 300);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(store_open(&st, &db, true, err, sizeof(err)), 0);
	assert_int_equal(st.ops->exec(&st, "DROP TABLE interval_lat; DROP TABLE realized_sizes; DROP TABLE realized_heat;"
				      " ALTER TABLE runs DROP COLUMN outliers; ALTER TABLE runs DROP COLUMN outlier_threshold_ns;"
				      " ALTER TABLE runs DROP COLUMN sequential_share;"
				      " ALTER TABLE runs DROP COLUMN unique_blocks_written;"
				      " ALTER TABLE runs DROP COLUMN dedupe_ratio; ALTER TABLE runs DROP COLUMN compress_ratio;"
				      " UPDATE ssdbench_schema SET version = 1", err, sizeof(err)), 0);
	assert_int_equal(store_close(&st, true, err, sizeof(err)), 0);
	assert_int_equal(store_open(&st, &db, true, err, sizeof(err)), 0);
	assert_int_equal(count(&st, "SELECT version FROM ssdbench_schema"), 2);
	/* Two intervals of reads with their statistics, an outlier log. */
	assert_int_equal(json_object_set_new(json_object_get(json_object_get(d, "results"), "timeseries"), "read",
					     json_pack("{s:[i, i], s:[i, i], s:[i, i], s:[i, i], s:[i, i]}",
						       "lat_p50_ns", 10, 20, "lat_p99_ns", 30, 40, "lat_p999_ns", 50, 60,
						       "lat_p9999_ns", 70, 80, "lat_max_ns", 90, 5000)), 0);
	assert_int_equal(json_object_set_new(json_object_get(d, "results"), "outliers",
					     json_pack("{s:i, s:i, s:[]}", "threshold_ns", 1000, "count", 3, "first")), 0);
	/* What ran: two sizes of reads, two heat bins. */
	assert_int_equal(json_object_set_new(json_object_get(d, "results"), "realized",
					     json_pack("{s:{s:[{s:i, s:i}, {s:i, s:i}]}, s:{s:i, s:i, s:i, s:[i, i]},"
						       " s:f, s:i}", "bs_hist", "read", "bs", 4096, "ios", 600, "bs", 8192,
						       "ios", 400, "heat", "bins", 2, "bin_bytes", 1048576, "offset", 4096,
						       "read", 700, 300, "sequential_share", 0.25, "unique_blocks_written", 0)), 0);
	assert_int_equal(store_put(&st, d, "c.json", err, sizeof(err)), 0);
	assert_int_equal(count(&st, "SELECT sum(bs * ios) FROM realized_sizes WHERE op = 'read'"), 4096 * 600 + 8192 * 400);
	assert_int_equal(count(&st, "SELECT offset_bytes + ios FROM realized_heat WHERE bin = 1"), 4096 + 1048576 + 300);
	assert_int_equal(count(&st, "SELECT sequential_share * 100 FROM runs"), 25);
	assert_int_equal(count(&st, "SELECT count(*) FROM interval_lat WHERE stream = '' AND op = 'read'"), 2);
	assert_int_equal(count(&st, "SELECT max_ns FROM interval_lat WHERE i = 1"), 5000);
	assert_int_equal(count(&st, "SELECT sum(response_p99_ns IS NULL) FROM interval_lat"), 2);
	assert_int_equal(count(&st, "SELECT outliers * 10000 + outlier_threshold_ns FROM runs"), 31000);
	assert_int_equal(store_close(&st, true, err, sizeof(err)), 0);
	json_decref(d);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_db_parse_names_the_backend),
		cmocka_unit_test(test_store_parse_time_rfc3339_and_dates),
		cmocka_unit_test(test_store_where_keys_values_and_errors),
		cmocka_unit_test(test_store_schema_made_once_runs_stored_once),
		cmocka_unit_test(test_store_migrations_are_statements_of_every_table),
		cmocka_unit_test(test_store_open_refuses_a_newer_schema),
		cmocka_unit_test(test_store_migrates_version_1_to_2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
