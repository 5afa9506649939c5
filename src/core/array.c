// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Growable arrays: one doubling rule with its overflow check, and one sorted find-or-insert,
 * for every table that grows as interfaces, CPUs, queues or streams appear. Pure; the caller
 * owns the arrays and frees them. [any]
 *
 * The array is passed by the address of its pointer as void *, so any T ** fits without a
 * cast; the pointer is read and written with memcpy, which never reads a T * object through
 * a void * lvalue.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/array.h"

#define FIRST_CAP 8

static int grow(void *arrp, size_t *cap, size_t need, size_t elem, bool zero)
{
	size_t ncap = *cap ? *cap : FIRST_CAP;
	void *old, *p;

	if (need <= *cap)
		return 0;
	if (!elem || need > SIZE_MAX / elem)
		return -ENOMEM;
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	if (ncap > SIZE_MAX / elem)
		ncap = need;	/* the doubling would overflow; need alone does not */
	memcpy(&old, arrp, sizeof(old));
	p = realloc(old, ncap * elem);
	if (!p)
		return -ENOMEM;
	if (zero)
		memset((char *)p + *cap * elem, 0, (ncap - *cap) * elem);
	memcpy(arrp, &p, sizeof(p));
	*cap = ncap;
	return 0;
}

int lr_array_grow(void *arrp, size_t *cap, size_t need, size_t elem)
{
	return grow(arrp, cap, need, elem, false);
}

int lr_array_grow_zero(void *arrp, size_t *cap, size_t need, size_t elem)
{
	return grow(arrp, cap, need, elem, true);
}

size_t lr_array_find(const void *base, size_t n, size_t elem, const void *key, lr_array_cmp_fn cmp,
		     bool *found)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp((const char *)base + mid * elem, key);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

void *lr_array_sorted_get(void *arrp, size_t *n, size_t *cap, size_t elem, const void *key,
			  lr_array_cmp_fn cmp, bool *added)
{
	char *a;
	size_t pos;
	bool found;

	memcpy(&a, arrp, sizeof(a));
	pos = lr_array_find(a, *n, elem, key, cmp, &found);
	*added = false;
	if (found)
		return a + pos * elem;
	if (lr_array_grow(arrp, cap, *n + 1, elem))
		return NULL;
	*added = true;
	memcpy(&a, arrp, sizeof(a));
	memmove(a + (pos + 1) * elem, a + pos * elem, (*n - pos) * elem);
	memset(a + pos * elem, 0, elem);
	(*n)++;
	return a + pos * elem;
}
