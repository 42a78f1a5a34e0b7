// SPDX-License-Identifier: MIT
/* The worker thread and its hot loop: fill the queue, submit, reap, account. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>

#include "data.h"
#include "worker.h"
#include "zbd.h"

static enum access pattern_access(enum rw_pattern rw)
{
	switch (rw) {
	case RW_RANDREAD:
	case RW_RANDWRITE:
	case RW_RANDMIX:
	case RW_RANDTRIM:
		return ACCESS_RANDOM;
	case RW_STRIDE_READ:
	case RW_STRIDE_WRITE:
		return ACCESS_STRIDE;
	default:
		return ACCESS_SEQ;
	}
}

static uint64_t slot_bytes(uint64_t bs, uint64_t lbs)
{
	uint64_t align = lbs < 4096 ? 4096 : lbs;

	return (bs + align - 1) / align * align;
}

/* The size of a transparent huge page (hpage_pmd_size: 2 MiB on x86-64), or 0 where the kernel has none. */
static uint64_t thp_bytes(void)
{
	unsigned long long n = 0;
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "re");

	if (f) {
		if (fscanf(f, "%llu", &n) != 1 || (n & (n - 1)))
			n = 0;
		fclose(f);
	}
	return n;
}

/*
 * A worker's buffers are one pool. Where the run takes huge pages (huge > 0), a pool of a huge page or
 * more, or of requests of WORKER_HUGE_SLOT or more, is a whole number of huge pages, aligned to one and
 * advised into them (MADV_HUGEPAGE). Two costs go with 4 KiB pages, both per request and per page:
 * pinning the buffer where it is not registered (libaio, psync with O_DIRECT), and, for a target
 * that copies (zram, the page cache), TLB misses once the pool outgrows what the TLB holds. On zram,
 * 128 KiB reads: libaio at qd 1, 44-49k IOPS in small pages, 57-58k in huge ones; io_uring at qd 128
 * (a 16 MiB pool), 49-52k and 60k (docs/performance.md).
 */
uint64_t worker_pool_bytes(uint64_t slot, unsigned qd, uint64_t huge)
{
	uint64_t bytes = slot * qd;

	if (!huge || (bytes < huge && slot < WORKER_HUGE_SLOT))
		return bytes;
	return (bytes + huge - 1) / huge * huge;
}

uint64_t worker_buffer_bytes(uint64_t bs, unsigned qd, uint64_t lbs)
{
	return slot_bytes(bs, lbs) * qd;
}

uint64_t worker_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kib = 0;
	char line[128];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

uint64_t worker_buffers_huge(const struct job *j, uint64_t lbs)
{
	uint64_t huge = thp_bytes(), need = 0, avail;

	for (unsigned s = 0; huge && s < job_nstreams(j); s++) {
		const struct job *sj = job_workload(j, s);

		need += worker_pool_bytes(slot_bytes(job_max_bs(sj), lbs), job_engine_qd(sj->engine, sj->qd), huge) *
			sj->threads;
	}
	avail = huge ? worker_mem_available() : 0;
	return avail && need > avail / 2 ? 0 : huge;
}

/*
 * A pool's own mapping of bytes, aligned to align (a power of two): memory nobody touched yet, so
 * that huge page advice given before the first touch holds for all of it, in every case of a run
 * (the allocator's memory, reused from a case before or touched by a sanitizer's fill, may already
 * lie in small pages). NULL on failure.
 */
static void *pool_map(size_t bytes, size_t align)
{
	size_t len = bytes + (align > 4096 ? align : 0);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *a;

	if (p == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (p + len > a + bytes)
		munmap(a + bytes, (size_t)(p + len - (a + bytes)));
	return a;
}

static int alloc_slots(struct worker *w)
{
	struct engine_ctx *c = &w->ec;
	unsigned qd = c->qd;
	size_t align = w->lbs_align < 4096 ? 4096 : w->lbs_align;
	uint64_t huge = w->ctl ? w->ctl->huge : 0;
	size_t pool;

	c->bufsize = (size_t)slot_bytes(job_max_bs(w->job), w->lbs_align);
	pool = (size_t)worker_pool_bytes(c->bufsize, qd, huge);
	if (huge > align && pool % huge == 0)
		align = (size_t)huge;
	c->reqs = calloc(qd, sizeof(*c->reqs));
	w->free = calloc(qd, sizeof(*w->free));
	w->queued = calloc(qd, sizeof(*w->queued));
	c->done = calloc(qd, sizeof(*c->done));
	if (!c->reqs || !w->free || !w->queued || !c->done)
		return -ENOMEM;
	/* The null engine has no buffers, but with verify=on it stamps and checksums them all the same. */
	if (!job_no_io(w->job) || w->vmap) {
		if (!(c->bufmem = pool_map(pool, align)))
			return -ENOMEM;
		w->bufpool = pool;
		if (align == huge)
			(void)madvise(c->bufmem, pool, MADV_HUGEPAGE);   /* advice: small pages where it is refused */
	}
	for (unsigned i = 0; i < qd; i++) {
		struct ioreq *r = &c->reqs[i];

		r->idx = (uint16_t)i;
		r->len = (uint32_t)w->job->bs;
		r->buf = c->bufmem ? (char *)c->bufmem + (size_t)i * c->bufsize : NULL;
		r->buf_dirty = 1;
		w->free[w->nfree++] = r;
	}
	return 0;
}

/*
 * The heat bins of results.realized: at most RZ_HEAT_BINS bins of a power of two bytes, aligned to
 * it, from the one that holds base to the one that holds base + len - 1. A request counts in slot
 * (offset >> shift) % RZ_HEAT_BINS: no subtraction, and bin k of the region is slot
 * ((heat_base >> shift) + k) % RZ_HEAT_BINS.
 */
static void rz_init(struct realized *rz, uint64_t base, uint64_t len)
{
	unsigned shift = 9;

	while (shift < 62 && ((base & ((1ull << shift) - 1)) + len + (1ull << shift) - 1) >> shift > RZ_HEAT_BINS)
		shift++;
	rz->heat_base = base >> shift << shift;
	rz->heat_shift = shift;
	rz->heat_bins = (unsigned)((base - rz->heat_base + len + (1ull << shift) - 1) >> shift);
	if (!rz->heat_bins)
		rz->heat_bins = 1;
}

/* randommap: this thread's slice laid out in groups of one deck (job_map_group), and its permutation. */
static int randmap_init(struct worker *w, uint64_t base, uint64_t len, uint64_t seed)
{
	const struct job *j = w->job;
	struct randmap *m = calloc(1, sizeof(*m));
	const struct bssplit *b = job_map_split(j);

	if (!m)
		return -ENOMEM;
	w->rmap = m;
	m->szi = calloc(BSSPLIT_SCALE, 1);
	if (!m->szi)
		return -ENOMEM;
	m->group = job_map_group(j, &m->cards, m->szi);
	if (!(m->at = calloc(m->cards + 1, sizeof(*m->at))))
		return -ENOMEM;
	for (unsigned c = 0; c < m->cards; c++)
		m->at[c + 1] = m->at[c] + (b ? b->size[m->szi[c]] : j->bs);
	if (!offgen_slice(base, len, m->group, w->id, j->threads, &m->base, &len))
		return -EINVAL;
	m->ngroups = len / m->group;
	permgen_init(&m->pg, m->ngroups * m->cards, seed ^ 0x72616e646d6170ull);
	return 0;
}

/* The vocabulary's generators of this worker's job (job_vocab). */
static int vocab_init(struct worker *w, uint64_t base, uint64_t len, uint64_t seed)
{
	const struct job *j = w->job;
	char err[128];

	w->vocab = true;
	w->split[0] = job_split(j, OP_READ);
	w->split[1] = job_split(j, OP_WRITE);
	for (unsigned k = 0; k < 2; k++) {
		if (!w->split[k])
			continue;
		if (k == 1 && w->split[1] == w->split[0]) {
			w->bsg[1] = w->bsg[0];   /* one deck for both: exact over all requests */
			continue;
		}
		if (!(w->bsg[k] = malloc(sizeof(*w->bsg[k]))))
			return -ENOMEM;
		bsgen_init(w->bsg[k], w->split[k], seed ^ (0x6273676e00ull + k));
	}
	if (j->dist.kind != DIST_UNIFORM) {
		if (!(w->dist = malloc(sizeof(*w->dist))))
			return -ENOMEM;
		if (dist_init(w->dist, &j->dist, w->og.nblocks, w->og.bs, seed ^ 0x64697374ull, err, sizeof(err)))
			return -EINVAL;
	}
	/* Where each size of a split fits: the grid blocks from which it does not run past the region. */
	for (unsigned k = 0; k < 2; k++)
		for (unsigned i = 0; w->split[k] && i < w->split[k]->n; i++)
			w->places[k][i] = w->og.nblocks - (w->split[k]->size[i] + w->og.bs - 1) / w->og.bs + 1;
	mixgen_init(&w->prand, j->pct_random, seed ^ 0x7072616e64ull);
	wyrand_seed(&w->orng, seed ^ 0x6f726e67ull);
	if (j->randommap && !w->readback)
		return randmap_init(w, base, len, seed);
	return 0;
}

/* verify=on with a split: room for each slot's blocks (job_resolve made every size a multiple of bs). */
static int alloc_vblocks(struct worker *w)
{
	unsigned qd = w->ec.qd;

	w->vkmax = 1;
	if (!w->vmap || job_max_bs(w->job) <= w->vmap->bs)
		return 0;
	w->vkmax = (unsigned)(job_max_bs(w->job) / w->vmap->bs);
	w->vgens = calloc((size_t)qd * w->vkmax, 1);
	w->vwrites = calloc((size_t)qd * w->vkmax, sizeof(*w->vwrites));
	w->vprev = calloc(w->vkmax, 1);
	return w->vgens && w->vwrites && w->vprev ? 0 : -ENOMEM;
}

/* Block i of request r (verify=on): its generation, and a read's write count when it was queued. */
static inline uint8_t *vgen_of_block(struct worker *w, struct ioreq *r, unsigned i)
{
	return w->vkmax > 1 ? &w->vgens[(size_t)r->idx * w->vkmax + i] : &r->vgen;
}

static inline uint32_t *vwrites_of_block(struct worker *w, struct ioreq *r, unsigned i)
{
	return w->vkmax > 1 ? &w->vwrites[(size_t)r->idx * w->vkmax + i] : &r->vwrites;
}

/* Whether requests come in several sizes (a split): complete_extra counts them by size. */
static bool worker_sized(const struct worker *w)
{
	return w->split[0] || w->split[1];
}

/*
 * Whether the vocabulary's only part is a distribution of a random pattern's offsets: requests of bs
 * at its blocks (each below nblocks, so bs always fits), the rest as a plain worker's.
 */
static bool worker_skewed(const struct worker *w)
{
	return w->vocab && w->dist && !worker_sized(w) && !w->rmap && w->prand.pct >= 100 &&
	       w->og.access == ACCESS_RANDOM && !w->job->blockalign;
}

/* Whether the vocabulary's only part is a split (of reads and of writes) of a random pattern's sizes. */
static bool worker_sized_only(const struct worker *w)
{
	return w->vocab && w->split[0] && w->split[1] && !w->dist && !w->rmap && w->prand.pct >= 100 &&
	       w->og.access == ACCESS_RANDOM;
}

int worker_init(struct worker *w, uint64_t span_base, uint64_t span_len, uint64_t rz_base, uint64_t rz_len)
{
	const struct job *j = w->job;
	enum access acc = pattern_access(j->rw);
	uint64_t base = span_base, len = span_len;
	uint64_t seed = j->seed ^ (0x9e3779b97f4a7c15ull * (w->id + 1));
	int ret;

	/* A read-back worker reads its share of the map's blocks (setup_verify), none if more threads than blocks. */
	if (acc != ACCESS_RANDOM && !w->readback &&
	    !offgen_slice(span_base, span_len, j->bs, w->id, j->threads, &base, &len))
		return -EINVAL;
	/* blockalign: random offsets on its grid rather than bs's (a request may cover several of its units). */
	offgen_init(&w->og, acc, base, len, acc == ACCESS_RANDOM && j->blockalign ? j->blockalign : j->bs,
		    j->r.stride, seed);
	rz_init(&w->rz, rz_base, rz_len);
	for (int op = 0; op < OP_COUNT; op++)
		w->heat_of[op] = w->rz.heat[op];
	w->last_end = UINT64_MAX;
	if (job_vocab(j) && !w->readback && (ret = vocab_init(w, span_base, span_len, seed)))
		return ret;
	mixgen_init(&w->mix, job_write_pct(j), seed);
	w->write_pct = job_write_pct(j);
	w->open = job_open_loop(j);
	w->nlive = worker_op_used(j, OP_TRIM) ? 3 : 2;
	w->special = w->ring ? WORKER_TRACE
		   : w->readback || job_trims(j) || j->fsync || j->thinktime_ns || w->vmap || w->zbw ? WORKER_SPECIAL
		   : worker_skewed(w) ? WORKER_SKEWED : worker_sized_only(w) ? WORKER_SIZED
		   : w->vocab ? WORKER_VOCAB : WORKER_PLAIN;
	/* The outlier log is looked at only there, so that without it completions pay nothing for it. */
	if (j->outlier_ns && !w->readback && !(w->outl = calloc(RUN_MAX_OUTLIERS, sizeof(*w->outl))))
		return -ENOMEM;
	w->extra = w->vmap || w->vscan || w->wmap || w->zbw ? 2 : worker_sized(w) && w->special != WORKER_SIZED;
	w->extra = !w->outl ? w->extra : w->extra ? 4 : 3;
	w->issue_cap = UINT64_MAX;   /* until measuring starts: then the budget */
	for (int op = 0; op < OP_COUNT; op++) {
		if (!worker_op_used(j, (unsigned)op))
			continue;
		if ((ret = hist_init(&w->st[op].lat)))
			return ret;
		if (w->open && (ret = hist_init(&w->st[op].resp)))
			return ret;
	}
	if (w->open && (ret = hist_init(&w->sched.late)))
		return ret;
	if ((ret = alloc_slots(w)) || (ret = alloc_vblocks(w)))
		return ret;
	/* The stream mixes in too: the workers of two streams share ids and, unless set, the seed. */
	return datagen_init(&w->dg, j, datagen_key(j->seed, w->stream, w->id), w->ec.qd, w->ec.bufsize);
}

void worker_release(struct worker *w)
{
	if (w->bsg[1] != w->bsg[0])
		free(w->bsg[1]);
	free(w->bsg[0]);
	free(w->dist);
	if (w->rmap) {
		free(w->rmap->at);
		free(w->rmap->szi);
		free(w->rmap);
	}
	w->bsg[0] = w->bsg[1] = NULL;
	w->dist = NULL;
	w->rmap = NULL;
	free(w->vgens);
	free(w->vwrites);
	free(w->vprev);
	w->vgens = w->vprev = NULL;
	w->vwrites = NULL;
	for (int op = 0; op < OP_COUNT; op++) {
		hist_release(&w->st[op].lat);
		hist_release(&w->st[op].resp);
	}
	free(w->outl);
	w->outl = NULL;
	hist_release(&w->sched.late);
	free(w->ec.reqs);
	free(w->free);
	free(w->queued);
	free(w->ec.done);
	if (w->ec.bufmem)
		munmap(w->ec.bufmem, w->bufpool);
	datagen_release(&w->dg);
	w->ec.reqs = NULL;
	w->free = w->queued = w->ec.done = NULL;
	w->ec.bufmem = NULL;
}

/*
 * A write's payload: the slot's buffer holds its base blocks (filled whole once, and again after a read
 * used it), then each 4 KiB block gets its content id's stamps (data.h). Without buffers (the null
 * engine) the blocks are still counted (and their ids drawn where dedupe needs them), so that
 * results.realized says what would have been written.
 */
/* verify=on: each block of the map its own header and generation (one block but for a split's larger requests). */
static __attribute__((noinline)) void stamp_blocks(struct worker *w, struct ioreq *r)
{
	for (uint32_t at = 0, i = 0; at < r->len; at += (uint32_t)w->vmap->bs, i++)
		verify_stamp((char *)r->buf + at, w->vkmax > 1 ? w->vmap->bs : r->len, w->vmap->unit, r->offset + at,
			     w->vmap->run_id, *vgen_of_block(w, r, i));
}

static void prep_write(struct worker *w, struct ioreq *r)
{
	uint64_t first = (uint64_t)r->idx * w->dg.blocks_per_slot;

	if (!r->buf) {
		datagen_write(&w->dg, NULL, r->len, first);
		return;
	}
	if (r->buf_dirty) {
		datagen_fill(&w->dg, r->buf, w->ec.bufsize, first);
		r->buf_dirty = 0;
	}
	datagen_write(&w->dg, r->buf, r->len, first);
	if (w->vmap)
		stamp_blocks(w, r);
}

static void map_next(struct worker *w, struct ioreq *r);
static inline uint64_t vocab_offset(struct worker *w, uint64_t len);

/*
 * verify=on: a write claims its block in the map (another block, if a write to that one is in flight:
 * two writes of one block in flight would leave either on the target) and gets its generation; a read
 * notes the block's entry. Returns false if every block tried had a write in flight.
 */
static __attribute__((noinline)) bool verify_claim(struct worker *w, struct ioreq *r)
{
	struct vmap *m = w->vmap;
	uint8_t prev;

	for (int tries = 0; tries < 16; tries++) {
		uint64_t idx = vmap_index(m, r->offset);
		unsigned k = w->vkmax > 1 ? (unsigned)(r->len / m->bs) : 1, i;

		if (r->op == OP_READ) {
			/* The count first: a write it includes is in the entry loaded after it. */
			for (i = 0; i < k; i++) {
				*vwrites_of_block(w, r, i) = vmap_writes(m, idx + i);
				*vgen_of_block(w, r, i) = vmap_load(m, idx + i);
			}
			return true;
		}
		for (i = 0; i < k && (*vgen_of_block(w, r, i) = vmap_write_begin(m, idx + i, &prev)); i++)
			if (k > 1)
				w->vprev[i] = prev;
		if (i == k)
			return true;
		/* A block of it has a write in flight: give back those claimed, and try elsewhere. */
		while (i--)
			vmap_write_abort(m, idx + i, w->vprev[i]);
		if (w->rmap)
			map_next(w, r);
		else
			r->offset = w->vocab ? vocab_offset(w, r->len) : offgen_next(&w->og);
	}
	return false;
}

/* The read-back pass: the next block of this worker's part of the map that the run wrote, or false. */
static bool next_written(struct worker *w, uint64_t *off)
{
	const struct vmap *m = w->vmap;

	while (w->scan_next < w->scan_end && vmap_load(m, w->scan_next) == VGEN_NONE)
		w->scan_next++;
	if (w->scan_next >= w->scan_end)
		return false;
	*off = m->base + w->scan_next++ * m->bs;
	return true;
}

void wmap_mark(struct wmap *m, uint64_t off, uint64_t len)
{
	uint64_t first = (off - m->base) >> m->shift, last = (off + len - 1 - m->base) >> m->shift;

	if (last >= m->nbits)
		last = m->nbits - 1;
	for (uint64_t b = first; b <= last && first < m->nbits;) {
		uint64_t word = b / 64, bit = b % 64, n = last - b + 1 < 64 - bit ? last - b + 1 : 64 - bit;
		uint64_t mask = (n == 64 ? ~0ull : ((1ull << n) - 1)) << bit;

		/* Most blocks are marked already, or not at all yet: a load first spares the locked write. */
		if ((atomic_load_explicit(&m->bits[word], memory_order_relaxed) & mask) != mask)
			atomic_fetch_or_explicit(&m->bits[word], mask, memory_order_relaxed);
		b += n;
	}
}

uint64_t wmap_count(const struct wmap *m)
{
	uint64_t n = 0;

	for (uint64_t i = 0; i < (m->nbits + 63) / 64; i++)
		n += (uint64_t)__builtin_popcountll(atomic_load_explicit(&m->bits[i], memory_order_relaxed));
	return n;
}

/* randommap: the next (group, card) of this pass: its offset, size and size index. */
static void map_next(struct worker *w, struct ioreq *r)
{
	struct randmap *m = w->rmap;
	uint64_t item = permgen_next(&m->pg), grp = item / m->cards;
	unsigned p = (unsigned)(item % m->cards), rot = 0, c;
	uint64_t at;

	/* Groups start their deck at a card of their own, so that sizes do not line up from group to group. */
	if (m->cards > 1)
		rot = (unsigned)(((grp * 0x9e3779b97f4a7c15ull) >> 32) % m->cards);
	c = rot + p < m->cards ? rot + p : rot + p - m->cards;
	at = c >= rot ? m->at[c] - m->at[rot] : m->group - m->at[rot] + m->at[c];
	r->szi = m->szi[c];
	r->len = (uint32_t)(m->at[c + 1] - m->at[c]);
	r->offset = m->base + grp * m->group + at;
}

/*
 * The offset of a request of len bytes: sequential patterns continue where the last ended (from the
 * start where len no longer fits); random ones take a grid block where len fits, uniform or from the
 * distribution, or, for percentage_random's sequential share, continue where this thread's last
 * request ended.
 */
static inline __attribute__((always_inline)) uint64_t vocab_offset(struct worker *w, uint64_t len)
{
	struct offgen *g = &w->og;
	uint64_t k, idx, off;

	if (g->access != ACCESS_RANDOM) {
		if (g->pos + len > g->len)
			g->pos = 0;
		off = g->pos;
		g->pos += len;
		return g->base + off;
	}
	if (w->prand.pct < 100 && !mixgen_next(&w->prand))
		return w->last_end >= g->base && w->last_end <= g->base + g->len - len ? w->last_end : g->base;
	k = (len + g->bs - 1) / g->bs;
	if (!w->dist)
		return g->base + wyrand_below(&w->orng, g->nblocks - k + 1) * g->bs;
	idx = dist_next(w->dist);
	return g->base + (idx > g->nblocks - k ? g->nblocks - k : idx) * g->bs;
}

/* The size and offset of request r, whose op is set, for a worker with the vocabulary (w->vocab). */
static __attribute__((noinline)) void vocab_next(struct worker *w, struct ioreq *r)
{
	unsigned dir = r->op == OP_WRITE;
	uint64_t len = w->job->bs;

	if (w->rmap) {
		map_next(w, r);
		return;
	}
	r->szi = 0;
	if (w->split[dir]) {
		r->szi = (uint8_t)bsgen_next(w->bsg[dir]);
		len = w->split[dir]->size[r->szi];
	}
	r->len = (uint32_t)len;
	r->offset = vocab_offset(w, len);
}

static inline unsigned next_op(struct worker *w)
{
	return w->write_pct == 0 ? OP_READ
	     : w->write_pct == 100 ? OP_WRITE
	     : mixgen_next(&w->mix) ? OP_WRITE : OP_READ;
}

static void sync_request(struct worker *w, struct ioreq *r, bool measuring);

/*
 * next_request of a worker with w->special: the read-back pass, trims, a flush after every fsync
 * writes, and the idle of thinktime after every thinktime_blocks requests (w->idle_due: the loop lets
 * what is in flight complete, then idles). A trim or flush the engine does not queue is made here,
 * synchronously (w->synced), and the slot stays free. Returns false if there is no request to queue now.
 */
static bool next_special(struct worker *w, struct ioreq *r, bool measuring)
{
	const struct job *j = w->job;

	if (j->thinktime_ns && !w->readback && w->since_think >= (j->thinktime_blocks ? j->thinktime_blocks : 1)) {
		w->idle_due = true;
		return false;
	}
	if (w->readback) {
		r->op = OP_READ;
		return next_written(w, &r->offset);
	}
	w->since_think++;
	if (w->flush_due) {
		w->flush_due = false;
		r->op = OP_FLUSH;
		r->offset = 0;
		r->len = 0;
	} else {
		r->op = (uint8_t)(job_trims(j) ? OP_TRIM : next_op(w));
		if (w->zbw) {
			if (!zbd_next(w->zbw, r))
				return false;
		} else if (w->vocab) {
			vocab_next(w, r);
		} else {
			r->offset = offgen_next(&w->og);
			r->len = (uint32_t)j->bs;
		}
		if (r->op == OP_WRITE && j->fsync && ++w->since_flush >= j->fsync) {
			w->since_flush = 0;
			w->flush_due = true;
		}
	}
	if (r->op >= OP_TRIM && !(w->ec.async_ops & ENGINE_ASYNC(r->op))) {
		sync_request(w, r, measuring);
		return false;
	}
	return true;
}

/* next_request of a WORKER_SIZED worker: a leaf, as the plain path. Returns true. */
static __attribute__((noinline)) bool sized_next(struct worker *w, struct ioreq *r)
{
	struct offgen *g = &w->og;
	unsigned dir;
	uint64_t len;

	r->op = (uint8_t)next_op(w);
	dir = r->op == OP_WRITE;
	r->szi = (uint8_t)bsgen_next(w->bsg[dir]);
	len = w->split[dir]->size[r->szi];
	r->len = (uint32_t)len;
	r->offset = g->base + wyrand_below(&w->orng, w->places[dir][r->szi]) * g->bs;
	w->rz.bs_ios[dir][r->szi]++;   /* counted here; sized_uncount takes back what results will not count */
	return true;
}

/*
 * A WORKER_SIZED worker counts its sizes when it makes a request (sized_next), where its registers are
 * free, rather than on completion: here it takes back the requests that results do not count (not
 * queued, failed, completed after the deadline), so that its sizes add up to the results as others'.
 */
static __attribute__((noinline)) void sized_uncount(struct worker *w, const struct ioreq *r)
{
	if (w->special == WORKER_SIZED)
		w->rz.bs_ios[r->op][r->szi]--;
}

static __attribute__((noinline)) bool vocab_request(struct worker *w, struct ioreq *r)
{
	r->op = (uint8_t)next_op(w);
	vocab_next(w, r);
	return true;
}

static __attribute__((noinline)) bool special_request(struct worker *w, struct ioreq *r, bool measuring)
{
	if (!next_special(w, r, measuring))
		return false;
	if (w->vmap && r->op < OP_TRIM && !verify_claim(w, r)) {
		w->vconflict = true;
		return false;
	}
	return true;
}

/*
 * A replay: the next record of the ring into w->tr (tr_have false at the trace's end, which stops
 * the worker: issue_cap 0), its due time into tt.next (UINT64_MAX at the end).
 */
static __attribute__((noinline)) void trace_advance(struct worker *w)
{
	w->tr_have = replay_next(w->ring, &w->tr);
	w->tt.next = w->tr_have ? w->tr_t0 + w->tr.due_ns : UINT64_MAX;
	if (!w->tr_have) {
		w->tr_end = true;
		w->issue_cap = 0;
	}
}

/*
 * next_request of a WORKER_TRACE worker: the record in w->tr, taken now by a closed loop (an open
 * loop's is taken by take_due, when it is issued). A trim or flush the engine does not queue is made
 * here, synchronously, as next_special makes them. Returns false if there is no request to queue now.
 */
static __attribute__((noinline)) bool trace_request(struct worker *w, struct ioreq *r, bool measuring)
{
	if (!w->tr_have)
		return false;
	r->op = w->tr.op;
	r->offset = w->tr.offset;
	r->len = w->tr.len;
	r->szi = 0;
	w->tr_ios[r->op]++;
	w->tr_bytes[r->op] += r->len;
	if (!w->open)
		trace_advance(w);
	if (r->op >= OP_TRIM && !(w->ec.async_ops & ENGINE_ASYNC(r->op))) {
		sync_request(w, r, measuring);
		return false;
	}
	return true;
}

/*
 * next_request of a WORKER_VOCAB, WORKER_SPECIAL or WORKER_TRACE worker, out of line: the plain,
 * skewed and sized paths keep the hot loop's registers. Tail calls only, so no stack frame of its own.
 */
static bool next_other(struct worker *w, struct ioreq *r, bool measuring)
{
	if (w->special == WORKER_VOCAB)
		return vocab_request(w, r);
	if (w->special == WORKER_TRACE)
		return trace_request(w, r, measuring);
	return special_request(w, r, measuring);
}

/* results.realized: a request of len bytes at off is sequential if it starts where this thread's last ended. */
static inline __attribute__((always_inline)) void count_sequential(struct worker *w, uint64_t off, uint64_t len)
{
	if (__builtin_expect(off == w->last_end, 0))
		w->rz.seq++;
	w->last_end = off + len;
}

/* The offset and operation of the next request into r. Returns false if there is none now. */
static inline bool next_request(struct worker *w, struct ioreq *r, bool measuring)
{
	if (w->special == WORKER_PLAIN) {
		uint64_t off = offgen_next(&w->og);

		r->offset = off;
		r->op = (uint8_t)next_op(w);
		count_sequential(w, off, r->len);   /* here, from the offset in hand: the common tail reloads it */
		return true;
	} else if (w->special == WORKER_SKEWED) {
		r->offset = w->og.base + dist_next(w->dist) * w->og.bs;
		r->op = (uint8_t)next_op(w);
	} else if (w->special == WORKER_SIZED) {
		sized_next(w, r);
	} else if (!next_other(w, r, measuring)) {
		return false;
	} else if (r->op == OP_FLUSH) {
		return true;   /* no offset: it neither continues nor breaks the sequence */
	}
	count_sequential(w, r->offset, r->len);
	return true;
}

/*
 * Open loop: r is the request due at w->tt.next, issued now (w->now) or later if it waited for a slot;
 * its response time counts from when it was due.
 */
static void take_due(struct worker *w, struct ioreq *r, bool measuring)
{
	uint64_t late = w->now - w->tt.next;

	r->sched_ns = w->tt.next;
	if (measuring) {
		w->sched.issued++;
		if (r->sched_ns >= w->t_measure)
			w->sched.scheduled++;
		if (late > w->sched.late_max_ns)
			w->sched.late_max_ns = late;
		hist_add(&w->sched.late, late);
	}
	if (w->ring)
		trace_advance(w);
	else
		tt_advance(&w->tt);
}

/* verify=on: a write that could not be queued leaves its blocks of unknown content. */
static __attribute__((noinline)) void unclaim_blocks(struct worker *w, struct ioreq *r)
{
	for (uint32_t at = 0, i = 0; at < r->len; at += (uint32_t)w->vmap->bs, i++)
		vmap_write_end(w->vmap, vmap_index(w->vmap, r->offset + at), *vgen_of_block(w, r, i), false);
}

/*
 * Queues requests into every free slot while the budget allows (open loop: those that are due).
 * Returns 0 or -errno.
 */
static int fill_queue(struct worker *w, bool measuring)
{
	w->vconflict = false;
	w->synced = false;
	while (w->nfree) {
		struct ioreq *r;
		int ret;

		/* The flush due after the last writes still goes: it moves no bytes. */
		if (w->issued >= w->issue_cap && !w->flush_due)
			break;
		if (w->open && w->tt.next > w->now)
			break;
		r = w->free[w->nfree - 1];
		if (!next_request(w, r, measuring))
			break;
		w->nfree--;
		if (r->op == OP_WRITE)
			prep_write(w, r);
		else
			r->buf_dirty = 1;
		if ((ret = w->eng->queue(&w->ec, r))) {
			if (w->vmap && r->op == OP_WRITE)
				unclaim_blocks(w, r);
			sized_uncount(w, r);
			w->free[w->nfree++] = r;
			return ret;
		}
		w->queued[w->nqueued++] = r;
		w->inflight++;
		w->issued += r->len;   /* start_measuring starts it over */
		if (w->open)
			take_due(w, r, measuring);
	}
	return 0;
}

/*
 * Counts an error of op (enum err_op) with errno err (and enum err_pi pi); the first of each kind
 * keeps its offset.
 */
static void add_error(struct worker *w, int op, int err, uint64_t offset, unsigned pi)
{
	for (unsigned i = 0; i < w->nerrs; i++) {
		if (w->errs[i].op == op && w->errs[i].err == err && w->errs[i].pi == pi) {
			w->errs[i].count++;
			return;
		}
	}
	if (w->nerrs < WORKER_MAX_ERRS)
		w->errs[w->nerrs++] = (struct err_rec){ op, err, offset, 1, (uint8_t)pi };
}

/*
 * A failed request's error. EILSEQ is the block layer's protection error (BLK_STS_PROTECTION: the
 * device's end-to-end status or the kernel's own check), whose tag only io_uring_cmd can name, with
 * the block that failed.
 */
static void record_error(struct worker *w, const struct ioreq *r)
{
	int err = r->res < 0 ? (int)-r->res : EIO;
	unsigned pi = err != EILSEQ ? ERR_PI_NONE : r->pi_err ? r->pi_err : ERR_PI_ANY;

	add_error(w, r->op, err, r->offset + (pi != ERR_PI_ANY && pi ? r->pi_at : 0), pi);
}

/*
 * verify=on: a write's block gets its generation (or, if the write failed, an unknown content); a
 * read's units are checked against what the map said when it was queued and says now.
 */
static void verify_done(struct worker *w, struct ioreq *r, bool ok)
{
	const struct vmap *m = w->vmap;
	uint64_t idx = vmap_index(m, r->offset);
	unsigned k = w->vkmax > 1 ? (unsigned)(r->len / m->bs) : 1;
	uint32_t blen = w->vkmax > 1 ? (uint32_t)m->bs : r->len;

	if (r->op == OP_WRITE) {
		for (unsigned i = 0; i < k; i++)
			vmap_write_end(w->vmap, idx + i, *vgen_of_block(w, r, i), ok);
		return;
	}
	if (r->op != OP_READ)
		return;   /* a flush: nothing to check */
	if (!ok)
		return;
	if (job_no_io(w->job)) {
		/* Nothing was read: the checksums are computed for their cost only, and count nowhere. */
		volatile uint32_t sink = 0;

		for (uint32_t at = 0; at < r->len; at += m->unit)
			sink ^= verify_crc((const char *)r->buf + at, m->unit);
		(void)sink;
		return;
	}
	for (unsigned i = 0; i < k; i++) {
		uint8_t snap = *vgen_of_block(w, r, i);
		struct vexpect e;

		if (w->vmode == VMODE_INLINE) {
			uint8_t now = vmap_load(m, idx + i);   /* the entry first: the count after it holds its writes */

			e = vexpect_inline(m->run_id, snap, now, vmap_writes(m, idx + i) - *vwrites_of_block(w, r, i));
		} else {
			/* After a crash, a journal without a window (an older ssdbench's) bounds nothing. */
			e = vexpect_journal(m->run_id, snap,
					    w->vmode != VMODE_CRASHED ? 0 : m->window ? m->window : VGEN_MAX);
		}
		for (uint32_t at = i * blen; at < (i + 1) * blen; at += m->unit) {
			struct vmismatch mm;
			enum vres res = verify_unit_check((const char *)r->buf + at, m->unit, r->offset + at, &e, &mm);

			mm.phase = w->vphase;
			verify_count(&w->ver, res, &mm, m->unit);
		}
	}
}

/*
 * The queue depth achieved: the requests in flight until now count, from the last change, up to the
 * deadline (what completes after it is not measured). A request is in flight from its submission's
 * clock read to its reap's, the two that make its latency, so that the mean in flight is IOPS times
 * the mean latency (Little's law), whatever the engine or the batching.
 */
static void qd_account(struct worker *w, uint64_t now, unsigned in_flight)
{
	if (now > w->ctl->t_deadline)
		now = w->ctl->t_deadline;
	if (now > w->qd_last) {
		w->qd_area += (uint64_t)in_flight * (now - w->qd_last);
		w->qd_last = now;
	}
}

/*
 * A measured request slower than outlier_ns, completed at now: logged while there is room, counted
 * always. Its queue depth is its thread's requests in flight as it was reaped (itself included): a
 * stamp at issue would cost every request a store in the hot loop (docs/performance.md).
 */
static __attribute__((noinline, cold)) void log_outlier(struct worker *w, const struct ioreq *r, uint64_t now)
{
	if (w->noutl < RUN_MAX_OUTLIERS)
		w->outl[w->noutl++] = (struct outlier){ .t_ns = now > w->t_measure ? now - w->t_measure : 0,
							.offset = r->offset, .lat_ns = now - r->issue_ns, .bytes = r->len,
							.qd = (uint16_t)(w->inflight < UINT16_MAX ? w->inflight : UINT16_MAX),
							.op = r->op, .stream = (uint8_t)w->stream };
	w->outl_count++;
}

/*
 * What a completion does besides counting, for a worker with w->extra: verification (the map, or the
 * scan of ssdbench verify), the sizes of a split and the blocks writes touch (results.realized). Those
 * of one size are counted by their operation alone, at the end.
 */
static __attribute__((noinline)) void complete_more(struct worker *w, struct ioreq *r, bool ok, bool late)
{
	if (w->vmap)
		verify_done(w, r, ok);
	else if (w->vscan && ok)
		verify_scan(r->buf, r->len, r->offset, w->vphase, &w->ver);
	if (w->zbw && r->op == OP_WRITE)
		zbd_write_done(w->zbw, r, ok);
	if (!ok || late)
		return;
	if (worker_sized(w) && w->special != WORKER_SIZED)   /* a sized worker's are counted at issue */
		w->rz.bs_ios[r->op][r->szi]++;
	if (w->wmap && r->op == OP_WRITE && w->t_measure)
		wmap_mark(w->wmap, r->offset, r->len);
}

/* The outlier log (w->extra 3), then what complete_more does (4). */
static __attribute__((noinline)) void complete_outlier(struct worker *w, struct ioreq *r, bool ok, bool late)
{
	if (w->now - r->issue_ns > w->job->outlier_ns && ok && !late && w->t_measure)
		log_outlier(w, r, w->now);
	if (w->extra == 4)
		complete_more(w, r, ok, late);
}

/*
 * A split's sizes alone (w->extra 1) in a leaf without a stack frame; the rest in complete_more (2)
 * and complete_outlier (3, 4), each a tail call: verify and the written blocks' map (every write
 * pattern) pay nothing for the outlier log.
 */
static __attribute__((noinline)) void complete_extra(struct worker *w, struct ioreq *r, bool ok, bool late)
{
	if (w->extra == 2) {
		complete_more(w, r, ok, late);
		return;
	}
	if (w->extra == 1) {
		w->rz.bs_ios[r->op][r->szi] += ok && !late;
		return;
	}
	complete_outlier(w, r, ok, late);
}

/*
 * Accounts request r completed at now, which is w->now (late: after the deadline, not counted). A
 * trim succeeds with res 0 (a discard moves no data) or len. Returns true if it failed.
 */
static inline __attribute__((always_inline)) bool complete_one(struct worker *w, struct ioreq *r, uint64_t now,
							       bool late)
{
	struct opstats *s = &w->st[r->op];
	uint64_t lat = now - r->issue_ns;
	bool ok = r->res == (int64_t)r->len || (r->op == OP_TRIM && r->res == 0);

	if (w->extra)
		complete_extra(w, r, ok, late);
	if (!ok) {
		record_error(w, r);
		sized_uncount(w, r);
		return true;
	}
	if (!late) {
		hist_add(&s->lat, lat);
		if (w->open)
			hist_add(&s->resp, now - r->sched_ns);
		s->ios++;
		s->bytes += r->len;
		/* results.realized's heat: in the region always (a flush's offset 0 lands anywhere: not written). */
		w->heat_of[r->op][(r->offset >> w->rz.heat_shift) & (RZ_HEAT_BINS - 1)]++;
	} else {
		sized_uncount(w, r);
	}
	return false;
}

/*
 * Accounts one reaped batch completed at now. I/O completing after the deadline is drained, not
 * counted: a time-bound run measures what completed inside its window. Returns true if an I/O failed.
 */
static bool complete_batch(struct worker *w, uint64_t now)
{
	bool failed = false, late = now > w->ctl->t_deadline;

	qd_account(w, now, w->inflight);   /* every request queued was submitted before this reap */
	for (unsigned i = 0; i < w->ec.ndone; i++) {
		struct ioreq *r = w->ec.done[i];

		failed |= complete_one(w, r, now, late);
		w->free[w->nfree++] = r;
	}
	w->inflight -= w->ec.ndone;
	w->ec.ndone = 0;
	return failed;
}

static void take_due(struct worker *w, struct ioreq *r, bool measuring);

/*
 * A trim or flush the engine does not queue, made now from this thread (engine_sync_op) in slot r,
 * which stays free; its latency is the system call's. A failure stops the run unless
 * continue_on_error, as a failed I/O stops its worker.
 */
static void sync_request(struct worker *w, struct ioreq *r, bool measuring)
{
	uint64_t t0 = clock_ns(), t1;

	w->now = t0;
	if (w->open)
		take_due(w, r, measuring);
	w->issued += r->len;
	qd_account(w, t0, w->inflight);
	r->issue_ns = t0;
	r->res = engine_sync_op(&w->ec, r);
	t1 = clock_ns();
	w->now = t1;   /* its completion, as a reaped batch's is w->now (complete_extra) */
	qd_account(w, t1, w->inflight + 1);
	w->inflight++;   /* in flight as it completes, for the outlier log */
	if (complete_one(w, r, t1, t1 > w->ctl->t_deadline) && !w->ctl->continue_on_error)
		atomic_store(&w->ctl->stop, 1);
	w->inflight--;
	w->synced = true;
}

/* thinktime: what was in flight has completed; the thread idles (up to the deadline). */
static void think(struct worker *w)
{
	uint64_t until = clock_ns() + w->job->thinktime_ns;
	struct timespec ts;

	if (until > w->ctl->t_deadline)
		until = w->ctl->t_deadline;
	ts = (struct timespec){ .tv_sec = (time_t)(until / 1000000000ull), .tv_nsec = (long)(until % 1000000000ull) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	w->since_think = 0;
	w->idle_due = false;
}

static void publish(struct worker *w)
{
	for (unsigned op = 0; op < w->nlive; op++) {
		atomic_store_explicit(&w->live.ios[op], w->ramp_base[0][op] + w->st[op].ios,
				      memory_order_relaxed);
		atomic_store_explicit(&w->live.bytes[op], w->ramp_base[1][op] + w->st[op].bytes,
				      memory_order_relaxed);
		atomic_store_explicit(&w->live.lat_sum[op], w->ramp_base[2][op] + w->st[op].lat.sum,
				      memory_order_relaxed);
		if (w->open)
			atomic_store_explicit(&w->live.resp_sum[op], w->ramp_base[3][op] + w->st[op].resp.sum,
					      memory_order_relaxed);
	}
}

static void cpu_times(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* What the ramp did is not measured. */
static void forget_ramp(struct worker *w)
{
	for (int op = 0; op < OP_COUNT; op++) {
		if (!w->st[op].lat.buckets)
			continue;
		hist_reset(&w->st[op].lat);
		if (w->open)
			hist_reset(&w->st[op].resp);
		w->st[op].ios = w->st[op].bytes = 0;
	}
	memset(w->rz.bs_ios, 0, sizeof(w->rz.bs_ios));
	memset(w->rz.heat, 0, sizeof(w->rz.heat));
	w->rz.seq = 0;
	/*
	 * A WORKER_SIZED worker counts its sizes when it makes a request: those in flight now complete in
	 * the measured window. Every slot is counted, then the free ones taken back (whatever they last held).
	 */
	if (w->special == WORKER_SIZED) {
		for (unsigned i = 0; i < w->ec.qd; i++)
			w->rz.bs_ios[w->ec.reqs[i].op][w->ec.reqs[i].szi]++;
		for (unsigned i = 0; i < w->nfree; i++)
			w->rz.bs_ios[w->free[i]->op][w->free[i]->szi]--;
	}
}

/*
 * Measuring starts: forget what the ramp did. The requests still in flight (those of the batch being
 * reaped included) complete in the measured window and count there, so they count against its budget.
 */
static void start_measuring(struct worker *w)
{
	w->issued = (uint64_t)w->inflight * w->job->bs;   /* the ramp's requests count no more */
	for (unsigned op = 0; op < w->nlive; op++) {
		w->ramp_base[0][op] += w->st[op].ios;
		w->ramp_base[1][op] += w->st[op].bytes;
		w->ramp_base[2][op] += w->st[op].lat.sum;
		if (w->open)
			w->ramp_base[3][op] += w->st[op].resp.sum;
	}
	forget_ramp(w);
	atomic_store_explicit(&w->live.measuring, true, memory_order_release);
	w->issue_cap = w->tr_end ? 0 : w->budget ? w->budget : UINT64_MAX;
	w->t_measure = w->ctl->t_ramp_end;
	w->qd_area = 0;   /* from the ramp's end, or from a submission just after it (a loop's turn) */
	if (w->qd_last < w->t_measure)
		w->qd_last = w->t_measure;
	cpu_times(&w->cpu_user, &w->cpu_sys);
}

static void set_error(struct worker *w, int ret, const char *what)
{
	w->ret = ret;
	snprintf(w->errmsg, sizeof(w->errmsg), "%s engine: %s: %s", job_engine_name(w->job->engine), what, strerror(-ret));
	atomic_store(&w->ctl->stop, 1);
}

/* Submits what was queued (through the engine's submit, if it has one), stamped with one clock read. */
static int submit_queued(struct worker *w)
{
	uint64_t now;
	int ret;

	if (!w->nqueued)
		return 0;
	now = clock_ns();
	for (unsigned i = 0; i < w->nqueued; i++)
		w->queued[i]->issue_ns = now;
	qd_account(w, now, w->inflight - w->nqueued);   /* those just queued start now */
	w->nqueued = 0;
	if (!w->eng->submit)
		return 0;
	ret = w->eng->submit(&w->ec);
	return ret < 0 ? ret : 0;
}

#define WAKE_MAX_NS 100000000ull   /* an open-loop worker looks at stop and the deadline this often */

/* How long an open-loop worker may wait now: until the next request is due, the deadline, or 100 ms. */
static uint64_t wait_until(const struct worker *w, bool *for_due)
{
	uint64_t until = w->tt.next;

	*for_due = true;
	if (until > w->ctl->t_deadline) {
		until = w->ctl->t_deadline;
		*for_due = false;
	}
	if (until > w->now + WAKE_MAX_NS) {
		until = w->now + WAKE_MAX_NS;
		*for_due = false;
	}
	return until;
}

/* Open loop with nothing in flight: sleep until the next request is due; note how late the wake was. */
static void sleep_until_due(struct worker *w, bool measuring)
{
	bool for_due;
	uint64_t until = wait_until(w, &for_due), err;
	struct timespec ts = { .tv_sec = (time_t)(until / 1000000000ull), .tv_nsec = (long)(until % 1000000000ull) };

	if (until > w->now)
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	w->now = clock_ns();
	if (!for_due || !measuring || until <= w->t_measure)
		return;
	err = w->now > until ? w->now - until : 0;
	w->sched.sleeps++;
	w->sched.wake_err_sum_ns += err;
	if (err > w->sched.wake_err_max_ns)
		w->sched.wake_err_max_ns = err;
}

/* Open loop with requests in flight and a free slot: reap until one completes or the next is due. */
static int reap_or_due(struct worker *w)
{
	bool for_due;
	uint64_t until = wait_until(w, &for_due);

	return w->eng->reap_wait(&w->ec, until > w->now ? until - w->now : 0);
}

/*
 * Waits for min completions: the engine's wait made here, inlined into the hot loop, where the engine
 * splits it (reap_call): no function returns across the system call that sleeps (syscall_inline.h).
 */
static inline __attribute__((always_inline)) int reap_min(struct worker *w, unsigned min)
{
	if (w->eng->reap_call)
		return engine_reap_calls(w->eng, &w->ec, min);
	return w->eng->reap(&w->ec, min);
}

/*
 * What w->now means for the run: measuring starts at the ramp's end; the measured window ends at the
 * deadline. Returns true if the worker should stop issuing.
 */
static bool tick(struct worker *w, bool *measuring)
{
	const struct run_ctl *ctl = w->ctl;

	if (!*measuring && w->now >= ctl->t_ramp_end) {
		start_measuring(w);
		*measuring = true;
	}
	w->t_end = w->now < ctl->t_deadline ? w->now : ctl->t_deadline;
	return w->now >= ctl->t_deadline || atomic_load_explicit(&w->ctl->stop, memory_order_relaxed) ||
	       (ctl->ext_stop && atomic_load_explicit(ctl->ext_stop, memory_order_relaxed)) ||
	       (w->issued >= w->issue_cap && !w->flush_due);
}

/*
 * Open loop, at the end: the requests that were due by then and never issued (every slot was busy).
 * The window is [t_measure, t_end): a request due at its very end (1 s at 1000/s: the 1001st) is
 * the next window's, never issued in this one, so neither scheduled nor backlog.
 */
static void count_backlog(struct worker *w)
{
	for (uint64_t n = 0; w->tt.next < w->t_end && n < 100000000ull; n++) {
		w->sched.backlog++;
		if (w->tt.next >= w->t_measure)
			w->sched.scheduled++;
		if (w->ring)
			trace_advance(w);
		else
			tt_advance(&w->tt);
	}
}

/* Wakes the run's monitor from its sleep (it makes the checkpoint a write waits for). */
static void wake_monitor(struct run_ctl *ctl)
{
	pthread_mutex_lock(&ctl->done_lock);
	pthread_cond_broadcast(&ctl->done_cond);
	pthread_mutex_unlock(&ctl->done_lock);
}

/* The hot loop. Returns 0, or -errno if the engine failed (I/O errors are recorded, not returned). */
/*
 * The adaptive wait. A closed loop whose engine sleeps in its reap can reap without sleeping: up to
 * SPIN_POLLS reaps that wait for nothing (io_uring_enter that runs the completions the kernel deferred
 * to the thread, io_getevents for none) before the one that sleeps. Where the device completes soon
 * (io-wq workers on other CPUs, a fast drive) that saves a sleep and a wake-up a request; where the
 * spinning thread takes the CPU from those who do the work, it loses. So the worker measures: in
 * epochs of SPIN_EPOCH_NS it tries the modes in turn (sleep, spin, sleep, spin, ...: SPIN_TRIALS
 * epochs), takes the one that completed more requests a second (spinning must win by SPIN_MARGIN,
 * and complete SPIN_MIN_RATE a second at least: slower, each wait lasts 20 us or more, longer than a
 * sleep and its wake-up cost, and a few completions an epoch cannot tell the modes apart), and holds
 * it for SPIN_HOLD epochs before it tries again. qd stays what it is: only the way of waiting changes.
 */
#define SPIN_POLLS 32
#define SPIN_EPOCH_NS 2000000ull
#define SPIN_TRIALS 8
#define SPIN_HOLD 120
#define SPIN_MARGIN 1.02
#define SPIN_MIN_RATE 50000.0   /* completions a second below which a wait outlasts a sleep and wake-up */

static void spin_init(struct worker *w)
{
	w->spin = (struct spinctl){ 0 };
	w->spin.epoch_end = UINT64_MAX;
	const struct job *j = w->job;

	/* w->open and the engine's flags too: what the engine set up, which can differ from the job's asks */
	if (!job_waits(j) || w->open || (w->ec.flags & (ENGINE_IOPOLL | ENGINE_SQPOLL)) || j->wait == JOB_WAIT_SLEEP)
		return;
	w->spin.on = true;
	w->spin.epoch_start = w->now;
	if (j->wait == JOB_WAIT_SPIN) {
		w->spin.best = 1;
		w->spin.polls = SPIN_POLLS;
		return;
	}
	w->spin.epoch_end = w->now + SPIN_EPOCH_NS;
}

/* At the worker's end: the last epoch's time to its mode. */
static void spin_close(struct worker *w)
{
	struct spinctl *sc = &w->spin;

	if (!sc->on || w->now <= sc->epoch_start)
		return;
	if (sc->polls)
		sc->spin_ns += w->now - sc->epoch_start;
	else
		sc->sleep_ns += w->now - sc->epoch_start;
}

/* The mode of epoch k of the cycle: trials alternate from sleep, then the best is held. */
static unsigned spin_mode_of(const struct spinctl *sc, unsigned k)
{
	return k < SPIN_TRIALS ? k & 1 : sc->best;
}

/* At the end of an epoch (w->now past epoch_end): its count to its mode, the next epoch's mode. */
static __attribute__((noinline)) void spin_epoch(struct worker *w)
{
	struct spinctl *sc = &w->spin;
	unsigned mode = sc->polls ? 1 : 0;
	uint64_t ns = w->now - sc->epoch_start;

	if (mode)
		sc->spin_ns += ns;
	else
		sc->sleep_ns += ns;
	if (sc->phase < SPIN_TRIALS) {
		sc->tried[mode][0] += sc->done;
		sc->tried[mode][1] += ns;
	}
	if (++sc->phase == SPIN_TRIALS) {
		double sleep = sc->tried[0][1] ? (double)sc->tried[0][0] / (double)sc->tried[0][1] : 0;
		double spin = sc->tried[1][1] ? (double)sc->tried[1][0] / (double)sc->tried[1][1] : 0;

		sc->best = spin > sleep * SPIN_MARGIN && spin * 1e9 >= SPIN_MIN_RATE;
		memset(sc->tried, 0, sizeof(sc->tried));
	} else if (sc->phase == SPIN_TRIALS + SPIN_HOLD) {
		sc->phase = 0;
	}
	sc->polls = spin_mode_of(sc, sc->phase) ? SPIN_POLLS : 0;
	sc->done = 0;
	sc->epoch_start = w->now;
	sc->epoch_end = w->now + SPIN_EPOCH_NS;
}

/* After a reap of an adapting worker: its completions counted, the epoch closed when it is over. */
static __attribute__((noinline)) void spin_account(struct worker *w)
{
	w->spin.done += w->ec.ndone;
	if (w->now >= w->spin.epoch_end)
		spin_epoch(w);
}

/*
 * Spin mode: reaps that wait for nothing, until min have completed or SPIN_POLLS were made. Returns
 * 0 or -errno; the completions are in c->done. The wait that sleeps, if still needed, is the loop's.
 */
static __attribute__((noinline)) int spin_polls(struct worker *w, unsigned min)
{
	for (unsigned k = 0; k < w->spin.polls && w->ec.ndone < min; k++) {
		int ret = w->eng->reap(&w->ec, 0);

		if (ret < 0)
			return ret;
	}
	return 0;
}

static int worker_loop(struct worker *w)
{
	const struct run_ctl *ctl = w->ctl;
	bool measuring = ctl->t_ramp_end <= ctl->t_start, stopping = false;
	int ret;

	if (measuring)
		start_measuring(w);
	if (w->idle)
		return 0;
	w->now = clock_ns();
	spin_init(w);
	if (w->open) {
		uint64_t num, den;

		/* Sleeps end when a request is due, not up to the default 50 us later. */
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
		job_rate(w->job, &num, &den);
		if (!w->ring)
			tt_init(&w->tt, w->job->arrival, num, den, w->job->threads, w->id, ctl->t_start,
				w->job->seed ^ (0x9e3779b97f4a7c15ull * (w->id + 1)));
	}
	if (w->ring) {
		w->tr_t0 = ctl->t_start;
		trace_advance(w);
	}
	for (;;) {
		if (!stopping && (ret = fill_queue(w, measuring)))
			return ret;
		if ((ret = submit_queued(w)))
			return ret;
		if (!w->inflight && w->vconflict && !stopping) {
			/*
			 * Every block tried had another thread's write in flight (let it complete), or is as
			 * far past the journal's checkpoint as verify can accept (ask for the next one).
			 */
			if (w->vmap->floor && atomic_load_explicit(&w->vmap->floor_wait, memory_order_relaxed))
				wake_monitor(w->ctl);
			sched_yield();
			w->now = clock_ns();
			stopping = tick(w, &measuring);
			continue;
		}
		if (!w->inflight && !stopping && (w->synced || w->idle_due)) {
			/* A request made synchronously, or the idle of thinktime: no reap to wait for. */
			if (w->idle_due)
				think(w);
			w->now = clock_ns();
			stopping = tick(w, &measuring);
			continue;
		}
		if (!w->inflight) {
			if (stopping || !w->open)
				break;
			sleep_until_due(w, measuring);
			stopping = tick(w, &measuring);
			continue;
		}
		if (w->open && !stopping && w->nfree && w->eng->reap_wait) {
			ret = reap_or_due(w);
		} else {   /* closed loop: reap_batch at a time, or all there is when fewer are in flight */
			unsigned min = w->open || w->inflight < w->job->reap_batch ? 1 : w->job->reap_batch;

			if (!w->spin.on) {
				ret = reap_min(w, min);
			} else {
				ret = w->spin.polls ? spin_polls(w, min) : 0;
				/* The wait that sleeps stays here, inline (reap_min): see docs/performance.md. */
				if (ret >= 0 && w->ec.ndone < min)
					ret = reap_min(w, min - w->ec.ndone);
			}
		}
		if (ret < 0)
			return ret;
		w->now = clock_ns();
		if (w->spin.on)
			spin_account(w);
		/* A batch reaped after the ramp's end completed in the measured window: it counts. */
		if (!measuring && w->now >= ctl->t_ramp_end) {
			start_measuring(w);
			measuring = true;
		}
		if (complete_batch(w, w->now) && !ctl->continue_on_error)
			stopping = true;
		publish(w);
		if (tick(w, &measuring))
			stopping = true;
	}
	if (w->open && measuring)
		count_backlog(w);
	spin_close(w);
	return 0;
}

/* zonemode=zbd: a reset or finish that failed stopped the worker; the run fails with it. */
static void zone_error(struct worker *w)
{
	snprintf(w->errmsg, sizeof(w->errmsg), "zone operation at offset %llu failed: %s",
		 (unsigned long long)w->zbw->err_offset, strerror(-w->zbw->err));
	w->ret = w->zbw->err;
}

static void finish(struct worker *w)
{
	double u, s;

	if (!w->job->direct && job_writes(w->job) && !job_no_io(w->job)) {
		/* Buffered writes fail here, if at all (EIO, ENOSPC): the error is the flush's. */
		if (fdatasync(w->ec.fd) < 0)
			add_error(w, ERR_OP_FSYNC, errno, 0, ERR_PI_NONE);
		w->t_end = clock_ns();
	}
	cpu_times(&u, &s);
	w->cpu_user = u - w->cpu_user;
	w->cpu_sys = s - w->cpu_sys;
}

/*
 * Colocation at qd 1 (docs/performance.md, "One CPU at QD 1"): where the device cannot take a request
 * without blocking (zram, device-mapper and other bio-based devices), io_uring hands each one to an
 * io-wq worker, which wakes on another CPU and wakes this thread back: two cross-CPU wake-ups a
 * request, the larger part of its latency at qd 1. With one request in flight there is nothing to
 * run in parallel, so the worker holds itself and its ring's io-wq workers to one CPU: the one it
 * runs on, or the next one no other worker of the run took. Only where the run places nothing itself
 * (no cpus, no numa, not beside other runs: run_opts.beside_others), each worker can have a CPU of its
 * own (ctl->colocate), the wait adapts, and the loop is closed.
 */
static void colocate(struct worker *w)
{
	const struct job *j = w->job;
	struct run_ctl *ctl = w->ctl;
	struct cpuset allowed;
	cpu_set_t one;
	int cpu, cur;

	if (!ctl->colocate || !w->eng->colocate || w->ec.qd != 1 || w->open || j->wait != JOB_WAIT_ADAPTIVE ||
	    (w->ec.flags & (ENGINE_IOPOLL | ENGINE_SQPOLL)))
		return;
	if ((cur = sched_getcpu()) < 0 || cpuset_allowed(&allowed))
		return;
	pthread_mutex_lock(&ctl->done_lock);
	cpu = cpuset_next_missing(&allowed, &ctl->colo_taken, (unsigned)cur);
	if (cpu >= 0)
		cpuset_add(&ctl->colo_taken, (unsigned)cpu);
	pthread_mutex_unlock(&ctl->done_lock);
	if (cpu < 0)
		return;   /* every CPU has a worker: the scheduler places this one */
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one))
		return;
	/* io-wq workers started later take this thread's CPUs on recent kernels; this says so on all. */
	(void)w->eng->colocate(&w->ec, &one, sizeof(one));
	w->colocated = true;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run_ctl *ctl = w->ctl;
	char name[16];
	int ret;

	/*
	 * Named by itself (prctl), for ps and top: named from the thread that starts it, glibc writes the
	 * name into /proc/self/task/TID/comm, a write per thread of every run (t-67 counts them).
	 */
	snprintf(name, sizeof(name), "ssdbench-w%u", w->index % 100000);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	ret = w->eng->init ? w->eng->init(&w->ec) : 0;

	if (!ret)
		colocate(w);
	if (ret) {
		set_error(w, ret, "setup failed");
		w->errs[w->nerrs++] = (struct err_rec){ ERR_OP_SETUP, -ret, 0, 1, ERR_PI_NONE };
	}
	pthread_barrier_wait(&ctl->ready);
	pthread_barrier_wait(&ctl->go);
	if (!ret && !atomic_load(&ctl->stop)) {
		ret = worker_loop(w);
		if (ret)
			set_error(w, ret, "I/O submission failed");
		else if (w->zbw && w->zbw->err)
			zone_error(w);
		finish(w);
	}
	if (w->ring)   /* the feeder puts no more here: it would wait for this worker */
		atomic_store_explicit(&w->ring->closed, true, memory_order_release);
	if (!w->t_end)
		w->t_end = clock_ns();
	if (!w->t_measure) {
		/* Stopped before the ramp ended: all it did was ramp, so it measured nothing. */
		forget_ramp(w);
		w->t_measure = ctl->t_ramp_end;
	}
	/*
	 * Requests of one size (no split) are counted by their operation alone; a replay's are of the
	 * trace's sizes, not counted by size (results.trace counts them by operation and bytes).
	 */
	for (int op = 0; op < OP_COUNT && !worker_sized(w) && !w->ring; op++)
		w->rz.bs_ios[op][0] = w->st[op].ios;
	if (w->eng->exit)
		w->eng->exit(&w->ec);
	pthread_mutex_lock(&ctl->done_lock);
	if (atomic_fetch_sub(&ctl->running, 1) == 1)
		pthread_cond_broadcast(&ctl->done_cond);
	pthread_mutex_unlock(&ctl->done_lock);
	return NULL;
}
