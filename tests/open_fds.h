/* SPDX-License-Identifier: MIT */
/* For tests that a failed write leaves no descriptor open: how many this process holds. */
#ifndef SSDBENCH_TESTS_OPEN_FDS_H
#define SSDBENCH_TESTS_OPEN_FDS_H

#include <dirent.h>
#include <stddef.h>

static inline size_t open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

#endif
