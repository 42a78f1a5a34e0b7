// SPDX-License-Identifier: MIT
/* %r, %l, %h and %% in ssdbench-mpi's target and label templates. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rank_template.h"

int rank_expand(const char *tmpl, int rank, int local_rank, const char *host, char *out, size_t len,
		size_t *bad)
{
	size_t o = 0;

	if (!len)
		return -ENAMETOOLONG;
	for (const char *p = tmpl; *p; p++) {
		char num[24];
		const char *add = num;

		if (*p != '%') {
			num[0] = *p;
			num[1] = '\0';
		} else if (p[1] == 'r' || p[1] == 'l') {
			snprintf(num, sizeof(num), "%d", *++p == 'r' ? rank : local_rank);
		} else if (p[1] == 'h') {
			add = host;
			p++;
		} else if (p[1] == '%') {
			add = "%";
			p++;
		} else {
			if (bad)
				*bad = (size_t)(p - tmpl);
			return -EINVAL;
		}
		size_t n = strlen(add);

		if (o + n >= len)
			return -ENAMETOOLONG;
		memcpy(out + o, add, n);
		o += n;
	}
	out[o] = '\0';
	return 0;
}
