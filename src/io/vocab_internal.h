/* SPDX-License-Identifier: MIT */
/* The helpers vocab.c lends vocab_dist.c: the parsers' percent reader, formatter and messages. */
#ifndef SSDBENCH_VOCAB_INTERNAL_H
#define SSDBENCH_VOCAB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/*
 * A percent at the start of s, 0..100 with at most two decimals, in hundredths (12.5 -> 1250); *end
 * past it. Returns 0, -ERANGE for a third decimal, -EDOM above 100, else parse_decimal's error.
 */
int vocab_hundredths(const char *s, const char **end, uint32_t *v);
/* Hundredths of a percent as the parsers read them back ("67", "10.5", "0.25"); as snprintf. */
int vocab_format_hundredths(char *buf, size_t len, uint32_t v);
/* "'<s>': <what>" into err (s quoted short); returns -EINVAL. */
int vocab_bad(char *err, size_t errlen, const char *s, const char *what);
/* The text of s up to one of stops (or the end) into buf, *end at the stop; -ERANGE if it is too long. */
int vocab_field(const char *s, const char *stops, char *buf, size_t len, const char **end);

#endif
