// SPDX-License-Identifier: MIT
/* Protection information tuples made and checked by the host (include/pi.h). */
#include "pi.h"

#include <endian.h>
#include <isa-l/crc.h>
#include <string.h>

#define PI_TUPLE 8u

/* The guard of one block: CRC-16 T10-DIF of its data and of the metadata bytes before the tuple. */
static uint16_t guard_of(const struct pi_fmt *f, const unsigned char *data, const unsigned char *md)
{
	uint16_t crc = crc16_t10dif(0, data, f->lba_size);

	return f->first ? crc : crc16_t10dif(crc, md, f->meta_size - PI_TUPLE);
}

static unsigned char *tuple_of(const struct pi_fmt *f, unsigned char *md)
{
	return f->first ? md : md + f->meta_size - PI_TUPLE;
}

static uint32_t ref_of(const struct pi_fmt *f, uint64_t lba)
{
	return f->type == 3 ? 0 : (uint32_t)lba;
}

void pi_generate(const struct pi_fmt *f, const void *data, void *meta, unsigned nlb, uint64_t slba)
{
	const unsigned char *d = data;
	unsigned char *md = meta;

	for (unsigned i = 0; i < nlb; i++, d += f->lba_size, md += f->meta_size) {
		uint16_t guard = htobe16(guard_of(f, d, md)), app = htobe16(PI_APP_TAG);
		uint32_t ref = htobe32(ref_of(f, slba + i));
		unsigned char *t = tuple_of(f, md);

		memcpy(t, &guard, 2);
		memcpy(t + 2, &app, 2);
		memcpy(t + 4, &ref, 4);
	}
}

unsigned pi_check(const struct pi_fmt *f, const void *data, const void *meta, unsigned nlb, uint64_t slba,
		  enum err_pi *tag)
{
	const unsigned char *d = data;
	const unsigned char *md = meta;

	for (unsigned i = 0; i < nlb; i++, d += f->lba_size, md += f->meta_size) {
		const unsigned char *t = f->first ? md : md + f->meta_size - PI_TUPLE;
		uint16_t guard, app;
		uint32_t ref;

		memcpy(&guard, t, 2);
		memcpy(&app, t + 2, 2);
		memcpy(&ref, t + 4, 4);
		guard = be16toh(guard);
		app = be16toh(app);
		ref = be32toh(ref);
		/* The escapes that turn checking off for a block (NVMe, and T10 DIF before it). */
		if (app == 0xffff && (f->type != 3 || ref == 0xffffffffu))
			continue;
		*tag = guard != guard_of(f, d, md) ? ERR_PI_GUARD : app != PI_APP_TAG ? ERR_PI_APP :
		       f->type != 3 && ref != ref_of(f, slba + i) ? ERR_PI_REF : ERR_PI_NONE;
		if (*tag != ERR_PI_NONE)
			return i;
	}
	*tag = ERR_PI_NONE;
	return nlb;
}

enum err_pi pi_nvme_status(int status)
{
	switch (status & 0x7ff) {
	case 0x282:
		return ERR_PI_GUARD;
	case 0x283:
		return ERR_PI_APP;
	case 0x284:
		return ERR_PI_REF;
	default:
		return ERR_PI_NONE;
	}
}
