// SPDX-License-Identifier: MIT
/* The table of engines, indexed by the model's engine ids, and the lookup by name. */
#include <string.h>

#include "engine.h"
#include "job.h"

/* Every id has its backend here: tests/test_engine.c checks that no slot is empty. */
static const struct engine_ops *const engines[] = {
	[ENGINE_URING] = &engine_uring_ops,
	[ENGINE_AIO] = &engine_aio_ops,
	[ENGINE_PSYNC] = &engine_psync_ops,
	[ENGINE_NULL] = &engine_null_ops,
};
_Static_assert(sizeof(engines) / sizeof(engines[0]) == ENGINE_COUNT, "engines[] and enum engine_id differ");

const struct engine_ops *engine_find(const char *name)
{
	for (int i = 0; i < ENGINE_COUNT; i++)
		if (!strcmp(job_engine_name((enum engine_id)i), name))
			return engines[i];
	return NULL;
}

int engine_probe(const struct engine_ops *e)
{
	return e->probe ? e->probe() : 0;
}
