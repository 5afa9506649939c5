// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dashboard state machine: every key of the help does what it says, selection follows
 * interfaces by name as they come and go, interval steps stay within 0.01..60 s, requests are
 * raised for the run loop, and traffic keys answer "no traffic configured" without traffic;
 * with traffic, what each key does to a test's knobs and the status text it shows, and the
 * verdict panel's keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "linerate/present/ui.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"

#define MS LR_NSEC_PER_MSEC

static void make_snap(struct lr_snapshot *s, const char *const *names, size_t n)
{
	lr_snapshot_init(s);
	s->ifaces = calloc(n ? n : 1, sizeof(*s->ifaces));
	s->n_ifaces = s->cap_ifaces = n;
	for (size_t i = 0; i < n; i++)
		lr_strlcpy(s->ifaces[i].name, names[i], sizeof(s->ifaces[i].name));
}

static void test_navigation(void **state)
{
	static const char *const names[] = {"eth0", "eth1", "lo"};
	struct lr_snapshot s;
	struct lr_ui app;

	(void)state;
	make_snap(&s, names, 3);
	lr_ui_init(&app, 500 * MS, 3, NULL);
	lr_ui_sync(&app, &s);
	assert_int_equal(app.view, LR_VIEW_OVERVIEW);
	assert_int_equal(app.sel, 0);
	assert_string_equal(app.sel_name, "eth0");

	/* overview: Down/Up move the cursor without wrapping, Enter opens the detail */
	assert_true(lr_ui_handle(&app, LR_ACT_UP));
	assert_int_equal(app.sel, 0);
	lr_ui_handle(&app, LR_ACT_DOWN);
	lr_ui_sync(&app, &s);
	assert_int_equal(app.sel, 1);
	assert_string_equal(app.sel_name, "eth1");
	lr_ui_handle(&app, LR_ACT_DOWN);
	lr_ui_handle(&app, LR_ACT_DOWN);
	assert_int_equal(app.sel, 2);
	assert_true(lr_ui_handle(&app, LR_ACT_ENTER));
	assert_int_equal(app.view, LR_VIEW_DETAIL);
	/* detail: Up/Down do nothing, Tab/Right wrap forward, Left wraps back */
	assert_false(lr_ui_handle(&app, LR_ACT_DOWN));
	lr_ui_handle(&app, LR_ACT_NEXT_IFACE);
	assert_int_equal(app.sel, 0);
	lr_ui_handle(&app, LR_ACT_PREV_IFACE);
	assert_int_equal(app.sel, 2);
	lr_ui_sync(&app, &s);
	assert_string_equal(app.sel_name, "lo");
	/* v toggles back */
	lr_ui_handle(&app, LR_ACT_TOGGLE_VIEW);
	assert_int_equal(app.view, LR_VIEW_OVERVIEW);
	lr_snapshot_free(&s);
}

static void test_selection_follows_name(void **state)
{
	static const char *const before[] = {"eth0", "eth1", "lo"};
	static const char *const added[] = {"eth0", "eth1", "eth2", "lo"};
	static const char *const removed[] = {"eth0", "eth2"};
	struct lr_snapshot s;
	struct lr_ui app;

	(void)state;
	lr_ui_init(&app, 500 * MS, 1, "eth1");	/* -I eth1: straight to its detail */
	assert_int_equal(app.view, LR_VIEW_DETAIL);
	make_snap(&s, before, 3);
	lr_ui_sync(&app, &s);
	assert_int_equal(app.sel, 1);
	lr_snapshot_free(&s);
	/* eth2 appears before lo: eth1 keeps the selection by name */
	make_snap(&s, added, 4);
	lr_ui_sync(&app, &s);
	assert_int_equal(app.sel, 1);
	assert_string_equal(app.sel_name, "eth1");
	/* lo stays selected though its index moved */
	lr_ui_init(&app, 500 * MS, 1, "lo");
	lr_ui_sync(&app, &s);
	assert_int_equal(app.sel, 3);
	lr_snapshot_free(&s);
	/* lo goes away: the selection is clamped and takes the name found there */
	make_snap(&s, removed, 2);
	lr_ui_sync(&app, &s);
	assert_int_equal(app.sel, 1);
	assert_string_equal(app.sel_name, "eth2");
	lr_snapshot_free(&s);
	/* no interfaces at all: nothing to enter */
	make_snap(&s, NULL, 0);
	lr_ui_init(&app, 500 * MS, 1, NULL);
	lr_ui_sync(&app, &s);
	assert_false(lr_ui_handle(&app, LR_ACT_ENTER));
	assert_int_equal(app.view, LR_VIEW_OVERVIEW);
	lr_ui_handle(&app, LR_ACT_NEXT_IFACE);
	assert_int_equal(app.sel, 0);
	lr_snapshot_free(&s);
}

static void test_interval_steps(void **state)
{
	struct lr_ui app;

	(void)state;
	assert_int_equal(lr_ui_interval_step(500 * MS, true), 200 * MS);
	assert_int_equal(lr_ui_interval_step(500 * MS, false), 1000 * MS);
	assert_int_equal(lr_ui_interval_step(300 * MS, true), 200 * MS);	/* off-step -i */
	assert_int_equal(lr_ui_interval_step(300 * MS, false), 500 * MS);
	assert_int_equal(lr_ui_interval_step(10 * MS, true), 10 * MS);
	assert_int_equal(lr_ui_interval_step(60000 * MS, false), 60000 * MS);
	assert_int_equal(lr_ui_interval_step(10000 * MS, false), 20000 * MS);

	lr_ui_init(&app, 20 * MS, 1, NULL);
	lr_ui_handle(&app, LR_ACT_FASTER);
	assert_int_equal(app.interval_ns, 10 * MS);
	assert_true(app.requests & LR_REQ_INTERVAL);
	assert_string_equal(app.msg, "interval 0.01 s");
	app.requests = 0;
	lr_ui_handle(&app, LR_ACT_FASTER);	/* at the floor: no request */
	assert_int_equal(app.interval_ns, 10 * MS);
	assert_false(app.requests & LR_REQ_INTERVAL);
	for (int i = 0; i < 20; i++)
		lr_ui_handle(&app, LR_ACT_SLOWER);
	assert_int_equal(app.interval_ns, 60000 * MS);
	assert_string_equal(app.msg, "interval 60 s");
}

static void test_toggles_and_requests(void **state)
{
	struct lr_ui app;
	uint64_t seq;

	(void)state;
	lr_ui_init(&app, 500 * MS, 3, NULL);
	lr_ui_handle(&app, LR_ACT_PAUSE);
	assert_true(app.paused);
	lr_ui_handle(&app, LR_ACT_PAUSE);
	assert_false(app.paused);
	lr_ui_handle(&app, LR_ACT_UNITS);
	assert_true(app.bytes);
	assert_string_equal(app.msg, "rates in bytes/s");
	lr_ui_handle(&app, LR_ACT_SCALE);
	assert_int_equal(app.scale, LR_SCALE_LINK);
	lr_ui_handle(&app, LR_ACT_SCALE);
	assert_int_equal(app.scale, LR_SCALE_LOG);
	lr_ui_handle(&app, LR_ACT_SCALE);
	assert_int_equal(app.scale, LR_SCALE_AUTO);
	assert_string_equal(lr_scale_name(LR_SCALE_LOG), "log");
	lr_ui_handle(&app, LR_ACT_RESET);
	assert_true(app.requests & LR_REQ_RESET);
	/* themes cycle 0 1 2 0 */
	lr_ui_handle(&app, LR_ACT_NEXT_THEME);
	lr_ui_handle(&app, LR_ACT_NEXT_THEME);
	assert_int_equal(app.theme_idx, 2);
	lr_ui_handle(&app, LR_ACT_NEXT_THEME);
	assert_int_equal(app.theme_idx, 0);
	assert_true(app.requests & LR_REQ_THEME);
	lr_ui_handle(&app, LR_ACT_RESIZE);
	assert_true(app.requests & LR_REQ_REDRAW);
	/* help: ? toggles, Esc closes it first, then quits */
	lr_ui_handle(&app, LR_ACT_HELP);
	assert_true(app.help);
	assert_true(lr_ui_handle(&app, LR_ACT_ESCAPE));
	assert_false(app.help);
	assert_false(app.quit);
	lr_ui_handle(&app, LR_ACT_ESCAPE);
	assert_true(app.quit);
	lr_ui_init(&app, 500 * MS, 1, NULL);
	lr_ui_handle(&app, LR_ACT_QUIT);
	assert_true(app.quit);
	/* traffic keys without traffic: a message, no request */
	lr_ui_init(&app, 500 * MS, 1, NULL);
	seq = app.msg_seq;
	lr_ui_handle(&app, LR_ACT_RATE_UP);
	assert_int_equal(app.requests, 0);
	assert_int_equal(app.msg_seq, seq + 1);
	assert_non_null(strstr(app.msg, "no traffic configured"));
	app.traffic = true;
	lr_ui_handle(&app, LR_ACT_REVERSE);
	assert_true(app.requests & LR_REQ_TRAFFIC);
	assert_int_equal(app.traffic_action, LR_ACT_REVERSE);
}

static void test_key_table(void **state)
{
	static const struct {
		int ch;
		enum lr_action act;
	} keys[] = {
		{'q', LR_ACT_QUIT},	     {27, LR_ACT_ESCAPE},	  {'?', LR_ACT_HELP},
		{'\t', LR_ACT_NEXT_IFACE},   {'\n', LR_ACT_ENTER},	  {'\r', LR_ACT_ENTER},
		{'v', LR_ACT_TOGGLE_VIEW},   {'t', LR_ACT_NEXT_THEME},	  {'+', LR_ACT_FASTER},
		{'-', LR_ACT_SLOWER},	     {'p', LR_ACT_PAUSE},	  {'r', LR_ACT_RESET},
		{'b', LR_ACT_UNITS},	     {'g', LR_ACT_SCALE},	  {'s', LR_ACT_TRAFFIC_TOGGLE},
		{']', LR_ACT_RATE_UP},	     {'[', LR_ACT_RATE_DOWN},	  {'>', LR_ACT_STREAMS_UP},
		{'<', LR_ACT_STREAMS_DOWN},  {'u', LR_ACT_PROTO},	  {'R', LR_ACT_REVERSE},
		{'x', LR_ACT_NONE},	     {0, LR_ACT_NONE},
	};

	(void)state;
	for (size_t i = 0; i < LR_ARRAY_SIZE(keys); i++)
		assert_int_equal(lr_ui_key(keys[i].ch), keys[i].act);
}

/* ] doubles, [ halves, within the limits; unlimited: ] refuses, [ halves the measured rate. */
static void test_traffic_rate_keys(void **state)
{
	struct lr_ui_traffic k = {.parallel = 1, .rate_bps = 100000000};
	char msg[128];

	(void)state;
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_RATE_UP, -1, true, true, msg, sizeof(msg)),
			 LR_TCHG_RATE);
	assert_int_equal(k.rate_bps, 200000000);
	assert_string_equal(msg, "bitrate 200 Mbit/s per stream");
	/* the peer sends (-R): the same change needs a restart, and says so */
	lr_ui_traffic_key(&k, LR_ACT_RATE_DOWN, -1, true, false, msg, sizeof(msg));
	assert_int_equal(k.rate_bps, 100000000);
	assert_string_equal(msg, "bitrate 100 Mbit/s per stream, restarting");
	lr_ui_traffic_key(&k, LR_ACT_RATE_UP, -1, false, true, msg, sizeof(msg));
	assert_string_equal(msg, "bitrate 200 Mbit/s per stream (next start)");

	k.rate_bps = 1500;
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_RATE_DOWN, -1, true, true, msg, sizeof(msg)),
			 LR_TCHG_RATE);
	assert_int_equal(k.rate_bps, LR_UI_RATE_MIN_BPS);
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_RATE_DOWN, -1, true, true, msg, sizeof(msg)),
			 LR_TCHG_NONE);
	assert_int_equal(k.rate_bps, LR_UI_RATE_MIN_BPS);
	k.rate_bps = LR_UI_RATE_MAX_BPS - 1;
	lr_ui_traffic_key(&k, LR_ACT_RATE_UP, -1, true, true, msg, sizeof(msg));
	assert_int_equal(k.rate_bps, LR_UI_RATE_MAX_BPS);
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_RATE_UP, -1, true, true, msg, sizeof(msg)),
			 LR_TCHG_NONE);

	k.rate_bps = 0;	/* unlimited */
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_RATE_UP, 9e9, true, true, msg, sizeof(msg)),
			 LR_TCHG_NONE);
	assert_int_equal(k.rate_bps, 0);
	assert_non_null(strstr(msg, "unlimited"));
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_RATE_DOWN, -1, true, true, msg, sizeof(msg)),
			 LR_TCHG_NONE);
	assert_int_equal(k.rate_bps, 0);
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_RATE_DOWN, 943.21e6, true, true, msg,
					    sizeof(msg)),
			 LR_TCHG_RATE);
	assert_int_equal(k.rate_bps, 472000000);	/* half, three significant digits */
	assert_string_equal(msg, "bitrate 472 Mbit/s per stream (was unlimited: half the "
				 "measured 943 Mbit/s)");
}

/* > < u R change the test's shape: a restart, with the new shape in the message. */
static void test_traffic_restart_keys(void **state)
{
	struct lr_ui_traffic k = {.parallel = 1, .rate_bps = 0, .length = 131072};
	char msg[128];

	(void)state;
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_STREAMS_DOWN, -1, true, true, msg,
					    sizeof(msg)),
			 LR_TCHG_NONE);
	assert_int_equal(k.parallel, 1);
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_STREAMS_UP, -1, true, true, msg,
					    sizeof(msg)),
			 LR_TCHG_RESTART);
	assert_int_equal(k.parallel, 2);
	assert_string_equal(msg, "restarting with 2 streams");
	lr_ui_traffic_key(&k, LR_ACT_STREAMS_UP, -1, false, true, msg, sizeof(msg));
	assert_string_equal(msg, "next start: 3 streams");
	k.parallel = LR_UI_MAX_STREAMS;
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_STREAMS_UP, -1, true, true, msg,
					    sizeof(msg)),
			 LR_TCHG_NONE);
	assert_int_equal(k.parallel, LR_UI_MAX_STREAMS);
	k.parallel = 2;

	/* TCP unlimited -> UDP: the measured TCP rate becomes the target (UDP would flood);
	 * a 128 KiB TCP block is no UDP datagram: back to the default length */
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_PROTO, 2.5e9, true, true, msg, sizeof(msg)),
			 LR_TCHG_RESTART);
	assert_true(k.udp);
	assert_int_equal(k.rate_bps, 2500000000ULL);
	assert_int_equal(k.length, 0);
	assert_string_equal(msg, "restarting with UDP, 2 streams, 2.50 Gbit/s per stream");
	/* back to TCP keeps the rate; UDP with nothing measured: iperf3's 1 Mbit/s */
	lr_ui_traffic_key(&k, LR_ACT_PROTO, -1, true, true, msg, sizeof(msg));
	assert_false(k.udp);
	assert_int_equal(k.rate_bps, 2500000000ULL);
	k.rate_bps = 0;
	lr_ui_traffic_key(&k, LR_ACT_PROTO, -1, true, true, msg, sizeof(msg));
	assert_int_equal(k.rate_bps, 1000000);

	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_REVERSE, -1, true, true, msg, sizeof(msg)),
			 LR_TCHG_RESTART);
	assert_true(k.reverse);
	assert_non_null(strstr(msg, "server sends"));
	lr_ui_traffic_key(&k, LR_ACT_REVERSE, -1, true, true, msg, sizeof(msg));
	assert_false(k.reverse);
	k.bidir = true;	/* --bidir: R makes it one way, reversed (they exclude each other) */
	lr_ui_traffic_key(&k, LR_ACT_REVERSE, -1, true, true, msg, sizeof(msg));
	assert_false(k.bidir);
	assert_true(k.reverse);
	assert_int_equal(lr_ui_traffic_key(&k, LR_ACT_HELP, -1, true, true, msg, sizeof(msg)),
			 LR_TCHG_NONE);
}

/* The verdict panel: Esc closes it before quitting, Enter closes it, a traffic key too. */
static void test_verdict_panel(void **state)
{
	struct lr_ui app;

	(void)state;
	lr_ui_init(&app, 500 * MS, 1, "eth0");
	app.traffic = true;
	app.verdict = true;
	assert_true(lr_ui_handle(&app, LR_ACT_ESCAPE));
	assert_false(app.verdict);
	assert_false(app.quit);
	app.verdict = true;
	app.help = true;
	lr_ui_handle(&app, LR_ACT_ESCAPE);	/* help first */
	assert_false(app.help);
	assert_true(app.verdict);
	assert_true(lr_ui_handle(&app, LR_ACT_ENTER));
	assert_false(app.verdict);
	assert_int_equal(app.view, LR_VIEW_DETAIL);
	app.verdict = true;
	lr_ui_handle(&app, LR_ACT_TRAFFIC_TOGGLE);
	assert_false(app.verdict);
	assert_true(app.requests & LR_REQ_TRAFFIC);
	lr_ui_handle(&app, LR_ACT_ESCAPE);
	assert_true(app.quit);
}

/* P with no peer to show (issue 28: the demo's P showed this host's lo as the peer's): the
 * run loop's reason on the status line, the view stays this host's; with a peer, the toggle. */
static void test_peer_key(void **state)
{
	struct lr_ui app;

	(void)state;
	lr_ui_init(&app, 500 * MS, 3, NULL);
	app.no_peer = "P: the demo's peer is this host";
	lr_ui_handle(&app, LR_ACT_PEER);
	assert_false(app.peer_side);
	assert_string_equal(app.msg, app.no_peer);
	app.no_peer = NULL;
	lr_ui_handle(&app, LR_ACT_PEER);
	assert_true(app.peer_side);
	assert_int_equal(app.view, LR_VIEW_DETAIL);
	lr_ui_handle(&app, LR_ACT_PEER);
	assert_false(app.peer_side);
}

static void test_fmt_rate(void **state)
{
	char b[32];

	(void)state;
	lr_ui_fmt_rate(b, sizeof(b), 0);
	assert_string_equal(b, "unlimited");
	lr_ui_fmt_rate(b, sizeof(b), 1000000);
	assert_string_equal(b, "1 Mbit/s");
	lr_ui_fmt_rate(b, sizeof(b), 1500000000);
	assert_string_equal(b, "1.50 Gbit/s");
	lr_ui_fmt_rate(b, sizeof(b), 12500);
	assert_string_equal(b, "12.5 kbit/s");
	lr_ui_fmt_rate(b, sizeof(b), 400000000000ULL);
	assert_string_equal(b, "400 Gbit/s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_navigation),
		cmocka_unit_test(test_selection_follows_name),
		cmocka_unit_test(test_interval_steps),
		cmocka_unit_test(test_toggles_and_requests),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_traffic_rate_keys),
		cmocka_unit_test(test_traffic_restart_keys),
		cmocka_unit_test(test_verdict_panel),
		cmocka_unit_test(test_fmt_rate),
		cmocka_unit_test(test_peer_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
