// SPDX-License-Identifier: MIT
/*
 * compare's note on placement (docs/placement.md): each side's placements, the distinct ones of its
 * measured runs' host.placement, and whether the two sides differ. A note, never a verdict.
 */
#include <stdio.h>
#include <string.h>

#include "compare.h"

/* One run's placement as text: "cpus 0-3 (node 0), device node 0, memory node 0, governor performance". */
static void placement_text(const struct rs_placement *p, char *buf, size_t len)
{
	size_t n = 0;

#define ADD(...) (n += (size_t)snprintf(buf + (n < len ? n : len - 1), n < len ? len - n : 1, __VA_ARGS__))
	ADD("cpus %s%s", p->cpus ? p->cpus : "?", p->pinned ? " (pinned)" : "");
	if (p->node >= 0)
		ADD(", node %lld", (long long)p->node);
	else if (p->nodes && *p->nodes)
		ADD(", nodes %s", p->nodes);
	ADD(", device node %s", p->device_node >= 0 ? "" : "unknown");
	if (p->device_node >= 0)
		ADD("%lld", (long long)p->device_node);
	if (p->memory_node >= 0)
		ADD(", memory node %lld", (long long)p->memory_node);
	if (p->governor)
		ADD(", governor %s", p->governor);
	if (p->sqpoll_cpu >= 0)
		ADD(", sqpoll cpu %lld", (long long)p->sqpoll_cpu);
#undef ADD
}

/*
 * The distinct placements of s's measured runs, "; "-separated in the order first met, into buf.
 * False where no run recorded one (results from before host.placement).
 */
static bool side_placements(const struct rs_set *s, char *buf, size_t len)
{
	char one[CMP_PLACEMENT_MAX];
	bool any = false;

	buf[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		const struct rs_placement *p = &s->runs[i].machine.placement;
		size_t at = strlen(buf);

		if (!p->present || s->runs[i].prepare)
			continue;
		any = true;
		placement_text(p, one, sizeof(one));
		/* Each once: a match bounded by "; " or the ends of the list. */
		for (const char *hit = strstr(buf, one); hit; hit = strstr(hit + 1, one))
			if ((hit == buf || hit[-1] == ' ') && (hit[strlen(one)] == '\0' || hit[strlen(one)] == ';'))
				goto next;
		snprintf(buf + at, len - at, "%s%s", at ? "; " : "", one);
next:;
	}
	return any;
}

void cmp_placement(struct cmp *c, const struct rs_set *base, const struct rs_set *cand)
{
	bool b = side_placements(base, c->placement_base, sizeof(c->placement_base));
	bool k = side_placements(cand, c->placement_cand, sizeof(c->placement_cand));

	c->placement_differs = b && k && strcmp(c->placement_base, c->placement_cand) != 0;
}
