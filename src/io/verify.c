// SPDX-License-Identifier: MIT
/* Verification units: stamping, checking and classifying; the generation map; counting. */
#include <errno.h>
#include <isa-l/crc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "verify.h"

static inline void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t get64(const unsigned char *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

unsigned verify_unit(uint64_t bs)
{
	unsigned u = 4096;

	while (u > 512 && bs % u)
		u >>= 1;
	return u;
}

uint32_t verify_crc(const void *p, unsigned len)
{
	/*
	 * ISA-L's prototype takes a non-const buffer, which it only reads. It takes the initial value and
	 * leaves out the final inversion: the standard CRC-32C (check value 0xE3069283) is its complement.
	 */
	return ~crc32_iscsi((unsigned char *)(uintptr_t)p + 8, (int)(len - 8), 0xffffffffu);
}

void verify_stamp(void *buf, size_t len, unsigned unit, uint64_t off, uint64_t run_id, uint8_t gen)
{
	for (size_t at = 0; at < len; at += unit) {
		unsigned char *p = (unsigned char *)buf + at;

		put32(p, VERIFY_MAGIC);
		put64(p + 8, off + at);
		put64(p + 16, run_id);
		put32(p + 24, unit);
		p[28] = gen;
		p[29] = VERIFY_VERSION;
		p[30] = p[31] = 0;
		put32(p + 4, verify_crc(p, unit));
	}
}

void verify_decode(const void *p, struct vfields *f)
{
	const unsigned char *b = p;

	f->magic = get32(b);
	f->crc = get32(b + 4);
	f->offset = get64(b + 8);
	f->run_id = get64(b + 16);
	f->len = get32(b + 24);
	f->gen = b[28];
}

/* g in the cyclic range lo..hi of generations 1..VGEN_MAX (lo 0 counts from 1; hi 0: empty). */
static bool gen_in(uint8_t g, uint8_t lo, uint8_t hi)
{
	unsigned l = lo ? lo : 1;

	if (!hi || !g || g > VGEN_MAX || hi > VGEN_MAX)
		return false;
	return (g + VGEN_MAX - l) % VGEN_MAX <= (hi + VGEN_MAX - l) % VGEN_MAX;
}

/* g follows hi by 1..newer generations (a write after the journal's last record). */
static bool gen_after(uint8_t g, uint8_t hi, uint8_t newer)
{
	unsigned d;

	if (!g || g > VGEN_MAX)
		return false;
	d = (g + VGEN_MAX - (hi ? hi : VGEN_MAX)) % VGEN_MAX;
	return d >= 1 && d <= newer;
}

static enum vres mismatch(struct vmismatch *m, enum vkind kind, const unsigned char *p, unsigned unit,
			  uint64_t off, const struct vexpect *e, bool has_header)
{
	memset(m, 0, sizeof(*m));
	m->kind = (uint8_t)kind;
	m->offset = off;
	m->has_header = has_header;
	m->exp_run_id = e->run_id;
	m->exp_gen_lo = e->lo;
	m->exp_gen_hi = e->inflight ? e->inflight : e->hi;   /* a write in flight may have landed */
	verify_decode(p, &m->found);
	m->crc_computed = verify_crc(p, unit);
	memcpy(m->excerpt, p, VERIFY_EXCERPT);
	return VR_MISMATCH;
}

/* A valid unit of this run with generation g, against what e accepts. */
static enum vres check_gen(const unsigned char *p, unsigned unit, uint64_t off, const struct vexpect *e,
			   uint8_t g, struct vmismatch *m)
{
	if (e->inflight && g == e->inflight)
		return VR_INFLIGHT_NEW;
	if (gen_in(g, e->lo, e->hi))
		return e->inflight ? VR_INFLIGHT_OLD : VR_OK;
	if (gen_after(g, e->inflight ? e->inflight : e->hi, e->newer))
		return VR_UNFLUSHED;
	if (e->wrapped)
		return VR_TORN;   /* any generation may be there: which one, the map cannot tell */
	return mismatch(m, VK_STALE, p, unit, off, e, true);
}

/* Not a unit of this run where e looks for one: the old content of a first write in flight, or else. */
static enum vres not_ours(const unsigned char *p, unsigned unit, uint64_t off, const struct vexpect *e,
			  bool has_header, struct vmismatch *m)
{
	if (e->inflight && e->lo == 0)
		return VR_INFLIGHT_OLD;
	if (e->lo == 0 || e->any_run)
		return VR_UNWRITTEN;
	return mismatch(m, VK_FOREIGN, p, unit, off, e, has_header);
}

/*
 * A header of another unit size, in its place: another run's layout. Its checksum is checked where
 * its unit lies within the one read; a larger unit's cannot be (nor read past the unit), and is taken
 * on its header, unless it names this run, which never writes another unit size.
 */
static bool other_layout(const unsigned char *p, unsigned unit, uint64_t off, const struct vfields *f,
			 const struct vexpect *e)
{
	if (f->len == unit || f->len < VERIFY_HDR || f->len > 4096 || (f->len & (f->len - 1)) ||
	    off % f->len || f->offset != off)
		return false;
	if (f->len < unit)
		return f->crc == verify_crc(p, f->len);
	return e->any_run || f->run_id != e->run_id;
}

enum vres verify_unit_check(const void *buf, unsigned unit, uint64_t off, const struct vexpect *e,
			    struct vmismatch *m)
{
	const unsigned char *p = buf;
	struct vfields f;

	if (get32(p) != VERIFY_MAGIC)
		return not_ours(p, unit, off, e, false, m);
	verify_decode(p, &f);
	if (f.len != unit) {
		if (other_layout(p, unit, off, &f, e))
			return not_ours(p, unit, off, e, true, m);
		return e->overlap ? VR_TORN : mismatch(m, VK_CORRUPT, p, unit, off, e, true);
	}
	if (f.crc != verify_crc(p, unit))
		return e->overlap ? VR_TORN : mismatch(m, VK_CORRUPT, p, unit, off, e, true);
	if (f.offset != off)
		return mismatch(m, VK_MISPLACED, p, unit, off, e, true);
	if (e->any_run)
		return VR_OK;
	if (f.run_id != e->run_id)
		return not_ours(p, unit, off, e, true, m);
	if (e->lo == 0 && e->hi == 0 && !e->inflight) {
		/* This run's unit where the map says it never wrote: only newer writes can explain it. */
		if (e->newer)
			return VR_UNFLUSHED;
		return mismatch(m, VK_STALE, p, unit, off, e, true);
	}
	return check_gen(p, unit, off, e, f.gen, m);
}

/*
 * The length of the unit that starts at p (target offset off) by its own header; 4096 where the magic
 * is there but the length is not one (a corrupt header is checked as the usual unit); 0 for no header.
 */
static unsigned unit_at(const unsigned char *p, size_t avail, uint64_t off)
{
	uint32_t len;

	if (get32(p) != VERIFY_MAGIC)
		return 0;
	len = get32(p + 24);
	if (len < 512 || len > 4096 || (len & (len - 1)) || off % len || len > avail)
		len = 4096;
	return off % len == 0 && len <= avail ? len : 512;
}

void verify_scan(const void *buf, size_t len, uint64_t off, uint8_t phase, struct verify_result *v)
{
	const struct vexpect any = { .any_run = true };
	const unsigned char *p = buf;
	size_t at = 0;

	while (at + 512 <= len) {
		unsigned u = unit_at(p + at, len - at, off + at);
		struct vmismatch m;
		enum vres r;

		if (!u) {
			/* No header: counted once per 4 KiB that starts without one. */
			if ((off + at) % 4096 == 0)
				v->unwritten++;
			at += 512;
			continue;
		}
		r = verify_unit_check(p + at, u, off + at, &any, &m);
		m.phase = phase;
		verify_count(v, r, &m, u);
		at += u;
	}
}

int vmap_alloc(struct vmap *m, uint64_t base, uint64_t span, uint64_t bs, uint64_t run_id)
{
	memset(m, 0, sizeof(*m));
	m->nblocks = vmap_bytes(span, bs);
	m->mem = calloc(m->nblocks ? m->nblocks : 1, 1);
	if (!m->mem)
		return -ENOMEM;
	m->e = m->mem;
	m->base = base;
	m->bs = bs;
	m->unit = verify_unit(bs);
	m->run_id = run_id;
	return 0;
}

int vmap_count_writes(struct vmap *m)
{
	uint64_t n = 1;

	while (n < m->nblocks && n < VMAP_COUNTS)
		n <<= 1;
	if (!(m->writes = calloc(n, sizeof(*m->writes))))
		return -ENOMEM;
	m->wmask = n - 1;
	return 0;
}

int vmap_set_floor(struct vmap *m, uint8_t window)
{
	if (!(m->floor = calloc(m->nblocks ? m->nblocks : 1, 1)))
		return -ENOMEM;
	m->window = window;
	atomic_store(&m->floor_wait, false);
	return 0;
}

void vmap_floor_advance(struct vmap *m, const uint8_t *ckpt)
{
	/* Entry by entry, as workers read it: each is the old floor or the new, both durable now. */
	for (uint64_t i = 0; i < m->nblocks; i++)
		atomic_store_explicit(&m->floor[i], ckpt[i], memory_order_relaxed);
	atomic_store_explicit(&m->floor_wait, false, memory_order_relaxed);
}

void vmap_release(struct vmap *m)
{
	free(m->mem);
	free(m->writes);
	free(m->floor);
	m->mem = NULL;
	m->e = NULL;
	m->writes = NULL;
	m->floor = NULL;
}

/*
 * The list of first mismatches keeps the lowest offsets, in order (a tie after the ones already
 * there): what several threads, a deep queue or a merge find in whatever order, always listed the same.
 */
static void keep_first(struct verify_result *v, const struct vmismatch *m)
{
	unsigned at = v->nfirst;

	while (at > 0 && v->first[at - 1].offset > m->offset)
		at--;
	if (at >= VERIFY_MAX_FIRST)
		return;
	if (v->nfirst < VERIFY_MAX_FIRST)
		v->nfirst++;
	memmove(&v->first[at + 1], &v->first[at], (v->nfirst - 1 - at) * sizeof(v->first[0]));
	v->first[at] = *m;
}

void verify_count(struct verify_result *v, enum vres r, const struct vmismatch *m, unsigned unit)
{
	switch (r) {
	case VR_UNWRITTEN:
		v->unwritten++;
		return;
	case VR_TORN:
		v->torn++;
		return;
	case VR_INFLIGHT_OLD:
		v->inflight_old++;
		break;
	case VR_INFLIGHT_NEW:
		v->inflight_new++;
		break;
	case VR_UNFLUSHED:
		v->unflushed++;
		break;
	case VR_MISMATCH:
		v->mismatches++;
		v->kinds[m->kind < VK_COUNT ? m->kind : VK_CORRUPT]++;
		keep_first(v, m);
		break;
	case VR_OK:
		break;
	}
	v->blocks_checked++;
	v->bytes_checked += unit;
}

void verify_merge(struct verify_result *a, const struct verify_result *b)
{
	a->blocks_checked += b->blocks_checked;
	a->bytes_checked += b->bytes_checked;
	a->mismatches += b->mismatches;
	for (int k = 0; k < VK_COUNT; k++)
		a->kinds[k] += b->kinds[k];
	a->unwritten += b->unwritten;
	a->inflight_old += b->inflight_old;
	a->inflight_new += b->inflight_new;
	a->unflushed += b->unflushed;
	a->torn += b->torn;
	for (unsigned i = 0; i < b->nfirst; i++)
		keep_first(a, &b->first[i]);
}

uint64_t verify_new_run_id(void)
{
	uint64_t id = 0;
	struct timespec ts;

	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		id = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 40;
	}
	return id ? id : 1;
}
