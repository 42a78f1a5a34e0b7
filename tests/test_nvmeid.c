// SPDX-License-Identifier: MIT
/*
 * nvmeid: Identify Controller and Identify Namespace data decoded from bytes laid out here by the
 * NVMe base specification's offsets (not by libnvme's structures, which the decoder uses), and the
 * target.nvme and target.pcie objects.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "nvmeid.h"
#include "nvmens.h"

static unsigned char data[NVMEID_DATA_LEN];

static void put_le(size_t off, uint64_t v, size_t len)
{
	for (size_t i = 0; i < len; i++)
		data[off + i] = (unsigned char)(v >> (8 * i));
}

/* Space-padded ASCII, as Identify Controller holds SN, MN and FR. */
static void put_str(size_t off, size_t len, const char *s)
{
	memset(data + off, ' ', len);
	memcpy(data + off, s, strlen(s));
}

/* Identify Controller as QEMU's controller gives it: VID 0x1b36, SSVID 0x1af4, a cache present. */
static void qemu_ctrl(void)
{
	memset(data, 0, sizeof(data));
	put_le(0, 0x1b36, 2);                    /* VID */
	put_le(2, 0x1af4, 2);                    /* SSVID */
	put_str(4, 20, "SSDBENCH0001");          /* SN */
	put_str(24, 40, "QEMU NVMe Ctrl");       /* MN */
	put_str(64, 8, "7.2.22");                /* FR */
	data[525] = 0x07;                        /* VWC: present, flush with NSID FFFFFFFFh supported */
}

/* Identify Namespace with nlbaf (0's based) formats, FLBAS flbas, NSZE nsze. */
static void ns_data(uint64_t nsze, unsigned nlbaf, unsigned flbas)
{
	memset(data, 0, sizeof(data));
	put_le(0, nsze, 8);                      /* NSZE */
	put_le(8, nsze, 8);                      /* NCAP */
	data[25] = (unsigned char)nlbaf;         /* NLBAF */
	data[26] = (unsigned char)flbas;         /* FLBAS */
}

/* LBA Format i at byte 128 + 4i: MS (16 bits), LBADS (a power of two), RP. */
static void lbaf(unsigned i, unsigned ms, unsigned lbads)
{
	put_le(128 + 4 * i, ms, 2);
	data[128 + 4 * i + 2] = (unsigned char)lbads;
}

/* QEMU's eight formats: 512 and 4096 bytes, each with 0, 8, 16 and 64 bytes of metadata. */
static void qemu_formats(void)
{
	static const unsigned ms[] = { 0, 8, 16, 64 };

	for (unsigned i = 0; i < 8; i++)
		lbaf(i, ms[i % 4], i < 4 ? 9 : 12);
}

/* What the prepare steps ask of the controller: OACS bit 1, FNA bits 2:0, SANICAP bits 2:0; DLFEAT of the namespace. */
static void test_nvmeid_format_sanitize_and_dlfeat_fields(void **state)
{
	struct nvmeid id = { 0 };

	(void)state;
	qemu_ctrl();
	assert_int_equal(nvmeid_decode_ctrl(&id, data, sizeof(data), NULL, 0), 0);
	assert_false(id.format_nvm);
	assert_int_equal(id.fna, 0);
	assert_int_equal(id.sanicap, 0);
	put_le(256, 0x0002 | 0x0100, 2);         /* OACS: Format NVM, and bit 8 (not ours) */
	put_le(328, 0xe0000006, 4);              /* SANICAP: block erase, overwrite; NDI/NODMMAS bits ignored */
	data[524] = 0x0d;                        /* FNA: format all namespaces, crypto erase, bit 3 ignored */
	assert_int_equal(nvmeid_decode_ctrl(&id, data, sizeof(data), NULL, 0), 0);
	assert_true(id.format_nvm);
	assert_int_equal(id.fna, 0x5);
	assert_int_equal(id.sanicap, 0x6);
	ns_data(1000, 7, 0);
	qemu_formats();
	data[33] = 0x19;                         /* DLFEAT: reads zeros (001b), bits 3 and 4 not ours */
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), NULL, 0), 0);
	assert_int_equal(id.dlfeat, 1);
}

static void test_nvmeid_ctrl_ids_strings_and_cache(void **state)
{
	struct nvmeid id = { 0 };
	char err[128] = "";

	(void)state;
	qemu_ctrl();
	assert_int_equal(nvmeid_decode_ctrl(&id, data, sizeof(data), err, sizeof(err)), 0);
	assert_int_equal(id.vendor_id, 0x1b36);
	assert_int_equal(id.subsystem_vendor_id, 0x1af4);
	assert_string_equal(id.serial, "SSDBENCH0001");
	assert_string_equal(id.model, "QEMU NVMe Ctrl");
	assert_string_equal(id.firmware, "7.2.22");
	assert_true(id.vwc_present);
	assert_int_equal(id.vwc_enabled, -1);   /* Get Features 06h says, not Identify */
	assert_int_equal(id.npss, 0);           /* QEMU: one power state */
	assert_false(id.apsta);
	data[263] = 4;                          /* NPSS */
	data[265] = 0x01;                       /* APSTA bit 0 */
	assert_int_equal(nvmeid_decode_ctrl(&id, data, sizeof(data), err, sizeof(err)), 0);
	assert_int_equal(id.npss, 4);
	assert_true(id.apsta);
	assert_false(id.telemetry);
	data[261] = 0x08;                       /* LPA bit 3: telemetry */
	assert_int_equal(nvmeid_decode_ctrl(&id, data, sizeof(data), err, sizeof(err)), 0);
	assert_true(id.telemetry);
}

/* VWC bits 2:1 say how Flush with the broadcast NSID behaves; only bit 0 says there is a cache. */
static void test_nvmeid_ctrl_cache_is_bit_0_only(void **state)
{
	struct nvmeid id = { 0 };

	(void)state;
	qemu_ctrl();
	data[525] = 0x06;
	assert_int_equal(nvmeid_decode_ctrl(&id, data, sizeof(data), NULL, 0), 0);
	assert_false(id.vwc_present);
	assert_int_equal(id.vwc_enabled, 0);    /* no cache: none enabled */
}

/* Fields that fill all their bytes have no terminator; padding at both ends and NULs are trimmed. */
static void test_nvmeid_ctrl_strings_full_width_and_trimmed(void **state)
{
	struct nvmeid id = { 0 };

	(void)state;
	qemu_ctrl();
	memcpy(data + 4, "ABCDEFGHIJKLMNOPQRST", 20);
	put_str(24, 40, "  Vendor Model 1TB");
	memset(data + 64, 0, 8);
	memcpy(data + 64, "FW1", 3);
	assert_int_equal(nvmeid_decode_ctrl(&id, data, sizeof(data), NULL, 0), 0);
	assert_string_equal(id.serial, "ABCDEFGHIJKLMNOPQRST");
	assert_string_equal(id.model, "Vendor Model 1TB");
	assert_string_equal(id.firmware, "FW1");
}

/* A byte outside printable ASCII would make the JSON string invalid UTF-8: it becomes '?'. */
static void test_nvmeid_ctrl_unprintable_bytes_become_question_marks(void **state)
{
	struct nvmeid id = { 0 };
	json_t *o;

	(void)state;
	qemu_ctrl();
	data[6] = 0xff;
	data[7] = 0x01;
	assert_int_equal(nvmeid_decode_ctrl(&id, data, sizeof(data), NULL, 0), 0);
	assert_string_equal(id.serial, "SS??ENCH0001");
	o = nvmeid_json(&id);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "serial")), "SS??ENCH0001");
	json_decref(o);
}

static void test_nvmeid_short_buffers_are_refused(void **state)
{
	struct nvmeid id = { 0 };
	char err[128] = "";

	(void)state;
	qemu_ctrl();
	assert_int_equal(nvmeid_decode_ctrl(&id, data, 4095, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "Identify Controller: 4095 bytes, the data is 4096");
	assert_int_equal(nvmeid_decode_ns(&id, data, 512, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "Identify Namespace: 512 bytes, the data is 4096");
}

/* QEMU's 4Kn namespace of 128 MiB: format 4 of 8. */
static void test_nvmeid_ns_4kn_format_in_use(void **state)
{
	struct nvmeid id = { 0 };
	char err[128] = "";

	(void)state;
	ns_data(32768, 7, 4);
	qemu_formats();
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), err, sizeof(err)), 0);
	assert_int_equal(id.nsze, 32768);
	assert_int_equal(id.lbaf, 4);
	assert_int_equal(id.lba_data_size, 4096);
	assert_int_equal(id.lba_metadata_size, 0);
}

/* FLBAS bit 4 (metadata at the end of each block) is not part of the index. */
static void test_nvmeid_ns_metadata_and_extended_bit(void **state)
{
	struct nvmeid id = { 0 };

	(void)state;
	ns_data(1000, 7, 0x10 | 1);
	qemu_formats();
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), NULL, 0), 0);
	assert_int_equal(id.lbaf, 1);
	assert_int_equal(id.lba_data_size, 512);
	assert_int_equal(id.lba_metadata_size, 8);
	assert_true(id.extended_lba);
	assert_int_equal(id.pi_type, 0);         /* DPS 0: metadata without protection information */
}

/*
 * The NVM command set's Identify Namespace (CNS 05h): ELBAF[n] from byte 12, 4 bytes each,
 * little-endian, bits 8:7 the PI format (0: 16-bit guard, 2: 64-bit guard); short replies say 0.
 */
static void test_nvmens_pif_from_elbaf(void **state)
{
	static unsigned char nvm[4096];

	(void)state;
	memset(nvm, 0, sizeof(nvm));
	nvm[12 + 4 * 3] = 0x80;      /* ELBAF[3]: bit 7, PIF 1 */
	nvm[12 + 4 * 5 + 1] = 0x01;  /* ELBAF[5]: bit 8, PIF 2 */
	nvm[12 + 4 * 6] = 0x7f;      /* ELBAF[6]: the storage tag size alone */
	assert_int_equal(nvmens_pif(nvm, sizeof(nvm), 0), 0);
	assert_int_equal(nvmens_pif(nvm, sizeof(nvm), 3), 1);
	assert_int_equal(nvmens_pif(nvm, sizeof(nvm), 5), 2);
	assert_int_equal(nvmens_pif(nvm, sizeof(nvm), 6), 0);
	assert_int_equal(nvmens_pif(nvm, 12 + 4 * 5, 5), 0);
	assert_int_equal(nvmens_pif(nvm, sizeof(nvm), 64), 0);
}

/* DPS byte 29: bits 2:0 the PI type, bit 3 the PI in the first 8 bytes of the metadata. */
static void test_nvmeid_ns_protection_information(void **state)
{
	struct nvmeid id = { 0 };

	(void)state;
	ns_data(1000, 7, 1);                     /* 512 + 8, a separate buffer (QEMU ms=8,pi=1) */
	qemu_formats();
	data[29] = 1;
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), NULL, 0), 0);
	assert_int_equal(id.pi_type, 1);
	assert_false(id.pi_first);
	assert_false(id.extended_lba);
	assert_int_equal(id.lba_metadata_size, 8);

	ns_data(1000, 7, 6);                     /* 4096 + 16, PI type 3 first (QEMU ms=16,pi=3,pil=1) */
	qemu_formats();
	data[29] = 0x08 | 3;
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), NULL, 0), 0);
	assert_int_equal(id.pi_type, 3);
	assert_true(id.pi_first);
	assert_int_equal(id.lba_metadata_size, 16);
	assert_int_equal(id.lba_data_size, 4096);

	ns_data(1000, 7, 4);                     /* a PI type with no metadata to hold it: none */
	qemu_formats();
	data[29] = 0x08 | 2;
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), NULL, 0), 0);
	assert_int_equal(id.pi_type, 0);
	assert_false(id.pi_first);
}

/* With more than 16 formats FLBAS bits 6:5 are the index's bits 5:4; with 16 or fewer they are reserved. */
static void test_nvmeid_ns_index_high_bits_only_past_16_formats(void **state)
{
	struct nvmeid id = { 0 };

	(void)state;
	ns_data(1000, 19, 0x20 | 2);            /* 20 formats: index 0x12 = 18 */
	lbaf(18, 16, 12);
	lbaf(2, 0, 9);
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), NULL, 0), 0);
	assert_int_equal(id.lbaf, 18);
	assert_int_equal(id.lba_data_size, 4096);
	assert_int_equal(id.lba_metadata_size, 16);

	data[25] = 15;                           /* 16 formats: bits 6:5 ignored, index 2 */
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), NULL, 0), 0);
	assert_int_equal(id.lbaf, 2);
	assert_int_equal(id.lba_data_size, 512);
}

static void test_nvmeid_ns_impossible_formats_are_refused(void **state)
{
	struct nvmeid id = { 0 };
	char err[128] = "";

	(void)state;
	ns_data(1000, 1, 3);                     /* format 3 of 2 */
	qemu_formats();
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "Identify Namespace: LBA format 3 in use, but NLBAF is 1");
	ns_data(1000, 0, 0);
	lbaf(0, 0, 0);                           /* LBADS 0: not a format */
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "Identify Namespace: LBA format 0 has data size 2^0");
	ns_data(UINT64_MAX, 0, 0);
	lbaf(0, 0, 12);                          /* more bytes than a JSON integer holds */
	assert_int_equal(nvmeid_decode_ns(&id, data, sizeof(data), err, sizeof(err)), -EINVAL);
}

static void test_nvmeid_json_has_every_key(void **state)
{
	struct nvmeid id = { .vendor_id = 0x1b36, .subsystem_vendor_id = 0x1af4, .model = "QEMU NVMe Ctrl",
			     .serial = "SSDBENCH0001", .firmware = "7.2.22", .vwc_present = true,
			     .vwc_enabled = 1, .ocp = 0, .nsid = 2, .nsze = 32768, .lbaf = 4,
			     .lba_data_size = 4096, .lba_metadata_size = 0 };
	json_t *o;

	(void)state;
	o = nvmeid_json(&id);
	assert_non_null(o);
	assert_int_equal(json_object_size(o), 15);
	assert_int_equal(json_integer_value(json_object_get(o, "vendor_id")), 0x1b36);
	assert_int_equal(json_integer_value(json_object_get(o, "subsystem_vendor_id")), 0x1af4);
	assert_int_equal(json_integer_value(json_object_get(o, "namespace_bytes")), 128 << 20);
	assert_int_equal(json_integer_value(json_object_get(o, "lba_data_size")), 4096);
	assert_true(json_is_true(json_object_get(o, "volatile_write_cache")));
	assert_true(json_is_true(json_object_get(o, "write_cache_enabled")));
	assert_true(json_is_false(json_object_get(o, "ocp")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "pi"), "type")), 0);
	assert_true(json_is_null(json_object_get(json_object_get(o, "pi"), "position")));
	json_decref(o);
	id.ocp = -1;
	id.vwc_enabled = -1;
	o = nvmeid_json(&id);
	assert_true(json_is_null(json_object_get(o, "ocp")));
	assert_true(json_is_null(json_object_get(o, "write_cache_enabled")));
	json_decref(o);
}

/* target.nvme.pi: {type, metadata_size, position, extended_lba}. */
static void test_nvmeid_json_pi(void **state)
{
	struct nvmeid id = { .nsid = 3, .nsze = 1000, .lba_data_size = 512, .lba_metadata_size = 8,
			     .pi_type = 1, .extended_lba = false, .vwc_enabled = -1, .ocp = -1 };
	json_t *o = nvmeid_json(&id), *pi = json_object_get(o, "pi");

	(void)state;
	assert_int_equal(json_object_size(pi), 4);
	assert_int_equal(json_integer_value(json_object_get(pi, "type")), 1);
	assert_int_equal(json_integer_value(json_object_get(pi, "metadata_size")), 8);
	assert_string_equal(json_string_value(json_object_get(pi, "position")), "last");
	assert_true(json_is_false(json_object_get(pi, "extended_lba")));
	json_decref(o);
	id.pi_first = true;
	o = nvmeid_json(&id);
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "pi"), "position")), "first");
	json_decref(o);
}

static void test_nvmeid_pcie_json_unknown_is_null(void **state)
{
	struct pcie_link l = { .speed_gts = 8.0, .width = 4, .max_speed_gts = 16.0, .max_width = 4 };
	json_t *o = nvmeid_pcie_json(&l);

	(void)state;
	assert_true(json_number_value(json_object_get(o, "speed_gts")) == 8.0);
	assert_int_equal(json_integer_value(json_object_get(o, "width")), 4);
	assert_true(json_number_value(json_object_get(o, "max_speed_gts")) == 16.0);
	assert_int_equal(json_integer_value(json_object_get(o, "max_width")), 4);
	json_decref(o);
	l = (struct pcie_link){ .max_speed_gts = 8.0, .max_width = 2 };
	o = nvmeid_pcie_json(&l);
	assert_true(json_is_null(json_object_get(o, "speed_gts")));
	assert_true(json_is_null(json_object_get(o, "width")));
	assert_int_equal(json_integer_value(json_object_get(o, "max_width")), 2);
	json_decref(o);
}

/* Not a device, and not an NVMe one: an error with a message, never a crash or a partial identity. */
static void test_nvmeid_read_of_a_non_nvme_path_fails_with_a_message(void **state)
{
	struct nvmeid id;
	char err[256] = "";

	(void)state;
	assert_true(nvmeid_read("/nonexistent/nvme9n1", 1, &id, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "'/nonexistent/nvme9n1'"));
	err[0] = '\0';
	assert_true(nvmeid_read("/dev/null", 1, &id, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "Identify Controller"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvmeid_ctrl_ids_strings_and_cache),
		cmocka_unit_test(test_nvmeid_ctrl_cache_is_bit_0_only),
		cmocka_unit_test(test_nvmeid_ctrl_strings_full_width_and_trimmed),
		cmocka_unit_test(test_nvmeid_ctrl_unprintable_bytes_become_question_marks),
		cmocka_unit_test(test_nvmeid_short_buffers_are_refused),
		cmocka_unit_test(test_nvmeid_ns_4kn_format_in_use),
		cmocka_unit_test(test_nvmeid_ns_metadata_and_extended_bit),
		cmocka_unit_test(test_nvmeid_ns_protection_information),
		cmocka_unit_test(test_nvmeid_ns_index_high_bits_only_past_16_formats),
		cmocka_unit_test(test_nvmeid_ns_impossible_formats_are_refused),
		cmocka_unit_test(test_nvmeid_json_has_every_key),
		cmocka_unit_test(test_nvmeid_json_pi),
		cmocka_unit_test(test_nvmeid_format_sanitize_and_dlfeat_fields),
		cmocka_unit_test(test_nvmeid_pcie_json_unknown_is_null),
		cmocka_unit_test(test_nvmeid_read_of_a_non_nvme_path_fails_with_a_message),
		cmocka_unit_test(test_nvmens_pif_from_elbaf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
