/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Growable arrays of any element type: growth by doubling, and the sorted find-or-insert the
 * exporter's series and the sampler's tables keep their entries in. [any] */
#ifndef LINERATE_ARRAY_H
#define LINERATE_ARRAY_H

#include <stdbool.h>
#include <stddef.h>

#include "linerate/core/common.h"

/* Orders an entry against a key: < 0 when the entry sorts before the key, 0 when it is the
 * key's entry. */
typedef int (*lr_array_cmp_fn)(const void *entry, const void *key);

/* Makes room for need entries of elem bytes in the array whose address is arrp (a T ** passed
 * as void *), of capacity *cap entries: the capacity doubles from 8 (or from *cap) until need
 * fits, so adding one entry at a time costs O(1) amortised. 0, or -ENOMEM (need * elem would
 * overflow, or realloc failed) with the array and *cap as they were. */
int lr_array_grow(void *arrp, size_t *cap, size_t need, size_t elem) LR_MUST_CHECK;
/* As lr_array_grow, and the entries it adds, [old *cap, new *cap), are zeroed. */
int lr_array_grow_zero(void *arrp, size_t *cap, size_t need, size_t elem) LR_MUST_CHECK;

/* Binary search of base[0..n), sorted by cmp: the index of key's entry (*found true), else
 * the index key's entry would take to keep the order (*found false). */
size_t lr_array_find(const void *base, size_t n, size_t elem, const void *key, lr_array_cmp_fn cmp,
		     bool *found);
/* Key's entry in the sorted array at arrp (as lr_array_grow's) of *n entries, or a zeroed
 * entry inserted where key keeps the order (*added true: the caller fills in its key). NULL
 * when the array could not grow: then nothing changed. */
void *lr_array_sorted_get(void *arrp, size_t *n, size_t *cap, size_t elem, const void *key,
			  lr_array_cmp_fn cmp, bool *added);

#endif
