// SPDX-License-Identifier: MIT
/*
 * fileio: a file read whole (past the size hint, with the room asked for after it), a short read
 * of an attribute, a sysfs number parsed strictly, and a file replaced whole, or left as it was
 * with no temporary file behind when the content cannot be written.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fileio.h"

static char dir[] = "/tmp/ssdbench-test-fileio.XXXXXX";

static void put(const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static const char *at(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* Entries of dir other than . and .. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void test_fileio_read_fd_reads_to_the_end_with_room_after(void **state)
{
	char big[100000], *buf = NULL;
	size_t cap = 0, len = 0;
	int fd;

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put("big", big);
	for (size_t hint = 0; hint <= 10; hint += 10) {   /* no size, and a size too small (the file grew) */
		len = 0;
		assert_true((fd = open(at("big"), O_RDONLY)) >= 0);
		assert_int_equal(fileio_read_fd(fd, &buf, &cap, &len, hint, 64), 0);
		close(fd);
		assert_int_equal(len, sizeof(big) - 1);
		assert_true(cap >= len + 64);
		assert_int_equal(buf[len], '\0');
		assert_memory_equal(buf, big, len);
	}
	put("empty", "");
	len = 0;
	assert_true((fd = open(at("empty"), O_RDONLY)) >= 0);
	assert_int_equal(fileio_read_fd(fd, &buf, &cap, &len, 0, 1), 0);
	close(fd);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");
	/* A directory cannot be read: -EISDIR, the buffer still the caller's. */
	assert_true((fd = open(dir, O_RDONLY)) >= 0);
	assert_int_equal(fileio_read_fd(fd, &buf, &cap, &len, 0, 1), -EISDIR);
	close(fd);
	free(buf);
}

static void test_fileio_read_some_reads_at_most_len(void **state)
{
	char buf[8];

	(void)state;
	put("attr", "0123456789\n");
	assert_int_equal(fileio_read_some(at("attr"), buf, 4), 4);
	assert_memory_equal(buf, "0123", 4);
	assert_int_equal(fileio_read_some(at("attr"), buf, sizeof(buf)), 8);
	assert_int_equal(fileio_read_some(at("nope"), buf, sizeof(buf)), -ENOENT);
}

static void test_fileio_read_u64_takes_the_whole_text_as_a_number(void **state)
{
	uint64_t v = 7;

	(void)state;
	put("n", "  1953525168\n");
	assert_int_equal(fileio_read_u64(at("n"), &v), 0);
	assert_true(v == 1953525168ull);
	put("n", "18446744073709551615\n");
	assert_int_equal(fileio_read_u64(at("n"), &v), 0);
	assert_true(v == UINT64_MAX);
	put("n", "18446744073709551616\n");
	assert_int_equal(fileio_read_u64(at("n"), &v), -EINVAL);
	put("n", "-1\n");
	assert_int_equal(fileio_read_u64(at("n"), &v), -EINVAL);
	put("n", "12 34\n");
	assert_int_equal(fileio_read_u64(at("n"), &v), -EINVAL);
	put("n", "\n");
	assert_int_equal(fileio_read_u64(at("n"), &v), -EINVAL);
	put("n", "0x10\n");
	assert_int_equal(fileio_read_u64(at("n"), &v), -EINVAL);
	assert_int_equal(fileio_read_u64(at("nope"), &v), -ENOENT);
}

static int fill_text(int fd, const void *arg)
{
	size_t n = strlen(arg);

	return write(fd, arg, n) == (ssize_t)n ? 0 : -EIO;
}

static int fill_fails(int fd, const void *arg)
{
	(void)arg;
	return write(fd, "part", 4) == 4 ? -ENOSPC : -EIO;
}

static void test_fileio_replace_writes_whole_or_leaves_the_old_file(void **state)
{
	char tmp[PATH_MAX], text[64];
	const char *step = NULL;
	struct stat st;
	mode_t mask = umask(022);
	int before;

	(void)state;
	put("out", "old\n");
	before = entries();
	snprintf(tmp, sizeof(tmp), "%s/.out.tmp.XXXXXX", dir);
	assert_int_equal(fileio_replace(at("out"), tmp, 0666, fill_text, "new\n", &step), 0);
	assert_string_equal(step, "write");
	assert_int_equal(fileio_read_some(at("out"), text, sizeof(text)), 4);
	assert_memory_equal(text, "new\n", 4);
	assert_int_equal(stat(at("out"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);          /* mode less the umask, not mkstemp's 0600 */
	assert_int_equal(entries(), before);                 /* no temporary file left */

	/* A plain temporary name (.NAME.tmp.PID) is created as it is. */
	snprintf(tmp, sizeof(tmp), "%s/.out.tmp.%d", dir, (int)getpid());
	assert_int_equal(fileio_replace(at("out"), tmp, 0600, fill_text, "plain\n", NULL), 0);
	assert_int_equal(fileio_read_some(at("out"), text, sizeof(text)), 6);
	assert_int_equal(entries(), before);

	/* fill fails: the old file as it was, the temporary one removed. */
	snprintf(tmp, sizeof(tmp), "%s/.out.tmp.XXXXXX", dir);
	assert_int_equal(fileio_replace(at("out"), tmp, 0666, fill_fails, NULL, &step), -ENOSPC);
	assert_string_equal(step, "write");
	assert_int_equal(fileio_read_some(at("out"), text, sizeof(text)), 6);
	assert_memory_equal(text, "plain\n", 6);
	assert_int_equal(entries(), before);

	/* No temporary file can be made: "create". */
	snprintf(tmp, sizeof(tmp), "%s/no/such/dir/.out.tmp.XXXXXX", dir);
	assert_int_equal(fileio_replace(at("out"), tmp, 0666, fill_text, "x", &step), -ENOENT);
	assert_string_equal(step, "create");
	umask(mask);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fileio_read_fd_reads_to_the_end_with_room_after),
		cmocka_unit_test(test_fileio_read_some_reads_at_most_len),
		cmocka_unit_test(test_fileio_read_u64_takes_the_whole_text_as_a_number),
		cmocka_unit_test(test_fileio_replace_writes_whole_or_leaves_the_old_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
