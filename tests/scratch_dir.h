/* SPDX-License-Identifier: MIT */
/*
 * For tests that need files of their own: a new directory under $TMPDIR (else /tmp) made by the group's
 * setup and removed with everything in it by its teardown, and paths in it.
 */
#ifndef SSDBENCH_TESTS_SCRATCH_DIR_H
#define SSDBENCH_TESTS_SCRATCH_DIR_H

#include <stdio.h>
#include <stdlib.h>

static char scratch_dir[256];

/* The group's setup: makes scratch_dir, named after what the test is (NAME: "guard-output"). */
static inline int scratch_dir_make(const char *name)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(scratch_dir, sizeof(scratch_dir), "%s/ssdbench-test-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
	return mkdtemp(scratch_dir) ? 0 : -1;
}

/* The group's teardown: removes scratch_dir and what it holds. */
static inline int scratch_dir_remove(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch_dir);
	return system(cmd);
}

/* NAME in scratch_dir (one static buffer: copy it to keep two). */
static inline const char *in_dir(const char *name)
{
	static char path[400];

	snprintf(path, sizeof(path), "%s/%s", scratch_dir, name);
	return path;
}

/* Writes text into the file at path, making the directories it needs first (a sysfs tree's attribute). 0 or -1. */
static inline int scratch_write(const char *path, const char *text)
{
	char cmd[2200];
	FILE *f;

	if ((size_t)snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path) >= sizeof(cmd) || system(cmd))
		return -1;
	if (!(f = fopen(path, "w")))
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

#endif
