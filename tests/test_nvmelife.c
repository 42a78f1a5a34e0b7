// SPDX-License-Identifier: MIT
/*
 * nvmelife: the Features' encodings, the check against NPSS and VWC, and set-and-restore on a fake
 * drive (struct nvmelife_ops over a table of feature values) that can refuse a command.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "nvmelife.h"

/* The fake drive: current values by FID, a FID whose Set is refused, and the Sets it saw. */
static struct {
	uint32_t v[256];
	int refuse_set;      /* a FID, or -1 */
	int refuse_after;    /* Sets of refuse_set that succeed before it is refused */
	int refuse_get;
	unsigned nsets;
	uint8_t set_fid[16];
	uint32_t set_val[16];
} drive;

static int fake_get(int fd, uint8_t fid, void *data, uint32_t len, uint32_t *result)
{
	(void)fd;
	if (data)
		memset(data, 0, len);
	if (fid == drive.refuse_get)
		return 0x2;  /* Invalid Field in Command */
	*result = drive.v[fid];
	return 0;
}

static int fake_set(int fd, uint8_t fid, uint32_t cdw11, uint32_t *result)
{
	(void)fd;
	*result = 0;
	if (fid == drive.refuse_set && drive.refuse_after-- <= 0) {
		errno = EIO;
		return -1;
	}
	if (drive.nsets < 16) {
		drive.set_fid[drive.nsets] = fid;
		drive.set_val[drive.nsets] = cdw11;
	}
	drive.nsets++;
	drive.v[fid] = cdw11;
	return 0;
}

static const struct nvmelife_ops fake = { .get = fake_get, .set = fake_set };
static const struct nvmelife_caps caps = { .npss = 4, .apst = true, .vwc = true };

static int reset(void **state)
{
	(void)state;
	memset(&drive, 0, sizeof(drive));
	drive.refuse_set = drive.refuse_get = -1;
	drive.v[NVMELIFE_FID_POWER_MGMT] = 0x40 | 1;  /* workload hint 2, power state 1 */
	drive.v[NVMELIFE_FID_APST] = 1;
	drive.v[NVMELIFE_FID_VWC] = 1;
	return 0;
}

/* PS is bits 4:0 and the workload hint (bits 7:5) is kept; WCE is bit 0. */
static void test_nvmelife_encodings(void **state)
{
	(void)state;
	assert_int_equal(nvmelife_ps_cdw11(0x40 | 1, 3), 0x43);
	assert_int_equal(nvmelife_ps_cdw11(0xffffffff, 0), 0xe0);
	assert_int_equal(nvmelife_ps_cdw11(0, 31), 31);
	assert_int_equal(nvmelife_ps_of(0x43), 3);
	assert_int_equal(nvmelife_ps_of(0xff), 31);
	assert_int_equal(nvmelife_wc_cdw11(true), 1);
	assert_int_equal(nvmelife_wc_cdw11(false), 0);
}

/* QEMU's NPSS 0: power state 0 only; a write cache needs VWC. */
static void test_nvmelife_check_names_npss_and_vwc(void **state)
{
	struct nvmelife_caps qemu = { .npss = 0, .vwc = true }, nocache = { .npss = 2 };
	struct nvmelife_want ps0 = { 0, -1 }, ps1 = { 1, -1 }, wc = { -1, 0 };
	char err[256];

	(void)state;
	assert_int_equal(nvmelife_check(&ps0, &qemu, err, sizeof(err)), 0);
	assert_int_equal(nvmelife_check(&ps1, &qemu, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "NPSS 0"));
	assert_int_equal(nvmelife_check(&wc, &qemu, err, sizeof(err)), 0);
	assert_int_equal(nvmelife_check(&wc, &nocache, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "VWC"));
}

/* Nothing asked: the state is read, nothing is set, nothing restored. */
static void test_nvmelife_reads_without_setting(void **state)
{
	struct nvmelife_want want = { -1, -1 };
	struct nvmelife_rec r;
	char err[256];

	(void)state;
	assert_int_equal(nvmelife_apply(&fake, 3, &caps, &want, &r, err, sizeof(err)), 0);
	assert_true(r.read);
	assert_int_equal(r.power_state, 1);
	assert_int_equal(r.apst, 1);
	assert_int_equal(r.write_cache, 1);
	assert_int_equal(drive.nsets, 0);
	assert_int_equal(nvmelife_restore(&fake, 3, &r, err, sizeof(err)), 0);
	assert_int_equal(drive.nsets, 0);
}

/* A value already in place is not set (and so not restored): power_state=1 on a drive in 1. */
static void test_nvmelife_same_value_is_not_set(void **state)
{
	struct nvmelife_want want = { 1, 1 };
	struct nvmelife_rec r;
	char err[256];

	(void)state;
	assert_int_equal(nvmelife_apply(&fake, 3, &caps, &want, &r, err, sizeof(err)), 0);
	assert_int_equal(drive.nsets, 0);
	assert_false(r.ps.done);
	assert_false(r.wc.done);
}

/* Set, read back, restored in reverse order with the workload hint the drive had. */
static void test_nvmelife_sets_and_restores(void **state)
{
	struct nvmelife_want want = { 3, 0 };
	struct nvmelife_rec r;
	char err[256];

	(void)state;
	assert_int_equal(nvmelife_apply(&fake, 3, &caps, &want, &r, err, sizeof(err)), 0);
	assert_int_equal(r.power_state, 3);
	assert_int_equal(r.write_cache, 0);
	assert_int_equal(drive.v[NVMELIFE_FID_POWER_MGMT], 0x43);
	assert_true(r.ps.done && r.wc.done);
	assert_int_equal(nvmelife_restore(&fake, 3, &r, err, sizeof(err)), 0);
	assert_int_equal(drive.v[NVMELIFE_FID_POWER_MGMT], 0x41);
	assert_int_equal(drive.v[NVMELIFE_FID_VWC], 1);
	assert_int_equal(drive.nsets, 4);
	assert_int_equal(drive.set_fid[2], NVMELIFE_FID_VWC);
	assert_int_equal(drive.set_fid[3], NVMELIFE_FID_POWER_MGMT);
	assert_true(r.ps.restored && r.wc.restored);
	/* A second restore (a signal's path and the normal one) sets nothing again. */
	assert_int_equal(nvmelife_restore(&fake, 3, &r, err, sizeof(err)), 0);
	assert_int_equal(drive.nsets, 4);
}

/* The write cache's Set refused after the power state's: the power state is still put back. */
static void test_nvmelife_failed_set_restores_what_was_set(void **state)
{
	struct nvmelife_want want = { 2, 0 };
	struct nvmelife_rec r;
	char err[256];

	(void)state;
	drive.refuse_set = NVMELIFE_FID_VWC;
	assert_int_equal(nvmelife_apply(&fake, 3, &caps, &want, &r, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, "Set Features 06h"));
	assert_true(r.ps.done);
	assert_false(r.wc.done);
	assert_int_equal(nvmelife_restore(&fake, 3, &r, err, sizeof(err)), 0);
	assert_int_equal(drive.v[NVMELIFE_FID_POWER_MGMT], 0x41);
}

/* A restore the drive refuses is an error naming what is left set, and the record says so. */
static void test_nvmelife_failed_restore_names_what_is_left(void **state)
{
	struct nvmelife_want want = { -1, 0 };
	struct nvmelife_rec r;
	char err[256];
	json_t *o;

	(void)state;
	drive.refuse_set = NVMELIFE_FID_VWC;
	drive.refuse_after = 1;
	assert_int_equal(nvmelife_apply(&fake, 3, &caps, &want, &r, err, sizeof(err)), 0);
	assert_int_equal(nvmelife_restore(&fake, 3, &r, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, "write cache is left off (it was on)"));
	assert_false(r.wc.restored);
	o = json_object();
	nvmelife_json(o, &r);
	assert_false(json_boolean_value(json_object_get(o, "write_cache")));
	json_t *s = json_object_get(json_object_get(o, "settings"), "write_cache");
	assert_true(json_boolean_value(json_object_get(s, "was")));
	assert_false(json_boolean_value(json_object_get(s, "set")));
	assert_false(json_boolean_value(json_object_get(s, "restored")));
	assert_non_null(json_string_value(json_object_get(s, "restore_error")));
	json_decref(o);
}

/* No APST and no cache: both read as off without asking the drive for features it lacks. */
static void test_nvmelife_no_apst_no_cache(void **state)
{
	struct nvmelife_caps bare = { .npss = 0 };
	struct nvmelife_want want = { -1, -1 };
	struct nvmelife_rec r;
	char err[256];
	json_t *o;

	(void)state;
	drive.refuse_get = NVMELIFE_FID_APST;
	drive.v[NVMELIFE_FID_POWER_MGMT] = 0;
	assert_int_equal(nvmelife_apply(&fake, 3, &bare, &want, &r, err, sizeof(err)), 0);
	assert_int_equal(r.apst, 0);
	assert_int_equal(r.write_cache, 0);
	o = json_object();
	nvmelife_json(o, &r);
	assert_int_equal(json_integer_value(json_object_get(o, "power_state")), 0);
	assert_true(json_is_false(json_object_get(o, "apst")));
	assert_null(json_object_get(o, "settings"));
	json_decref(o);
}

/* A Get the drive refuses fails the read with the FID named; the record is not marked read. */
static void test_nvmelife_refused_get(void **state)
{
	struct nvmelife_want want = { -1, -1 };
	struct nvmelife_rec r;
	char err[256];
	json_t *o = json_object();

	(void)state;
	drive.refuse_get = NVMELIFE_FID_POWER_MGMT;
	assert_int_equal(nvmelife_apply(&fake, 3, &caps, &want, &r, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, "Get Features 02h"));
	assert_false(r.read);
	nvmelife_json(o, &r);
	assert_int_equal(json_object_size(o), 0);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_nvmelife_encodings, reset),
		cmocka_unit_test_setup(test_nvmelife_check_names_npss_and_vwc, reset),
		cmocka_unit_test_setup(test_nvmelife_reads_without_setting, reset),
		cmocka_unit_test_setup(test_nvmelife_same_value_is_not_set, reset),
		cmocka_unit_test_setup(test_nvmelife_sets_and_restores, reset),
		cmocka_unit_test_setup(test_nvmelife_failed_set_restores_what_was_set, reset),
		cmocka_unit_test_setup(test_nvmelife_failed_restore_names_what_is_left, reset),
		cmocka_unit_test_setup(test_nvmelife_no_apst_no_cache, reset),
		cmocka_unit_test_setup(test_nvmelife_refused_get, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
