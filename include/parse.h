/* SPDX-License-Identifier: MIT */
/* Parsers for the units of job parameters (README): sizes, durations, percents, amounts, booleans. */
#ifndef SSDBENCH_PARSE_H
#define SSDBENCH_PARSE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How an amount (span, offset, io_limit, fill) was given. */
enum amount_kind {
	AMOUNT_BYTES,    /* "4g", "4096" */
	AMOUNT_PERCENT,  /* "20%": of the target (span, offset, fill) or of the span (io_limit) */
	AMOUNT_MULTIPLE, /* "2x": multiple of the target's capacity (io_limit only) */
};

struct amount {
	enum amount_kind kind;
	uint64_t bytes;  /* AMOUNT_BYTES */
	double value;    /* AMOUNT_PERCENT (0..100) or AMOUNT_MULTIPLE (> 0) */
};

/*
 * Each parser returns 0 on success or -EINVAL with a message in err ("'4q': unknown size suffix 'q'";
 * the caller prefixes the parameter's name). Numbers may have a fraction ("1.5g") where the result is
 * a whole number of the unit's base. Leading/trailing white space is an error.
 */
/*
 * The one reader of a user's number: a plain decimal at the start of s, digits with an optional
 * fraction ("12", "2.5", ".5"); no sign, white space, exponent, hex, inf or nan. Sets *v and *end
 * (past the number). Returns 0, -EINVAL when s does not start with one, -EDOM when an exponent
 * follows ("1e3"), -ERANGE for 64 digits or more.
 */
int parse_decimal(const char *s, double *v, const char **end);
/* The problem of a parse_decimal return in words ("exponents are not accepted (...)"). */
const char *parse_decimal_error(int ret);
/*
 * The NN of a percentile name (p99, p99.99, lat_p99.9, latency_target's pNN<=...): a plain decimal
 * above 0 and below 100 with no leading zero before a digit ("099" and "00.5" are not names of a
 * percentile; "0.5" is). Sets *pct and *end as parse_decimal. Returns 0 or -EINVAL.
 */
int parse_percentile(const char *s, double *pct, const char **end);

/* Sizes: plain bytes or k m g t (powers of 1024, any case), optional "iB"/"B". */
int parse_size(const char *s, uint64_t *bytes, char *err, size_t errlen);
/* Durations: ns us ms s m h; a plain number is seconds. */
int parse_duration(const char *s, uint64_t *ns, char *err, size_t errlen);
/* Percent: "NN%" or "NN.N%", 0..100. */
int parse_percent(const char *s, double *pct, char *err, size_t errlen);
/* Amount: a size, a percent, or (allow_multiple) "Nx". */
int parse_amount(const char *s, bool allow_multiple, struct amount *a, char *err, size_t errlen);
/* Booleans: true/false, yes/no, on/off, 1/0. */
int parse_bool(const char *s, bool *b, char *err, size_t errlen);
/* Unsigned integer in [min, max], decimal. */
int parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *v, char *err, size_t errlen);

/* Formats bytes in the largest exact binary unit ("4k", "1m", "1536"), as parse_size reads back. */
void format_size(uint64_t bytes, char *buf, size_t len);
/* Formats a duration for humans ("1.50 ms", "12.0 us", "2m05s"). */
void format_duration(uint64_t ns, char *buf, size_t len);
/* A duration in the largest unit that holds it exactly ("2s", "1500us"), as parse_duration reads it. */
void format_duration_exact(uint64_t ns, char *buf, size_t len);
/*
 * A JSON scalar as a user writes it (the text job_set reads): strings as they are, integers, reals
 * to 17 digits, true and false. Returns false (buf untouched) for objects, arrays, null and NULL.
 */
bool format_json_scalar(const json_t *v, char *buf, size_t len);

#endif
