/* SPDX-License-Identifier: MIT */
/*
 * The result document checked against schema_version 1, key by key: the C twin of
 * schema/ssdbench-result.schema.json, so that a reader refuses by name what the schema refuses.
 */
#ifndef SSDBENCH_RESULTCHECK_H
#define SSDBENCH_RESULTCHECK_H

#include <jansson.h>
#include <stddef.h>

/*
 * Checks root as schema/ssdbench-result.schema.json does: every object closed (an unknown key is an
 * error) with its required keys, every value of its type (integer means a JSON integer, without
 * fraction or exponent), enum or constant, bounds, string length and pattern, every array item, and
 * the schema's conditions between fields (results.steady_state where job.steady_state asks for it,
 * target.kind "none" exactly with the null engine, a message when status is not ok, ...). It does
 * not refuse a newer schema_version (result_check_schema does) nor check what the schema cannot say
 * (histogram counts against ios, min <= max: the reader does).
 *
 * Returns 0, or -EINVAL with the first problem in err as "PATH: problem", PATH the full key path
 * with array indexes: "results.timeseries.iops[0]: expected a number >= 0". Pure and thread-safe;
 * root is only read.
 */
int result_validate(const json_t *root, char *err, size_t errlen);

/* The largest ios a direction may hold: doubles hold every count exactly, and 1024 runs add within int64. */
#define RESULT_IOS_MAX (1ll << 53)
/* The largest magnitude of any number in a result: sums of thousands of them stay finite and exact enough. */
#define RESULT_NUM_MAX 9.2e18

/*
 * How far a stored rate may lie from its count over runtime_ns, relative to that quotient. The
 * writer prints reals to 12 significant digits (at most 5e-12 off); 1e-9 also takes a file saved
 * again at 10 digits (the precision of ssdbench's other JSON outputs), and lies far below any
 * digit a report shows.
 */
#define RESULT_RATE_TOLERANCE 1e-9

/*
 * What the schema cannot say, on a document result_validate accepted: the timestamps are real
 * calendar dates and times (RFC 3339: month 1..12, day within its month, leap years, 00..23 hours,
 * a leap second 60) with finished_at not before started_at; every number at most RESULT_NUM_MAX
 * in magnitude; in each direction ios at most RESULT_IOS_MAX and bytes = ios x job.bs; read and
 * write add up to total (ios and bytes); runtime_ns > 0 when there was I/O, and at most the time
 * from started_at to finished_at (plus 1 ms: the writer cuts both to milliseconds); in each
 * direction iops = ios x 1e9 / runtime_ns and bw_bytes = bytes x 1e9 / runtime_ns (0 when
 * runtime_ns is 0) within RESULT_RATE_TOLERANCE; the time series' three arrays of one length;
 * results.verify's mismatches the sum of its kinds, and its first mismatches at most that many, of
 * each kind at most as many as the kind counts.
 * Returns 0, or -EINVAL with "PATH: problem" in err.
 */
int result_check_values(const json_t *root, char *err, size_t errlen);

/* An RFC 3339 UTC timestamp (started_at, finished_at) as seconds since 1970-01-01; NAN if it is none. */
double result_time_s(const char *t);

#endif
