/* SPDX-License-Identifier: MIT */
/* Small helpers over NULL-terminated lists of strings and over JSON numbers, one home each. */
#ifndef SSDBENCH_STRLIST_H
#define SSDBENCH_STRLIST_H

#include <stdbool.h>

#include <jansson.h>

/* Whether s is one of the strings of list (NULL-terminated). */
bool str_in_list(const char *s, const char *const *list);

/* A JSON number for v, or null where v is not finite (NaN for "not measured", or an infinity). */
json_t *num_or_null(double v);

#endif
