// SPDX-License-Identifier: MIT
/* The table of engines and the lookup by name. */
#include <string.h>

#include "engine.h"

static const struct engine_ops *const engines[] = {
	&engine_uring_ops,
	&engine_aio_ops,
	&engine_psync_ops,
	&engine_null_ops,
};

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}
