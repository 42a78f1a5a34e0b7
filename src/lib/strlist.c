// SPDX-License-Identifier: MIT
/* Small helpers over NULL-terminated lists of strings and over JSON numbers (include/strlist.h). */
#include <math.h>
#include <string.h>

#include "strlist.h"

bool str_in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}
