// SPDX-License-Identifier: GPL-2.0-or-later
/* core/array: doubling growth and its overflow refusal (the old array kept), zeroed growth,
 * and the sorted find-or-insert the exporter and the sampler's tables use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/array.h"

struct ent {
	char name[8];
	int v;
};

static int cmp_name(const void *e, const void *key)
{
	return strcmp(((const struct ent *)e)->name, key);
}

static void test_grow_doubles(void **state)
{
	int *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(lr_array_grow(&a, &cap, 1, sizeof(*a)), 0);
	assert_int_equal(cap, 8);
	a[7] = 7;
	assert_int_equal(lr_array_grow(&a, &cap, 8, sizeof(*a)), 0);	/* fits: no change */
	assert_int_equal(cap, 8);
	assert_int_equal(lr_array_grow(&a, &cap, 9, sizeof(*a)), 0);
	assert_int_equal(cap, 16);
	assert_int_equal(a[7], 7);
	assert_int_equal(lr_array_grow(&a, &cap, 100, sizeof(*a)), 0);
	assert_int_equal(cap, 128);
	free(a);
}

static void test_grow_overflow_keeps_array(void **state)
{
	uint64_t *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(lr_array_grow(&a, &cap, 4, sizeof(*a)), 0);
	a[3] = 42;
	assert_int_equal(lr_array_grow(&a, &cap, SIZE_MAX / 4, sizeof(*a)), -ENOMEM);
	assert_non_null(a);
	assert_int_equal(cap, 8);
	assert_int_equal(a[3], 42);
	free(a);
}

static void test_grow_zero(void **state)
{
	int *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(lr_array_grow_zero(&a, &cap, 3, sizeof(*a)), 0);
	for (size_t i = 0; i < cap; i++) {
		assert_int_equal(a[i], 0);
		a[i] = -1;
	}
	assert_int_equal(lr_array_grow_zero(&a, &cap, 20, sizeof(*a)), 0);
	assert_int_equal(cap, 32);
	for (size_t i = 0; i < cap; i++)
		assert_int_equal(a[i], i < 8 ? -1 : 0);
	free(a);
}

static void test_sorted_get(void **state)
{
	static const char *const in[] = {"eth1", "lo", "eth0", "veth9", "eth1", "a", "lo"};
	static const char *const want[] = {"a", "eth0", "eth1", "lo", "veth9"};
	struct ent *a = NULL, *e;
	size_t n = 0, cap = 0, pos;
	bool added, found;

	(void)state;
	for (size_t i = 0; i < 40; i++) {	/* then the same keys again */
		const char *k = in[i % 7];

		e = lr_array_sorted_get(&a, &n, &cap, sizeof(*a), k, cmp_name, &added);
		assert_non_null(e);
		if (added) {
			assert_int_equal(e->v, 0);
			strcpy(e->name, k);
		}
		assert_int_equal(added, i < 7 && i != 4 && i != 6);
		e->v++;
	}
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(a[i].name, want[i]);
	pos = lr_array_find(a, n, sizeof(*a), "eth1", cmp_name, &found);
	assert_true(found);
	assert_int_equal(pos, 2);
	pos = lr_array_find(a, n, sizeof(*a), "eth10", cmp_name, &found);
	assert_false(found);
	assert_int_equal(pos, 3);
	pos = lr_array_find(NULL, 0, sizeof(*a), "x", cmp_name, &found);
	assert_false(found);
	assert_int_equal(pos, 0);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_doubles),
		cmocka_unit_test(test_grow_overflow_keeps_array),
		cmocka_unit_test(test_grow_zero),
		cmocka_unit_test(test_sorted_get),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
