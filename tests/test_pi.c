// SPDX-License-Identifier: MIT
/*
 * pi: the guard is the standard CRC-16 T10-DIF (known vectors, computed apart from ISA-L), the
 * tuple's fields sit big-endian where NVMe puts them (first or last 8 bytes of the metadata, the
 * guard of a last tuple also covering the metadata before it), type 1 reference tags follow the LBA
 * and type 3 ones do not, every tag's corruption is found in the right block, the escapes pass,
 * and the NVMe end-to-end statuses name their tag.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pi.h"

static unsigned char data[8 * 4096];
static unsigned char meta[8 * 16];

/* Block i of 512 bytes holds (k + i) & 0xff at byte k: block 0 is the vector 0..255, 0..255. */
static void fill512(unsigned nlb)
{
	for (unsigned i = 0; i < nlb * 512; i++)
		data[i] = (unsigned char)((i % 512 + i / 512) & 0xff);
}

static uint16_t be16_at(const unsigned char *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32_at(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Check values of CRC-16/T10-DIF (poly 8BB7h, init 0, unreflected), from a bitwise implementation. */
static void test_pi_guard_is_crc16_t10dif(void **state)
{
	struct pi_fmt f = { .type = 1, .lba_size = 512, .meta_size = 8 };
	(void)state;

	fill512(1);
	pi_generate(&f, data, meta, 1, 0);
	assert_int_equal(be16_at(meta), 0x4f10);     /* bytes 0..255 twice */
	memset(data, 0xff, 512);
	pi_generate(&f, data, meta, 1, 0);
	assert_int_equal(be16_at(meta), 0xe6a1);
	memset(data, 0, 512);
	pi_generate(&f, data, meta, 1, 0);
	assert_int_equal(be16_at(meta), 0x0000);
	for (unsigned i = 0; i < 4096; i++)
		data[i] = (unsigned char)((i * 7) & 0xff);
	f.lba_size = 4096;
	pi_generate(&f, data, meta, 1, 0);
	assert_int_equal(be16_at(meta), 0x3d10);
}

static void test_pi_type1_ref_tag_follows_lba(void **state)
{
	struct pi_fmt f = { .type = 1, .lba_size = 512, .meta_size = 8 };
	(void)state;

	fill512(4);
	pi_generate(&f, data, meta, 4, 0x1fffffffeull);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(be16_at(meta + 8 * i + 2), PI_APP_TAG);
		assert_int_equal(be32_at(meta + 8 * i + 4), (uint32_t)(0xfffffffeu + i));   /* low 32 bits, wrapping */
	}
}

static void test_pi_type3_ref_tag_is_zero(void **state)
{
	struct pi_fmt f = { .type = 3, .lba_size = 4096, .meta_size = 8 };
	enum err_pi tag;
	(void)state;

	memset(data, 0x5a, 2 * 4096);
	pi_generate(&f, data, meta, 2, 77);
	assert_int_equal(be32_at(meta + 4), 0);
	assert_int_equal(be32_at(meta + 12), 0);
	/* Type 3 has no address: the same tuples check at any LBA. */
	assert_int_equal(pi_check(&f, data, meta, 2, 5, &tag), 2);
	assert_int_equal(tag, ERR_PI_NONE);
}

/* 16 bytes of metadata: the tuple last covers the 8 bytes before it; first, only the data. */
static void test_pi_position_in_16_bytes(void **state)
{
	struct pi_fmt last = { .type = 1, .lba_size = 512, .meta_size = 16 }, first = last;
	(void)state;

	first.first = true;
	fill512(1);
	memset(meta, 0xa5, 16);
	pi_generate(&last, data, meta, 1, 9);
	assert_int_equal(be16_at(meta + 8), 0xe876);
	assert_int_equal(be32_at(meta + 12), 9);
	assert_int_equal(meta[0], 0xa5);   /* the bytes before the tuple are the caller's */
	memset(meta, 0xa5, 16);
	pi_generate(&first, data, meta, 1, 9);
	assert_int_equal(be16_at(meta), 0x4f10);
	assert_int_equal(be32_at(meta + 4), 9);
	assert_int_equal(meta[8], 0xa5);
}

/* Each tag's corruption in block 2 of 4: found there, named. */
static void test_pi_check_finds_each_tag(void **state)
{
	struct pi_fmt f = { .type = 1, .lba_size = 512, .meta_size = 8 };
	enum err_pi tag;
	(void)state;

	fill512(4);
	pi_generate(&f, data, meta, 4, 100);
	assert_int_equal(pi_check(&f, data, meta, 4, 100, &tag), 4);
	assert_int_equal(tag, ERR_PI_NONE);
	/* Read at another LBA: the reference tag of the first block is wrong. */
	assert_int_equal(pi_check(&f, data, meta, 4, 101, &tag), 0);
	assert_int_equal(tag, ERR_PI_REF);
	data[2 * 512 + 17] ^= 1;
	assert_int_equal(pi_check(&f, data, meta, 4, 100, &tag), 2);
	assert_int_equal(tag, ERR_PI_GUARD);
	data[2 * 512 + 17] ^= 1;
	meta[2 * 8 + 3] ^= 0x40;
	assert_int_equal(pi_check(&f, data, meta, 4, 100, &tag), 2);
	assert_int_equal(tag, ERR_PI_APP);
	meta[2 * 8 + 3] ^= 0x40;
	meta[2 * 8 + 7] ^= 1;
	assert_int_equal(pi_check(&f, data, meta, 4, 100, &tag), 2);
	assert_int_equal(tag, ERR_PI_REF);
	/* Type 3 ignores the reference tag. */
	f.type = 3;
	pi_generate(&f, data, meta, 4, 100);
	meta[2 * 8 + 7] ^= 1;
	assert_int_equal(pi_check(&f, data, meta, 4, 100, &tag), 4);
	data[3 * 512] ^= 0x80;
	assert_int_equal(pi_check(&f, data, meta, 4, 100, &tag), 3);
	assert_int_equal(tag, ERR_PI_GUARD);
}

/* Application tag FFFFh (type 3: with reference tag FFFFFFFFh) turns a block's checks off. */
static void test_pi_escape_passes(void **state)
{
	struct pi_fmt f = { .type = 1, .lba_size = 512, .meta_size = 8 };
	enum err_pi tag;
	(void)state;

	fill512(2);
	memset(meta, 0xff, 16);
	assert_int_equal(pi_check(&f, data, meta, 2, 0, &tag), 2);
	f.type = 3;
	assert_int_equal(pi_check(&f, data, meta, 2, 0, &tag), 2);
	meta[8 + 7] = 0;   /* type 3 with the application tag's escape alone: checked */
	assert_int_equal(pi_check(&f, data, meta, 2, 0, &tag), 1);
	assert_int_equal(tag, ERR_PI_GUARD);
}

static void test_pi_nvme_status_names_tag(void **state)
{
	(void)state;
	assert_int_equal(pi_nvme_status(0x282), ERR_PI_GUARD);
	assert_int_equal(pi_nvme_status(0x283), ERR_PI_APP);
	assert_int_equal(pi_nvme_status(0x284), ERR_PI_REF);
	assert_int_equal(pi_nvme_status(0x4284), ERR_PI_REF);   /* with DNR */
	assert_int_equal(pi_nvme_status(0x281), ERR_PI_NONE);   /* write fault: not PI */
	assert_int_equal(pi_nvme_status(0x002), ERR_PI_NONE);
	assert_string_equal(err_pi_name(ERR_PI_GUARD), "guard");
	assert_string_equal(err_pi_name(ERR_PI_ANY), "unknown");
	assert_null(err_pi_name(ERR_PI_NONE));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pi_guard_is_crc16_t10dif),
		cmocka_unit_test(test_pi_type1_ref_tag_follows_lba),
		cmocka_unit_test(test_pi_type3_ref_tag_is_zero),
		cmocka_unit_test(test_pi_position_in_16_bytes),
		cmocka_unit_test(test_pi_check_finds_each_tag),
		cmocka_unit_test(test_pi_escape_passes),
		cmocka_unit_test(test_pi_nvme_status_names_tag),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
