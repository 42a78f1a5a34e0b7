// SPDX-License-Identifier: MIT
/*
 * The verify journal: its header bytes, the live map after a SIGKILL, the checkpoint map after
 * another boot, the end of a run, refusals (not a journal, corrupt, truncated, the target itself).
 */
#include <errno.h>
#include <fcntl.h>
#include <isa-l/crc.h>
#include <linux/loop.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "journal.h"
#include "open_fds.h"

static char dir[64];

static const char *in_dir(const char *name)
{
	static char path[4][128];
	static unsigned k;
	char *p = path[k++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	return p;
}

static int make_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ssdbench-test-journal-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* A run on a block device that is not the journal's (a major number no driver uses). */
static void fill_info(struct journal_info *in, uint64_t nblocks)
{
	memset(in, 0, sizeof(*in));
	in->run_id = 0x1122334455667788ull;
	snprintf(in->target, sizeof(in->target), "/dev/ssdbench-test-nonexistent");
	in->target_size = (nblocks + 256) * 4096;
	in->target_dev = makedev(240, 77);
	in->lbs = 512;
	in->unit = 4096;
	in->base = 1 << 20;
	in->bs = 4096;
	in->nblocks = nblocks;
	in->started_ns = 1700000000123456789ull;
	in->volatile_cache = true;
	snprintf(in->engine, sizeof(in->engine), "io_uring");
}

/* The same history of writes on any map: several generations, a failed write, writes left in flight. */
static void writes(struct vmap *m, unsigned phase)
{
	uint8_t prev, g;

	for (uint64_t i = 0; i < m->nblocks; i++) {
		for (uint64_t k = 0; k < (i + phase) % 5; k++) {
			g = vmap_write_begin(m, i, &prev);
			assert_int_not_equal(g, 0);
			vmap_write_end(m, i, g, i % 97 != 3);
		}
		if (i % 7 == phase % 7)
			assert_int_not_equal(vmap_write_begin(m, i, &prev), 0);
	}
}

/* Ends every write in flight, as a run's end does. */
static void settle(struct vmap *m)
{
	for (uint64_t i = 0; i < m->nblocks; i++)
		if (vmap_load(m, i) & VGEN_BUSY)
			vmap_write_end(m, i, vgen_next(vmap_load(m, i)), true);
}

/* writes() phase p, after ending what the previous phase left in flight. */
static void phase(struct vmap *m, unsigned p)
{
	settle(m);
	writes(m, p);
}

/* got holds what phases 1..phases (then settle, if settled) make of an empty map, to the byte. */
static void expect_map(const struct vmap *got, unsigned phases, bool settled)
{
	struct vmap want;

	assert_int_equal(vmap_alloc(&want, got->base, got->nblocks * got->bs, got->bs, got->run_id), 0);
	for (unsigned p = 1; p <= phases; p++)
		phase(&want, p);
	if (settled)
		settle(&want);
	assert_int_equal(got->nblocks, want.nblocks);
	for (uint64_t i = 0; i < want.nblocks; i++)
		if (vmap_load(got, i) != vmap_load(&want, i))
			fail_msg("block %llu: 0x%02x, expected 0x%02x", (unsigned long long)i, vmap_load(got, i),
				 vmap_load(&want, i));
	vmap_release(&want);
}

static void header_bytes(const char *path, unsigned char *h)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, h, JOURNAL_HDR, 0), JOURNAL_HDR);
	close(fd);
}

/* Rewrites bytes of the header at off (and its CRC, at 4092, unless raw): what another boot or a fault does. */
static void poke_header(const char *path, size_t off, const void *bytes, size_t len, bool raw)
{
	unsigned char h[JOURNAL_HDR];
	uint32_t crc;
	int fd = open(path, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, h, sizeof(h), 0), sizeof(h));
	memcpy(h + off, bytes, len);
	if (!raw) {
		crc = ~crc32_iscsi(h, JOURNAL_HDR - 4, 0xffffffffu);
		for (int i = 0; i < 4; i++)
			h[JOURNAL_HDR - 4 + i] = (unsigned char)(crc >> (8 * i));
	}
	assert_int_equal(pwrite(fd, h, sizeof(h), 0), sizeof(h));
	close(fd);
}

static void set_boot_id(const char *path, const char *id)
{
	char b[40] = { 0 };

	snprintf(b, sizeof(b), "%s", id);
	poke_header(path, 24, b, sizeof(b), false);
}

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void test_journal_header_encodes_every_field_little_endian(void **state)
{
	const char *path = in_dir("hdr.jrnl");
	unsigned char h[JOURNAL_HDR];
	struct journal_info in, got;
	struct journal jn;
	struct vmap m;
	struct stat st;
	char err[256], boot[40];
	bool crashed = true;

	(void)state;
	fill_info(&in, 10);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	journal_abandon(&jn);
	journal_boot_id(boot, sizeof(boot));
	header_bytes(path, h);
	assert_memory_equal(h, "SSDBJRNL", 8);
	assert_int_equal(le(h + 8, 4), JOURNAL_VERSION);
	assert_int_equal(le(h + 12, 4), JOURNAL_RUNNING);
	assert_int_equal(le(h + 16, 8), in.run_id);
	assert_string_equal((const char *)h + 24, boot);
	assert_string_equal((const char *)h + 64, in.target);
	assert_int_equal(le(h + 1088, 8), in.target_size);
	assert_int_equal(le(h + 1096, 8), in.target_dev);
	assert_int_equal(le(h + 1112, 4), 512);
	assert_int_equal(le(h + 1116, 4), 4096);
	assert_int_equal(le(h + 1120, 8), 1 << 20);
	assert_int_equal(le(h + 1136, 8), 10);
	assert_int_equal(le(h + 1160, 8), in.started_ns);
	assert_int_equal(h[1176], 1);
	assert_string_equal((const char *)h + 1177, "io_uring");
	assert_int_equal(le(h + 1196, 4), 0);   /* fill_info: no window */
	assert_int_equal(le(h + 4092, 4), (uint32_t)~crc32_iscsi(h, 4092, 0xffffffffu));
	/* Header, live map, then the checkpoint map at the next multiple of 4096. */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 4096 + 4096 + 10);

	assert_int_equal(journal_load(path, &got, &m, &crashed, err, sizeof(err)), 0);
	assert_false(crashed);
	assert_int_equal(got.version, JOURNAL_VERSION);
	assert_int_equal(got.state, JOURNAL_RUNNING);
	assert_int_equal(got.run_id, in.run_id);
	assert_string_equal(got.boot_id, boot);
	assert_string_equal(got.target, in.target);
	assert_int_equal(got.target_size, in.target_size);
	assert_int_equal(got.target_dev, in.target_dev);
	assert_int_equal(got.target_ino, 0);
	assert_int_equal(got.lbs, in.lbs);
	assert_int_equal(got.unit, in.unit);
	assert_int_equal(got.base, in.base);
	assert_int_equal(got.bs, in.bs);
	assert_int_equal(got.nblocks, 10);
	assert_int_equal(got.checkpoints, 0);
	assert_int_equal(got.started_ns, in.started_ns);
	assert_int_equal(got.ended_ns, 0);
	assert_true(got.volatile_cache);
	assert_string_equal(got.engine, "io_uring");
	assert_int_equal(m.base, in.base);
	assert_int_equal(m.bs, 4096);
	assert_int_equal(m.nblocks, 10);
	assert_int_equal(m.unit, 4096);
	assert_int_equal(m.run_id, in.run_id);
	vmap_release(&m);
}

/* A run killed with SIGKILL: every update of the live map is in the file, writes in flight still busy. */
static void test_journal_live_map_survives_sigkill_exactly(void **state)
{
	const char *path = in_dir("kill.jrnl");
	struct journal_info in;
	struct vmap m;
	char err[256];
	bool crashed = true;
	int status;
	pid_t pid;

	(void)state;
	fill_info(&in, 5000);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct journal jn;

		if (journal_create(&jn, path, &in, &m, err, sizeof(err)))
			_exit(1);
		phase(&m, 1);
		phase(&m, 2);
		kill(getpid(), SIGKILL);
		_exit(2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	assert_int_equal(journal_load(path, &in, &m, &crashed, err, sizeof(err)), 0);
	assert_false(crashed);
	assert_int_equal(in.state, JOURNAL_RUNNING);
	assert_int_equal(in.checkpoints, 0);
	assert_non_null(m.mem);
	expect_map(&m, 2, false);
	vmap_release(&m);
}

/* After another boot, verify gets the map as the last checkpoint copied it, not what followed. */
static void test_journal_checkpoint_map_is_the_copy_after_another_boot(void **state)
{
	const char *path = in_dir("ckpt.jrnl");
	struct journal_info in;
	struct journal jn;
	struct vmap m, got;
	char err[256];
	bool crashed = false;

	(void)state;
	fill_info(&in, 3000);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	phase(&m, 1);
	assert_int_equal(journal_checkpoint(&jn, -1), 0);
	assert_int_equal(jn.info.checkpoints, 1);
	phase(&m, 2);
	journal_abandon(&jn);

	/* The same boot: the live map, exact. */
	assert_int_equal(journal_load(path, &in, &got, &crashed, err, sizeof(err)), 0);
	assert_false(crashed);
	expect_map(&got, 2, false);
	vmap_release(&got);

	/* Another boot: the checkpoint. */
	set_boot_id(path, "00000000-0000-0000-0000-000000000000");
	assert_int_equal(journal_load(path, &in, &got, &crashed, err, sizeof(err)), 0);
	assert_true(crashed);
	assert_int_equal(in.state, JOURNAL_RUNNING);
	assert_int_equal(in.checkpoints, 1);
	assert_true(in.checkpoint_ns > 0);
	expect_map(&got, 1, false);
	vmap_release(&got);
}

/*
 * Issue 27 item 2: a run's journal (window VGEN_WINDOW, journal_bound) keeps every block within the
 * window of its last durable checkpoint: a block rewritten 200 times after a checkpoint waits for the
 * next ones, so that after another boot, what the target holds (the live map) is never stale against
 * the checkpoint map; a lost write (older than the checkpoint) still is. The window is in the header;
 * a journal without one (an older ssdbench's) loads with 0, which bounds nothing.
 */
static void test_journal_bounds_writes_to_the_window_past_the_checkpoint(void **state)
{
	const char *path = in_dir("bound.jrnl");
	struct journal_info in;
	struct journal jn;
	struct vmap m, got;
	unsigned char h[JOURNAL_HDR];
	uint8_t prev, g, live[64];
	unsigned waits = 0, done = 0;
	char err[256];
	bool crashed = false;
	uint32_t zero = 0;

	(void)state;
	fill_info(&in, 64);
	in.window = VGEN_WINDOW;
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	assert_int_equal(journal_bound(&jn, &m), 0);
	assert_non_null(m.floor);
	assert_int_equal(m.window, VGEN_WINDOW);
	phase(&m, 1);
	settle(&m);
	assert_int_equal(journal_checkpoint(&jn, -1), 0);
	while (done < 200) {
		if (!(g = vmap_write_begin(&m, 5, &prev))) {
			assert_true(atomic_load(&m.floor_wait));   /* the bound, not a write in flight */
			assert_int_equal(journal_checkpoint(&jn, -1), 0);
			assert_false(atomic_load(&m.floor_wait));
			waits++;
			continue;
		}
		vmap_write_end(&m, 5, g, true);
		done++;
	}
	assert_int_equal(waits, 3);   /* 200 writes, 63 at a time */
	for (uint64_t i = 0; i < 64; i++)
		live[i] = vmap_load(&m, i);
	journal_abandon(&jn);
	vmap_release(&m);

	header_bytes(path, h);
	assert_int_equal(le(h + 1196, 4), VGEN_WINDOW);
	set_boot_id(path, "another boot");
	assert_int_equal(journal_load(path, &in, &got, &crashed, err, sizeof(err)), 0);
	assert_true(crashed);
	assert_int_equal(in.window, VGEN_WINDOW);
	assert_int_equal(got.window, VGEN_WINDOW);
	for (uint64_t i = 0; i < 64; i++) {
		struct vexpect e = vexpect_journal(in.run_id, vmap_load(&got, i), got.window);
		unsigned char u[4096] = { 0 };
		struct vmismatch mm;

		if (vgen_of(live[i]) && vgen_of(live[i]) != VGEN_UNKNOWN)
			verify_stamp(u, sizeof(u), 4096, in.base + i * 4096, in.run_id, vgen_of(live[i]));
		if (verify_unit_check(u, 4096, in.base + i * 4096, &e, &mm) == VR_MISMATCH)
			fail_msg("block %llu: live 0x%02x against checkpoint 0x%02x: %s", (unsigned long long)i,
				 live[i], vmap_load(&got, i), vkind_name(mm.kind));
	}
	/* A lost write: block 5 holds the generation before the checkpoint's. */
	{
		struct vexpect e = vexpect_journal(in.run_id, vmap_load(&got, 5), got.window);
		unsigned char u[4096] = { 0 };
		struct vmismatch mm;
		uint8_t older = (uint8_t)((vgen_of(vmap_load(&got, 5)) + VGEN_MAX - 2) % VGEN_MAX + 1);

		verify_stamp(u, sizeof(u), 4096, in.base + 5 * 4096, in.run_id, older);
		assert_int_equal(verify_unit_check(u, 4096, in.base + 5 * 4096, &e, &mm), VR_MISMATCH);
		assert_int_equal(mm.kind, VK_STALE);
	}
	vmap_release(&got);

	/* An older ssdbench's journal: no window. */
	poke_header(path, 1196, &zero, sizeof(zero), false);
	assert_int_equal(journal_load(path, &in, &got, &crashed, err, sizeof(err)), 0);
	assert_int_equal(in.window, 0);
	assert_int_equal(got.window, 0);
	vmap_release(&got);
}

/* A crash before the first checkpoint: the checkpoint map holds nothing (all 0). */
static void test_journal_checkpoint_map_is_empty_before_the_first(void **state)
{
	const char *path = in_dir("nockpt.jrnl");
	struct journal_info in;
	struct journal jn;
	struct vmap m, got;
	char err[256];
	bool crashed = false;

	(void)state;
	fill_info(&in, 700);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	phase(&m, 1);
	journal_abandon(&jn);
	set_boot_id(path, "another boot");
	assert_int_equal(journal_load(path, &in, &got, &crashed, err, sizeof(err)), 0);
	assert_true(crashed);
	assert_int_equal(in.checkpoints, 0);
	for (uint64_t i = 0; i < got.nblocks; i++)
		assert_int_equal(vmap_load(&got, i), 0);
	vmap_release(&got);
}

/* The target's flush is part of a checkpoint; its failure is returned and nothing is recorded. */
static void test_journal_checkpoint_returns_a_failed_target_flush(void **state)
{
	const char *path = in_dir("flush.jrnl");
	struct journal_info in;
	struct journal jn;
	struct vmap m;
	char err[256];
	int fd = open(in_dir("target-file"), O_RDWR | O_CREAT, 0644), p[2];

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(pipe(p), 0);
	fill_info(&in, 64);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	assert_int_equal(journal_checkpoint(&jn, fd), 0);
	assert_int_equal(journal_checkpoint(&jn, p[0]), -EINVAL);
	assert_int_equal(jn.info.checkpoints, 1);
	assert_int_equal(journal_close(&jn, fd), 0);
	close(p[0]);
	close(p[1]);
	close(fd);
}

/* The end of a run: a last checkpoint, FINISHED and its time; the live map is trusted after any boot. */
static void test_journal_close_marks_finished(void **state)
{
	const char *path = in_dir("close.jrnl");
	size_t fds = open_fds();
	struct journal_info in;
	struct journal jn;
	struct vmap m, got;
	char err[256];
	bool crashed = true;

	(void)state;
	fill_info(&in, 2000);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	phase(&m, 1);
	phase(&m, 2);
	settle(&m); /* The run's own end: nothing in flight any more. */
	assert_int_equal(journal_close(&jn, -1), 0);
	assert_int_equal(open_fds(), fds);
	assert_int_equal(jn.fd, -1);
	assert_null(jn.scratch);

	set_boot_id(path, "another boot");
	assert_int_equal(journal_load(path, &in, &got, &crashed, err, sizeof(err)), 0);
	assert_false(crashed);
	assert_int_equal(in.state, JOURNAL_FINISHED);
	assert_int_equal(in.checkpoints, 1);
	assert_true(in.ended_ns > in.started_ns);
	assert_true(in.checkpoint_ns > 0 && in.checkpoint_ns <= in.ended_ns);
	expect_map(&got, 2, true);
	vmap_release(&got);
	/* The last checkpoint holds the same map. */
	poke_header(path, 12, "\x01\0\0\0", 4, false);
	assert_int_equal(journal_load(path, &in, &got, &crashed, err, sizeof(err)), 0);
	assert_true(crashed);
	expect_map(&got, 2, true);
	vmap_release(&got);
}

static void test_journal_handles_an_empty_map(void **state)
{
	const char *path = in_dir("empty.jrnl");
	struct journal_info in;
	struct journal jn;
	struct vmap m;
	char err[256];
	bool crashed = true;

	(void)state;
	fill_info(&in, 0);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	assert_non_null(m.e);
	assert_int_equal(m.nblocks, 0);
	assert_int_equal(journal_checkpoint(&jn, -1), 0);
	assert_int_equal(journal_close(&jn, -1), 0);
	assert_int_equal(journal_load(path, &in, &m, &crashed, err, sizeof(err)), 0);
	assert_false(crashed);
	assert_int_equal(in.state, JOURNAL_FINISHED);
	assert_int_equal(m.nblocks, 0);
	vmap_release(&m);
}

/* An existing journal is replaced whole: nothing of a bigger, older one remains. */
static void test_journal_create_replaces_an_old_journal(void **state)
{
	const char *path = in_dir("again.jrnl");
	struct journal_info in;
	struct journal jn;
	struct vmap m;
	struct stat st;
	char err[256];
	bool crashed;

	(void)state;
	fill_info(&in, 9000);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	phase(&m, 1);
	assert_int_equal(journal_close(&jn, -1), 0);
	fill_info(&in, 100);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	journal_abandon(&jn);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 4096 + 4096 + 100);
	assert_int_equal(journal_load(path, &in, &m, &crashed, err, sizeof(err)), 0);
	for (uint64_t i = 0; i < m.nblocks; i++)
		assert_int_equal(vmap_load(&m, i), 0);
	vmap_release(&m);
}

static void expect_load_error(const char *path, int ret, const char *msg)
{
	struct journal_info in;
	struct vmap m = { 0 };
	char err[256] = "";
	bool crashed;
	size_t fds = open_fds();

	assert_int_equal(journal_load(path, &in, &m, &crashed, err, sizeof(err)), ret);
	if (!strstr(err, msg))
		fail_msg("'%s' does not say '%s'", err, msg);
	assert_non_null(strstr(err, path));
	assert_null(m.mem);
	assert_int_equal(open_fds(), fds);
}

static void make_journal(const char *path, uint64_t nblocks)
{
	struct journal_info in;
	struct journal jn;
	struct vmap m;
	char err[256];

	fill_info(&in, nblocks);
	assert_int_equal(journal_create(&jn, path, &in, &m, err, sizeof(err)), 0);
	assert_int_equal(journal_close(&jn, -1), 0);
}

static void test_journal_load_refuses_what_is_not_a_journal(void **state)
{
	const char *path = in_dir("not.jrnl");
	char junk[8192];
	FILE *f;

	(void)state;
	memset(junk, 'x', sizeof(junk));
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(junk, 1, sizeof(junk), f), sizeof(junk));
	fclose(f);
	expect_load_error(path, -EINVAL, "not an ssdbench journal");
	assert_int_equal(truncate(path, 0), 0);
	expect_load_error(path, -EINVAL, "not an ssdbench journal");
	expect_load_error(in_dir("missing.jrnl"), -ENOENT, "cannot open");
	make_journal(path, 10);
	poke_header(path, 0, "SSDBJRNX", 8, false);
	expect_load_error(path, -EINVAL, "not an ssdbench journal");
}

/*
 * Turns every bit of the header's byte at off. Setting a byte to a constant would leave the header
 * unchanged whenever it already held that constant (a CRC byte does so once in 256 journals).
 */
static void flip_header_byte(const char *path, size_t off)
{
	unsigned char b;
	int fd = open(path, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &b, 1, (off_t)off), 1);
	b = (unsigned char)~b;
	assert_int_equal(pwrite(fd, &b, 1, (off_t)off), 1);
	assert_int_equal(close(fd), 0);
}

static void test_journal_load_refuses_a_corrupt_header(void **state)
{
	const char *path = in_dir("corrupt.jrnl");

	(void)state;
	make_journal(path, 10);
	poke_header(path, 70, "?", 1, true);                /* in the target's path */
	expect_load_error(path, -EINVAL, "header corrupt");
	make_journal(path, 10);
	poke_header(path, 4000, "\x01", 1, true);           /* in the padding */
	expect_load_error(path, -EINVAL, "header corrupt");
	make_journal(path, 10);
	flip_header_byte(path, 4093);                       /* in the CRC (whatever its value) */
	expect_load_error(path, -EINVAL, "header corrupt");
	make_journal(path, 10);
	poke_header(path, 8, "\x02\0\0\0", 4, false);
	expect_load_error(path, -EINVAL, "unknown version 2");
	make_journal(path, 10);
	poke_header(path, 12, "\x07\0\0\0", 4, false);      /* a state no version writes */
	expect_load_error(path, -EINVAL, "header corrupt");
}

static void test_journal_load_refuses_a_truncated_journal(void **state)
{
	const char *path = in_dir("short.jrnl");

	(void)state;
	make_journal(path, 10);
	assert_int_equal(truncate(path, 4096 + 4096 + 9), 0);
	expect_load_error(path, -EINVAL, "truncated");
	assert_int_equal(truncate(path, 4096), 0);
	expect_load_error(path, -EINVAL, "truncated");
	assert_int_equal(truncate(path, 2000), 0);
	expect_load_error(path, -EINVAL, "truncated");
}

static void expect_create_error(const char *path, const struct journal_info *in, const char *msg)
{
	struct journal jn;
	struct vmap m;
	char err[256] = "";
	size_t fds = open_fds();

	assert_int_equal(journal_create(&jn, path, in, &m, err, sizeof(err)), -EINVAL);
	if (!strstr(err, msg))
		fail_msg("'%s' does not say '%s'", err, msg);
	assert_int_equal(open_fds(), fds);
	assert_null(jn.scratch);
}

/* The target itself as the journal: refused before it is opened, so not a byte of it changes. */
static void test_journal_create_refuses_the_target_file(void **state)
{
	const char *t = in_dir("target.img");
	struct journal_info in;
	struct stat st;
	char buf[16] = "";
	FILE *f = fopen(t, "w");

	(void)state;
	assert_non_null(f);
	fputs("precious", f);
	fclose(f);
	assert_int_equal(stat(t, &st), 0);
	fill_info(&in, 10);
	in.target_dev = st.st_dev;
	in.target_ino = st.st_ino;
	expect_create_error(t, &in, "is the target itself");
	f = fopen(t, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "precious");
}

/* A journal on the filesystem of a file target, or on the block device under test, is refused and not left behind. */
static void test_journal_create_refuses_the_device_under_test(void **state)
{
	const char *t = in_dir("target2.img"), *j = in_dir("on-target.jrnl");
	struct journal_info in;
	struct stat st;
	char sys[128];
	FILE *f = fopen(t, "w");
	unsigned ma, mi;

	(void)state;
	assert_non_null(f);
	fclose(f);
	assert_int_equal(stat(t, &st), 0);
	fill_info(&in, 10);
	in.target_dev = st.st_dev;
	in.target_ino = st.st_ino;
	expect_create_error(j, &in, "on the device under test");
	assert_int_equal(access(j, F_OK), -1);

	/* The block device the directory's filesystem lives on. */
	in.target_ino = 0;
	expect_create_error(j, &in, "on the device under test");
	assert_int_equal(access(j, F_OK), -1);

	/* Its whole disk, where the filesystem is on a partition. */
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/partition", major(st.st_dev), minor(st.st_dev));
	if (access(sys, F_OK) == 0) {
		snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/../dev", major(st.st_dev), minor(st.st_dev));
		f = fopen(sys, "r");
		assert_non_null(f);
		assert_int_equal(fscanf(f, "%u:%u", &ma, &mi), 2);
		fclose(f);
		in.target_dev = makedev(ma, mi);
		expect_create_error(j, &in, "on the device under test");
	} else {
		print_message("[ info     ] '%s' is not on a partition: the whole-disk case is not checked here\n",
			      dir);
	}
}

/* Attaches a loop device to file (root only). Returns its fd (path in dev), or -1 to skip. */
static int attach_loop(const char *file, char *dev, size_t len)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC), ffd = open(file, O_RDWR | O_CLOEXEC), lfd = -1;

	/* Another process may take the free device first: try the next. */
	for (int tries = 0; ctl >= 0 && ffd >= 0 && lfd < 0 && tries < 8; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (n < 0)
			break;
		snprintf(dev, len, "/dev/loop%d", n);
		if ((lfd = open(dev, O_RDWR | O_CLOEXEC)) >= 0 && ioctl(lfd, LOOP_SET_FD, ffd) < 0) {
			close(lfd);
			lfd = -1;
		}
	}
	if (lfd >= 0) {
		/* Detached when the last descriptor closes, even if an assertion ends the test first. */
		struct loop_info64 li = { .lo_flags = LO_FLAGS_AUTOCLEAR };

		ioctl(lfd, LOOP_SET_STATUS64, &li);
	}
	if (ctl >= 0)
		close(ctl);
	if (ffd >= 0)
		close(ffd);
	return lfd;
}

/* A loop target keeps its data in its backing file: a journal there would overwrite the target. */
static void test_journal_create_refuses_the_backing_file_of_a_loop_target(void **state)
{
	const char *back = in_dir("loop-back.img");
	struct journal_info in;
	struct journal jn;
	struct vmap m;
	struct stat st;
	char dev[32], err[256], buf[16] = "";
	FILE *f = fopen(back, "w");
	int lfd;

	(void)state;
	assert_non_null(f);
	fputs("precious", f);
	fclose(f);
	assert_int_equal(truncate(back, 1 << 20), 0);
	if ((lfd = attach_loop(back, dev, sizeof(dev))) < 0)
		skip();
	assert_int_equal(fstat(lfd, &st), 0);
	fill_info(&in, 10);
	in.target_dev = st.st_rdev;
	snprintf(in.target, sizeof(in.target), "%s", dev);
	expect_create_error(back, &in, "is the target itself");
	/* Beside the backing file is another device than the loop device. */
	assert_int_equal(journal_create(&jn, in_dir("beside-loop.jrnl"), &in, &m, err, sizeof(err)), 0);
	journal_abandon(&jn);
	ioctl(lfd, LOOP_CLR_FD, 0);
	close(lfd);
	f = fopen(back, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "precious");
}

static void test_journal_boot_id_is_this_boots(void **state)
{
	char id[40], small[8];

	(void)state;
	journal_boot_id(id, sizeof(id));
	assert_int_equal(strlen(id), 36);
	assert_null(strchr(id, '\n'));
	journal_boot_id(small, sizeof(small));
	assert_int_equal(strlen(small), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_header_encodes_every_field_little_endian),
		cmocka_unit_test(test_journal_live_map_survives_sigkill_exactly),
		cmocka_unit_test(test_journal_checkpoint_map_is_the_copy_after_another_boot),
		cmocka_unit_test(test_journal_bounds_writes_to_the_window_past_the_checkpoint),
		cmocka_unit_test(test_journal_checkpoint_map_is_empty_before_the_first),
		cmocka_unit_test(test_journal_checkpoint_returns_a_failed_target_flush),
		cmocka_unit_test(test_journal_close_marks_finished),
		cmocka_unit_test(test_journal_handles_an_empty_map),
		cmocka_unit_test(test_journal_create_replaces_an_old_journal),
		cmocka_unit_test(test_journal_load_refuses_what_is_not_a_journal),
		cmocka_unit_test(test_journal_load_refuses_a_corrupt_header),
		cmocka_unit_test(test_journal_load_refuses_a_truncated_journal),
		cmocka_unit_test(test_journal_create_refuses_the_target_file),
		cmocka_unit_test(test_journal_create_refuses_the_device_under_test),
		cmocka_unit_test(test_journal_create_refuses_the_backing_file_of_a_loop_target),
		cmocka_unit_test(test_journal_boot_id_is_this_boots),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
