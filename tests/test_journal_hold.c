// SPDX-License-Identifier: MIT
/* The journal's file held for an invocation: allocated, locked, replacing only a journal, cleared for reuse. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "scratch_dir.h"

#include "journal.h"
#include "journal_hold.h"

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make("journal-hold");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove();
}

static void info_for(struct journal_info *in, uint64_t nblocks)
{
	memset(in, 0, sizeof(*in));
	in->run_id = 0x1122334455667788ull;
	snprintf(in->target, sizeof(in->target), "/dev/ssdbench-test-nonexistent");
	in->target_size = (nblocks + 256) * 4096;
	in->target_dev = makedev(240, 77);
	in->lbs = 512;
	in->unit = 4096;
	in->bs = 4096;
	in->nblocks = nblocks;
	snprintf(in->engine, sizeof(in->engine), "io_uring");
}

/* A new journal: allocated at its full size (not sparse), locked against a second hold, removed if unused. */
static void test_journal_hold_allocates_and_locks(void **state)
{
	char path[400], err[1024] = "";
	struct journal_hold h, h2;
	struct stat st;

	(void)state;
	snprintf(path, sizeof(path), "%s", in_dir("new.j"));
	assert_int_equal(journal_hold_open(&h, path, 100000, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal((uint64_t)st.st_size, journal_file_size(100000));
	assert_true((uint64_t)st.st_blocks * 512 >= journal_file_size(100000));
	assert_true(journal_hold_is(&h, path));
	assert_int_equal(journal_hold_open(&h2, path, 10, err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, "holds a lock"));
	assert_int_equal(h2.fd, -1);
	journal_hold_release(&h);
	assert_int_equal(stat(path, &st), -1);   /* created, never written: removed */
}

/* An existing file that is no journal is never replaced. */
static void test_journal_hold_refuses_a_file_that_is_no_journal(void **state)
{
	char path[400], err[1024] = "", buf[16] = "";
	struct journal_hold h;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s", in_dir("notes.txt"));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("precious", f);
	fclose(f);
	assert_int_equal(journal_hold_open(&h, path, 10, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "not an ssdbench journal"));
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "precious");
}

/* A journal reused by a second run starts with zero maps, and stays allocated for the larger map. */
static void test_journal_hold_clears_a_reused_journal(void **state)
{
	char path[400], err[1024] = "";
	struct journal_info in, got;
	struct journal_hold h;
	struct journal jn;
	struct vmap m;
	bool crashed;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s", in_dir("reused.j"));
	info_for(&in, 5000);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	memset(jn.map, 0x5a, 5000);
	assert_int_equal(journal_close(&jn, -1), 0);
	/* Junk in the checkpoint map too, as an older run's. */
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "\x33\x33\x33\x33", 4, (off_t)journal_file_size(5000) - 4), 4);
	close(fd);
	assert_int_equal(journal_hold_open(&h, path, 9000, err, sizeof(err)), 0);
	assert_int_equal(journal_create_held(&jn, &h, &in, &m, err, sizeof(err)), 0);
	for (uint64_t i = 0; i < 5000; i++)
		assert_int_equal(((uint8_t *)jn.map)[i], 0);
	assert_int_equal(journal_close(&jn, -1), 0);
	journal_hold_release(&h);
	assert_int_equal(journal_load(path, &got, &m, &crashed, err, sizeof(err)), 0);
	assert_int_equal(got.nblocks, 5000);
	vmap_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_hold_allocates_and_locks),
		cmocka_unit_test(test_journal_hold_refuses_a_file_that_is_no_journal),
		cmocka_unit_test(test_journal_hold_clears_a_reused_journal),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
