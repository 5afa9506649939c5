// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-CPU history (present/cpu_hist.c) and where the screen shows it: the ring keeps each CPU's
 * own points in order (a CPU a snapshot lacks is unknown, not 0), and a 132x43 overview of a
 * 2-CPU host during a test spends its lower half on the CPUs' history instead of blank rows
 * (issue 28: it used 20 of 43 rows), cpu0's busy graph full and idle cpu1's empty. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/core/strutil.h"
#include "linerate/present/cpu_hist.h"
#include "linerate/present/frame.h"
#include "linerate/present/ui.h"
#include "linerate/present/view.h"
#include "linerate/sample/snapshot.h"

/* Two CPUs (cpu0 busy_pct busy, cpu1 idle) and one interface carrying 1 Gbit/s. */
static void build(struct lr_snapshot *s, uint64_t seq, double busy, bool with_cpu1)
{
	lr_snapshot_init(s);
	s->seq = seq;
	s->real_ns = 1700000000ULL * LR_NSEC_PER_SEC + seq * LR_NSEC_PER_SEC / 2;
	s->mono_ns = 100 * LR_NSEC_PER_SEC + seq * LR_NSEC_PER_SEC / 2;
	s->interval_ns = s->target_interval_ns = LR_NSEC_PER_SEC / 2;
	s->cpus = calloc(2, sizeof(*s->cpus));
	s->n_cpus = s->cap_cpus = with_cpu1 ? 2 : 1;
	for (size_t i = 0; i < s->n_cpus; i++) {
		struct lr_cpu_snap *c = &s->cpus[i];

		c->cpu = (int)i;
		c->valid = LR_CPUV_TIMES;
		c->idle_pct = i ? 100 : 100 - busy;
		c->softirq_pct = i ? 0 : busy / 2;
		c->system_pct = i ? 0 : busy / 2;
		c->steal_pct = -1;
	}
	s->ifaces = calloc(1, sizeof(*s->ifaces));
	s->n_ifaces = s->cap_ifaces = 1;
	lr_strlcpy(s->ifaces[0].name, "eth0", sizeof(s->ifaces[0].name));
	s->ifaces[0].ifindex = 2;
	s->ifaces[0].mtu = 1500;
	s->ifaces[0].speed_mbps = -1;
	s->ifaces[0].softirq_cpu = -1;
	s->ifaces[0].softirq_max_pct = -1;
	for (int k = 0; k < 200; k++) {
		lr_series_push(&s->ifaces[0].hist[LR_SER_RX_BPS], 1e9);
		lr_series_push(&s->ifaces[0].hist[LR_SER_TX_BPS], 1e6);
	}
}

static void test_ring_keeps_each_cpu_in_order(void **state)
{
	struct lr_cpu_hist h;
	struct lr_snapshot s;
	struct lr_series ser;

	(void)state;
	lr_cpu_hist_init(&h);
	for (uint64_t k = 1; k <= 300; k++) {	/* more than the ring holds */
		build(&s, k, (double)(k % 100), k != 299);
		assert_int_equal(lr_cpu_hist_push(&h, &s), 0);
		assert_int_equal(lr_cpu_hist_push(&h, &s), 0);	/* the same snapshot: no point */
		lr_snapshot_free(&s);
	}
	assert_true(lr_cpu_hist_series(&h, 0, false, &ser));
	assert_int_equal(ser.len, LR_CPU_HIST_LEN);
	/* the newest point is snapshot 300's busy 0, the one before 299's 99 */
	assert_true(ser.v[(ser.head + LR_HIST_LEN - 1) % LR_HIST_LEN] == 0.0f);
	assert_true(ser.v[(ser.head + LR_HIST_LEN - 2) % LR_HIST_LEN] == 99.0f);
	assert_true(lr_cpu_hist_series(&h, 0, true, &ser));
	assert_true(ser.v[(ser.head + LR_HIST_LEN - 2) % LR_HIST_LEN] == 49.5f ||
		    ser.v[(ser.head + LR_HIST_LEN - 2) % LR_HIST_LEN] == 50.0f);
	/* snapshot 299 had no cpu1: unknown there, never 0 */
	assert_true(lr_cpu_hist_series(&h, 1, false, &ser));
	assert_true(isnan(ser.v[(ser.head + LR_HIST_LEN - 2) % LR_HIST_LEN]));
	assert_true(ser.v[(ser.head + LR_HIST_LEN - 1) % LR_HIST_LEN] == 0.0f);
	assert_false(lr_cpu_hist_series(&h, 7, false, &ser));
	lr_cpu_hist_free(&h);
}

/* Cells in row y from x0 to x1 that are not blank. */
static int inked(const struct lr_frame *f, int y, int x0, int x1)
{
	int n = 0;

	for (int x = x0; x < x1; x++)
		n += lr_frame_at(f, x, y)->cp != ' ';
	return n;
}

static void test_overview_132x43_fills_with_history(void **state)
{
	struct lr_cpu_hist h;
	struct lr_snapshot s;
	struct lr_ui app;
	struct lr_frame f;
	struct lr_view_ctx ctx = {0};
	int blank = 0, label = -1;

	(void)state;
	lr_cpu_hist_init(&h);
	for (uint64_t k = 1; k <= 120; k++) {
		build(&s, k, 100, true);
		assert_int_equal(lr_cpu_hist_push(&h, &s), 0);
		if (k < 120)
			lr_snapshot_free(&s);
	}
	lr_ui_init(&app, LR_NSEC_PER_SEC / 2, 1, NULL);
	lr_ui_sync(&app, &s);
	lr_frame_init(&f);
	assert_int_equal(lr_frame_resize(&f, 132, 43), 0);
	ctx.snap = &s;
	ctx.app = &app;
	ctx.cpu_hist = &h;
	lr_view_render(&f, &ctx);
	for (int y = 0; y < 42 && label < 0; y++)
		if (lr_frame_at(&f, 1, y)->cp == 'h' && lr_frame_at(&f, 2, y)->cp == 'i')
			label = y;	/* "history ..." */
	for (int y = 0; y < label; y++)
		blank += inked(&f, y, 0, 132) == 0;
	if (label < 0 || blank > 2) {
		char *t = lr_frame_to_text(&f);

		fputs(t, stderr);
		free(t);
		fail_msg("history at row %d, %d blank rows above it", label, blank);
	}
	/* cpu0's rows (100 % busy) are inked in the busy half, idle cpu1's are not, and
	 * cpu1's rows reach the status line's neighbourhood: the screen is used */
	{
		int y1 = label + 1, g;

		while (y1 < 42 && lr_frame_at(&f, 5, y1)->cp != '1')
			y1++;
		g = y1 - (label + 1);
		assert_true(g >= 2);
		for (int r = 0; r < g; r++) {
			assert_true(inked(&f, label + 1 + r, 7, 66) > 0);
			assert_int_equal(inked(&f, y1 + r, 7, 66), 0);
		}
		assert_true(y1 + g - 1 >= 39);
	}
	lr_snapshot_free(&s);
	lr_frame_free(&f);
	lr_cpu_hist_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_keeps_each_cpu_in_order),
		cmocka_unit_test(test_overview_132x43_fills_with_history),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
