// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dashboard's run loop on the main thread: opens the board and the sampler, takes over
 * the terminal, then waits for a key or the next snapshot (poll on stdin with a timeout up to
 * the next tick: no busy loop), applies keys to the app state machine, writes CSV rows when
 * --csv/--cpu-csv are given (as headless does), renders views into a frame and blits it.
 * Every exit path restores the terminal before returning. [main]
 */
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linerate/app.h"
#include "linerate/board.h"
#include "linerate/clock.h"
#include "linerate/config.h"
#include "linerate/csv.h"
#include "linerate/frame.h"
#include "linerate/log.h"
#include "linerate/run.h"
#include "linerate/sampler.h"
#include "linerate/snapshot.h"
#include "linerate/strutil.h"
#include "linerate/theme.h"
#include "linerate/tui.h"
#include "linerate/view.h"

#define MAX_THEMES 32
#define MAX_POLL_MS 250		/* a signal also wakes poll; this only bounds the wait */
#define LATE_WAIT_NS (20 * LR_NSEC_PER_MSEC)
#define STICKY_ERR_NS (10 * LR_NSEC_PER_SEC)

struct dash {
	const struct lr_config *cfg;
	struct lr_board *board;
	struct lr_sampler *sampler;
	struct lr_tui *tui;
	struct lr_csv *csv_ifaces, *csv_cpus;
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
	int rc;
};

static int open_csv(struct dash *d)
{
	const struct lr_config *cfg = d->cfg;
	int err;

	/* stdout is the screen: CSV to stdout is a headless thing */
	if ((cfg->csv && !strcmp(cfg->csv, "-")) || (cfg->cpu_csv && !strcmp(cfg->cpu_csv, "-"))) {
		fprintf(stderr, "linerate: CSV to stdout (-) needs --headless\n");
		return -EINVAL;
	}
	if (cfg->csv && (err = lr_csv_open(&d->csv_ifaces, cfg->csv, LR_CSV_IFACES))) {
		fprintf(stderr, "linerate: --csv %s: %s\n", cfg->csv, strerror(-err));
		return err;
	}
	if (cfg->cpu_csv && (err = lr_csv_open(&d->csv_cpus, cfg->cpu_csv, LR_CSV_CPUS))) {
		fprintf(stderr, "linerate: --cpu-csv %s: %s\n", cfg->cpu_csv, strerror(-err));
		return err;
	}
	return 0;
}

/* Every snapshot goes to CSV, paused or not; a write error ends the run with exit 1. */
static int write_csv(struct dash *d, const struct lr_snapshot *s)
{
	int err = 0;

	if (d->csv_ifaces && (err = lr_csv_write(d->csv_ifaces, s)))
		snprintf(d->fatal, sizeof(d->fatal), "writing %s: %s",
			 lr_csv_path(d->csv_ifaces), strerror(-err));
	else if (d->csv_cpus && (err = lr_csv_write(d->csv_cpus, s)))
		snprintf(d->fatal, sizeof(d->fatal), "writing %s: %s", lr_csv_path(d->csv_cpus),
			 strerror(-err));
	return err;
}

static int close_csv(struct dash *d)
{
	int e1 = lr_csv_close(d->csv_ifaces), e2 = lr_csv_close(d->csv_cpus);

	d->csv_ifaces = d->csv_cpus = NULL;
	if ((e1 || e2) && !d->fatal[0])
		snprintf(d->fatal, sizeof(d->fatal), "closing CSV: %s", strerror(-(e1 ? e1 : e2)));
	return e1 ? e1 : e2;
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

/* Loads theme app.theme_idx; a bad file is logged (file:line) and the default used. */
static void load_theme(struct dash *d)
{
	char err[LR_THEME_ERR_MAX];

	if (lr_theme_load(&d->theme, d->themes[d->app.theme_idx], err, sizeof(err)) && err[0]) {
		lr_log(LR_LOG_ERR, "%s; default theme", err);
		if (!d->theme_err[0])
			lr_strlcpy(d->theme_err, err, sizeof(d->theme_err));
	}
	if (d->tui && !lr_tui_set_theme(d->tui, &d->theme) && d->app.theme_idx)
		lr_log(LR_LOG_INFO, "no colours on this terminal (or NO_COLOR): theme %s is mono",
		       d->theme.name);
}

static void apply_requests(struct dash *d)
{
	struct lr_app *app = &d->app;

	if (app->requests & LR_REQ_INTERVAL)
		lr_sampler_set_interval(d->sampler, app->interval_ns);
	if (app->requests & LR_REQ_RESET)
		lr_sampler_reset_totals(d->sampler);
	if (app->requests & LR_REQ_THEME) {
		load_theme(d);
		if (d->theme_err[0] == '\0' || strcmp(d->theme.name, "default"))
			snprintf(d->status, sizeof(d->status), "theme %s", d->theme.name);
		d->ctx.status_is_error = false;
	}
	if (app->requests & LR_REQ_REDRAW)
		lr_tui_invalidate(d->tui);
	/* LR_REQ_TRAFFIC: the traffic engine (issue 5) takes app->traffic_action here */
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
	lr_view_render(&d->frame, &d->ctx);
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
		lr_board_wait(d->board, d->seen, LATE_WAIT_NS);	/* the tick is due: wait for it */
	while (lr_tui_read_key(d->tui, &act)) {
		dirty |= lr_app_handle(&d->app, act);
		if (d->have_shown)
			lr_app_sync(&d->app, &d->shown);
	}
	if (d->app.requests)
		apply_requests(d);
	r = lr_board_read(d->board, &d->fresh, &d->seen);
	if (r < 0) {
		snprintf(d->fatal, sizeof(d->fatal), "reading a snapshot: %s", strerror(-r));
		d->rc = 1;
		return false;
	}
	if (r > 0) {
		*last_mono_ns = d->fresh.mono_ns;
		if (write_csv(d, &d->fresh)) {
			d->rc = 1;
			return false;
		}
		/* -t without traffic: stop with the tick that reaches it, as headless does (with
		 * traffic, -t is the test's length, iperf3's meaning) */
		if (d->cfg->duration_set && d->cfg->duration_ns && !d->cfg->traffic.host &&
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
	dirty |= update_status(d);
	return dirty;
}

static bool single_iface(const char *list)
{
	return list && list[0] && !strchr(list, ',');
}

int lr_run_tui(const struct lr_config *cfg)
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
	lr_app_init(&d.app, cfg->interval_ns, 1, single_iface(cfg->ifaces) ? cfg->ifaces : NULL);
	setup_themes(&d);
	if (gethostname(d.host, sizeof(d.host) - 1))
		d.host[0] = '\0';
	d.ctx.app = &d.app;
	d.ctx.host = d.host;
	d.ctx.status_msg = d.status;
	d.ctx.ascii = cfg->ascii || !lr_tui_utf8();

	if (open_csv(&d))
		goto out;
	err = lr_board_open(&d.board);
	if (!err)
		err = lr_sampler_open(&d.sampler, cfg, d.board);
	if (!err)
		err = lr_sampler_start(d.sampler);
	if (err) {
		snprintf(d.fatal, sizeof(d.fatal), "cannot start sampling: %s", strerror(-err));
		goto out;
	}
	err = lr_tui_open(&d.tui);
	if (err) {
		snprintf(d.fatal, sizeof(d.fatal), "cannot use the terminal: %s%s", strerror(-err),
			 err == -ENOTTY ? " (use --headless for scripts)" : "");
		goto out;
	}
	load_theme(&d);
	d.rc = 0;
	last_mono_ns = lr_clock_mono_ns();
	update_status(&d);
	render(&d);
	while (!lr_stop_signal && !d.app.quit && d.rc == 0) {
		if (step(&d, &last_mono_ns))
			render(&d);
	}
	lr_tui_close(d.tui);	/* the terminal first: nothing below may leave it raw */
	d.tui = NULL;
	lr_sampler_close(d.sampler);	/* joins the thread: nothing publishes after this */
	d.sampler = NULL;
	/* a signal: the snapshot in flight is part of the CSV run */
	if (d.rc == 0 && lr_stop_signal && lr_board_read(d.board, &d.fresh, &d.seen) > 0 &&
	    write_csv(&d, &d.fresh))
		d.rc = 1;
out:
	lr_tui_close(d.tui);
	lr_sampler_close(d.sampler);
	lr_board_close(d.board);
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
