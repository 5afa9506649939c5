// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dashboard state machine: keys (as enum lr_action) change the view state and raise
 * requests the run loop carries out (sampling interval, reset, theme, quit, traffic). The
 * traffic keys' effect on a test's knobs (rate x2 / /2, streams, protocol, direction) is
 * decided here too, with its status-line text. Pure and deterministic so tests can drive it;
 * runs on the main thread; owns nothing.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "linerate/present/ui.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"

static const uint64_t interval_steps_ms[] = {
	10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 30000, 60000,
};

static void LR_PRINTF(2, 3) set_msg(struct lr_ui *app, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof(app->msg), fmt, ap);
	va_end(ap);
	app->msg_seq++;
}

void lr_ui_init(struct lr_ui *app, uint64_t interval_ns, size_t n_themes, const char *iface)
{
	memset(app, 0, sizeof(*app));
	app->interval_ns = interval_ns;
	app->n_themes = n_themes ? n_themes : 1;
	app->view = LR_VIEW_OVERVIEW;
	app->scale = LR_SCALE_AUTO;
	if (iface && iface[0]) {
		lr_strlcpy(app->sel_name, iface, sizeof(app->sel_name));
		app->view = LR_VIEW_DETAIL;
	}
}

static void select_index(struct lr_ui *app, const struct lr_snapshot *snap, size_t i)
{
	app->sel = i;
	if (snap && i < snap->n_ifaces)
		lr_strlcpy(app->sel_name, snap->ifaces[i].name, sizeof(app->sel_name));
}

void lr_ui_sync(struct lr_ui *app, const struct lr_snapshot *snap)
{
	app->n_ifaces = snap->n_ifaces;
	if (!snap->n_ifaces) {
		app->sel = 0;
		return;
	}
	for (size_t i = 0; i < snap->n_ifaces; i++) {
		if (!strcmp(snap->ifaces[i].name, app->sel_name)) {
			app->sel = i;
			return;
		}
	}
	/* the selected interface went away (or none yet): stay at the same position */
	if (app->sel >= snap->n_ifaces)
		app->sel = snap->n_ifaces - 1;
	select_index(app, snap, app->sel);
}

uint64_t lr_ui_interval_step(uint64_t cur_ns, bool faster)
{
	size_t n = LR_ARRAY_SIZE(interval_steps_ms);

	if (faster) {
		for (size_t i = n; i-- > 0;)
			if (interval_steps_ms[i] * LR_NSEC_PER_MSEC < cur_ns)
				return interval_steps_ms[i] * LR_NSEC_PER_MSEC;
		return interval_steps_ms[0] * LR_NSEC_PER_MSEC;
	}
	for (size_t i = 0; i < n; i++)
		if (interval_steps_ms[i] * LR_NSEC_PER_MSEC > cur_ns)
			return interval_steps_ms[i] * LR_NSEC_PER_MSEC;
	return interval_steps_ms[n - 1] * LR_NSEC_PER_MSEC;
}

enum lr_action lr_ui_key(int ch)
{
	switch (ch) {
	case 'q':
		return LR_ACT_QUIT;
	case 27:
		return LR_ACT_ESCAPE;
	case '?':
	case 'h':
		return LR_ACT_HELP;
	case '\t':
		return LR_ACT_NEXT_IFACE;
	case '\n':
	case '\r':
		return LR_ACT_ENTER;
	case 'k':
		return LR_ACT_UP;
	case 'j':
		return LR_ACT_DOWN;
	case 'v':
		return LR_ACT_TOGGLE_VIEW;
	case 't':
		return LR_ACT_NEXT_THEME;
	case '+':
	case '=':
		return LR_ACT_FASTER;
	case '-':
	case '_':
		return LR_ACT_SLOWER;
	case 'p':
		return LR_ACT_PAUSE;
	case 'r':
		return LR_ACT_RESET;
	case 'b':
		return LR_ACT_UNITS;
	case 'g':
		return LR_ACT_SCALE;
	case 's':
		return LR_ACT_TRAFFIC_TOGGLE;
	case ']':
		return LR_ACT_RATE_UP;
	case '[':
		return LR_ACT_RATE_DOWN;
	case '>':
		return LR_ACT_STREAMS_UP;
	case '<':
		return LR_ACT_STREAMS_DOWN;
	case 'u':
		return LR_ACT_PROTO;
	case 'R':
		return LR_ACT_REVERSE;
	case 'V':
		return LR_ACT_VERDICT;
	case 'P':
		return LR_ACT_PEER;
	case 'Q':
		return LR_ACT_QUEUES;
	case 'L':
		return LR_ACT_LOSS;
	default:
		return LR_ACT_NONE;
	}
}

const char *lr_scale_name(enum lr_scale s)
{
	static const char *const names[] = {"auto", "link", "log"};

	return (unsigned)s < LR_ARRAY_SIZE(names) ? names[s] : "?";
}

/* Moves the selection by one (wrapping); the name follows at the next sync. */
static void move_sel(struct lr_ui *app, int dir, bool wrap)
{
	if (!app->n_ifaces)
		return;
	if (dir > 0) {
		if (app->sel + 1 < app->n_ifaces)
			app->sel++;
		else if (wrap)
			app->sel = 0;
	} else {
		if (app->sel > 0)
			app->sel--;
		else if (wrap)
			app->sel = app->n_ifaces - 1;
	}
	app->sel_name[0] = '\0';	/* the run loop re-syncs: lr_ui_sync picks the name */
}

static void interval_msg(struct lr_ui *app)
{
	char buf[32];
	double s = (double)app->interval_ns / 1e9;

	snprintf(buf, sizeof(buf), s < 0.1 ? "%.2f" : s < 1 ? "%.1f" : "%.0f", s);
	set_msg(app, "interval %s s", buf);
}

bool lr_ui_handle(struct lr_ui *app, enum lr_action act)
{
	uint64_t iv;

	switch (act) {
	case LR_ACT_NONE:
		return false;
	case LR_ACT_QUIT:
		app->quit = true;
		return false;
	case LR_ACT_ESCAPE:
		if (app->help)
			app->help = false;
		else if (app->verdict)
			app->verdict = false;
		else if (app->test_running)	/* a second Esc must not end a test unasked */
			set_msg(app, "a test is running: q quits, s stops the test");
		else
			app->quit = true;
		return !app->quit;
	case LR_ACT_HELP:
		app->help = !app->help;
		return true;
	case LR_ACT_NEXT_IFACE:
	case LR_ACT_PREV_IFACE:
		if (app->peer_side && app->view == LR_VIEW_DETAIL)	/* the peer's interfaces */
			app->peer_sel += act == LR_ACT_NEXT_IFACE ? 1 : -1;
		else
			move_sel(app, act == LR_ACT_NEXT_IFACE ? 1 : -1, true);
		return true;
	case LR_ACT_PEER:	/* from either view, one key: the peer's detail, then ours */
		if (app->no_peer) {	/* never this host's own interfaces under the peer's name */
			app->peer_side = false;
			set_msg(app, "%s", app->no_peer);
			return true;
		}
		app->peer_side = !(app->peer_side && app->view == LR_VIEW_DETAIL);
		app->view = LR_VIEW_DETAIL;
		set_msg(app, "%s", app->peer_side ? "the peer's side (P: ours again)"
						  : "this host's side (P: the peer's)");
		return true;
	case LR_ACT_QUEUES:	/* from either view: the detail view with the Queues pane */
		if (app->no_queues && !app->queues) {	/* a pane of "unknown": say so instead */
			set_msg(app, "%s", app->no_queues);
			return true;
		}
		app->queues = !(app->queues && app->view == LR_VIEW_DETAIL);
		app->view = LR_VIEW_DETAIL;
		set_msg(app, "%s", app->queues ? "Queues pane (Q: Packets again)"
					       : "Packets pane (Q: Queues)");
		return true;
	case LR_ACT_LOSS:	/* from either view: the test's ledger, then the view again */
		if (!app->traffic && !app->loss) {
			set_msg(app, "L: the Loss pane shows a test's ledger (-c HOST or --demo)");
			return true;
		}
		app->loss = !app->loss;
		set_msg(app, "%s", app->loss ? "Loss pane (L: back)" : "L: the Loss pane");
		return true;
	case LR_ACT_UP:
	case LR_ACT_DOWN:
		if (app->view != LR_VIEW_OVERVIEW)
			return false;
		move_sel(app, act == LR_ACT_DOWN ? 1 : -1, false);
		return true;
	case LR_ACT_ENTER:
		if (app->verdict) {
			app->verdict = false;
			return true;
		}
		if (app->view != LR_VIEW_OVERVIEW || !app->n_ifaces)
			return false;
		app->view = LR_VIEW_DETAIL;
		return true;
	case LR_ACT_TOGGLE_VIEW:
		app->view = app->view == LR_VIEW_OVERVIEW ? LR_VIEW_DETAIL : LR_VIEW_OVERVIEW;
		return true;
	case LR_ACT_NEXT_THEME:
		app->theme_idx = (app->theme_idx + 1) % app->n_themes;
		app->requests |= LR_REQ_THEME;
		return true;
	case LR_ACT_FASTER:
	case LR_ACT_SLOWER:
		iv = lr_ui_interval_step(app->interval_ns, act == LR_ACT_FASTER);
		if (iv != app->interval_ns) {
			app->interval_ns = iv;
			app->requests |= LR_REQ_INTERVAL;
		}
		interval_msg(app);
		return true;
	case LR_ACT_PAUSE:
		app->paused = !app->paused;
		set_msg(app, "%s", app->paused ? "display paused (p resumes)" : "display resumed");
		return true;
	case LR_ACT_RESET:
		app->requests |= LR_REQ_RESET;
		set_msg(app, "totals and peaks reset");
		return true;
	case LR_ACT_UNITS:
		app->bytes = !app->bytes;
		set_msg(app, "%s", app->bytes ? "rates in bytes/s" : "rates in bits/s");
		return true;
	case LR_ACT_SCALE:
		app->scale = (enum lr_scale)((app->scale + 1) % LR_SCALE__COUNT);
		set_msg(app, "graph scale: %s", app->scale == LR_SCALE_AUTO ? "auto"
					       : app->scale == LR_SCALE_LINK ? "link speed"
									     : "log");
		return true;
	case LR_ACT_RESIZE:
		app->requests |= LR_REQ_REDRAW;
		return true;
	case LR_ACT_TRAFFIC_TOGGLE:
	case LR_ACT_RATE_UP:
	case LR_ACT_RATE_DOWN:
	case LR_ACT_STREAMS_UP:
	case LR_ACT_STREAMS_DOWN:
	case LR_ACT_PROTO:
	case LR_ACT_REVERSE:
		if (!app->traffic) {
			set_msg(app, "no traffic configured (start with -c HOST or --demo)");
			return true;
		}
		app->traffic_action = act;
		app->requests |= LR_REQ_TRAFFIC;
		app->verdict = false;	/* acting on the load: the last test's verdict is read */
		return true;
	case LR_ACT_VERDICT:
		if (!app->have_verdict) {
			set_msg(app, app->traffic ? "no test has ended yet: no verdict to show"
						  : "no traffic configured (start with -c HOST or --demo)");
			return true;
		}
		app->verdict = !app->verdict;
		return true;
	case LR_ACT__COUNT:
		break;
	}
	return false;
}

void lr_ui_fmt_rate(char *buf, size_t len, uint64_t bps)
{
	static const char *const unit[] = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
	double v = (double)bps;
	size_t i = 0;

	if (!bps) {
		snprintf(buf, len, "unlimited");
		return;
	}
	while (v >= 999.5 && i + 1 < LR_ARRAY_SIZE(unit)) {
		v /= 1000;
		i++;
	}
	if (v == floor(v) || v >= 99.95)
		snprintf(buf, len, "%.0f %s", v, unit[i]);
	else if (v >= 9.995)
		snprintf(buf, len, "%.1f %s", v, unit[i]);
	else
		snprintf(buf, len, "%.2f %s", v, unit[i]);
}

/* A measured rate as a target: three significant digits, within the key limits. */
static uint64_t round_rate(double bps)
{
	double mag = 1;

	while (bps / mag >= 1000)
		mag *= 10;
	bps = floor(bps / mag + 0.5) * mag;
	if (bps < (double)LR_UI_RATE_MIN_BPS)
		return LR_UI_RATE_MIN_BPS;
	if (bps > (double)LR_UI_RATE_MAX_BPS)
		return LR_UI_RATE_MAX_BPS;
	return (uint64_t)bps;
}

static enum lr_traffic_change rate_key(struct lr_ui_traffic *k, bool up, double measured_bps,
				       bool running, bool live, char *msg, size_t len)
{
	char r[32], m[32];
	const char *how = !running ? " (next start)" : live ? "" : ", restarting";
	uint64_t old = k->rate_bps;

	if (up) {
		if (!k->rate_bps) {
			snprintf(msg, len, "bitrate is unlimited already ([ sets a limit)");
			return LR_TCHG_NONE;
		}
		k->rate_bps = k->rate_bps > LR_UI_RATE_MAX_BPS / 2 ? LR_UI_RATE_MAX_BPS
								     : k->rate_bps * 2;
	} else if (!k->rate_bps) {
		if (!(measured_bps > 0)) {
			snprintf(msg, len, "bitrate is unlimited: no measured rate yet to halve");
			return LR_TCHG_NONE;
		}
		k->rate_bps = round_rate(measured_bps / 2);
		lr_ui_fmt_rate(r, sizeof(r), k->rate_bps);
		lr_ui_fmt_rate(m, sizeof(m), round_rate(measured_bps));
		snprintf(msg, len, "bitrate %s per stream (was unlimited: half the measured %s)%s",
			 r, m, how);
		return LR_TCHG_RATE;
	} else {
		k->rate_bps = k->rate_bps / 2 < LR_UI_RATE_MIN_BPS ? LR_UI_RATE_MIN_BPS
								    : k->rate_bps / 2;
	}
	lr_ui_fmt_rate(r, sizeof(r), k->rate_bps);
	if (k->rate_bps == old) {
		snprintf(msg, len, "bitrate %s per stream: the %s", r, up ? "most" : "least");
		return LR_TCHG_NONE;
	}
	snprintf(msg, len, "bitrate %s per stream%s", r, how);
	return LR_TCHG_RATE;
}

static void describe(const struct lr_ui_traffic *k, char *buf, size_t len)
{
	char r[32];

	lr_ui_fmt_rate(r, sizeof(r), k->rate_bps);
	snprintf(buf, len, "%s, %u stream%s, %s%s%s", k->udp ? "UDP" : "TCP", k->parallel,
		 k->parallel == 1 ? "" : "s", r, k->rate_bps ? " per stream" : "",
		 k->bidir ? ", both ways" : k->reverse ? ", server sends" : "");
}

enum lr_traffic_change lr_ui_traffic_key(struct lr_ui_traffic *k, enum lr_action act,
					  double measured_bps, bool running, bool live, char *msg,
					  size_t len)
{
	const char *lead = running ? "restarting with " : "next start: ";
	char what[96];

	switch (act) {
	case LR_ACT_RATE_UP:
	case LR_ACT_RATE_DOWN:
		return rate_key(k, act == LR_ACT_RATE_UP, measured_bps, running, live, msg, len);
	case LR_ACT_STREAMS_UP:
	case LR_ACT_STREAMS_DOWN:
		if (act == LR_ACT_STREAMS_UP ? k->parallel >= LR_UI_MAX_STREAMS : k->parallel <= 1) {
			snprintf(msg, len, "%u stream%s: the %s", k->parallel,
				 k->parallel == 1 ? "" : "s", k->parallel == 1 ? "least" : "most");
			return LR_TCHG_NONE;
		}
		k->parallel += act == LR_ACT_STREAMS_UP ? 1 : -1;
		snprintf(msg, len, "%s%u stream%s", lead, k->parallel, k->parallel == 1 ? "" : "s");
		return LR_TCHG_RESTART;
	case LR_ACT_PROTO:
		k->udp = !k->udp;
		/* UDP unlimited floods the path: start from what TCP achieved, else iperf3's
		 * UDP default */
		if (k->udp && !k->rate_bps)
			k->rate_bps = measured_bps > 0 ? round_rate(measured_bps) : 1000000;
		if (k->length && (k->udp ? k->length < 16 || k->length > 65507
					 : k->length > 1024 * 1024))
			k->length = 0;
		break;
	case LR_ACT_REVERSE:
		if (k->bidir) {
			k->bidir = false;
			k->reverse = true;
		} else {
			k->reverse = !k->reverse;
		}
		break;
	default:
		snprintf(msg, len, "not a traffic key");
		return LR_TCHG_NONE;
	}
	describe(k, what, sizeof(what));
	snprintf(msg, len, "%s%s", lead, what);
	return LR_TCHG_RESTART;
}
