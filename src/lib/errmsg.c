// SPDX-License-Identifier: MIT
/* A lower layer's message into its caller's buffer (include/errmsg.h). */
#include <stdarg.h>
#include <stdio.h>

#include "errmsg.h"

int errmsg_set(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}
