// SPDX-License-Identifier: GPL-2.0-or-later
/* The CPU window: /proc/stat counts in 10 ms ticks, so at -i 0.01 a CPU 12.5 % in softirq
 * reads 0 % then 100 % tick by tick. Percentages over >= 100 ms of readings read 10-20 %,
 * are unknown until 100 ms of readings exist, and at 0.5 s the window is the interval. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "linerate/sample/cpuwin.h"
#include "linerate/sample/snapshot.h"

#define MS 1000000ULL

/* One reading as the kernel prints it: one CPU, `si` jiffies of softirq so far, the rest of
 * `jiffies` idle. */
static void read_stat(struct lr_cpuwin *w, uint64_t jiffies, uint64_t si, uint64_t at_ns)
{
	char buf[256];
	int n;

	n = snprintf(buf, sizeof(buf),
		     "cpu  0 0 0 %llu 0 0 %llu 0 0 0\ncpu0 0 0 0 %llu 0 0 %llu 0 0 0\n",
		     (unsigned long long)(jiffies - si), (unsigned long long)si,
		     (unsigned long long)(jiffies - si), (unsigned long long)si);
	assert_int_equal(lr_cpu_parse_stat(buf, (size_t)n, lr_cpuwin_slot(w)), 1);
	lr_cpuwin_push(w, at_ns);
}

static void test_10ms_ticks_read_the_load_not_0_or_100(void **state)
{
	struct lr_cpuwin w;
	struct lr_snapshot s;
	uint64_t si = 0;
	unsigned unknown = 0, known = 0;

	(void)state;
	lr_cpuwin_init(&w);
	lr_snapshot_init(&s);
	read_stat(&w, 1000, 0, 1000 * MS);
	for (unsigned k = 1; k <= 200; k++) {
		if (k % 8 == 0)	/* one jiffy in eight is softirq: 12.5 % */
			si++;
		read_stat(&w, 1000 + k, si, (1000 + 10 * k) * MS);
		assert_int_equal(lr_cpuwin_build(&w, &s, 10 * MS), 0);
		assert_int_equal(s.n_cpus, 1);
		if (!(s.cpus[0].valid & LR_CPUV_TIMES)) {
			unknown++;
			continue;
		}
		known++;
		assert_true(s.cpus[0].times_window_ns >= 95 * MS);
		assert_true(s.cpus[0].softirq_pct >= 9.9 && s.cpus[0].softirq_pct <= 20.1);
		assert_true(s.cpu_all.softirq_pct >= 9.9 && s.cpu_all.softirq_pct <= 20.1);
		assert_true(s.cpus[0].steal_pct == 0);
		assert_true(w.n <= 12);	/* readings older than the window are let go */
	}
	assert_int_equal(unknown, 9);	/* the first 100 ms have no window yet */
	assert_int_equal(known, 191);
	lr_snapshot_free(&s);
	lr_cpuwin_free(&w);
}

static void test_half_second_is_its_own_window(void **state)
{
	struct lr_cpuwin w;
	struct lr_snapshot s;

	(void)state;
	lr_cpuwin_init(&w);
	lr_snapshot_init(&s);
	read_stat(&w, 1000, 0, 1000 * MS);
	for (unsigned k = 1; k <= 6; k++) {
		read_stat(&w, 1000 + 50 * k, 6 * k, (1000 + 500 * k) * MS);
		assert_int_equal(lr_cpuwin_build(&w, &s, 500 * MS), 0);
		assert_true(s.cpus[0].valid & LR_CPUV_TIMES);
		assert_true(s.cpus[0].times_window_ns == 500 * MS);
		assert_true(s.cpus[0].softirq_pct > 11.99 && s.cpus[0].softirq_pct < 12.01);
		assert_int_equal(w.n, 2);
	}
	lr_snapshot_free(&s);
	lr_cpuwin_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_10ms_ticks_read_the_load_not_0_or_100),
		cmocka_unit_test(test_half_second_is_its_own_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
