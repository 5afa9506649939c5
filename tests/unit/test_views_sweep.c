// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Issue 17: nothing on the dashboard may be cut mid-word or mid-number. Every view (overview,
 * detail, detail with Queues, the peer's detail) of a busy host with traffic, a peer and
 * queues is rendered at every width from 80 to 200 and several heights; the witness is the
 * frame's text itself: no text cell may sit flush against the right edge or a pane's vertical
 * border (where a clipped word or number ends), so every row's text ends in a blank first.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/busyhost.h"
#include "fakes/golden.h"
#include "linerate/present/ui.h"
#include "linerate/present/frame.h"
#include "linerate/sample/snapshot.h"
#include "linerate/present/view.h"

struct fixture {
	struct lr_snapshot snap, peer;
	struct lr_ui app;
	struct lr_frame frame;
	struct lr_view_ctx ctx;
	struct lr_view_traffic tv;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	setenv("TZ", "UTC", 1);
	busyhost_build(&fx->snap, 64, 2, "lr1234");
	busyhost_build(&fx->peer, 16, 0, "peer99");
	lr_ui_init(&fx->app, 500 * LR_NSEC_PER_MSEC, 5, "ens1f0np0");
	fx->app.traffic = true;
	lr_ui_sync(&fx->app, &fx->snap);
	lr_frame_init(&fx->frame);
	fx->tv.state = LR_VTS_RUNNING;
	fx->tv.host = "192.168.100.200";
	fx->tv.port = 5201;
	fx->tv.iface = "ens1f0np0";
	fx->tv.knobs.parallel = 2;
	fx->tv.knobs.rate_bps = 4000000000ULL;
	fx->tv.elapsed_s = 123.4;
	fx->tv.duration_s = 3600;
	fx->ctx.snap = &fx->snap;
	fx->ctx.app = &fx->app;
	fx->ctx.host = "build-server-07.example.org";
	fx->ctx.theme_name = "default";
	fx->ctx.status_msg = "ens1f0np0: 12 driver stats (was 0)";
	fx->ctx.streams_pane = lr_view_streams;
	fx->ctx.streams_arg = &fx->tv;
	fx->ctx.peer = &fx->peer;
	fx->ctx.peer_host = "peer-host-b.example.org";
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	lr_snapshot_free(&fx->snap);
	lr_snapshot_free(&fx->peer);
	lr_frame_free(&fx->frame);
	free(fx);
	return 0;
}

static bool boundary(const struct lr_cell *c)
{
	switch (c->cp) {
	case 0x2502: case 0x2503: case 0x251c: case 0x2524: case 0x252c: case 0x2534: case 0x253c:
		return true;
	case 0x2500:	/* a title's rule: " Title ───", text runs into it only when cut */
		return c->role == LR_ROLE_BORDER;
	case '|': case '+': case '-':
		return c->role == LR_ROLE_BORDER;
	default:
		return false;
	}
}

/* Text: printable ASCII outside borders and graphs (graph glyphs may run to the edge). */
static bool text_cell(const struct lr_cell *c)
{
	return c->cp > ' ' && c->cp < 0x7f && c->role != LR_ROLE_BORDER &&
	       c->role != LR_ROLE_GRAPH_RX && c->role != LR_ROLE_GRAPH_TX;
}

/* The row's text around x, for the failure message. */
static void row_text(const struct lr_frame *f, int y, char *buf, size_t len)
{
	size_t n = 0;

	for (int x = 0; x < f->w && n + 1 < len; x++) {
		uint32_t cp = lr_frame_at(f, x, y)->cp;

		buf[n++] = cp < 0x80 ? (char)cp : boundary(lr_frame_at(f, x, y)) ? '|' : '#';
	}
	buf[n] = '\0';
}

/* Counts (and prints the first few of) text cells flush against a boundary. */
static int cuts(const struct lr_frame *f, const char *what, int *printed)
{
	int n = 0;

	for (int y = 0; y < f->h; y++)
		for (int x = 1; x <= f->w; x++) {
			const struct lr_cell *b = x < f->w ? lr_frame_at(f, x, y) : NULL;

			if (b && !boundary(b))
				continue;
			if (!text_cell(lr_frame_at(f, x - 1, y)))
				continue;
			n++;
			if ((*printed)++ < 100000) {
				char buf[256];

				row_text(f, y, buf, sizeof(buf));
				print_message("cut: %s %dx%d row %d col %d: %s\n", what, f->w, f->h,
					      y, x - 1, buf);
			}
		}
	if (f->clipped) {	/* the frame saw text that did not fit drawn cut */
		n += (int)f->clipped;
		if ((*printed)++ < 100000) {
			char buf[256];

			row_text(f, f->clip_y, buf, sizeof(buf));
			print_message("clipped: %s %dx%d %u texts, first row %d col %d:%s\n", what,
				      f->w, f->h, f->clipped, f->clip_y, f->clip_x, buf);
		}
	}
	return n;
}

static int sweep(struct fixture *fx, const char *what, const int *heights, size_t nh)
{
	int total = 0, printed = 0;

	for (size_t k = 0; k < nh; k++)
		for (int w = 70; w <= 200; w++) {
			assert_int_equal(lr_frame_resize(&fx->frame, w, heights[k]), 0);
			lr_view_render(&fx->frame, &fx->ctx);
			total += cuts(&fx->frame, what, &printed);
		}
	return total;
}

static const int heights[] = {20, 23, 24, 30, 43, 50};

static void test_overview_sweep(void **state)
{
	struct fixture *fx = *state;

	fx->app.view = LR_VIEW_OVERVIEW;
	assert_int_equal(sweep(fx, "overview", heights, LR_ARRAY_SIZE(heights)), 0);
}

static void test_detail_sweep(void **state)
{
	struct fixture *fx = *state;

	fx->app.view = LR_VIEW_DETAIL;
	for (size_t i = 0; i < fx->snap.n_ifaces; i++) {	/* each interface's own lines */
		fx->app.sel = i;
		fx->app.sel_name[0] = '\0';
		lr_ui_sync(&fx->app, &fx->snap);
		assert_int_equal(sweep(fx, fx->snap.ifaces[i].name, heights, LR_ARRAY_SIZE(heights)),
				 0);
	}
}

static void test_detail_queues_sweep(void **state)
{
	struct fixture *fx = *state;

	fx->app.view = LR_VIEW_DETAIL;
	fx->app.queues = true;
	assert_int_equal(sweep(fx, "detail+Q", heights, LR_ARRAY_SIZE(heights)), 0);
}

static void test_peer_detail_sweep(void **state)
{
	struct fixture *fx = *state;

	fx->app.view = LR_VIEW_DETAIL;
	fx->app.peer_side = true;
	assert_int_equal(sweep(fx, "peer detail", heights, LR_ARRAY_SIZE(heights)), 0);
}

/* Issue 21: an 80-column terminal with a tmux status line (80x23) and the smallest one
 * (70x20) get the reduced layout with every pane's rows counted. */
static void render_golden(struct fixture *fx, const char *name, int w, int h)
{
	int printed = 0;

	assert_int_equal(lr_frame_resize(&fx->frame, w, h), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	golden_check(&fx->frame, name);
	assert_int_equal(cuts(&fx->frame, name, &printed), 0);
}

static void test_small_terminals(void **state)
{
	struct fixture *fx = *state;
	int col;

	fx->app.view = LR_VIEW_OVERVIEW;
	render_golden(fx, "small_overview_80x23", 80, 23);
	render_golden(fx, "small_overview_70x20", 70, 20);
	fx->app.view = LR_VIEW_DETAIL;
	render_golden(fx, "small_detail_80x23", 80, 23);
	render_golden(fx, "small_detail_70x20", 70, 20);
	assert_int_equal(golden_find(&fx->frame, "too small", &col), -1);
	assert_int_equal(lr_frame_resize(&fx->frame, 69, 20), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "terminal too small (need 70x20)", &col) >= 0);
	assert_int_equal(lr_frame_resize(&fx->frame, 70, 19), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "terminal too small (need 70x20)", &col) >= 0);
}

/* Rows holding anything but blanks. */
static int rows_used(const struct lr_frame *f)
{
	int used = 0;

	for (int y = 0; y < f->h; y++)
		for (int x = 0; x < f->w; x++)
			if (lr_frame_at(f, x, y)->cp != ' ') {
				used++;
				break;
			}
	return used;
}

/* Issue 17: both views with traffic at the four sizes people run; the overview at 132x43
 * fills at least 80 % of its rows (history graphs per interface, the CPU pane grows). */
static void test_sizes_with_traffic(void **state)
{
	static const int sz[][2] = {{80, 24}, {100, 30}, {132, 43}, {200, 50}};
	struct fixture *fx = *state;
	char name[64];

	for (size_t i = 0; i < LR_ARRAY_SIZE(sz); i++) {
		fx->app.view = LR_VIEW_OVERVIEW;
		snprintf(name, sizeof(name), "traffic_overview_%dx%d", sz[i][0], sz[i][1]);
		render_golden(fx, name, sz[i][0], sz[i][1]);
		print_message("%s: %d of %d rows used\n", name, rows_used(&fx->frame), sz[i][1]);
		if (sz[i][0] == 132)
			assert_true(rows_used(&fx->frame) * 100 >= 80 * sz[i][1]);
		fx->app.view = LR_VIEW_DETAIL;
		snprintf(name, sizeof(name), "traffic_detail_%dx%d", sz[i][0], sz[i][1]);
		render_golden(fx, name, sz[i][0], sz[i][1]);
		print_message("%s: %d of %d rows used\n", name, rows_used(&fx->frame), sz[i][1]);
	}
	/* issue 17: lo's operstate (IF_OPER_UNKNOWN, as the kernel reports lo) in the kernel's
	 * word, not "?" */
	fx->app.view = LR_VIEW_OVERVIEW;
	assert_int_equal(lr_frame_resize(&fx->frame, 132, 43), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	{
		int col, y = golden_find(&fx->frame, " lo ", &col);

		assert_true(y > 0);
		assert_int_equal(golden_find(&fx->frame, " lo              -/65536   -        unknown ",
					     &col),
				 y);
	}
	/* the peer's interfaces beyond its rows are counted, not dropped silently (issue 21) */
	{
		int col;

		struct lr_iface_snap *more = realloc(fx->peer.ifaces, 6 * sizeof(*more));

		assert_non_null(more);
		fx->peer.ifaces = more;
		for (size_t i = 4; i < 6; i++) {	/* two more veths, no moved counters */
			more[i] = more[0];
			more[i].moved = NULL;
			more[i].queues = NULL;
			more[i].serving_cpus = NULL;
			more[i].n_moved = more[i].n_queues = 0;
			more[i].n_serving_cpus = 0;
			more[i].cap_moved = more[i].cap_queues = more[i].cap_serving = 0;
		}
		fx->peer.n_ifaces = fx->peer.cap_ifaces = 6;
		assert_int_equal(lr_frame_resize(&fx->frame, 80, 24), 0);
		lr_view_render(&fx->frame, &fx->ctx);
		/* 4 rows under the peer's line: 3 interfaces and the count of the rest */
		assert_int_equal(golden_find(&fx->frame, "+3 more on the peer", &col),
				 golden_find(&fx->frame, "on peer-host-b.example.org (peer)", &col) + 4);
	}
	/* a 4-CPU host, no peer: the CPU pane cannot fill the screen, the history must */
	lr_snapshot_free(&fx->snap);
	busyhost_build(&fx->snap, 4, 2, "lr1234");
	fx->ctx.peer = NULL;
	fx->app.view = LR_VIEW_OVERVIEW;
	assert_int_equal(lr_frame_resize(&fx->frame, 132, 43), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	print_message("4 CPUs, no peer, 132x43: %d of 43 rows used\n", rows_used(&fx->frame));
	assert_true(rows_used(&fx->frame) * 100 >= 80 * 43);
}

/* Braille: 2 samples per cell (the newer on the right), 4 dot rows filled from the bottom. */
static void test_braille_dots(void **state)
{
	struct fixture *fx = *state;
	struct lr_series ser;
	bool braille = false, blocks = false;

	(void)state;
	memset(&ser, 0, sizeof(ser));
	ser.v[0] = 1000;	/* oldest: level 2 of 4 at top 2000 */
	ser.v[1] = 2000;	/* newest: full */
	ser.head = 2;
	ser.len = 2;
	assert_int_equal(lr_frame_resize(&fx->frame, 3, 1), 0);
	lr_view_graph_braille(&fx->frame, (struct lr_rect){0, 0, 3, 1}, &ser, 2000, false, 1000,
			      LR_ROLE_GRAPH_RX);
	/* right column dots 8,6,5,4 (0xb8) and left 7,3 (0x44) */
	assert_int_equal(lr_frame_at(&fx->frame, 2, 0)->cp, 0x2800 + 0xb8 + 0x44);
	assert_int_equal(lr_frame_at(&fx->frame, 1, 0)->cp, ' ');	/* no history there */
	/* the detail view with braille graphs: dots, no block glyphs; ASCII: neither */
	fx->app.view = LR_VIEW_DETAIL;
	fx->ctx.graph = LR_GRAPH_BRAILLE;
	render_golden(fx, "braille_detail_80x24", 80, 24);
	for (int i = 0; i < fx->frame.w * fx->frame.h; i++) {
		const struct lr_cell *c = &fx->frame.cells[i];
		bool graph = c->role == LR_ROLE_GRAPH_RX || c->role == LR_ROLE_GRAPH_TX;

		braille |= graph && c->cp > 0x2800 && c->cp < 0x2900;
		blocks |= graph && c->cp >= 0x2581 && c->cp <= 0x2588;	/* CPU bars are not graphs */
	}
	assert_true(braille);
	assert_false(blocks);
	fx->ctx.graph = LR_GRAPH_ASCII;
	lr_view_render(&fx->frame, &fx->ctx);
	for (int i = 0; i < fx->frame.w * fx->frame.h; i++)
		if (fx->frame.cells[i].role == LR_ROLE_GRAPH_RX ||
		    fx->frame.cells[i].role == LR_ROLE_GRAPH_TX)
			assert_true(fx->frame.cells[i].cp < 0x80);
}

/* The witness itself: a number clipped at a border is found. */
static void test_witness_sees_a_cut(void **state)
{
	struct fixture *fx = *state;
	int printed = 40;

	assert_int_equal(lr_frame_resize(&fx->frame, 20, 2), 0);
	lr_frame_text(&fx->frame, 0, 0, 10, LR_ROLE_VALUE, "pk 4.01G and more");
	lr_view_vline(&fx->frame, 10, 0, 2, false);
	lr_frame_text(&fx->frame, 11, 1, -1, LR_ROLE_VALUE, "avg 3.99G min 3.89G");
	/* two texts flush against the border, and the frame saw both cut short */
	assert_int_equal(fx->frame.clipped, 2);
	assert_int_equal(cuts(&fx->frame, "witness", &printed), 4);
	/* whole words with a blank before the border: nothing */
	lr_frame_clear(&fx->frame);
	lr_frame_text(&fx->frame, 0, 0, 10, LR_ROLE_VALUE, "pk 4.01G");
	lr_view_vline(&fx->frame, 10, 0, 2, false);
	assert_int_equal(cuts(&fx->frame, "witness", &printed), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_witness_sees_a_cut, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overview_sweep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_terminals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sizes_with_traffic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_braille_dots, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_sweep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_queues_sweep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_peer_detail_sweep, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
