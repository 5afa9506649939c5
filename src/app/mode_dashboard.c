// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dashboard's run loop on the main thread: opens the board and the sampler, takes over
 * the terminal, then waits for a key or the next snapshot (poll on stdin with a timeout up to
 * the next tick: no busy loop), applies keys to the app state machine, writes CSV rows when
 * --csv/--cpu-csv/--streams-csv are given (as headless does), renders views into a frame and
 * blits it. With -c HOST or --demo it also drives a traffic client: keys start/stop it, change
 * its rate live or restart it with other options, the sampler reads its streams, and every
 * test ends with a verdict panel (dash_traffic.c). Every exit path restores the terminal and
 * stops the traffic (the peer is told) before returning. The test's lifecycle is the
 * session's (session.c), the files are the recorder's: this file is the dashboard's wiring. [app]
 */
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linerate/app/config.h"
#include "linerate/run/matrix_run.h"
#include "linerate/run/peer.h"
#include "linerate/run/recorder.h"
#include "linerate/app/run.h"
#include "linerate/run/session.h"
#include "linerate/run/snapsrc.h"
#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/run/metrics_http.h"
#include "linerate/core/strutil.h"
#include "linerate/present/ui.h"
#include "linerate/present/frame.h"
#include "linerate/present/theme.h"
#include "linerate/present/tui.h"
#include "linerate/present/view.h"
#include "linerate/sample/sampler.h"
#include "linerate/sample/snapshot.h"

#include "dashboard_priv.h"


/* stdout is the screen: CSV to stdout is a headless thing. Errors go to stderr at once (the
 * terminal is not taken yet). */
static int open_csv(struct dash *d)
{
	const struct lr_config *cfg = d->cfg;
	struct lr_recorder_files files;
	char msg[320];
	int err;

	if (lr_config_csv_stdout(cfg)) {
		fprintf(stderr, "linerate: CSV to stdout (-) needs --headless\n");
		return -EINVAL;
	}
	lr_config_files(cfg, &files);
	err = lr_recorder_open(&d->rec, &files, false, msg, sizeof(msg));
	if (err)
		fprintf(stderr, "linerate: %s\n", msg);
	return err;
}

/* Every snapshot goes to CSV, paused or not; a write error ends the run with exit 1. */
static int write_csv(struct dash *d, const struct lr_snapshot *s)
{
	int e = lr_recorder_write(d->rec, s, d->fatal, sizeof(d->fatal));

	if (!e)	/* the peer view's snapshot and rows beside ours (docs/wire.md, part 2) */
		e = lr_peer_rx_record(d->tr.ses.peer, d->rec, s, d->fatal, sizeof(d->fatal));
	return e;
}

static int close_csv(struct dash *d)
{
	char msg[320];
	int e = lr_recorder_close(d->rec, msg, sizeof(msg));

	d->rec = NULL;
	if (msg[0] && !d->fatal[0])
		lr_strlcpy(d->fatal, msg, sizeof(d->fatal));
	return e;
}

/* --listen: bound before the terminal is taken, so its error goes straight to stderr. */
static int open_metrics(struct dash *d)
{
	char msg[320];
	int err;

	if (!d->cfg->listen)
		return 0;
	err = lr_config_metrics_open(&d->metrics, d->cfg, msg, sizeof(msg));
	if (err)
		fprintf(stderr, "linerate: %s\n", msg);
	return err;
}

/* The theme list for `t`, with -T's theme selected (added first when it is a path or a name
 * not in the search directories). */
static void setup_themes(struct dash *d)
{
	const char *want = d->cfg->theme ? d->cfg->theme : "default";
	size_t idx = 0;

	d->n_themes = lr_theme_list(d->themes, MAX_THEMES);
	for (idx = 0; idx < d->n_themes; idx++)
		if (!strcmp(d->themes[idx], want))
			break;
	if (idx == d->n_themes) {
		if (d->n_themes == MAX_THEMES)
			d->n_themes--;
		memmove(d->themes[1], d->themes[0], d->n_themes * sizeof(d->themes[0]));
		lr_strlcpy(d->themes[0], want, sizeof(d->themes[0]));
		d->n_themes++;
		idx = 0;
	}
	d->app.n_themes = d->n_themes;
	d->app.theme_idx = idx;
}

/* --theme naming no theme is bad input: one line with the names there are, exit 2, before the
 * terminal is taken. A file that does not parse is docs/design.md §5's case instead: file:line on
 * the status line and the default theme (load_theme). */
static int check_theme(struct dash *d)
{
	char err[LR_THEME_ERR_MAX];
	size_t n;
	int rc;

	if (!d->cfg->theme)
		return 0;
	rc = lr_theme_load(&d->theme, d->cfg->theme, err, sizeof(err));
	if (rc != -ENOENT || strchr(d->cfg->theme, '/'))
		return 0;	/* found (good or bad), or a path: load_theme reports it */
	d->rc = 2;
	n = (size_t)snprintf(d->fatal, sizeof(d->fatal), "--theme %.64s: no such theme; there are",
			     d->cfg->theme);
	for (size_t i = 0; i < d->n_themes && n < sizeof(d->fatal); i++)
		if (strcmp(d->themes[i], d->cfg->theme))
			n += (size_t)snprintf(d->fatal + n, sizeof(d->fatal) - n, " %s",
					      d->themes[i]);
	if (n < sizeof(d->fatal))
		snprintf(d->fatal + n, sizeof(d->fatal) - n, " (or a path to a .theme file)");
	return rc;
}

/* Loads theme app.theme_idx; a bad file is logged (file:line) and the default used. false
 * when the terminal shows no colours (NO_COLOR, or a monochrome terminal). */
static bool load_theme(struct dash *d)
{
	char err[LR_THEME_ERR_MAX];

	if (lr_theme_load(&d->theme, d->themes[d->app.theme_idx], err, sizeof(err)) && err[0]) {
		lr_log(LR_LOG_ERR, "%s; default theme", err);
		if (!d->theme_err[0])
			lr_strlcpy(d->theme_err, err, sizeof(d->theme_err));
	}
	return !d->tui || lr_tui_set_theme(d->tui, &d->theme);
}

/* ---- traffic ---- */

void lr_dash_msg(struct dash *d, bool err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->status, sizeof(d->status), fmt, ap);
	va_end(ap);
	d->ctx.status_is_error = err;
	d->sticky_until_ns = lr_clock_mono_ns() + (err ? STICKY_ERR_NS : STICKY_KEY_NS);
	d->status_until_ns = lr_clock_mono_ns() + (err ? SHOW_ERR_NS : SHOW_INFO_NS);
	d->status_is_verdict = false;
}

/* --matrix: `s` skips the running case; the grid sets every other option. */
static void mx_key(struct dash *d, enum lr_action act)
{
	unsigned shown = lr_matrix_run_current(d->mx);	/* running, or next while settling */

	if (act == LR_ACT_TRAFFIC_TOGGLE && shown) {
		lr_matrix_run_skip(d->mx);
		lr_dash_msg(d, false, "skipping case %u", shown);
	} else {
		lr_dash_msg(d, false, "the matrix sets the tests' options (s skips a case, q ends)");
	}
}

/* q or a signal mid-grid: the running case ends unwritten (bounded), the rest is kept. */
static void mx_end(struct dash *d)
{
	uint64_t end = lr_clock_mono_ns() + STOP_WAIT_NS;

	lr_matrix_run_stop(d->mx);
	while (!lr_matrix_run_done(d->mx) && lr_clock_mono_ns() < end) {
		lr_snapsrc_wait(d->src, d->seen, 50 * LR_NSEC_PER_MSEC);
		if (lr_snapsrc_read(d->src, &d->fresh, &d->seen) > 0)
			lr_matrix_run_snapshot(d->mx, &d->fresh);
		lr_matrix_run_step(d->mx);
	}
}

static void apply_requests(struct dash *d)
{
	struct lr_ui *app = &d->app;

	if (app->requests & LR_REQ_INTERVAL)
		lr_snapsrc_set_interval(d->src, app->interval_ns);
	if (app->requests & LR_REQ_RESET) {
		lr_snapsrc_reset_totals(d->src);
		if (d->ctx.streams_pane == lr_view_streams)	/* their retr/lost count from now too */
			lr_view_streams_reset(d->ctx.streams_arg, &d->fresh);
	}
	if (app->requests & LR_REQ_THEME) {
		bool colour = load_theme(d);

		/* one message, kept against info logs: the theme's name, and why it looks mono */
		if (d->theme_err[0] == '\0' || strcmp(d->theme.name, "default"))
			lr_dash_msg(d, false, "theme %s%s", d->theme.name, colour ? "" : " (mono: no colours)");
	}
	if (app->requests & LR_REQ_REDRAW)
		lr_tui_invalidate(d->tui);
	if ((app->requests & LR_REQ_TRAFFIC) && d->tr.on)
		lr_dash_tr_key(d, app->traffic_action);
	else if ((app->requests & LR_REQ_TRAFFIC) && d->mx)
		mx_key(d, app->traffic_action);
	app->requests = 0;
}

/* The newest log entry or key feedback, whichever came last, for the status line. A warning
 * or error stays for STICKY_ERR_NS against newer info messages (keys still replace it). */
static bool update_status(struct dash *d)
{
	struct lr_log_entry e[8];
	uint64_t now = lr_clock_mono_ns();
	size_t n;
	bool changed = false;

	while ((n = lr_log_read(&d->log_seen, e, LR_ARRAY_SIZE(e))) > 0) {
		const struct lr_log_entry *last = NULL;

		for (size_t i = 0; i < n; i++) {
			bool err = e[i].level >= LR_LOG_WARN;

			if (e[i].level < LR_LOG_INFO || (!err && now < d->sticky_until_ns))
				continue;
			if (err)
				d->sticky_until_ns = now + STICKY_ERR_NS;
			last = &e[i];
		}
		if (last) {
			lr_strlcpy(d->status, last->msg, sizeof(d->status));
			d->ctx.status_is_error = last->level >= LR_LOG_WARN;
			d->status_until_ns = now + (d->ctx.status_is_error ? SHOW_ERR_NS : SHOW_INFO_NS);
			d->status_is_verdict = false;
			changed = true;
		}
	}
	if (d->app.msg_seq != d->app_msg_seq) {
		d->app_msg_seq = d->app.msg_seq;
		lr_strlcpy(d->status, d->app.msg, sizeof(d->status));
		d->ctx.status_is_error = false;
		d->sticky_until_ns = 0;
		d->status_until_ns = now + SHOW_INFO_NS;
		d->status_is_verdict = false;
		changed = true;
	}
	if (d->status[0] && (now >= d->status_until_ns || (d->status_is_verdict && !d->app.verdict))) {
		d->status[0] = '\0';
		d->ctx.status_is_error = d->status_is_verdict = false;
		changed = true;
	}
	return changed;
}

/* What Q answers when the selected interface has no per-queue counter, NULL when it has. */
static const char *no_queues_why(struct dash *d)
{
	struct lr_view_queue_stats st;
	const struct lr_iface_snap *ifs;

	if (!d->have_shown || d->app.sel >= d->shown.n_ifaces || d->ctx.peer_detail)
		return NULL;
	ifs = &d->shown.ifaces[d->app.sel];
	if (lr_view_queue_stats(ifs, &st))
		return NULL;
	snprintf(d->no_queues, sizeof(d->no_queues), "Q: %s has no per-queue counters", ifs->name);
	return d->no_queues;
}

/* What P answers when there is no peer's side to show, NULL when there is one: short
 * enough for the status line at 80 columns (about 40 characters). */
static const char *no_peer_why(const struct dash *d)
{
	if (d->ctx.peer)
		return NULL;
	if (d->cfg->traffic.demo)
		return "P: the demo's peer is this host";
	if (d->srv)
		return "P: no peer view on a server";
	if (d->tr.on && d->app.test_running)
		return "P: the peer shares no counters";
	if (d->tr.on)
		return "P: the peer's side comes with a test";
	return "P: no peer (-c HOST brings one)";
}

static void render(struct dash *d)
{
	int w, h;

	lr_tui_size(d->tui, &w, &h);
	if (lr_frame_resize(&d->frame, w, h))
		return;
	d->ctx.snap = d->have_shown ? &d->shown : NULL;
	d->ctx.peer = lr_dash_peer_view(d, &d->ctx.peer_host);
	d->app.no_peer = no_peer_why(d);
	d->app.no_queues = no_queues_why(d);
	d->ctx.theme_name = d->theme.name;
	if (d->tr.on)
		lr_dash_tr_update_view(d);
	d->ctx.loss = d->tr.on && !d->mx ? lr_dash_tr_loss(d) : NULL;
	if (d->mx)
		lr_matrix_run_view(d->mx, &d->mview, d->mname, sizeof(d->mname));
	lr_view_render(&d->frame, &d->ctx);
	if (d->app.verdict && d->tr.have_verdict && !d->app.help)
		lr_view_verdict(&d->frame, &d->ctx, &d->tr.vview);
	lr_tui_blit(d->tui, &d->frame);
}

/* Milliseconds until the next snapshot is due (0 when it is late). */
static int ms_to_next_tick(const struct dash *d, uint64_t last_mono_ns)
{
	uint64_t due = last_mono_ns + d->app.interval_ns, now = lr_clock_mono_ns();
	uint64_t ms;

	if (now >= due)
		return 0;
	ms = (due - now) / LR_NSEC_PER_MSEC + 1;
	return ms > MAX_POLL_MS ? MAX_POLL_MS : (int)ms;
}

/* One pass: wait, keys, snapshot, status; true when the screen must be redrawn. */
static bool step(struct dash *d, uint64_t *last_mono_ns)
{
	struct pollfd pfd = {.fd = lr_tui_input_fd(d->tui), .events = POLLIN};
	enum lr_action act;
	int timeout = ms_to_next_tick(d, *last_mono_ns), r;
	bool dirty = false;

	if (d->mx && timeout > (int)(lr_matrix_run_wait_ns(d->mx) / LR_NSEC_PER_MSEC))
		timeout = (int)(lr_matrix_run_wait_ns(d->mx) / LR_NSEC_PER_MSEC);
	if (timeout > 0)
		poll(&pfd, 1, timeout);	/* a key, the tick's time, or a signal (EINTR) */
	else
		lr_snapsrc_wait(d->src, d->seen, LATE_WAIT_NS);	/* the tick is due: wait for it */
	while (lr_tui_read_key(d->tui, &act)) {
		dirty |= lr_ui_handle(&d->app, act);
		if (d->have_shown)
			lr_ui_sync(&d->app, &d->shown);
		if (d->app.requests)	/* each key: `]]` doubles twice */
			apply_requests(d);
	}
	r = lr_snapsrc_read(d->src, &d->fresh, &d->seen);
	if (r < 0) {
		snprintf(d->fatal, sizeof(d->fatal), "reading a snapshot: %s", strerror(-r));
		d->rc = 1;
		return false;
	}
	if (r > 0) {
		*last_mono_ns = d->fresh.mono_ns;
		d->last_snap_mono_ns = d->fresh.mono_ns;
		if (write_csv(d, &d->fresh)) {
			d->rc = 1;
			return false;
		}
		if (d->metrics && lr_metrics_http_publish(d->metrics, &d->fresh))
			lr_log(LR_LOG_WARN, "--listen: out of memory: the metrics lag");
		if (d->metrics && d->tr.ses.peer) {	/* side="peer", as headless (sampling.c) */
			const char *host = NULL;
			const struct lr_snapshot *ps = lr_peer_rx_snapshot(d->tr.ses.peer, &host);

			if (ps && lr_metrics_http_publish_peer(d->metrics, ps, host))
				lr_log(LR_LOG_WARN, "--listen: out of memory: the peer's metrics lag");
		}
		lr_session_sample(&d->tr.ses, &d->fresh);
		if (d->mx)
			lr_matrix_run_snapshot(d->mx, &d->fresh);
		/* -t without traffic: stop with the tick that reaches it, as headless does (with
		 * traffic, -t is the test's length, iperf3's meaning) */
		if (d->cfg->duration_set && d->cfg->duration_ns && !d->tr.on && !d->mx &&
		    d->fresh.elapsed_ns + d->fresh.target_interval_ns / 2 >= d->cfg->duration_ns)
			d->app.quit = true;
		if (!d->app.paused) {
			if (lr_snapshot_copy(&d->shown, &d->fresh) == 0) {
				d->have_shown = true;
				if (lr_cpu_hist_push(&d->cpu_hist, &d->shown))
					lr_log(LR_LOG_WARN, "out of memory: the CPU history stops");
				lr_ui_sync(&d->app, &d->shown);
				dirty = true;
			}
		}
	} else if (ms_to_next_tick(d, *last_mono_ns) == 0 &&
		   lr_clock_mono_ns() > *last_mono_ns + 2 * d->app.interval_ns) {
		/* no snapshot for two intervals (a stalled collector): do not spin */
		*last_mono_ns = lr_clock_mono_ns();
	}
	dirty |= lr_dash_srv_poll(d);
	if (d->tr.on) {
		dirty |= lr_dash_tr_poll(d);
		d->app.test_running = lr_session_active(&d->tr.ses);
	}
	if (d->mx && !lr_matrix_run_done(d->mx) && lr_matrix_run_step(d->mx)) {
		dirty = true;
		if (lr_matrix_run_done(d->mx))
			lr_dash_msg(d, false, "matrix done: q quits and prints the table");
	}
	dirty |= update_status(d);
	return dirty;
}

/* Why the dashboard cannot run here, in words that say what to do. */
static void tui_error(struct dash *d, int err)
{
	const char *term = getenv("TERM");

	if (err == -ENOTTY)
		snprintf(d->fatal, sizeof(d->fatal),
			 "the dashboard needs a terminal on stdin and stdout (--headless writes CSV)");
	else if (err == -ENOENT)
		snprintf(d->fatal, sizeof(d->fatal),
			 "TERM=%s: unknown terminal type (try TERM=xterm-256color, or --headless)",
			 term ? term : "");
	else if (err == -EOPNOTSUPP)
		snprintf(d->fatal, sizeof(d->fatal),
			 "TERM=%s cannot move the cursor: the dashboard needs a full terminal "
			 "(or --headless)", term ? term : "");
	else
		snprintf(d->fatal, sizeof(d->fatal), "cannot use the terminal: %s", strerror(-err));
}

static bool single_iface(const char *list)
{
	return list && list[0] && !strchr(list, ',');
}

/* srv, sapp: linerate -s on a terminal (dash_server.c), else NULL. */
static int run(const struct lr_config *cfg, struct lr_server_app *sapp, struct lr_server *srv)
{
	struct lr_sampler_opts sopts;
	struct dash d;
	uint64_t last_mono_ns;
	unsigned logged;
	int err;

	memset(&d, 0, sizeof(d));
	d.cfg = cfg;
	d.rc = 1;
	setlocale(LC_CTYPE, "");	/* never LC_ALL: CSV numbers keep their '.' */
	lr_snapshot_init(&d.fresh);
	lr_snapshot_init(&d.shown);
	lr_frame_init(&d.frame);
	if (lr_dash_tr_setup(&d))
		goto out;
	/* with traffic, the detail view of the interface the test leaves by */
	lr_ui_init(&d.app, cfg->interval_ns, 1,
		    single_iface(cfg->ifaces) ? cfg->ifaces : d.tr.iface[0] ? d.tr.iface : NULL);
	d.app.traffic = d.tr.on;
	setup_themes(&d);
	if (check_theme(&d))
		goto out;
	if (gethostname(d.host, sizeof(d.host) - 1))
		d.host[0] = '\0';
	d.ctx.app = &d.app;
	d.ctx.cpu_hist = &d.cpu_hist;
	d.ctx.host = d.host;
	d.ctx.status_msg = d.status;
	d.ctx.ascii = cfg->ascii || !lr_tui_utf8();
	d.ctx.graph = lr_config_graph(cfg);

	if (open_csv(&d) || open_metrics(&d))
		goto out;
	/* the terminal is not ours yet: a collector's error goes to stderr as it happens */
	lr_log_set_echo(LR_LOG_ERR);
	logged = lr_log_errors_echoed();
	lr_config_sampler(cfg, &sopts);
	sopts.history = true;	/* every dashboard draws graphs: -s and --demo's too, not only -I's */
	err = lr_snapsrc_open(&d.src, &sopts);
	if (!err)
		err = lr_snapsrc_start(d.src);
	lr_log_set_echo(LR_LOG_ERR + 1);
	if (err) {
		if (lr_log_errors_echoed() == logged)	/* else the cause is on stderr already */
			snprintf(d.fatal, sizeof(d.fatal), "cannot start sampling: %s",
				 strerror(-err));
		d.rc = lr_config_sampling_status(cfg, err);
		goto out;
	}
	d.tr.ses.src = d.src;
	if (sapp && lr_dash_srv_setup(&d, sapp, srv, lr_server_port(srv)))
		goto out;
	if (cfg->matrix) {
		err = lr_matrix_app_open(&d.mxa, cfg, d.src, d.rec, d.fatal, sizeof(d.fatal));
		d.mx = d.mxa.run;
		if (err) {
			d.rc = err;
			goto out;
		}
		d.app.traffic = true;	/* `s` reaches the grid: it skips */
		if (!single_iface(cfg->ifaces) && lr_matrix_run_iface(d.mx)[0]) {
			lr_strlcpy(d.app.sel_name, lr_matrix_run_iface(d.mx), sizeof(d.app.sel_name));
			d.app.view = LR_VIEW_DETAIL;	/* the Matrix pane is in the detail view */
		}
		d.ctx.streams_pane = lr_view_matrix;
		d.ctx.streams_arg = &d.mview;
		lr_matrix_run_view(d.mx, &d.mview, d.mname, sizeof(d.mname));
	}
	err = lr_tui_open(&d.tui);
	if (err) {
		tui_error(&d, err);
		goto out;
	}
	load_theme(&d);
	d.rc = 0;
	last_mono_ns = lr_clock_mono_ns();
	if (d.tr.on && !cfg->traffic.no_start)
		lr_dash_tr_start(&d);
	else if (d.tr.on)
		lr_dash_msg(&d, false, "--no-start: s starts the test");
	update_status(&d);
	render(&d);
	while (!lr_stop_signal && !d.app.quit && d.rc == 0) {
		if (step(&d, &last_mono_ns))
			render(&d);
	}
	if (d.mx)
		mx_end(&d);	/* before the terminal: a case still running ends first */
	lr_tui_close(d.tui);	/* the terminal first: nothing below may leave it raw */
	d.tui = NULL;
	lr_dash_srv_stop(&d);	/* a test mid-run ends; its last bytes reach the CSV below */
	if (d.mx) {
		int mrc = lr_matrix_app_report(&d.mxa, stdout);

		if (mrc > d.rc)
			d.rc = mrc;
	}
	if (d.tr.ses.client) {
		/* a test mid-run: stop it (the peer is told), then one last reading closes the
		 * books of the CSVs, as a headless run does */
		lr_dash_tr_shutdown(&d);
		if (d.rc == 0 && lr_snapsrc_stop(d.src, true) == 0 &&
		    lr_snapsrc_read(d.src, &d.fresh, &d.seen) > 0) {
			lr_session_sample(&d.tr.ses, &d.fresh);
			if (write_csv(&d, &d.fresh))
				d.rc = 1;
		}
		lr_session_finish(&d.tr.ses);	/* results and verdict, printed below */
		d.tr.last_failed = d.tr.ses.failed;
	} else if (lr_snapsrc_stop(d.src, d.srv != NULL) == 0 && d.rc == 0 &&
		   (lr_stop_signal || d.srv) &&
		   lr_snapsrc_read(d.src, &d.fresh, &d.seen) > 0 && write_csv(&d, &d.fresh)) {
		/* a signal, or the server (its last test's tail): the snapshot in flight is part
		 * of the CSV run */
		d.rc = 1;
	}
out:
	lr_tui_close(d.tui);
	lr_dash_srv_stop(&d);
	if (d.mxa.cfg && lr_matrix_app_close(&d.mxa) && d.rc == 0)
		d.rc = 1;
	lr_dash_tr_shutdown(&d);
	if (d.rc != 2)
		lr_dash_print_result(&d);
	if (d.rc != 2)
		lr_dash_srv_print(&d);
	lr_dash_srv_close(&d);
	lr_dash_tr_close(&d);
	lr_dash_peer_free(&d);
	lr_snapsrc_close(d.src);
	lr_metrics_http_close(d.metrics);
	if (close_csv(&d))
		d.rc = 1;
	lr_snapshot_free(&d.fresh);
	lr_snapshot_free(&d.shown);
	lr_cpu_hist_free(&d.cpu_hist);
	lr_frame_free(&d.frame);
	if (d.theme_err[0])
		fprintf(stderr, "linerate: %s (used the default theme)\n", d.theme_err);
	if (d.fatal[0])
		fprintf(stderr, "linerate: %s\n", d.fatal);
	return d.rc;
}

int lr_run_dashboard(const struct lr_config *cfg)
{
	return run(cfg, NULL, NULL);
}

int lr_run_dashboard_server(const struct lr_config *cfg, struct lr_server_app *sapp,
			    struct lr_server *srv)
{
	return run(cfg, sapp, srv);
}
