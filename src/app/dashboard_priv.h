/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dashboard's state, shared by its run loop (mode_dashboard.c) and its traffic test
 * (dash_traffic.c: the keys that start, stop and retune a test through the session, the
 * verdict panel, the result printed after the dashboard closes). Private to src/app. */
#ifndef LINERATE_DASHBOARD_PRIV_H
#define LINERATE_DASHBOARD_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/app/config.h"
#include "linerate/app/run.h"
#include "linerate/run/demo.h"
#include "linerate/run/peer.h"
#include "linerate/diagnose/peer_loss.h"
#include "linerate/run/session.h"
#include "linerate/core/log.h"
#include "linerate/present/cpu_hist.h"
#include "linerate/present/ui.h"
#include "linerate/present/frame.h"
#include "linerate/present/theme.h"
#include "linerate/present/view.h"
#include "linerate/diagnose/matrix_row.h"
#include "linerate/present/view_matrix.h"
#include "linerate/sample/snapshot.h"

struct lr_dash_peer;
struct lr_matrix_run;
struct lr_metrics_http;
struct lr_recorder;
struct lr_snapsrc;
struct lr_tui;

#define MAX_THEMES 32
#define MAX_POLL_MS 250		/* a signal also wakes poll; this only bounds the wait */
#define LATE_WAIT_NS (20 * LR_NSEC_PER_MSEC)
#define STICKY_ERR_NS (10 * LR_NSEC_PER_SEC)
#define STICKY_KEY_NS (3 * LR_NSEC_PER_SEC)	/* traffic feedback outlives info logs */
#define SHOW_INFO_NS (10 * LR_NSEC_PER_SEC)	/* then a message leaves the status line */
#define SHOW_ERR_NS (30 * LR_NSEC_PER_SEC)
#define STOP_WAIT_NS (2 * LR_NSEC_PER_SEC)	/* a client reaches DONE within 200 ms */
#define FINAL_TICK_MAX_NS (2 * LR_NSEC_PER_SEC)
#define PEER_END_WAIT_NS (2 * LR_NSEC_PER_SEC)	/* the peer's last frame, as headless waits */
/* Without -t a test runs until `s` or quit: asked of the server as iperf3's longest test
 * (-t 86400), since a time of 0 is not "forever" to every server. */
#define UNTIL_STOPPED_NS (86400 * LR_NSEC_PER_SEC)

/* The traffic test the dashboard drives (-c HOST, --demo). One client at a time: a restart
 * stops it, waits for a snapshot that saw its last bytes, closes it and opens a new one. */
struct lr_server_test_view;

struct traffic {
	bool on;			/* traffic configured */
	struct lr_demo *demo;
	struct lr_traffic_config base;	/* the command line's options (demo: with its defaults) */
	struct lr_ui_traffic knobs;	/* what the keys changed: the next test's options */
	char iface[LR_IFNAMSIZ];	/* the route interface, "" unknown */
	uint64_t duration_ns;		/* -t, or UNTIL_STOPPED_NS */
	struct lr_session ses;		/* the test: client, results, verdict */
	enum lr_view_tstate state;
	bool restart;			/* open a new client once this one is closed */
	bool want_verdict;		/* show the panel when this test is closed */
	char vtitle[128];
	struct lr_view_traffic view;
	struct lr_view_verdict vview;
	bool have_verdict;
	bool last_failed;		/* the last test could not start or ended in an error */
	/* where the data stopped: the last tick whose streams moved bytes (0 none yet) */
	uint64_t data_seq, last_data_ns;
	double last_data_bps, good_bps;	/* that tick's rate, the data tick's before it */
	/* the panel's failure and peer lines (vview points here) */
	char vfail[200], vstop[160], vpeer[600];
	/* the peer's totals over the last finished test, printed after the dashboard closes */
	struct lr_peer_summary peer_sum;
	bool have_peer_sum;
	/* --demo: the in-process receiver's live counters, its loss per stream for the pane */
	struct lr_server_test_view *rv;
	struct lr_view_stream_base recv[LR_VIEW_STREAM_BASE_MAX];
	struct lr_view_loss loss;	/* the Loss pane's view of ses's ledgers */
};

struct dash {
	const struct lr_config *cfg;
	struct lr_cpu_hist cpu_hist;	/* the CPU pane's history of the shown snapshots */
	struct lr_snapsrc *src;
	struct lr_tui *tui;
	struct lr_recorder *rec;
	struct lr_metrics_http *metrics;	/* --listen, NULL without */
	struct lr_snapshot fresh;	/* newest from the board */
	struct lr_snapshot shown;	/* what the screen shows (frozen while paused) */
	bool have_shown;
	uint64_t seen;
	struct lr_ui app;
	struct lr_frame frame;
	struct lr_view_ctx ctx;
	char themes[MAX_THEMES][LR_THEME_NAME_MAX];
	size_t n_themes;
	struct lr_theme theme;
	char status[LR_LOG_MSG_MAX];
	char no_queues[48];	/* Q's answer for the selected interface (no_queues_why) */
	uint64_t log_seen, app_msg_seq, sticky_until_ns;
	uint64_t status_until_ns;	/* the status message is cleared then (stale news misleads) */
	bool status_is_verdict;		/* it says the verdict is shown: cleared when it closes */
	char host[64];
	char fatal[LR_THEME_ERR_MAX];	/* printed to stderr once the terminal is back */
	char theme_err[LR_THEME_ERR_MAX];	/* the first bad theme, also repeated on stderr */
	uint64_t last_snap_mono_ns;	/* the newest snapshot read from the board */
	struct traffic tr;
	struct lr_dash_peer *peer;	/* the peer view with its history (dash_traffic.c) */
	struct lr_matrix_app mxa;	/* --matrix: the grid and its CSV */
	struct lr_matrix_run *mx;	/* mxa.run: the grid drives the traffic, not tr */
	struct lr_matrix_progress mview;
	char mname[128];
	struct lr_dash_srv *srv;	/* linerate -s on a terminal (dash_server.c), else NULL */
	int rc;
};

/* The status line's message (err: shown as an error, kept longer against info logs). */
void lr_dash_msg(struct dash *d, bool err, const char *fmt, ...) LR_PRINTF(3, 4);

/* -c HOST or --demo: the server (demo), the route interface, the session. 0 or -errno
 * (d->fatal says why). */
int lr_dash_tr_setup(struct dash *d);
void lr_dash_tr_start(struct dash *d);
/* Follows the client's state; true when the screen changed. */
bool lr_dash_tr_poll(struct dash *d);
/* The Loss pane's ledgers: the session's live ones, the end-of-test ledger once it is in. */
const struct lr_view_loss *lr_dash_tr_loss(struct dash *d);
/* A traffic key (s ] [ > < u R). */
void lr_dash_tr_key(struct dash *d, enum lr_action act);
void lr_dash_tr_update_view(struct dash *d);
/* Quit or a signal: stop the test (the peer is told), wait for its end. */
void lr_dash_tr_shutdown(struct dash *d);
void lr_dash_tr_close(struct dash *d);
/* The peer's newest snapshot for the views, with graph history, peaks and totals since its
 * test began (the panes of its detail view); NULL while no peer shares. *host its name. */
const struct lr_snapshot *lr_dash_peer_view(struct dash *d, const char **host);
void lr_dash_peer_free(struct dash *d);
/* After the terminal is back: the last test's summary and verdict; a failed test sets rc 1. */
void lr_dash_print_result(struct dash *d);

/* linerate -s on a terminal (dash_server.c): the server on its thread, its tests in the
 * Streams pane. setup: after the source started; 0 or -1 (d->fatal says why). */
struct lr_server;
struct lr_server_app;
int lr_dash_srv_setup(struct dash *d, struct lr_server_app *app, struct lr_server *srv,
		      uint16_t port);
/* Follows the server's tests; true when the screen changed. Quits when the server ended. */
bool lr_dash_srv_poll(struct dash *d);
/* Stops the server (q, a signal) and joins its thread. */
void lr_dash_srv_stop(struct dash *d);
/* After the terminal is back: the last test's summary, as iperf3 -s prints it. */
void lr_dash_srv_print(struct dash *d);
void lr_dash_srv_close(struct dash *d);

#endif
