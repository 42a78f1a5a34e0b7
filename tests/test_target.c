// SPDX-License-Identifier: MIT
/* Targets: which filesystems hold no data files, where a new file may be created, holes, claims. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "target.h"

static void test_target_pseudo_fs_names_devtmpfs_by_its_mount_type(void **state)
{
	(void)state;
	/* devtmpfs has tmpfs's f_type: only the mount's type tells /dev from /dev/shm. */
	assert_string_equal(target_pseudo_fs(TMPFS_MAGIC, "devtmpfs"), "devtmpfs");
	assert_string_equal(target_pseudo_fs(RAMFS_MAGIC, "devtmpfs"), "devtmpfs");
	assert_null(target_pseudo_fs(TMPFS_MAGIC, "tmpfs"));
	assert_null(target_pseudo_fs(TMPFS_MAGIC, NULL));
}

static void test_target_pseudo_fs_names_proc_sysfs_and_kin_by_f_type(void **state)
{
	(void)state;
	assert_string_equal(target_pseudo_fs(PROC_SUPER_MAGIC, NULL), "proc");
	assert_string_equal(target_pseudo_fs(SYSFS_MAGIC, "sysfs"), "sysfs");
	assert_string_equal(target_pseudo_fs(CGROUP2_SUPER_MAGIC, NULL), "cgroup2");
	assert_string_equal(target_pseudo_fs(DEBUGFS_MAGIC, NULL), "debugfs");
	assert_null(target_pseudo_fs(EXT4_SUPER_MAGIC, "ext4"));
	assert_null(target_pseudo_fs(XFS_SUPER_MAGIC, "xfs"));
}

static void probe_fails(const char *path, int want, const char *msg)
{
	struct target t;
	char err[512] = "";

	assert_int_equal(target_probe(path, "/sys", &t, err, sizeof(err)), want);
	if (!strstr(err, msg))
		fail_msg("'%s': message '%s' lacks '%s'", path, err, msg);
}

static void test_target_probe_refuses_a_new_file_in_dev(void **state)
{
	char path[64];

	(void)state;
	snprintf(path, sizeof(path), "/dev/ssdbench-test-nonexistent-%d", (int)getpid());
	probe_fails(path, -ENOENT, "no such block device");
	probe_fails("/proc/ssdbench-test-nonexistent", -ENOENT, "its directory is on proc");
	probe_fails("/sys/ssdbench-test-nonexistent", -ENOENT, "its directory is on sysfs");
}

static void test_target_probe_names_what_is_not_a_target(void **state)
{
	(void)state;
	probe_fails("/dev/null", -EINVAL, "'/dev/null': a character device, not a block device");
	probe_fails("/tmp", -EINVAL, "'/tmp': a directory, not a block device");
}

static void test_target_probe_accepts_a_new_file_in_a_directory(void **state)
{
	struct target t;
	char err[256];

	(void)state;
	assert_int_equal(target_probe("/tmp/ssdbench-test-nonexistent/../ssdbench-test-new", "/sys", &t, err,
				      sizeof(err)), -ENOENT);   /* its directory does not exist */
	assert_int_equal(target_probe("/tmp/ssdbench-test-new-file", "/sys", &t, err, sizeof(err)), 0);
	assert_false(t.exists);
	assert_int_equal(t.claim_fd, -1);
	assert_string_equal(t.pseudo_fs, "");
}

/* A file of 8 MiB: data in [1 MiB, 2 MiB) and [4 MiB, 5 MiB), holes elsewhere. */
static void sparse_file(struct target *t)
{
	static char buf[1 << 20];
	char err[256], path[] = "/tmp/ssdbench-test-target.XXXXXX";
	int fd;

	assert_true((fd = mkstemp(path)) >= 0);
	memset(buf, 0x5a, sizeof(buf));
	assert_int_equal(pwrite(fd, buf, sizeof(buf), 1 << 20), (ssize_t)sizeof(buf));
	assert_int_equal(pwrite(fd, buf, sizeof(buf), 4 << 20), (ssize_t)sizeof(buf));
	assert_int_equal(ftruncate(fd, 8 << 20), 0);
	assert_int_equal(fsync(fd), 0);
	close(fd);
	assert_int_equal(target_probe(path, "/sys", t, err, sizeof(err)), 0);
}

static void test_target_holes_counts_the_holes_of_a_range(void **state)
{
	struct target t;
	uint64_t h;

	(void)state;
	sparse_file(&t);
	assert_int_equal(target_holes(&t, 0, 8 << 20, &h), 0);
	if (h == 0) {
		unlink(t.path);
		print_message("skip: the filesystem of /tmp reports no holes\n");
		skip();
	}
	assert_int_equal(h, 6 << 20);
	assert_int_equal(target_holes(&t, 1 << 20, 2 << 20, &h), 0);
	assert_int_equal(h, 0);                  /* data only */
	assert_int_equal(target_holes(&t, 1 << 20, 5 << 20, &h), 0);
	assert_int_equal(h, 2 << 20);            /* [2, 4) MiB */
	assert_int_equal(target_holes(&t, (3 << 20) + 4096, 6 << 20, &h), 0);
	assert_int_equal(h, (1 << 20) - 4096 + (1 << 20));
	unlink(t.path);
}

static void test_target_claim_of_a_file_excludes_a_second_claim(void **state)
{
	struct target a, b;
	char err[512] = "";

	(void)state;
	sparse_file(&a);
	b = a;
	b.claim_fd = -1;
	assert_int_equal(target_claim(&a, err, sizeof(err)), 0);
	assert_true(a.claimed);
	assert_true(target_same(&a, &b));
	assert_int_equal(target_claim(&b, err, sizeof(err)), -EBUSY);
	assert_false(b.claimed);
	assert_non_null(strstr(err, "file is in use"));
	target_release(&a);
	assert_false(a.claimed);
	assert_int_equal(target_claim(&b, err, sizeof(err)), 0);
	target_release(&b);
	assert_int_equal(access(b.path, F_OK), 0);   /* the claim did not create it: it stays */
	unlink(a.path);
}

static void test_target_release_removes_an_empty_file_the_claim_created(void **state)
{
	struct target t;
	char err[256], path[64];

	(void)state;
	snprintf(path, sizeof(path), "/tmp/ssdbench-test-claim-%d", (int)getpid());
	unlink(path);
	assert_int_equal(target_probe(path, "/sys", &t, err, sizeof(err)), 0);
	assert_int_equal(target_claim(&t, err, sizeof(err)), 0);
	assert_int_equal(access(t.path, F_OK), 0);
	target_release(&t);
	assert_int_equal(access(t.path, F_OK), -1);
}

/* A target reached through symbolic links (absolute, relative, chained) is named by the real file. */
static void test_target_probe_names_a_linked_target_by_its_real_name(void **state)
{
	char dir[] = "/tmp/ssdbench-test-links.XXXXXX", real[PATH_MAX], abs_link[PATH_MAX], rel[PATH_MAX],
	     chain[PATH_MAX], err[256];
	const char *const links[] = { abs_link, rel, chain };
	struct target t;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(real, sizeof(real), "%s/real-disk.img", dir);
	snprintf(abs_link, sizeof(abs_link), "%s/by-id-link", dir);
	snprintf(rel, sizeof(rel), "%s/relative-link", dir);
	snprintf(chain, sizeof(chain), "%s/chained-link", dir);
	assert_true((fd = open(real, O_CREAT | O_WRONLY, 0600)) >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	close(fd);
	assert_int_equal(symlink(real, abs_link), 0);
	assert_int_equal(symlink("real-disk.img", rel), 0);
	assert_int_equal(symlink("relative-link", chain), 0);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		assert_int_equal(target_probe(links[i], "/sys", &t, err, sizeof(err)), 0);
		assert_string_equal(t.path, links[i]);   /* the path stays as given */
		assert_string_equal(t.name, "real-disk.img");
		if (!(t.has_devinfo && t.di.model[0]))
			assert_string_equal(t.label, "real-disk.img");
	}
	/* A file still to create keeps the name it is given. */
	snprintf(real, sizeof(real), "%s/new.img", dir);
	assert_int_equal(target_probe(real, "/sys", &t, err, sizeof(err)), 0);
	assert_string_equal(t.name, "new.img");
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		unlink(links[i]);
	snprintf(real, sizeof(real), "%s/real-disk.img", dir);
	unlink(real);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target_pseudo_fs_names_devtmpfs_by_its_mount_type),
		cmocka_unit_test(test_target_pseudo_fs_names_proc_sysfs_and_kin_by_f_type),
		cmocka_unit_test(test_target_probe_refuses_a_new_file_in_dev),
		cmocka_unit_test(test_target_probe_names_what_is_not_a_target),
		cmocka_unit_test(test_target_probe_accepts_a_new_file_in_a_directory),
		cmocka_unit_test(test_target_holes_counts_the_holes_of_a_range),
		cmocka_unit_test(test_target_claim_of_a_file_excludes_a_second_claim),
		cmocka_unit_test(test_target_release_removes_an_empty_file_the_claim_created),
		cmocka_unit_test(test_target_probe_names_a_linked_target_by_its_real_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
