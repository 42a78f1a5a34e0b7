// SPDX-License-Identifier: MIT
/* Arrays that grow by doubling (see grow.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

int grow(void *arrayp, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : GROW_MIN;
	void *old, *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (!size || n > SIZE_MAX / size)
		return -ENOMEM;
	/* Through memcpy: *arrayp is a pointer to some element type, never accessed as a void *. */
	memcpy(&old, arrayp, sizeof(old));
	p = realloc(old, n * size);
	if (!p)
		return -ENOMEM;
	memcpy(arrayp, &p, sizeof(p));
	*cap = n;
	return 0;
}
