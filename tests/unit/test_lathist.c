// SPDX-License-Identifier: GPL-2.0-or-later
/* core/lathist: every bucket's bounds tile the line with no gap, each quantile is held against
 * the exact order statistic of a sorted copy of the same values (never above it by more than
 * one bucket, 1/32, never below it), and an interval's histogram from two cumulative copies
 * equals the histogram of that interval's values alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/lathist.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_buckets_tile(void **state)
{
	(void)state;
	assert_int_equal(lr_lathist_low(0), 0);
	for (unsigned i = 0; i + 1 < LR_LATHIST_BUCKETS; i++) {
		assert_true(lr_lathist_low(i) <= lr_lathist_high(i));
		assert_int_equal(lr_lathist_high(i) + 1, lr_lathist_low(i + 1));
		assert_int_equal(lr_lathist_index(lr_lathist_low(i)), i);
		assert_int_equal(lr_lathist_index(lr_lathist_high(i)), i);
		/* a bucket is never wider than 1/32 of the values it holds */
		assert_true((lr_lathist_high(i) - lr_lathist_low(i)) * 32 <=
			    lr_lathist_low(i));
	}
	assert_int_equal(lr_lathist_index(UINT64_MAX), LR_LATHIST_BUCKETS - 1);
	assert_int_equal(lr_lathist_index((uint64_t)1 << 41), LR_LATHIST_BUCKETS - 1);
	assert_int_equal(lr_lathist_index((uint64_t)1 << 40), LR_LATHIST_BUCKETS - LR_LATHIST_SUB);
}

static uint64_t exact_q(const uint64_t *sorted, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);

	return sorted[(rank ? rank : 1) - 1];
}

static void test_quantiles_against_sorted(void **state)
{
	enum { N = 5000 };
	static const double qs[] = {0.5, 0.9, 0.99, 0.999, 1.0};
	uint64_t *v = malloc(N * sizeof(*v));
	struct lr_lathist *h = calloc(1, sizeof(*h));
	uint64_t sum = 0;

	(void)state;
	srand(7);
	for (size_t i = 0; i < N; i++) {
		/* a bulk near 40 us and a tail to 20 ms, as a probe under a filling queue */
		v[i] = 30000 + (uint64_t)(rand() % 20000);
		if (i % 50 == 0)
			v[i] = 1000000 + (uint64_t)(rand() % 19000000);
		lr_lathist_add(h, v[i]);
		sum += v[i];
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	assert_int_equal(h->count, N);
	assert_int_equal(h->sum_ns, sum);
	assert_int_equal(h->min_ns, v[0]);
	assert_int_equal(h->max_ns, v[N - 1]);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		uint64_t want = exact_q(v, N, qs[k]), got = lr_lathist_quantile(h, qs[k]);

		assert_true(got >= want);
		assert_true((got - want) * 32 <= want);
	}
	assert_int_equal(lr_lathist_quantile(h, 1.0), v[N - 1]);
	free(v);
	free(h);
}

static void test_empty_is_unknown(void **state)
{
	struct lr_lathist *h = calloc(1, sizeof(*h));

	(void)state;
	assert_int_equal(lr_lathist_quantile(h, 0.99), 0);
	lr_lathist_add(h, 5);
	assert_int_equal(lr_lathist_quantile(h, 0.5), 5);
	assert_int_equal(lr_lathist_quantile(h, 0.0), 5);
	/* below 32 ns every value has a bucket of its own: the median of 1..10 is 5 */
	lr_lathist_reset(h);
	for (uint64_t i = 1; i <= 10; i++)
		lr_lathist_add(h, i);
	assert_int_equal(lr_lathist_quantile(h, 0.5), 5);
	assert_int_equal(lr_lathist_quantile(h, 0.9), 9);
	free(h);
}

static void test_interval_from_cumulative(void **state)
{
	struct lr_lathist *cum = calloc(1, sizeof(*cum)), *then = calloc(1, sizeof(*then));
	struct lr_lathist *alone = calloc(1, sizeof(*alone)), *d = calloc(1, sizeof(*d));

	(void)state;
	for (uint64_t i = 1; i <= 1000; i++)
		lr_lathist_add(cum, 40000 + i);
	*then = *cum;
	for (uint64_t i = 1; i <= 100; i++) {
		lr_lathist_add(cum, 9000000 + i * 1000);
		lr_lathist_add(alone, 9000000 + i * 1000);
	}
	assert_int_equal(lr_lathist_sub(d, cum, then), 0);
	assert_int_equal(d->count, alone->count);
	assert_int_equal(d->sum_ns, alone->sum_ns);
	assert_memory_equal(d->b, alone->b, sizeof(d->b));
	/* the interval's extremes are known to their buckets: within 1/32 of the truth */
	assert_true(d->min_ns <= alone->min_ns && (alone->min_ns - d->min_ns) * 32 <= alone->min_ns);
	assert_int_equal(d->max_ns, alone->max_ns);
	assert_int_equal(lr_lathist_quantile(d, 0.99), lr_lathist_quantile(alone, 0.99));
	/* an unchanged interval is empty, and a copy that is not earlier is refused */
	assert_int_equal(lr_lathist_sub(d, cum, cum), 0);
	assert_int_equal(d->count, 0);
	assert_int_equal(lr_lathist_sub(d, then, cum), -EINVAL);
	assert_int_equal(d->count, 0);
	/* merging the halves gives the whole */
	lr_lathist_merge(then, alone);
	assert_memory_equal(then, cum, sizeof(*cum));
	free(cum);
	free(then);
	free(alone);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_tile),
		cmocka_unit_test(test_quantiles_against_sorted),
		cmocka_unit_test(test_empty_is_unknown),
		cmocka_unit_test(test_interval_from_cumulative),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
