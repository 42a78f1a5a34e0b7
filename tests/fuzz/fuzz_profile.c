// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the profile loader (profile_parse) on any text, then every case of a loaded profile
 * expanded with plan_case and checked with job_check, as `ssdbench run --profile` does before running.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "profile.h"
#include "fuzz.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[1024] = "", name[128], msg[512];
	struct profile p;
	size_t n;
	int ret;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	/* The name in the text must be "fuzz" to match the path's base name (the seeds say so). */
	ret = profile_parse("fuzz.json", text, &p, err, sizeof(err));
	free(text);
	if (ret) {
		CHECK(ret == -EINVAL || ret == -ENOENT || ret == -ENOMEM);
		CHECK(err[0] != '\0' || ret == -ENOMEM);
		return 0;
	}
	CHECK(p.name && p.description && p.source);
	/* Every axis has at least one value, so a loaded profile has at least one case. */
	n = plan_ncases(&p.plan);
	CHECK(n >= 1);
	for (size_t k = 0; k < n; k++) {
		struct job j;

		/* profile_parse already expanded and checked every case: both must succeed again. */
		CHECK(plan_case(&p.plan, k, &j, name, sizeof(name), msg, sizeof(msg)) == 0);
		CHECK(job_check(&j, msg, sizeof(msg)) == 0);
		CHECK(strlen(name) < sizeof(name));
	}
	for (size_t i = 0; i < p.nprepare; i++) {
		struct job j = p.plan.base;

		CHECK(p.prepare_names[i] && p.prepare_names[i][0]);
		kvlist_apply(&p.prepare[i], &j, msg, sizeof(msg));
	}
	if (p.rounds.max) {
		struct job j = p.plan.base;

		(void)profile_selects(&p.rounds.select, &j);
	}
	profile_release(&p);
	return 0;
}
