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

#endif
