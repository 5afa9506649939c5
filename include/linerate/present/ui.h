/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dashboard's state machine: which view, which interface, pause, units, graph scale,
 * help, theme, and the requests the run loop must carry out (new interval, reset totals,
 * load a theme, quit). Pure: no I/O, no clock, no curses. [main] */
#ifndef LINERATE_UI_H
#define LINERATE_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_snapshot;

enum lr_action {
	LR_ACT_NONE,
	LR_ACT_QUIT,		/* q */
	LR_ACT_ESCAPE,		/* Esc: closes help, else quits */
	LR_ACT_HELP,		/* ? */
	LR_ACT_NEXT_IFACE,	/* Tab, Right */
	LR_ACT_PREV_IFACE,	/* Shift-Tab, Left */
	LR_ACT_UP,		/* Up (overview: move the cursor) */
	LR_ACT_DOWN,		/* Down */
	LR_ACT_ENTER,		/* Enter (overview: open the detail view of the cursor) */
	LR_ACT_TOGGLE_VIEW,	/* v */
	LR_ACT_NEXT_THEME,	/* t */
	LR_ACT_FASTER,		/* + */
	LR_ACT_SLOWER,		/* - */
	LR_ACT_PAUSE,		/* p */
	LR_ACT_RESET,		/* r */
	LR_ACT_UNITS,		/* b: bits/bytes */
	LR_ACT_SCALE,		/* g: auto / link speed / log */
	LR_ACT_RESIZE,		/* the terminal changed size */
	/* traffic: raise LR_REQ_TRAFFIC, or answer "no traffic configured" */
	LR_ACT_TRAFFIC_TOGGLE,	/* s */
	LR_ACT_RATE_UP,		/* ] */
	LR_ACT_RATE_DOWN,	/* [ */
	LR_ACT_STREAMS_UP,	/* > */
	LR_ACT_STREAMS_DOWN,	/* < */
	LR_ACT_PROTO,		/* u */
	LR_ACT_REVERSE,		/* R */
	LR_ACT_VERDICT,		/* V: show / hide the last test's verdict again */
	LR_ACT_PEER,		/* P: the detail view of the peer's interface / ours again */
	LR_ACT_QUEUES,		/* Q: the Queues pane in place of Packets (80x24) */
	LR_ACT_LOSS,		/* L: the Loss pane (the running test's ledger) / back */
	LR_ACT__COUNT
};

enum lr_view_mode { LR_VIEW_OVERVIEW, LR_VIEW_DETAIL };
enum lr_scale { LR_SCALE_AUTO, LR_SCALE_LINK, LR_SCALE_LOG, LR_SCALE__COUNT };

/* Bits in lr_app.requests: the run loop does the work, then clears the bit. */
enum lr_request {
	LR_REQ_INTERVAL = 1,	/* call lr_sampler_set_interval(app.interval_ns) */
	LR_REQ_RESET = 2,	/* call lr_sampler_reset_totals() */
	LR_REQ_THEME = 4,	/* load theme app.theme_idx of the run loop's list */
	LR_REQ_REDRAW = 8,	/* full repaint (resize) */
	LR_REQ_TRAFFIC = 16,	/* a traffic action (app.traffic_action) for the engine */
};

#define LR_UI_MSG_MAX 96

struct lr_ui {
	enum lr_view_mode view;
	size_t sel;			/* selected interface index in the last synced snapshot */
	char sel_name[LR_IFNAMSIZ];	/* the same, by name: survives interfaces coming/going */
	size_t n_ifaces;
	bool help, paused, bytes, quit;
	enum lr_scale scale;
	size_t theme_idx, n_themes;
	uint64_t interval_ns;
	bool traffic;			/* traffic configured (-c, --demo); false: keys answer so */
	enum lr_action traffic_action;	/* with LR_REQ_TRAFFIC */
	bool verdict;			/* the end-of-test verdict panel is up (Esc/Enter close it;
					 * a traffic key closes it too; V reopens it) */
	bool have_verdict;		/* a test has ended with a verdict (set by the run loop) */
	bool test_running;		/* a test is running (set by the run loop): Esc does not quit */
	bool peer_side;			/* the detail view shows the peer's interface (P) */
	const char *no_peer;		/* why P has no peer to show (set by the run loop each
					 * frame), NULL: the peer's view is there */
	bool queues;			/* Q: the Queues pane replaces Packets where it has no
					 * room of its own */
	const char *no_queues;		/* why Q has no queues to show (set by the run loop each
					 * frame: the selected interface has no per-queue counter),
					 * NULL: it has */
	int peer_sel;			/* which of the peer's (Tab on its side; views wrap it) */
	bool loss;			/* L: the Loss pane in place of the views */
	uint32_t requests;		/* enum lr_request bits */
	char msg[LR_UI_MSG_MAX];	/* feedback for the status line, "" none */
	uint64_t msg_seq;		/* +1 each time msg is set */
};

/* The knobs of a traffic test that keys change (a copy of lr_traffic_config's). */
struct lr_ui_traffic {
	bool udp, reverse, bidir;
	unsigned parallel;		/* 1 .. LR_UI_MAX_STREAMS */
	uint64_t rate_bps;		/* per stream; 0 unlimited */
	uint64_t length;		/* -l; 0 = the default of the protocol */
};

#define LR_UI_MAX_STREAMS 128		/* iperf3's limit, as -P */
#define LR_UI_RATE_MIN_BPS 1000ULL	/* `[` stops at 1 kbit/s per stream */
#define LR_UI_RATE_MAX_BPS 400000000000ULL	/* `]` stops at 400 Gbit/s per stream */

enum lr_traffic_change {
	LR_TCHG_NONE,		/* nothing changed (at a limit, or nothing to act on): msg says why */
	LR_TCHG_RATE,		/* rate_bps changed: live (lr_client_set_rate) when this side sends */
	LR_TCHG_RESTART,	/* streams, protocol or direction changed: a running test restarts */
};

/* What traffic key act (]  [  >  <  u  R) does to *k. measured_bps: the achieved rate per stream
 * now, <= 0 unknown (`[` while unlimited halves it; `u` to UDP while unlimited takes it as the
 * target). running: a test is running; live: rate changes reach the running senders without a
 * restart (this side sends, no --bidir). Writes the status-line text ("bitrate 200 Mbit/s per
 * stream", "restarting with 3 streams", ...) into msg. Pure. */
enum lr_traffic_change lr_ui_traffic_key(struct lr_ui_traffic *k, enum lr_action act,
					  double measured_bps, bool running, bool live, char *msg,
					  size_t len);
/* "200 Mbit/s", "1.50 Gbit/s", "unlimited" (0). */
void lr_ui_fmt_rate(char *buf, size_t len, uint64_t bps);

/* Starts in the overview (or the detail of iface when non-NULL and present at the first sync),
 * bits, auto scale, theme 0 of n_themes. */
void lr_ui_init(struct lr_ui *app, uint64_t interval_ns, size_t n_themes, const char *iface);
/* Follows a new snapshot's interface list: keeps the selection by name, clamps otherwise. */
void lr_ui_sync(struct lr_ui *app, const struct lr_snapshot *snap);
/* Applies one action. Returns true when the screen must be re-rendered. */
bool lr_ui_handle(struct lr_ui *app, enum lr_action act);

/* Plain keys (ASCII: letters, Tab 9, Enter 10/13, Esc 27) -> action; LR_ACT_NONE when
 * unbound. The curses module maps the arrow and function keys itself. */
enum lr_action lr_ui_key(int ch);

/* The interval step list (0.01 s ... 60 s): the next faster/slower step from cur. */
uint64_t lr_ui_interval_step(uint64_t cur_ns, bool faster);
const char *lr_scale_name(enum lr_scale s);	/* "auto", "link", "log" */

#endif
