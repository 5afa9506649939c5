// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate --replay FILE...`: the dashboard's views driven by a recording. The CSVs are read
 * (bad input: one "file:line: why" line, exit 2, before the terminal is taken), the replay
 * becomes the snapshot source (snapsrc.c), and this loop waits for a key or the next recorded
 * tick, renders the same views as live and blits them. Keys that mean something else here:
 * p pauses the playback, +/- set the speed (x1/2 .. x16), [ ] seek 10 s, and so do the arrows
 * while paused; the traffic keys only say that a replay has none. The end of the recording
 * stays on screen until q. Main thread only; the terminal is restored on every exit. [app]
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linerate/app/config.h"
#include "linerate/run/replay.h"
#include "linerate/app/run.h"
#include "linerate/run/snapsrc.h"
#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"
#include "linerate/present/ui.h"
#include "linerate/present/frame.h"
#include "linerate/present/theme.h"
#include "linerate/present/tui.h"
#include "linerate/present/view.h"
#include "linerate/diagnose/matrix_row.h"
#include "linerate/present/view_matrix.h"
#include "linerate/sample/snapshot.h"

#define MAX_THEMES 32
#define MAX_POLL_MS 250
#define KEY_MSG_NS (3 * LR_NSEC_PER_SEC)

struct replay_ui {
	const struct lr_config *cfg;
	struct lr_snapsrc *src;
	struct lr_replay *rp;	/* owned by src */
	struct lr_tui *tui;
	struct lr_snapshot shown;
	bool have_shown;
	uint64_t seen;
	struct lr_ui app;
	struct lr_frame frame;
	struct lr_view_ctx ctx;
	struct lr_view_traffic traffic;	/* the Streams pane, when the recording has streams */
	struct lr_matrix_progress mview;	/* the Matrix pane in its place, with a matrix CSV */
	char mname[64];
	char themes[MAX_THEMES][LR_THEME_NAME_MAX];
	size_t n_themes;
	struct lr_theme theme;
	char key_msg[LR_LOG_MSG_MAX];
	uint64_t key_msg_until_ns, log_seen;
	char status[LR_LOG_MSG_MAX + 80];
	char fatal[LR_THEME_ERR_MAX];
};

/* Reads every file into a new replay. 0, or the exit code (a message is on stderr). */
static int load(const struct lr_config *cfg, struct lr_replay **out)
{
	char err[512];
	struct lr_replay *rp;
	int rc;

	if (lr_replay_new(&rp)) {
		fprintf(stderr, "linerate: --replay: out of memory\n");
		return 1;
	}
	lr_replay_set_ifaces(rp, cfg->ifaces);
	for (int i = 0; i < cfg->n_report_files; i++) {
		const char *path = cfg->report_files[i];
		FILE *f = fopen(path, "re");

		if (!f) {
			fprintf(stderr, "linerate: %s: %s\n", path, strerror(errno));
			lr_replay_close(rp);
			return 2;
		}
		rc = lr_replay_add(rp, f, path, err, sizeof(err));
		fclose(f);
		if (rc) {
			fprintf(stderr, "linerate: %s\n", err);
			lr_replay_close(rp);
			return rc == -EINVAL ? 2 : 1;
		}
	}
	rc = lr_replay_start(rp, lr_clock_mono_ns(), err, sizeof(err));
	if (rc) {
		fprintf(stderr, "linerate: %s\n", rc == -EINVAL ? err : strerror(-rc));
		lr_replay_close(rp);
		return rc == -EINVAL ? 2 : 1;
	}
	*out = rp;
	return 0;
}

static void setup_themes(struct replay_ui *u)
{
	const char *want = u->cfg->theme ? u->cfg->theme : "default";
	size_t idx;

	u->n_themes = lr_theme_list(u->themes, MAX_THEMES);
	for (idx = 0; idx < u->n_themes; idx++)
		if (!strcmp(u->themes[idx], want))
			break;
	if (idx == u->n_themes) {	/* a path or an unlisted name: first */
		if (u->n_themes == MAX_THEMES)
			u->n_themes--;
		memmove(u->themes[1], u->themes[0], u->n_themes * sizeof(u->themes[0]));
		lr_strlcpy(u->themes[0], want, sizeof(u->themes[0]));
		u->n_themes++;
		idx = 0;
	}
	u->app.n_themes = u->n_themes;
	u->app.theme_idx = idx;
}

static void load_theme(struct replay_ui *u)
{
	char err[LR_THEME_ERR_MAX];

	if (lr_theme_load(&u->theme, u->themes[u->app.theme_idx], err, sizeof(err)) && err[0])
		lr_log(LR_LOG_ERR, "%s; default theme", err);
	if (u->tui)
		lr_tui_set_theme(u->tui, &u->theme);
}

static void key_msg(struct replay_ui *u, const char *msg)
{
	lr_strlcpy(u->key_msg, msg, sizeof(u->key_msg));
	u->key_msg_until_ns = lr_clock_mono_ns() + KEY_MSG_NS;
}

static const char *speed_name(int exp)
{
	static const char *const names[] = {"x1/2", "x1", "x2", "x4", "x8", "x16"};

	return names[exp - LR_REPLAY_SPEED_MIN];
}

/* A replay key; false when the key is the dashboard's own (the app handles it). */
static bool replay_key(struct replay_ui *u, enum lr_action act)
{
	uint64_t now = lr_clock_mono_ns();
	bool paused = lr_replay_paused(u->rp);

	switch (act) {
	case LR_ACT_PAUSE:
		lr_replay_set_paused(u->rp, !paused, now);
		key_msg(u, paused ? "playing" : "paused: [ ] or arrows seek 10 s");
		return true;
	case LR_ACT_FASTER:
	case LR_ACT_SLOWER: {
		int e = lr_replay_speed_step(u->rp, act == LR_ACT_FASTER ? 1 : -1, now);
		char m[32];

		snprintf(m, sizeof(m), "speed %s", speed_name(e));
		key_msg(u, m);
		return true;
	}
	case LR_ACT_NEXT_IFACE:
	case LR_ACT_PREV_IFACE:
		if (!paused)
			return false;	/* playing: the arrows pick the interface, as live */
		__attribute__((fallthrough));	/* paused, they seek */
	case LR_ACT_RATE_UP:
	case LR_ACT_RATE_DOWN: {
		bool fwd = act == LR_ACT_NEXT_IFACE || act == LR_ACT_RATE_UP;

		lr_replay_seek(u->rp, fwd ? LR_REPLAY_SEEK_S : -LR_REPLAY_SEEK_S, now);
		key_msg(u, fwd ? "seek +10 s" : "seek -10 s");
		return true;
	}
	case LR_ACT_TRAFFIC_TOGGLE:
	case LR_ACT_STREAMS_UP:
	case LR_ACT_STREAMS_DOWN:
	case LR_ACT_PROTO:
	case LR_ACT_REVERSE:
	case LR_ACT_VERDICT:
		key_msg(u, "a replay has no traffic keys (p + - [ ])");
		return true;
	case LR_ACT_RESET:
		lr_snapsrc_reset_totals(u->src);
		key_msg(u, "totals and peaks from here");
		return true;
	default:
		return false;
	}
}

static void apply_requests(struct replay_ui *u)
{
	if (u->app.requests & LR_REQ_THEME)
		load_theme(u);
	if (u->app.requests & LR_REQ_REDRAW)
		lr_tui_invalidate(u->tui);
	u->app.requests = 0;	/* interval, reset and traffic are replay keys here */
}

/* "14:02:11.3 +12.3/60.0 s x2 end": the recorded time shown, its place in the recording (and
 * its length, when there is room), the speed; then the newest key feedback or log message. */
static void update_status(struct replay_ui *u, int width)
{
	uint64_t now = lr_clock_mono_ns();
	double pos = lr_replay_pos(u->rp, now), first = lr_replay_first_time(u->rp);
	time_t sec = (time_t)floor(pos);
	struct lr_log_entry e[4];
	struct tm tm;
	char clock[64];
	size_t n;

	while ((n = lr_log_read(&u->log_seen, e, LR_ARRAY_SIZE(e))) > 0)
		for (size_t i = 0; i < n; i++)
			if (e[i].level >= LR_LOG_WARN)	/* a bad theme file, say */
				key_msg(u, e[i].msg);
	localtime_r(&sec, &tm);
	n = (size_t)snprintf(clock, sizeof(clock), "%02d:%02d:%02d.%d +%.1f", tm.tm_hour, tm.tm_min,
			     tm.tm_sec, (int)((pos - floor(pos)) * 10), pos - first);
	if (width >= 100)	/* the recording's length too; at 80 columns the speed and "end" first */
		n += (size_t)snprintf(clock + n, sizeof(clock) - n, "/%.1f",
				      lr_replay_last_time(u->rp) - first);
	snprintf(clock + n, sizeof(clock) - n, " s %s%s", speed_name(lr_replay_speed_exp(u->rp)),
		 lr_replay_at_end(u->rp, now) ? " end" : "");
	if (now < u->key_msg_until_ns)
		snprintf(u->status, sizeof(u->status), "%s  %s", clock, u->key_msg);
	else if (lr_replay_matrix_untimed(u->rp) && !lr_replay_last_time(u->rp))
		/* a matrix CSV alone: no clock to show, its rows have no time */
		lr_strlcpy(u->status, "matrix CSV alone: rows shown finished",
			   sizeof(u->status));
	else if (lr_replay_matrix_untimed(u->rp))	/* the pane's title says why */
		snprintf(u->status, sizeof(u->status), "%s  matrix: no times", clock);
	else
		lr_strlcpy(u->status, clock, sizeof(u->status));
}

static void update_traffic(struct replay_ui *u)
{
	struct lr_view_traffic *t = &u->traffic;
	double target = lr_replay_stream_target(u->rp);
	unsigned senders = 0;

	t->state = u->shown.n_streams ? LR_VTS_RUNNING : LR_VTS_DONE;
	t->host = "recorded";
	t->elapsed_s = (double)u->shown.elapsed_ns / 1e9;
	for (size_t i = 0; i < u->shown.n_streams; i++) {
		senders += u->shown.streams[i].sender;
		t->knobs.udp = u->shown.streams[i].udp;
	}
	if (u->shown.n_streams)
		t->knobs.parallel = senders ? senders : (unsigned)u->shown.n_streams;
	/* the recorded target_bps; an older streams CSV has none: never "unlimited" then */
	t->knobs.rate_bps = target > 0 ? (uint64_t)target : 0;
	t->rate_text = target == -2 ? "unrecorded" : target < 0 ? "unknown" : NULL;
}

static void render(struct replay_ui *u)
{
	int w, h;

	lr_tui_size(u->tui, &w, &h);
	if (lr_frame_resize(&u->frame, w, h))
		return;
	update_status(u, w);
	u->ctx.snap = u->have_shown ? &u->shown : NULL;
	u->ctx.peer = lr_replay_peer(u->rp, &u->ctx.peer_host);
	u->ctx.theme_name = u->theme.name;
	if (u->ctx.streams_arg == &u->traffic && u->have_shown)
		update_traffic(u);
	if (u->ctx.streams_arg == &u->mview)
		lr_replay_matrix_view(u->rp, lr_replay_pos(u->rp, lr_clock_mono_ns()), &u->mview,
				      u->mname, sizeof(u->mname));
	lr_view_render(&u->frame, &u->ctx);
	if (u->ctx.streams_arg == &u->mview && !(u->have_shown && u->shown.n_ifaces) &&
	    w >= LR_VIEW_MIN_W && h >= LR_VIEW_MIN_H) {
		/* no interface to hold the pane (a matrix CSV alone): the pane is the screen */
		struct lr_rect body = {0, 0, w, h - 1};

		lr_frame_fill(&u->frame, body, ' ', LR_ROLE_VALUE);
		lr_view_matrix(&u->frame, body, &u->ctx, &u->mview);
		if (u->app.help)
			lr_view_help(&u->frame, &u->ctx);
	}
	lr_tui_blit(u->tui, &u->frame);
}

/* One pass: wait for a key or the next tick, apply keys, read the tick due. */
static void step(struct replay_ui *u)
{
	struct pollfd pfd = {.fd = lr_tui_input_fd(u->tui), .events = POLLIN};
	uint64_t due = lr_replay_next_due_ns(u->rp, lr_clock_mono_ns());
	int timeout = due / LR_NSEC_PER_MSEC >= MAX_POLL_MS ? MAX_POLL_MS
							    : (int)(due / LR_NSEC_PER_MSEC) + 1;
	enum lr_action act;
	int r;

	poll(&pfd, 1, timeout);	/* a key, the tick's time, or a signal (EINTR) */
	while (lr_tui_read_key(u->tui, &act)) {
		if (!replay_key(u, act)) {
			lr_ui_handle(&u->app, act);
			if (u->have_shown)
				lr_ui_sync(&u->app, &u->shown);
			apply_requests(u);
		}
	}
	r = lr_snapsrc_read(u->src, &u->shown, &u->seen);
	if (r < 0) {
		snprintf(u->fatal, sizeof(u->fatal), "replay: %s", strerror(-r));
		u->app.quit = true;
		return;
	}
	if (r > 0) {
		u->have_shown = true;
		lr_ui_sync(&u->app, &u->shown);
		if (u->shown.target_interval_ns)	/* the status line's interval: the run's -i */
			u->app.interval_ns = u->shown.target_interval_ns;
	}
	u->app.paused = lr_replay_paused(u->rp);
}

int lr_run_replay(const struct lr_config *cfg)
{
	struct replay_ui u;
	struct lr_replay *rp;
	char host[80];
	int rc, err;

	memset(&u, 0, sizeof(u));
	u.cfg = cfg;
	setlocale(LC_CTYPE, "");
	rc = load(cfg, &rp);	/* before the terminal: errors go to stderr */
	if (rc)
		return rc;
	if (lr_snapsrc_open_replay(&u.src, rp)) {
		fprintf(stderr, "linerate: --replay: out of memory\n");
		return 1;
	}
	u.rp = rp;
	lr_snapshot_init(&u.shown);
	lr_frame_init(&u.frame);
	lr_ui_init(&u.app, 500 * LR_NSEC_PER_MSEC, 1, cfg->ifaces);
	setup_themes(&u);
	snprintf(host, sizeof(host), "%s", lr_replay_host(rp)[0] ? lr_replay_host(rp) : "recorded");
	u.ctx.app = &u.app;
	u.ctx.host = host;
	u.ctx.status_msg = u.status;
	u.ctx.ascii = cfg->ascii || !lr_tui_utf8();
	u.ctx.graph = lr_config_graph(cfg);
	if (lr_replay_matrix_rows(rp)) {	/* as live: the Matrix pane in the detail view */
		u.ctx.streams_pane = lr_view_matrix;
		u.ctx.streams_arg = &u.mview;
		u.app.view = LR_VIEW_DETAIL;
	} else if (lr_replay_has_streams(rp)) {
		u.ctx.streams_pane = lr_view_streams;
		u.ctx.streams_arg = &u.traffic;
	}
	rc = 1;
	err = lr_tui_open(&u.tui);
	if (err) {
		if (err == -ENOTTY) {	/* no headless form: bad usage here, as --demo's */
			snprintf(u.fatal, sizeof(u.fatal), "--replay needs a terminal on stdin and "
				 "stdout (--report writes HTML)");
			rc = 2;
		} else {
			snprintf(u.fatal, sizeof(u.fatal), "cannot use the terminal: %s",
				 strerror(-err));
		}
		goto out;
	}
	load_theme(&u);
	rc = 0;
	while (!lr_stop_signal && !u.app.quit) {
		step(&u);
		render(&u);	/* the clock on the status line moves between ticks too */
	}
out:
	lr_tui_close(u.tui);	/* the terminal first: nothing below may leave it raw */
	lr_snapsrc_close(u.src);
	lr_snapshot_free(&u.shown);
	lr_frame_free(&u.frame);
	if (u.fatal[0])
		fprintf(stderr, "linerate: %s\n", u.fatal);
	return rc;
}
