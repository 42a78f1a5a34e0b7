/* SPDX-License-Identifier: MIT */
/*
 * The message a lower layer hands back in its caller's buffer (`char *err, size_t errlen`), and the
 * -errno it returns with it, in one call.
 */
#ifndef SSDBENCH_ERRMSG_H
#define SSDBENCH_ERRMSG_H

#include <stddef.h>

/*
 * Formats the message into err (nothing when err is NULL or errlen 0; truncated to fit) and returns
 * ret, so that `return errmsg_set(err, errlen, -EINVAL, "...", ...);` fails with its reason.
 */
__attribute__((format(printf, 4, 5)))
int errmsg_set(char *err, size_t errlen, int ret, const char *fmt, ...);

#endif
