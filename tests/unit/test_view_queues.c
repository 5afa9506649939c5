// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Queues pane and the overview's hottest queue, from the synthetic hot-queue snapshot
 * (fakes/hotqueue.c: eth1, queue 3 carries 92 % of the rx packets on cpu3 at 100 % softirq):
 * golden frames at 80x24 (Q puts Queues in place of Packets) and 132x43 (its own band), the
 * hottest queue first, unknown CPU drawn "-", an interface without per-queue counters says
 * so, and the Q key. LR_UPDATE_GOLDEN=1 rewrites the goldens.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/golden.h"
#include "fakes/hotqueue.h"
#include "linerate/present/ui.h"
#include "linerate/present/frame.h"
#include "linerate/present/view.h"
#include "linerate/sample/snapshot.h"

struct fixture {
	struct lr_snapshot snap;
	struct lr_ui app;
	struct lr_frame frame;
	struct lr_view_ctx ctx;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	setenv("TZ", "UTC", 1);
	hotqueue_build(&fx->snap, true);
	lr_ui_init(&fx->app, LR_NSEC_PER_SEC, 5, NULL);
	lr_ui_sync(&fx->app, &fx->snap);
	lr_frame_init(&fx->frame);
	fx->ctx.snap = &fx->snap;
	fx->ctx.app = &fx->app;
	fx->ctx.host = "host-a";
	fx->ctx.theme_name = "default";
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	lr_snapshot_free(&fx->snap);
	lr_frame_free(&fx->frame);
	free(fx);
	return 0;
}

static void render(struct fixture *fx, const char *golden, int w, int h)
{
	assert_int_equal(lr_frame_resize(&fx->frame, w, h), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	golden_check(&fx->frame, golden);
}

/* The text of row y from column x, w cells, as UTF-8 (ASCII here). */
static void row_text(const struct lr_frame *f, int x, int y, int w, char *out)
{
	for (int i = 0; i < w; i++) {
		uint32_t cp = lr_frame_at(f, x + i, y)->cp;

		out[i] = cp < 128 && cp ? (char)cp : '?';
	}
	out[w] = '\0';
}

static void test_stats(void **state)
{
	struct fixture *fx = *state;
	struct lr_view_queue_stats st;
	struct lr_iface_snap none = {0};

	assert_true(lr_view_queue_stats(&fx->snap.ifaces[0], &st));
	assert_int_equal(st.hot, 3);
	/* (920000 + 1000) / (1000000 + 8 * 1000) */
	assert_true(st.share > 0.913 && st.share < 0.914);
	assert_true(st.imbalance > 7.30 && st.imbalance < 7.32);
	assert_false(lr_view_queue_stats(&none, &st));
	assert_int_equal(st.hot, -1);
	assert_true(st.share < 0);
}

static void test_pane_80x24_swaps_packets(void **state)
{
	struct fixture *fx = *state;
	char line[64];
	int col, hy, y;

	fx->app.view = LR_VIEW_DETAIL;
	/* without Q: Packets, no Queues (no room for its own at 80x24) */
	assert_int_equal(lr_frame_resize(&fx->frame, 80, 24), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "Packets", &col) > 0);
	assert_int_equal(golden_find(&fx->frame, "Queues", &col), -1);

	assert_true(lr_ui_handle(&fx->app, lr_ui_key('Q')));
	assert_true(fx->app.queues);
	render(fx, "detail_queues_80x24", 80, 24);
	assert_int_equal(golden_find(&fx->frame, "Packets", &col), -1);
	hy = golden_find(&fx->frame, "rx p/s", &col);
	assert_true(hy > 0);
	/* the hottest queue first: queue 3, 920k rx p/s, 91 %, its drops, cpu3 at 100 % */
	row_text(&fx->frame, 41, hy + 1, 38, line);
	assert_string_equal(line, " 3   920k  1.00k   91%  1.50k   3 100%");
	y = golden_find(&fx->frame, "max/mean 7.3", &col);
	assert_true(y >= 0 && y < hy);
	assert_int_equal(lr_frame_at(&fx->frame, 41 + 20, hy + 1)->role, LR_ROLE_WARN);
	/* queue 7: CPU unknown, drawn "-" */
	for (y = hy + 1; y < hy + 9; y++) {
		row_text(&fx->frame, 41, y, 2, line);
		if (!strcmp(line, " 7"))
			break;
	}
	assert_true(y < hy + 9);
	row_text(&fx->frame, 41 + 29, y, 9, line);
	assert_string_equal(line, "   -    -");
	/* Q again: Packets back */
	assert_true(lr_ui_handle(&fx->app, lr_ui_key('Q')));
	assert_false(fx->app.queues);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "Packets", &col) > 0);
}

static void test_pane_132x43_own_band(void **state)
{
	struct fixture *fx = *state;
	int col, y;

	fx->app.view = LR_VIEW_DETAIL;
	render(fx, "detail_queues_132x43", 132, 43);
	assert_true(golden_find(&fx->frame, "Packets", &col) > 0);
	y = golden_find(&fx->frame, "Queues", &col);
	assert_true(y > 0);
	assert_true(golden_find(&fx->frame, "+3 more queues", &col) > y);
}

static void test_overview_hot_queue(void **state)
{
	struct fixture *fx = *state;
	int col, hcol, y;

	render(fx, "overview_queues_132x43", 132, 43);
	y = golden_find(&fx->frame, "HOT Q", &hcol);
	assert_true(y > 0);
	assert_int_equal(golden_find(&fx->frame, "q3 91%", &col), y + 1);
	assert_int_equal(col, hcol);
	/* no room at 80 columns: the column is left out, the rest unchanged */
	assert_int_equal(lr_frame_resize(&fx->frame, 80, 24), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_int_equal(golden_find(&fx->frame, "HOT Q", &col), -1);
}

static void test_unknown_queues(void **state)
{
	struct fixture *fx = *state;
	struct lr_iface_snap *e = &fx->snap.ifaces[0];
	size_t n = e->n_queues;
	int col;

	e->n_queues = 0;
	e->queue_source = LR_QSRC_NONE;
	fx->app.view = LR_VIEW_DETAIL;
	fx->app.queues = true;
	assert_int_equal(lr_frame_resize(&fx->frame, 80, 24), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "per-queue counters: unknown", &col) > 0);
	assert_int_equal(golden_find(&fx->frame, "share", &col), -1); /* no table of zeros */
	/* the overview has no HOT QUEUE column when no interface's queues are known */
	fx->app.view = LR_VIEW_OVERVIEW;
	assert_int_equal(lr_frame_resize(&fx->frame, 132, 43), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_int_equal(golden_find(&fx->frame, "HOT Q", &col), -1);
	e->n_queues = n;
}

/* Issue 28: a veth lists its queues (sysfs) with no per-queue counter known, and the detail
 * view at 132x43 spent a band of 8 rows saying so. Folded; Q says why and opens nothing. */
static void test_unknown_queues_folded(void **state)
{
	struct fixture *fx = *state;
	struct lr_iface_snap *e = &fx->snap.ifaces[0];
	int col;

	for (size_t i = 0; i < e->n_queues; i++)
		e->queues[i].valid = 0;
	fx->app.view = LR_VIEW_DETAIL;
	assert_int_equal(lr_frame_resize(&fx->frame, 132, 43), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "Packets", &col) > 0);
	assert_int_equal(golden_find(&fx->frame, "Queues", &col), -1);
	assert_int_equal(golden_find(&fx->frame, "per-queue counters: unknown", &col), -1);
	fx->app.no_queues = "Q: eth1 has no per-queue counters";
	lr_ui_handle(&fx->app, LR_ACT_QUEUES);
	assert_false(fx->app.queues);
	assert_string_equal(fx->app.msg, fx->app.no_queues);
	fx->app.no_queues = NULL;
	lr_ui_handle(&fx->app, LR_ACT_QUEUES);
	assert_true(fx->app.queues);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pane_80x24_swaps_packets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pane_132x43_own_band, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overview_hot_queue, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_queues, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_queues_folded, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
