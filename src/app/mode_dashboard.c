// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dashboard's run loop on the main thread: opens the board and the sampler, takes over
 * the terminal, then waits for a key or the next snapshot (poll on stdin with a timeout up to
 * the next tick: no busy loop), applies keys to the app state machine, writes CSV rows when
 * --csv/--cpu-csv/--streams-csv are given (as headless does), renders views into a frame and
 * blits it. With -c HOST or --demo it also drives a traffic client: keys start/stop it, change
 * its rate live or restart it with other options, the sampler reads its streams, and every
 * test ends with a verdict panel. Every exit path restores the terminal and stops the traffic
 * (the peer is told) before returning. The test's lifecycle is the session's (session.c), the
 * files are the recorder's: this file is the dashboard's wiring and its keys. [app]
 */
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linerate/present/app.h"
#include "linerate/core/clock.h"
#include "linerate/app/config.h"
#include "linerate/app/demo.h"
#include "linerate/present/frame.h"
#include "linerate/core/log.h"
#include "linerate/app/recorder.h"
#include "linerate/collect/route.h"
#include "linerate/app/run.h"
#include "linerate/app/session.h"
#include "linerate/sample/snapshot.h"
#include "linerate/app/snapsrc.h"
#include "linerate/app/metrics_http.h"
#include "linerate/core/strutil.h"
#include "linerate/present/theme.h"
#include "linerate/present/tui.h"
#include "linerate/present/view.h"

#define MAX_THEMES 32
#define MAX_POLL_MS 250		/* a signal also wakes poll; this only bounds the wait */
#define LATE_WAIT_NS (20 * LR_NSEC_PER_MSEC)
#define STICKY_ERR_NS (10 * LR_NSEC_PER_SEC)
#define STICKY_KEY_NS (3 * LR_NSEC_PER_SEC)	/* traffic feedback outlives info logs */
#define STOP_WAIT_NS (2 * LR_NSEC_PER_SEC)	/* a client reaches DONE within 200 ms */
#define FINAL_TICK_MAX_NS (2 * LR_NSEC_PER_SEC)
/* Without -t a test runs until `s` or quit: asked of the server as iperf3's longest test
 * (-t 86400), since a time of 0 is not "forever" to every server. */
#define UNTIL_STOPPED_NS (86400 * LR_NSEC_PER_SEC)

/* The traffic test the dashboard drives (-c HOST, --demo). One client at a time: a restart
 * stops it, waits for a snapshot that saw its last bytes, closes it and opens a new one. */
struct traffic {
	bool on;			/* traffic configured */
	struct lr_demo *demo;
	struct lr_traffic_config base;	/* the command line's options (demo: with its defaults) */
	struct lr_app_traffic knobs;	/* what the keys changed: the next test's options */
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
};

struct dash {
	const struct lr_config *cfg;
	struct lr_snapsrc *src;
	struct lr_tui *tui;
	struct lr_recorder *rec;
	struct lr_metrics_http *metrics;	/* --listen, NULL without */
	struct lr_snapshot fresh;	/* newest from the board */
	struct lr_snapshot shown;	/* what the screen shows (frozen while paused) */
	bool have_shown;
	uint64_t seen;
	struct lr_app app;
	struct lr_frame frame;
	struct lr_view_ctx ctx;
	char themes[MAX_THEMES][LR_THEME_NAME_MAX];
	size_t n_themes;
	struct lr_theme theme;
	char status[LR_LOG_MSG_MAX];
	uint64_t log_seen, app_msg_seq, sticky_until_ns;
	char host[64];
	char fatal[LR_THEME_ERR_MAX];	/* printed to stderr once the terminal is back */
	char theme_err[LR_THEME_ERR_MAX];	/* the first bad theme, also repeated on stderr */
	uint64_t last_snap_mono_ns;	/* the newest snapshot read from the board */
	struct traffic tr;
	int rc;
};

/* stdout is the screen: CSV to stdout is a headless thing. Errors go to stderr at once (the
 * terminal is not taken yet). */
static int open_csv(struct dash *d)
{
	const struct lr_config *cfg = d->cfg;
	char msg[320];
	int err;

	if ((cfg->csv && !strcmp(cfg->csv, "-")) || (cfg->cpu_csv && !strcmp(cfg->cpu_csv, "-")) ||
	    (cfg->streams_csv && !strcmp(cfg->streams_csv, "-"))) {
		fprintf(stderr, "linerate: CSV to stdout (-) needs --headless\n");
		return -EINVAL;
	}
	err = lr_recorder_open(&d->rec, cfg, false, msg, sizeof(msg));
	if (err)
		fprintf(stderr, "linerate: %s\n", msg);
	return err;
}

/* Every snapshot goes to CSV, paused or not; a write error ends the run with exit 1. */
static int write_csv(struct dash *d, const struct lr_snapshot *s)
{
	return lr_recorder_write(d->rec, s, d->fatal, sizeof(d->fatal));
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
	err = lr_metrics_http_open(&d->metrics, d->cfg->listen, msg, sizeof(msg));
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

static void LR_PRINTF(3, 4) tmsg(struct dash *d, bool err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->status, sizeof(d->status), fmt, ap);
	va_end(ap);
	d->ctx.status_is_error = err;
	d->sticky_until_ns = lr_clock_mono_ns() + (err ? STICKY_ERR_NS : STICKY_KEY_NS);
}

/* Rate changes reach the running senders when this side sends them all. */
static bool tr_live(const struct traffic *t)
{
	return !t->knobs.reverse && !t->knobs.bidir;
}

/* The achieved rate per stream of the newest snapshot (the streams this side counts), <= 0
 * unknown. */
static double tr_measured(const struct dash *d)
{
	const struct lr_snapshot *s = &d->fresh;
	double sum = 0;
	size_t n = 0;

	if (!d->tr.ses.client)
		return -1;
	for (size_t i = 0; i < s->n_streams; i++) {
		if (s->streams[i].valid) {
			sum += s->streams[i].bps;
			n++;
		}
	}
	return n ? sum / (double)n : -1;
}

static void tr_config(const struct traffic *t, struct lr_traffic_config *tc)
{
	*tc = t->base;
	tc->udp = t->knobs.udp;
	tc->reverse = t->knobs.reverse;
	tc->bidir = t->knobs.bidir;
	tc->parallel = t->knobs.parallel;
	tc->bitrate_bps = t->knobs.rate_bps;
	tc->bitrate_set = true;
	tc->length = t->knobs.length;
}

static void tr_start(struct dash *d)
{
	struct traffic *t = &d->tr;
	struct lr_traffic_config tc;

	tr_config(t, &tc);
	t->restart = t->want_verdict = false;
	if (lr_session_start(&t->ses, &tc, t->duration_ns)) {
		t->state = LR_VTS_ERROR;
		tmsg(d, true, "%s", t->ses.error);
		return;
	}
	t->state = LR_VTS_CONNECTING;
}

/* Asks the running test to end; it is closed once a snapshot has seen its last bytes. */
static void tr_stop(struct dash *d, bool verdict, bool restart)
{
	struct traffic *t = &d->tr;

	if (!t->ses.client)
		return;
	if (lr_session_active(&t->ses)) {
		t->want_verdict = verdict;
		lr_session_stop(&t->ses);
	}
	t->restart = restart;	/* `s` after a restart key: stop, no restart */
}

/* The verdict panel of the test that just ended (the session computed the verdict). */
static void tr_verdict(struct dash *d)
{
	struct traffic *t = &d->tr;
	const struct lr_session *ses = &t->ses;
	double secs = (double)ses->elapsed_at_end_ns / 1e9;

	if (ses->have_res && ses->res->n_streams && ses->res->duration_ns)
		secs = (double)ses->res->duration_ns / 1e9;
	snprintf(t->vtitle, sizeof(t->vtitle), "%s x%u %s %s, %.1f s, %s",
		 t->knobs.udp ? "UDP" : "TCP", t->knobs.parallel,
		 t->knobs.bidir ? "<->" : t->knobs.reverse ? "<-" : "->",
		 t->view.host ? t->view.host : "-", secs,
		 t->state == LR_VTS_ERROR ? "failed"
		 : ses->stop_asked	  ? "stopped (sender's counts)"
					  : "done");
	t->vview.v = &ses->verdict;
	t->vview.acc = ses->acc;
	t->vview.t = &ses->vt;
	t->vview.test = t->vtitle;
	t->have_verdict = true;
}

/* The test has ended and a snapshot saw its last bytes: results, verdict, close. */
static void tr_finish(struct dash *d)
{
	struct traffic *t = &d->tr;
	struct lr_session *ses = &t->ses;
	bool ran;

	lr_session_finish(ses);
	ran = ses->running_ns != 0;
	if (ses->failed) {
		t->state = LR_VTS_ERROR;
		tmsg(d, true, "traffic: %s", ses->error[0] ? ses->error : "the test failed");
	} else {
		t->state = ses->stop_asked ? LR_VTS_STOPPED : LR_VTS_DONE;
	}
	if (ran)
		tr_verdict(d);
	if (ran && (t->want_verdict || (!ses->stop_asked && !ses->failed)) && !t->restart)
		d->app.verdict = true;
	if (!ses->failed && !t->restart && d->app.verdict)
		tmsg(d, false, "test %s: verdict shown (Esc closes, s starts another)",
		     ses->stop_asked ? "stopped" : "done");
	if (t->restart)
		tr_start(d);
}

/* Follows the client's state; true when the screen changed. */
static bool tr_poll(struct dash *d)
{
	struct traffic *t = &d->tr;
	enum lr_view_tstate old = t->state;
	uint64_t now = lr_clock_mono_ns(), grace;

	if (!t->ses.client)
		return false;
	switch (lr_session_poll(&t->ses)) {
	case LR_CLIENT_IDLE:
	case LR_CLIENT_CONNECTING:
		t->state = LR_VTS_CONNECTING;
		break;
	case LR_CLIENT_RUNNING:
		t->state = LR_VTS_RUNNING;
		break;
	case LR_CLIENT_ENDING:
		t->state = LR_VTS_ENDING;
		break;
	case LR_CLIENT_DONE:
	case LR_CLIENT_ERROR:
		t->state = LR_VTS_ENDING;
		/* close once a snapshot taken after the end is in (CSV, verdict), or give up
		 * waiting for a slow interval */
		grace = d->app.interval_ns + 100 * LR_NSEC_PER_MSEC;
		if (grace > FINAL_TICK_MAX_NS)
			grace = FINAL_TICK_MAX_NS;
		if (d->last_snap_mono_ns >= t->ses.done_ns || now >= t->ses.done_ns + grace)
			tr_finish(d);
		break;
	}
	return t->state != old;
}

static void tr_key(struct dash *d, enum lr_action act)
{
	struct traffic *t = &d->tr;
	char msg[LR_APP_MSG_MAX + 32];
	enum lr_traffic_change ch;
	bool running = lr_session_active(&t->ses);

	if (act == LR_ACT_TRAFFIC_TOGGLE) {
		if (running) {
			tr_stop(d, true, false);
			tmsg(d, false, "stopping the test");
		} else if (t->ses.client) {	/* ended, closing: start again right after */
			t->restart = true;
			tmsg(d, false, "starting a new test");
		} else {
			tr_start(d);
			if (t->ses.client)
				tmsg(d, false, "starting: %s x%u to %s", t->knobs.udp ? "UDP" : "TCP",
				     t->knobs.parallel, t->view.host);
		}
		return;
	}
	ch = lr_app_traffic_key(&t->knobs, act, tr_measured(d), running, tr_live(t), msg,
				sizeof(msg));
	t->view.knobs = t->knobs;
	if (ch == LR_TCHG_RATE && running && tr_live(t))
		lr_session_set_rate(&t->ses, t->knobs.rate_bps);
	else if (ch != LR_TCHG_NONE && running)
		tr_stop(d, false, true);
	tmsg(d, false, "%s", msg);
}

/* -c HOST or --demo: the server (demo), the route interface, the session. 0 or -errno
 * (d->fatal says why). The first test starts once the source runs. */
static int tr_setup(struct dash *d)
{
	const struct lr_config *cfg = d->cfg;
	struct traffic *t = &d->tr;
	int err;

	if (!cfg->traffic.host && !cfg->traffic.demo)
		return 0;
	if (cfg->traffic.demo) {
		err = lr_demo_open(&t->demo);
		if (err) {
			snprintf(d->fatal, sizeof(d->fatal),
				 "--demo: cannot listen on %s ports %d-%d: %s", LR_DEMO_HOST,
				 LR_DEMO_PORT_FIRST, LR_DEMO_PORT_LAST, strerror(-err));
			return err;
		}
		lr_demo_traffic(t->demo, &cfg->traffic, &t->base);
		lr_strlcpy(t->iface, LR_DEMO_IFACE, sizeof(t->iface));
	} else {
		t->base = cfg->traffic;
		err = lr_route_iface(t->base.host, t->iface, sizeof(t->iface));
		if (err) {
			t->iface[0] = '\0';
			lr_log(LR_LOG_WARN, "no route interface for %s: %s", t->base.host,
			       strerror(-err));
		}
	}
	if (lr_session_init(&t->ses, NULL, t->iface)) {
		snprintf(d->fatal, sizeof(d->fatal), "out of memory");
		return -ENOMEM;
	}
	t->on = true;
	t->duration_ns = cfg->duration_set && cfg->duration_ns ? cfg->duration_ns : UNTIL_STOPPED_NS;
	t->knobs.udp = t->base.udp;
	t->knobs.reverse = t->base.reverse;
	t->knobs.bidir = t->base.bidir;
	t->knobs.parallel = t->base.parallel ? t->base.parallel : 1;
	t->knobs.rate_bps = t->base.bitrate_bps;
	t->knobs.length = t->base.length;
	t->state = LR_VTS_IDLE;
	t->view.host = t->base.host;
	t->view.port = t->base.port;
	t->view.iface = t->iface;
	t->view.knobs = t->knobs;
	d->app.traffic = true;
	d->ctx.streams_pane = lr_view_streams;
	d->ctx.streams_arg = &t->view;
	return 0;
}

static void tr_update_view(struct dash *d)
{
	struct traffic *t = &d->tr;
	const struct lr_session *ses = &t->ses;
	uint64_t now = lr_clock_mono_ns();

	t->view.state = t->state;
	t->view.knobs = t->knobs;
	t->view.error = t->state == LR_VTS_ERROR ? ses->error : NULL;
	t->view.duration_s = t->duration_ns == UNTIL_STOPPED_NS ? 0 : (double)t->duration_ns / 1e9;
	if (ses->running_ns)
		t->view.elapsed_s =
			(double)((ses->done_ns ? ses->done_ns : now) - ses->running_ns) / 1e9;
	else
		t->view.elapsed_s = -1;
}

/* Quit or a signal: stop the test (the peer is told), wait for its end. */
static void tr_shutdown_client(struct dash *d)
{
	if (!lr_session_shutdown(&d->tr.ses, STOP_WAIT_NS))
		lr_log(LR_LOG_WARN, "the traffic client did not stop within 2 s");
}

static void tr_close(struct dash *d)
{
	struct traffic *t = &d->tr;

	lr_session_free(&t->ses);
	lr_demo_close(t->demo);
	t->demo = NULL;
}

static void apply_requests(struct dash *d)
{
	struct lr_app *app = &d->app;

	if (app->requests & LR_REQ_INTERVAL)
		lr_snapsrc_set_interval(d->src, app->interval_ns);
	if (app->requests & LR_REQ_RESET)
		lr_snapsrc_reset_totals(d->src);
	if (app->requests & LR_REQ_THEME) {
		bool colour = load_theme(d);

		/* one message, kept against info logs: the theme's name, and why it looks mono */
		if (d->theme_err[0] == '\0' || strcmp(d->theme.name, "default"))
			tmsg(d, false, "theme %s%s", d->theme.name, colour ? "" : " (mono: no colours)");
	}
	if (app->requests & LR_REQ_REDRAW)
		lr_tui_invalidate(d->tui);
	if ((app->requests & LR_REQ_TRAFFIC) && d->tr.on)
		tr_key(d, app->traffic_action);
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
			changed = true;
		}
	}
	if (d->app.msg_seq != d->app_msg_seq) {
		d->app_msg_seq = d->app.msg_seq;
		lr_strlcpy(d->status, d->app.msg, sizeof(d->status));
		d->ctx.status_is_error = false;
		d->sticky_until_ns = 0;
		changed = true;
	}
	return changed;
}

static void render(struct dash *d)
{
	int w, h;

	lr_tui_size(d->tui, &w, &h);
	if (lr_frame_resize(&d->frame, w, h))
		return;
	d->ctx.snap = d->have_shown ? &d->shown : NULL;
	d->ctx.theme_name = d->theme.name;
	if (d->tr.on)
		tr_update_view(d);
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

	if (timeout > 0)
		poll(&pfd, 1, timeout);	/* a key, the tick's time, or a signal (EINTR) */
	else
		lr_snapsrc_wait(d->src, d->seen, LATE_WAIT_NS);	/* the tick is due: wait for it */
	while (lr_tui_read_key(d->tui, &act)) {
		dirty |= lr_app_handle(&d->app, act);
		if (d->have_shown)
			lr_app_sync(&d->app, &d->shown);
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
		lr_session_sample(&d->tr.ses, &d->fresh);
		/* -t without traffic: stop with the tick that reaches it, as headless does (with
		 * traffic, -t is the test's length, iperf3's meaning) */
		if (d->cfg->duration_set && d->cfg->duration_ns && !d->tr.on &&
		    d->fresh.elapsed_ns + d->fresh.target_interval_ns / 2 >= d->cfg->duration_ns)
			d->app.quit = true;
		if (!d->app.paused) {
			if (lr_snapshot_copy(&d->shown, &d->fresh) == 0) {
				d->have_shown = true;
				lr_app_sync(&d->app, &d->shown);
				dirty = true;
			}
		}
	} else if (ms_to_next_tick(d, *last_mono_ns) == 0 &&
		   lr_clock_mono_ns() > *last_mono_ns + 2 * d->app.interval_ns) {
		/* no snapshot for two intervals (a stalled collector): do not spin */
		*last_mono_ns = lr_clock_mono_ns();
	}
	if (d->tr.on)
		dirty |= tr_poll(d);
	dirty |= update_status(d);
	return dirty;
}

static bool single_iface(const char *list)
{
	return list && list[0] && !strchr(list, ',');
}

int lr_run_dashboard(const struct lr_config *cfg)
{
	struct dash d;
	uint64_t last_mono_ns;
	int err;

	memset(&d, 0, sizeof(d));
	d.cfg = cfg;
	d.rc = 1;
	setlocale(LC_CTYPE, "");	/* never LC_ALL: CSV numbers keep their '.' */
	lr_snapshot_init(&d.fresh);
	lr_snapshot_init(&d.shown);
	lr_frame_init(&d.frame);
	if (tr_setup(&d))
		goto out;
	/* with traffic, the detail view of the interface the test leaves by */
	lr_app_init(&d.app, cfg->interval_ns, 1,
		    single_iface(cfg->ifaces) ? cfg->ifaces : d.tr.iface[0] ? d.tr.iface : NULL);
	d.app.traffic = d.tr.on;
	setup_themes(&d);
	if (gethostname(d.host, sizeof(d.host) - 1))
		d.host[0] = '\0';
	d.ctx.app = &d.app;
	d.ctx.host = d.host;
	d.ctx.status_msg = d.status;
	d.ctx.ascii = cfg->ascii || !lr_tui_utf8();

	if (open_csv(&d) || open_metrics(&d))
		goto out;
	err = lr_snapsrc_open(&d.src, cfg);
	if (!err)
		err = lr_snapsrc_start(d.src);
	if (err) {
		snprintf(d.fatal, sizeof(d.fatal), "cannot start sampling: %s", strerror(-err));
		goto out;
	}
	d.tr.ses.src = d.src;
	err = lr_tui_open(&d.tui);
	if (err) {
		snprintf(d.fatal, sizeof(d.fatal), "cannot use the terminal: %s%s", strerror(-err),
			 err == -ENOTTY ? " (use --headless for scripts)" : "");
		goto out;
	}
	load_theme(&d);
	d.rc = 0;
	last_mono_ns = lr_clock_mono_ns();
	if (d.tr.on && !cfg->traffic.no_start)
		tr_start(&d);
	else if (d.tr.on)
		tmsg(&d, false, "--no-start: s starts the test");
	update_status(&d);
	render(&d);
	while (!lr_stop_signal && !d.app.quit && d.rc == 0) {
		if (step(&d, &last_mono_ns))
			render(&d);
	}
	lr_tui_close(d.tui);	/* the terminal first: nothing below may leave it raw */
	d.tui = NULL;
	if (d.tr.ses.client) {
		/* a test mid-run: stop it (the peer is told), then one last reading closes the
		 * books of the CSVs, as a headless run does */
		tr_shutdown_client(&d);
		if (d.rc == 0 && lr_snapsrc_stop(d.src, true) == 0 &&
		    lr_snapsrc_read(d.src, &d.fresh, &d.seen) > 0 && write_csv(&d, &d.fresh))
			d.rc = 1;
		tr_close(&d);
	} else if (lr_snapsrc_stop(d.src, false) == 0 && d.rc == 0 && lr_stop_signal &&
		   lr_snapsrc_read(d.src, &d.fresh, &d.seen) > 0 && write_csv(&d, &d.fresh)) {
		/* a signal: the snapshot in flight is part of the CSV run */
		d.rc = 1;
	}
out:
	lr_tui_close(d.tui);
	tr_shutdown_client(&d);
	tr_close(&d);
	lr_snapsrc_close(d.src);
	lr_metrics_http_close(d.metrics);
	if (close_csv(&d))
		d.rc = 1;
	lr_snapshot_free(&d.fresh);
	lr_snapshot_free(&d.shown);
	lr_frame_free(&d.frame);
	if (d.theme_err[0])
		fprintf(stderr, "linerate: %s (used the default theme)\n", d.theme_err);
	if (d.fatal[0])
		fprintf(stderr, "linerate: %s\n", d.fatal);
	return d.rc;
}
