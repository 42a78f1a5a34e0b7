// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the criteria file of `ssdbench check` (criteria_parse). Whatever the bytes, it
 * returns 0 with every requirement holding a known metric, operator and a finite value >= 0, or
 * -EINVAL (or -ENOMEM) with a message, and leaves nothing allocated.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[512] = "";
	struct criteria cr;
	int ret;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ret = criteria_parse(&cr, "fuzz.json", text, err, sizeof(err));
	free(text);
	if (ret) {
		CHECK((ret == -EINVAL || ret == -ENOMEM) && err[0] != '\0');
		return 0;
	}
	CHECK(cr.n > 0);
	for (size_t i = 0; i < cr.n; i++) {
		CHECK(cr.c[i].name && cr.c[i].nreqs > 0 && json_is_object(cr.c[i].select));
		for (size_t k = 0; k < cr.c[i].nreqs; k++) {
			const struct crit_req *r = &cr.c[i].reqs[k];

			CHECK(r->m.kind != M_AUTO && r->op <= CO_EQ && r->key && r->text);
			CHECK(isfinite(r->value) && r->value >= 0);
			CHECK(r->m.kind != M_LAT_PCT || (r->m.pct > 0 && r->m.pct < 100));
			(void)crit_holds(r, r->value);
		}
	}
	criteria_release(&cr);
	return 0;
}
