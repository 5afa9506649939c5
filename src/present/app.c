// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dashboard state machine: keys (as enum lr_action) change the view state and raise
 * requests the run loop carries out (sampling interval, reset, theme, quit). Pure and
 * deterministic so tests can drive it; runs on the main thread; owns nothing.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "linerate/app.h"
#include "linerate/snapshot.h"
#include "linerate/strutil.h"

static const uint64_t interval_steps_ms[] = {
	10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 30000, 60000,
};

static void LR_PRINTF(2, 3) set_msg(struct lr_app *app, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(app->msg, sizeof(app->msg), fmt, ap);
	va_end(ap);
	app->msg_seq++;
}

void lr_app_init(struct lr_app *app, uint64_t interval_ns, size_t n_themes, const char *iface)
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

static void select_index(struct lr_app *app, const struct lr_snapshot *snap, size_t i)
{
	app->sel = i;
	if (snap && i < snap->n_ifaces)
		lr_strlcpy(app->sel_name, snap->ifaces[i].name, sizeof(app->sel_name));
}

void lr_app_sync(struct lr_app *app, const struct lr_snapshot *snap)
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

uint64_t lr_app_interval_step(uint64_t cur_ns, bool faster)
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

enum lr_action lr_app_key(int ch)
{
	switch (ch) {
	case 'q':
	case 'Q':
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
static void move_sel(struct lr_app *app, int dir, bool wrap)
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
	app->sel_name[0] = '\0';	/* the run loop re-syncs: lr_app_sync picks the name */
}

static void interval_msg(struct lr_app *app)
{
	char buf[32];
	double s = (double)app->interval_ns / 1e9;

	snprintf(buf, sizeof(buf), s < 0.1 ? "%.2f" : s < 1 ? "%.1f" : "%.0f", s);
	set_msg(app, "interval %s s", buf);
}

bool lr_app_handle(struct lr_app *app, enum lr_action act)
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
		else
			app->quit = true;
		return !app->quit;
	case LR_ACT_HELP:
		app->help = !app->help;
		return true;
	case LR_ACT_NEXT_IFACE:
		move_sel(app, 1, true);
		return true;
	case LR_ACT_PREV_IFACE:
		move_sel(app, -1, true);
		return true;
	case LR_ACT_UP:
	case LR_ACT_DOWN:
		if (app->view != LR_VIEW_OVERVIEW)
			return false;
		move_sel(app, act == LR_ACT_DOWN ? 1 : -1, false);
		return true;
	case LR_ACT_ENTER:
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
		iv = lr_app_interval_step(app->interval_ns, act == LR_ACT_FASTER);
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
		return true;
	case LR_ACT__COUNT:
		break;
	}
	return false;
}
