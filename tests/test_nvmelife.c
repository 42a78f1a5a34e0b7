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
#include <stdlib.h>
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
	bool has_lm;                          /* answers C5h and C3h */
	unsigned char lm_feat[OCPLM_FEAT_LEN]; /* C5h's data as last set */
	unsigned char c3[OCPLM_LOG_LEN];
	unsigned c3_reads;
	uint32_t c3_read_grows;               /* added to bucket 0's reads at each read of C3h after the first */
	size_t tel_bytes;                     /* the telemetry log's size; 0: refused */
} drive;

static int fake_get(int fd, uint8_t fid, void *data, uint32_t len, uint32_t *result)
{
	(void)fd;
	if (data)
		memset(data, 0, len);
	if (fid == drive.refuse_get || (fid == OCPLM_FID && !drive.has_lm))
		return 0x2;  /* Invalid Field in Command */
	if (fid == OCPLM_FID)
		memcpy(data, drive.lm_feat, len);
	*result = drive.v[fid];
	return 0;
}

/* Log C3h: the fixture's layout, bucket 0's read counter (column 3) growing by c3_read_grows a read. */
static int fake_log(int fd, uint8_t lid, void *buf, uint32_t len)
{
	uint32_t reads;

	(void)fd;
	if (lid != OCPLM_LID || !drive.has_lm)
		return 0x2;
	reads = drive.c3_reads++ ? drive.c3_read_grows * (drive.c3_reads - 1) : 0;
	drive.c3[0x20 + 12] = (unsigned char)reads;
	memcpy(buf, drive.c3, len < sizeof(drive.c3) ? len : sizeof(drive.c3));
	return 0;
}

static int fake_set(int fd, uint8_t fid, uint32_t cdw11, void *data, uint32_t len, uint32_t *result)
{
	(void)fd;
	*result = 0;
	if (data && fid == OCPLM_FID && len == OCPLM_FEAT_LEN)
		memcpy(drive.lm_feat, data, len);
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

/* A telemetry log of drive.tel_bytes bytes (0: the drive refuses the command). */
static int fake_telemetry(int fd, void **buf, size_t *len)
{
	unsigned char *p;

	(void)fd;
	if (!drive.tel_bytes)
		return 0x2;
	if (!(p = malloc(drive.tel_bytes)))
		return -1;
	for (size_t i = 0; i < drive.tel_bytes; i++)
		p[i] = (unsigned char)i;
	*buf = p;
	*len = drive.tel_bytes;
	return 0;
}

static const struct nvmelife_ops fake = { .get = fake_get, .set = fake_set, .log = fake_log,
					  .telemetry = fake_telemetry };
static const struct nvmelife_caps caps = { .npss = 4, .apst = true, .vwc = true };

static int reset(void **state)
{
	(void)state;
	memset(&drive, 0, sizeof(drive));
	drive.refuse_set = drive.refuse_get = -1;
	drive.v[NVMELIFE_FID_POWER_MGMT] = 0x40 | 1;  /* workload hint 2, power state 1 */
	drive.v[NVMELIFE_FID_APST] = 1;
	drive.v[NVMELIFE_FID_VWC] = 1;
	/* An empty C3h page with the monitor's GUID (as tests/fixtures/ocp/gen-c3.py writes it). */
	static const unsigned char guid[16] = { 0x92, 0x7a, 0xc0, 0x8c, 0xd0, 0x84, 0x6c, 0x9c,
						0x70, 0x43, 0xe6, 0xd4, 0x58, 0x5e, 0xd4, 0x85 };
	memcpy(drive.c3 + 0x1f0, guid, sizeof(guid));
	drive.c3[0x06] = 0;
	drive.c3[0x07] = 1;
	drive.c3[0x08] = 9;
	drive.c3[0x09] = 19;
	memset(drive.lm_feat, 0x5a, sizeof(drive.lm_feat));
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

/* A drive without the latency monitor (QEMU): not supported, the reason names C5h, nothing set. */
static void test_nvmelife_lm_not_supported(void **state)
{
	static const unsigned ms[4] = { 5, 10, 50, 100 };
	struct nvmelife_lm lm = { 0 };
	json_t *o;

	(void)state;
	nvmelife_lm_begin(&fake, 3, ms, &lm);
	assert_true(lm.asked);
	assert_false(lm.supported);
	assert_non_null(strstr(lm.reason, "Get Features C5h"));
	nvmelife_lm_end(&fake, 3, &lm);
	assert_int_equal(drive.nsets, 0);
	o = nvmelife_lm_json(&lm);
	assert_true(json_is_false(json_object_get(o, "supported")));
	assert_non_null(strstr(json_string_value(json_object_get(o, "reason")), "C5h"));
	json_decref(o);
	lm.asked = false;
	assert_null(nvmelife_lm_json(&lm));
}

/* A drive with it: programmed with the thresholds, counted, and put back as Get Features gave it. */
static void test_nvmelife_lm_programs_counts_and_restores(void **state)
{
	static const unsigned ms[4] = { 5, 10, 50, 100 };
	struct nvmelife_lm lm = { 0 };
	json_t *o, *b;

	(void)state;
	drive.has_lm = true;
	drive.c3_read_grows = 4;
	nvmelife_lm_begin(&fake, 3, ms, &lm);
	assert_true(lm.supported);
	assert_true(lm.set);
	assert_int_equal(drive.lm_feat[2], 0);    /* A: 5 ms */
	assert_int_equal(drive.lm_feat[3], 1);    /* B: 10 ms */
	assert_int_equal(drive.lm_feat[12], 1);   /* enabled */
	lm.has_host = true;
	lm.host[0][OCPLM_READ] = 9;
	nvmelife_lm_end(&fake, 3, &lm);
	assert_true(lm.restored);
	assert_int_equal(drive.lm_feat[0], 0x5a); /* what Get Features gave, back */
	assert_int_equal(drive.lm_feat[OCPLM_FEAT_LEN - 1], 0x5a);
	o = nvmelife_lm_json(&lm);
	assert_true(json_is_true(json_object_get(o, "supported")));
	assert_true(json_is_true(json_object_get(o, "restored")));
	b = json_array_get(json_object_get(json_object_get(o, "drive"), "buckets"), 0);
	assert_int_equal(json_integer_value(json_object_get(b, "read")), 4);  /* 8 at the end - 4 once programmed */
	b = json_array_get(json_object_get(json_object_get(o, "host"), "buckets"), 0);
	assert_int_equal(json_integer_value(json_object_get(b, "read")), 9);
	assert_null(json_object_get(o, "error"));
	json_decref(o);
}

/* The restore of the feature refused: recorded as not restored, with the error. */
static void test_nvmelife_lm_failed_restore_is_recorded(void **state)
{
	static const unsigned ms[4] = { 5, 10, 50, 100 };
	struct nvmelife_lm lm = { 0 };
	json_t *o;

	(void)state;
	drive.has_lm = true;
	drive.refuse_set = OCPLM_FID;
	drive.refuse_after = 1;
	nvmelife_lm_begin(&fake, 3, ms, &lm);
	nvmelife_lm_end(&fake, 3, &lm);
	assert_false(lm.restored);
	o = nvmelife_lm_json(&lm);
	assert_true(json_is_false(json_object_get(o, "restored")));
	assert_non_null(strstr(json_string_value(json_object_get(o, "error")), "C5h"));
	json_decref(o);
}

/* Telemetry: captured where LPA says so, its size in the JSON, the data freed with the record. */
static void test_nvmelife_telemetry_captured(void **state)
{
	struct nvmelife_rec r = { 0 };
	json_t *o;

	(void)state;
	drive.tel_bytes = 1536;   /* the header block and two blocks of data area 1 */
	nvmelife_telemetry_capture(&fake, 3, true, &r.tel);
	assert_true(r.tel.asked && r.tel.supported);
	assert_int_equal(r.tel.bytes, 1536);
	assert_int_equal(((unsigned char *)r.tel.data)[513], 1);
	o = nvmelife_telemetry_json(&r.tel);
	assert_int_equal(json_integer_value(json_object_get(o, "bytes")), 1536);
	assert_int_equal(json_integer_value(json_object_get(o, "data_area")), 3);
	assert_null(json_object_get(o, "reason"));
	json_decref(o);
	nvmelife_rec_release(&r);
	assert_null(r.tel.data);
}

/* No telemetry (QEMU: LPA bit 3 is 0): nothing asked of the drive, the reason says LPA. */
static void test_nvmelife_telemetry_not_supported(void **state)
{
	struct nvmelife_rec r = { 0 };
	json_t *o;

	(void)state;
	drive.tel_bytes = 1536;
	nvmelife_telemetry_capture(&fake, 3, false, &r.tel);
	assert_false(r.tel.supported);
	assert_null(r.tel.data);
	o = nvmelife_telemetry_json(&r.tel);
	assert_true(json_is_false(json_object_get(o, "supported")));
	assert_non_null(strstr(json_string_value(json_object_get(o, "reason")), "LPA bit 3"));
	json_decref(o);
	r.tel = (struct nvmelife_telemetry){ 0 };
	assert_null(nvmelife_telemetry_json(&r.tel));   /* not asked: no key */
}

/* Supported, but the drive refuses the command: the status is the reason. */
static void test_nvmelife_telemetry_refused(void **state)
{
	struct nvmelife_rec r = { 0 };
	json_t *o;

	(void)state;
	nvmelife_telemetry_capture(&fake, 3, true, &r.tel);
	assert_true(r.tel.supported);
	assert_null(r.tel.data);
	o = nvmelife_telemetry_json(&r.tel);
	assert_true(json_is_true(json_object_get(o, "supported")));
	assert_non_null(strstr(json_string_value(json_object_get(o, "reason")), "NVMe status 0x2"));
	json_decref(o);
	nvmelife_rec_release(&r);
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
		cmocka_unit_test_setup(test_nvmelife_lm_not_supported, reset),
		cmocka_unit_test_setup(test_nvmelife_lm_programs_counts_and_restores, reset),
		cmocka_unit_test_setup(test_nvmelife_lm_failed_restore_is_recorded, reset),
		cmocka_unit_test_setup(test_nvmelife_telemetry_captured, reset),
		cmocka_unit_test_setup(test_nvmelife_telemetry_not_supported, reset),
		cmocka_unit_test_setup(test_nvmelife_telemetry_refused, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
