// SPDX-License-Identifier: MIT
/*
 * nvmepurge: the Format NVM and Sanitize dwords bit by bit, DLFEAT, the sanitize status log from its
 * bytes, the blocks the read-back picks, what a purge chooses (and what an explicit step refuses) for
 * a controller's capabilities, the command sequence on a fake drive, and the read-back on a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "nvmepurge.h"
#include "scratch_dir.h"

/* A namespace in LBA format 1 of 4: 4096 bytes, 8 bytes of metadata, PI type 1 first, extended LBAs. */
static const struct nvmeid pi_ns = { .nsid = 3, .lbaf = 1, .lba_data_size = 4096, .lba_metadata_size = 8,
				     .pi_type = 1, .pi_first = true, .extended_lba = true, .format_nvm = true };

static void test_nvmepurge_format_cdw10_keeps_the_format_in_use(void **state)
{
	struct nvmeid id = { .lbaf = 0 };

	(void)state;
	/* LBAF 3:0, MSET 4, PI 7:5, PIL 8, SES 11:9, LBAFU 13:12 (NVMe 2.0, Figure "Format NVM cdw10"). */
	assert_int_equal(nvmepurge_format_cdw10(&id, PREPSTEP_SES_NONE), 0x00000000);
	assert_int_equal(nvmepurge_format_cdw10(&id, PREPSTEP_SES_USER), 0x00000200);
	assert_int_equal(nvmepurge_format_cdw10(&id, PREPSTEP_SES_CRYPTO), 0x00000400);
	assert_int_equal(nvmepurge_format_cdw10(&pi_ns, PREPSTEP_SES_USER), 0x00000331);
	id.lbaf = 0x25;   /* format 37: the upper bits go to LBAFU */
	assert_int_equal(nvmepurge_format_cdw10(&id, PREPSTEP_SES_NONE), 0x00002005);
}

static void test_nvmepurge_sanitize_cdw10(void **state)
{
	(void)state;
	/* SANACT 2:0, AUSE 3 (0), OWPASS 7:4 (one pass for an overwrite: 0 would be 16), OIPBP 8, NDAS 9 (0). */
	assert_int_equal(nvmepurge_sanitize_cdw10(2), 0x2);
	assert_int_equal(nvmepurge_sanitize_cdw10(3), 0x13);
	assert_int_equal(nvmepurge_sanitize_cdw10(4), 0x4);
}

static void test_nvmepurge_dlfeat_byte(void **state)
{
	(void)state;
	assert_int_equal(nvmepurge_dlfeat_byte(0), -1);    /* not reported */
	assert_int_equal(nvmepurge_dlfeat_byte(1), 0x00);
	assert_int_equal(nvmepurge_dlfeat_byte(2), 0xff);
	assert_int_equal(nvmepurge_dlfeat_byte(3), -1);    /* reserved */
	assert_int_equal(nvmepurge_dlfeat_byte(0x19), 0x00); /* bits above 2:0 are not the value */
}

static void test_nvmepurge_sanitize_status_from_bytes(void **state)
{
	/* SPROG 0x4000 (a quarter), SSTAT 0x0112: in progress, 2 passes, global data erased; SCDW10 0x13. */
	static const unsigned char running[8] = { 0x00, 0x40, 0x12, 0x01, 0x13, 0x00, 0x00, 0x00 };
	static const unsigned char done[4] = { 0xff, 0xff, 0x01, 0x00 };
	struct nvmepurge_sstat st;

	(void)state;
	assert_int_equal(nvmepurge_sstat_decode(running, sizeof(running), &st), 0);
	assert_int_equal(st.sprog, 0x4000);
	assert_int_equal(st.status, NVMEPURGE_SST_RUNNING);
	assert_int_equal(st.passes, 2);
	assert_true(st.global_erased);
	assert_int_equal(nvmepurge_sstat_decode(done, sizeof(done), &st), 0);
	assert_int_equal(st.status, NVMEPURGE_SST_DONE);
	assert_false(st.global_erased);
	assert_int_equal(nvmepurge_sstat_decode(done, 3, &st), -EINVAL);
}

static void test_nvmepurge_samples_all_of_a_small_namespace_else_spread(void **state)
{
	uint64_t out[6];

	(void)state;
	assert_int_equal(nvmepurge_samples(5, 4, out), 5);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(out[i], i);
	assert_int_equal(nvmepurge_samples(6, 4, out), 6);
	assert_int_equal(nvmepurge_samples(1001, 4, out), 6);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 200);
	assert_int_equal(out[2], 400);
	assert_int_equal(out[4], 800);
	assert_int_equal(out[5], 1000);   /* the last block */
	assert_int_equal(nvmepurge_samples(0, 4, out), 0);
}

/* What purge picks, and why, as the controller's capabilities grow. */
static void test_nvmepurge_purge_picks_sanitize_then_format_then_discard(void **state)
{
	struct nvmeid id = { .nsid = 1 };
	struct prepstep purge = { .kind = PREPSTEP_PURGE };
	struct nvmepurge_plan p;
	char err[256];

	(void)state;
	assert_int_equal(nvmepurge_plan(&purge, NULL, 0, &p, err, sizeof(err)), 0);
	assert_int_equal(p.method, NVMEPURGE_DISCARD);
	assert_string_equal(p.reason, "not an NVMe namespace whose identity was read");
	assert_int_equal(nvmepurge_plan(&purge, &id, 0, &p, err, sizeof(err)), 0);
	assert_int_equal(p.method, NVMEPURGE_DISCARD);
	assert_string_equal(p.reason, "no sanitize block erase (the controller does not support sanitize block "
			    "erase (Identify Controller SANICAP bit 1 is 0)) and no Format NVM with user-data erase (the "
			    "controller does not support Format NVM (Identify Controller OACS bit 1 is 0))");
	id.format_nvm = true;   /* QEMU 7.2's controller */
	assert_int_equal(nvmepurge_plan(&purge, &id, 0, &p, err, sizeof(err)), 0);
	assert_int_equal(p.method, NVMEPURGE_FORMAT);
	assert_int_equal(p.ses, PREPSTEP_SES_USER);
	assert_int_equal(p.nsid, 1);
	assert_int_equal(p.cdw10, 0x200);
	assert_string_equal(p.reason, "no sanitize block erase (the controller does not support sanitize block "
			    "erase (Identify Controller SANICAP bit 1 is 0)); Format NVM with user-data erase instead");
	/* A secure erase that would reach the controller's other namespace is not a purge of this one. */
	id.fna = 2;
	assert_int_equal(nvmepurge_plan(&purge, &id, 1, &p, err, sizeof(err)), 0);
	assert_int_equal(p.method, NVMEPURGE_DISCARD);
	assert_non_null(strstr(p.reason, "a secure erase on this controller applies to all its namespaces "
			       "(Identify Controller FNA bit 1 is 1), and it has 1 other namespace"));
	id.sanicap = 0x2;
	assert_int_equal(nvmepurge_plan(&purge, &id, 0, &p, err, sizeof(err)), 0);
	assert_int_equal(p.method, NVMEPURGE_SANITIZE);
	assert_int_equal(p.sanact, 2);
	assert_int_equal(p.cdw10, 0x2);
	assert_string_equal(p.reason, "the controller supports sanitize block erase");
}

/* An explicit step the drive cannot do is refused, naming the Identify field. */
static void test_nvmepurge_explicit_steps_refused_with_the_reason(void **state)
{
	struct nvmeid id = { .nsid = 1, .format_nvm = true, .sanicap = 0x1 };
	struct prepstep fmt = { .kind = PREPSTEP_FORMAT, .setting = PREPSTEP_SES_CRYPTO };
	struct prepstep san = { .kind = PREPSTEP_SANITIZE, .setting = PREPSTEP_SAN_BLOCK };
	struct nvmepurge_plan p;
	char err[256];

	(void)state;
	assert_int_equal(nvmepurge_plan(&fmt, NULL, 0, &p, err, sizeof(err)), -EOPNOTSUPP);
	assert_string_equal(err, "not an NVMe namespace whose identity could be read (Identify Controller and "
			    "Namespace, as root)");
	assert_int_equal(nvmepurge_plan(&fmt, &id, 0, &p, err, sizeof(err)), -EOPNOTSUPP);
	assert_string_equal(err, "the controller has no cryptographic erase (Identify Controller FNA bit 2 is 0)");
	id.fna = 4;
	assert_int_equal(nvmepurge_plan(&fmt, &id, 0, &p, err, sizeof(err)), 0);
	assert_int_equal(p.cdw10, 0x400);
	id.fna = 4 | 1;
	assert_int_equal(nvmepurge_plan(&fmt, &id, 2, &p, err, sizeof(err)), -EOPNOTSUPP);
	assert_string_equal(err, "a format on this controller applies to all its namespaces (Identify Controller "
			    "FNA bit 0 is 1), and it has 2 other namespaces");
	assert_int_equal(nvmepurge_plan(&san, &id, 0, &p, err, sizeof(err)), -EOPNOTSUPP);
	assert_string_equal(err, "the controller does not support sanitize block erase (Identify Controller SANICAP "
			    "bit 1 is 0)");
	san.setting = PREPSTEP_SAN_CRYPTO;
	assert_int_equal(nvmepurge_plan(&san, &id, 0, &p, err, sizeof(err)), 0);
	assert_int_equal(p.cdw10, 0x4);
	assert_int_equal(nvmepurge_plan(&san, &id, 1, &p, err, sizeof(err)), -EOPNOTSUPP);
	assert_string_equal(err, "a sanitize erases every namespace of the controller, and it has 1 other namespace");
}

/* The fake drive: the admin commands it saw, and the sanitize status pages it answers in turn. */
static struct {
	unsigned nadmin;
	uint8_t opc[4];
	uint32_t nsid[4], cdw10[4], cdw11[4];
	int admin_ret;
	unsigned char pages[8][4];
	unsigned npages, reads;
	unsigned progress[8], nprogress;
} drive;

static int fake_admin(int fd, uint8_t opc, uint32_t nsid, uint32_t cdw10, uint32_t cdw11, uint32_t timeout_ms)
{
	(void)fd;
	assert_true(timeout_ms > 0);
	drive.opc[drive.nadmin] = opc;
	drive.nsid[drive.nadmin] = nsid;
	drive.cdw10[drive.nadmin] = cdw10;
	drive.cdw11[drive.nadmin++] = cdw11;
	return drive.admin_ret;
}

static int fake_log(int fd, uint8_t lid, void *buf, uint32_t len)
{
	unsigned i = drive.reads < drive.npages ? drive.reads : drive.npages - 1;

	(void)fd;
	assert_int_equal(lid, NVMEPURGE_LID_SANITIZE);
	assert_int_equal(len, NVMEPURGE_SANLOG_LEN);
	memset(buf, 0, len);
	memcpy(buf, drive.pages[i], 4);
	drive.reads++;
	return 0;
}

static void on_progress(void *ctx, unsigned sprog)
{
	(void)ctx;
	drive.progress[drive.nprogress++ % 8] = sprog;
}

static const struct nvmepurge_ops fake = { .admin = fake_admin, .log = fake_log, .poll_ms = 1 };

static void page(unsigned i, unsigned sprog, unsigned sstat)
{
	drive.pages[i][0] = (unsigned char)sprog;
	drive.pages[i][1] = (unsigned char)(sprog >> 8);
	drive.pages[i][2] = (unsigned char)sstat;
	drive.pages[i][3] = (unsigned char)(sstat >> 8);
	drive.npages = i + 1;
}

static void test_nvmepurge_exec_format_sends_80h_to_the_namespace(void **state)
{
	struct prepstep fmt = { .kind = PREPSTEP_FORMAT, .setting = PREPSTEP_SES_USER };
	struct nvmepurge_plan p;
	char err[256];

	(void)state;
	memset(&drive, 0, sizeof(drive));
	assert_int_equal(nvmepurge_plan(&fmt, &pi_ns, 0, &p, err, sizeof(err)), 0);
	assert_int_equal(nvmepurge_exec(&fake, 3, &p, 1000, on_progress, NULL, err, sizeof(err)), 0);
	assert_int_equal(drive.nadmin, 1);
	assert_int_equal(drive.opc[0], 0x80);
	assert_int_equal(drive.nsid[0], 3);
	assert_int_equal(drive.cdw10[0], 0x331);
	assert_int_equal(drive.reads, 0);
	drive.admin_ret = 0x410a;   /* Invalid Format */
	assert_int_equal(nvmepurge_exec(&fake, 3, &p, 1000, NULL, NULL, err, sizeof(err)), -EIO);
	assert_string_equal(err, "Format NVM: the drive refused it (NVMe status 0x410a)");
}

static void test_nvmepurge_exec_sanitize_polls_until_done_with_progress(void **state)
{
	struct nvmeid id = { .nsid = 1, .sanicap = 0x4 };
	struct prepstep san = { .kind = PREPSTEP_SANITIZE, .setting = PREPSTEP_SAN_OVERWRITE };
	struct nvmepurge_plan p;
	char err[256];

	(void)state;
	memset(&drive, 0, sizeof(drive));
	assert_int_equal(nvmepurge_plan(&san, &id, 0, &p, err, sizeof(err)), 0);
	page(0, 0, NVMEPURGE_SST_RUNNING);
	page(1, 0x8000, NVMEPURGE_SST_RUNNING | 1 << 3);
	page(2, 0xffff, NVMEPURGE_SST_DONE | 1 << 3);
	assert_int_equal(nvmepurge_exec(&fake, 3, &p, 10000, on_progress, NULL, err, sizeof(err)), 0);
	assert_int_equal(drive.nadmin, 1);
	assert_int_equal(drive.opc[0], 0x84);
	assert_int_equal(drive.nsid[0], 0);
	assert_int_equal(drive.cdw10[0], 0x13);
	assert_int_equal(drive.cdw11[0], 0);
	assert_int_equal(drive.reads, 3);
	assert_int_equal(drive.nprogress, 2);
	assert_int_equal(drive.progress[1], 0x8000);
}

static void test_nvmepurge_exec_sanitize_failed_or_past_its_limit(void **state)
{
	struct nvmeid id = { .nsid = 1, .sanicap = 0x2 };
	struct prepstep san = { .kind = PREPSTEP_SANITIZE, .setting = PREPSTEP_SAN_BLOCK };
	struct nvmepurge_plan p;
	char err[256];

	(void)state;
	memset(&drive, 0, sizeof(drive));
	assert_int_equal(nvmepurge_plan(&san, &id, 0, &p, err, sizeof(err)), 0);
	page(0, 0, NVMEPURGE_SST_FAILED);
	assert_int_equal(nvmepurge_exec(&fake, 3, &p, 10000, NULL, NULL, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, "sanitize failed (sanitize status log: SSTAT 3"));
	memset(&drive, 0, sizeof(drive));
	page(0, 0x4000, NVMEPURGE_SST_RUNNING);
	assert_int_equal(nvmepurge_exec(&fake, 3, &p, 20, NULL, NULL, err, sizeof(err)), -ETIMEDOUT);
	assert_string_equal(err, "sanitize still running after 0 s (25.0 % done); it goes on in the drive");
	memset(&drive, 0, sizeof(drive));
	drive.admin_ret = 0x1;   /* Invalid Command Opcode */
	assert_int_equal(nvmepurge_exec(&fake, 3, &p, 20, NULL, NULL, err, sizeof(err)), -EIO);
	assert_string_equal(err, "Sanitize: the drive refused it (NVMe status 0x1)");
	assert_int_equal(drive.reads, 0);
}

/* The read-back on a file: a hole reads zeros; one written block is a mismatch at its place. */
static void test_nvmepurge_readback_finds_a_block_not_erased(void **state)
{
	const char *path = in_dir("ns");
	struct nvmepurge_rec r = { .expect = 0 };
	char err[256], block[4096];
	int fd = open(path, O_CREAT | O_RDWR, 0600);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 2048 * 4096), 0);
	assert_int_equal(nvmepurge_readback(path, 2048, 4096, &r, err, sizeof(err)), 0);
	assert_true(r.checked);
	assert_int_equal(r.blocks_checked, NVMEPURGE_SPREAD + 2);
	assert_int_equal(r.mismatches, 0);
	assert_string_equal(nvmepurge_verdict(&r), "ok");
	memset(block, 0xa5, sizeof(block));
	assert_int_equal(pwrite(fd, block, sizeof(block), 2047 * 4096), (ssize_t)sizeof(block));
	fsync(fd);
	memset(&r, 0, sizeof(r));
	assert_int_equal(nvmepurge_readback(path, 2048, 4096, &r, err, sizeof(err)), 0);
	assert_int_equal(r.mismatches, 1);
	assert_int_equal(r.first_mismatch_lba, 2047);
	assert_string_equal(nvmepurge_verdict(&r), "mismatch");
	/* 0xff expected: every block differs, the first is block 0. */
	memset(&r, 0, sizeof(r));
	r.expect = 0xff;
	assert_int_equal(nvmepurge_readback(path, 16, 4096, &r, err, sizeof(err)), 0);
	assert_int_equal(r.blocks_checked, 16);
	assert_int_equal(r.mismatches, 16);
	assert_int_equal(r.first_mismatch_lba, 0);
	close(fd);
}

static void test_nvmepurge_rec_json(void **state)
{
	struct nvmeid id = { .nsid = 1, .format_nvm = true };
	struct prepstep purge = { .kind = PREPSTEP_PURGE };
	struct nvmepurge_rec r = { .expect = 0, .checked = true, .block_size = 512, .blocks_checked = 1026,
				   .duration_ns = 5, .rescan = 1 };
	char err[256], *s;
	json_t *o;

	(void)state;
	assert_int_equal(nvmepurge_plan(&purge, &id, 0, &r.plan, err, sizeof(err)), 0);
	o = nvmepurge_rec_json(&r);
	json_object_del(o, "reason");
	s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"duration_ns\":5,\"method\":\"format\",\"readback\":{\"block_size\":512,"
			    "\"blocks_checked\":1026,\"expect\":\"zeros\",\"first_mismatch_lba\":null,\"mismatches\":0,"
			    "\"verdict\":\"ok\"},\"rescan\":true,\"ses\":\"user-data\",\"setting\":\"auto\",\"status\":"
			    "\"ok\",\"step\":\"purge\"}");
	free(s);
	json_decref(o);
	r.expect = -1;
	r.checked = false;
	o = nvmepurge_rec_json(&r);
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "readback"), "verdict")),
			    "not checkable");
	json_decref(o);
}

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make("nvmepurge");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvmepurge_format_cdw10_keeps_the_format_in_use),
		cmocka_unit_test(test_nvmepurge_sanitize_cdw10),
		cmocka_unit_test(test_nvmepurge_dlfeat_byte),
		cmocka_unit_test(test_nvmepurge_sanitize_status_from_bytes),
		cmocka_unit_test(test_nvmepurge_samples_all_of_a_small_namespace_else_spread),
		cmocka_unit_test(test_nvmepurge_purge_picks_sanitize_then_format_then_discard),
		cmocka_unit_test(test_nvmepurge_explicit_steps_refused_with_the_reason),
		cmocka_unit_test(test_nvmepurge_exec_format_sends_80h_to_the_namespace),
		cmocka_unit_test(test_nvmepurge_exec_sanitize_polls_until_done_with_progress),
		cmocka_unit_test(test_nvmepurge_exec_sanitize_failed_or_past_its_limit),
		cmocka_unit_test(test_nvmepurge_readback_finds_a_block_not_erased),
		cmocka_unit_test(test_nvmepurge_rec_json),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
