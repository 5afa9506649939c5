// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate -s`: the iperf3-compatible server until a signal (or, with -1, one test). Prints
 * iperf3's banner; the engine logs each test. Without a dashboard (server_app.h), the server
 * runs on a thread of its own (signals blocked there; the main thread sees them and stops
 * it) while the main thread pumps the sampler into the CSVs and prints iperf3's server
 * lines; the watch lends the incoming streams to the sampler.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "linerate/app/config.h"
#include "linerate/app/rr_app.h"
#include "linerate/run/peer.h"
#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/app/run.h"
#include "linerate/app/server_app.h"
#include "linerate/present/iperf3_out.h"
#include "linerate/present/iperf3_server_text.h"
#include "linerate/run/sampling.h"
#include "linerate/run/server_watch.h"
#include "linerate/traffic/traffic.h"

/* ---- the server beside the main thread: the watch, the CSVs, iperf3's lines ---- */

#define POLL_NS (50 * LR_NSEC_PER_MSEC)

struct lr_server_app {
	const struct lr_config *cfg;
	struct lr_server_watch *watch;
	struct lr_sampling *smp; /* NULL: no CSV asked for */
	struct lr_server *srv;
	pthread_t thread;
	bool started;
	int rc;
	atomic_bool done;
};

bool lr_server_app_dashboard(const struct lr_config *cfg)
{
	return !cfg->headless;	/* cli.c: also -J, --logfile, -T, -D, or no terminal */
}

const char *lr_server_app_unused(const struct lr_config *cfg, bool dash, char *why, size_t len)
{
	bool rec = lr_config_csv_named(cfg);
	const char *o = NULL;

	if (dash)
		return NULL;
	if (cfg->theme || cfg->ascii) {
		o = cfg->theme ? "--theme" : "--ascii";
		snprintf(why, len,
			 "%s: -s prints iperf3's lines here (--headless, -J, --logfile, or no "
			 "terminal): only the dashboard draws",
			 o);
	} else if (!rec &&
		   (cfg->ifaces || cfg->source != LR_SOURCE_NETLINK || cfg->procfs || cfg->sysfs)) {
		o = cfg->ifaces	  ? "-I"
		    : cfg->procfs ? "--procfs"
		    : cfg->sysfs  ? "--sysfs"
				  : "--source";
		snprintf(why, len,
			 "%s: -s without the dashboard samples only for --csv, --cpu-csv or "
			 "--streams-csv",
			 o);
	}
	return o;
}

int lr_server_app_open(struct lr_server_app **out, const struct lr_config *cfg, bool record)
{
	struct lr_server_app *a = calloc(1, sizeof(*a));
	int err;

	if (!a)
		return -ENOMEM;
	a->cfg = cfg;
	atomic_init(&a->done, false);
	err = lr_server_watch_open(&a->watch);
	if (!err && record && (cfg->csv || cfg->cpu_csv || cfg->streams_csv)) {
		err = lr_config_sampling_open(&a->smp, cfg, false); /* reports its errors */
		if (!err)
			lr_server_watch_set_snapsrc(a->watch, lr_sampling_snapsrc(a->smp));
	}
	if (err) {
		lr_server_app_close(a);
		return err;
	}
	*out = a;
	return 0;
}

const struct lr_server_test_hooks *lr_server_app_hooks(struct lr_server_app *a)
{
	return lr_server_watch_hooks(a->watch);
}

static void *server_thread(void *arg)
{
	struct lr_server_app *a = arg;

	a->rc = lr_server_run(a->srv);
	atomic_store(&a->done, true);
	return NULL;
}

int lr_server_app_start(struct lr_server_app *a, struct lr_server *s)
{
	sigset_t all, old;
	int rc;

	a->srv = s;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&a->thread, NULL, server_thread, a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	a->started = rc == 0;
	return -rc;
}

bool lr_server_app_done(struct lr_server_app *a)
{
	return !a->started || atomic_load(&a->done);
}

int lr_server_app_stop(struct lr_server_app *a)
{
	if (!a->started)
		return 0;
	lr_server_stop(a->srv);
	pthread_join(a->thread, NULL);
	a->started = false;
	return a->rc;
}

struct lr_server_watch *lr_server_app_watch(struct lr_server_app *a)
{
	return a->watch;
}

/* The newest read of the server's test, then what of it is due on the text. */
static int poll_text(struct lr_server_text *tx, struct lr_server_watch *w,
		     struct lr_server_test_view *v)
{
	lr_server_watch_read(w, v);
	return lr_server_text_poll(tx, v);
}

int lr_server_app_run(struct lr_server_app *a, struct lr_server *s, FILE *text)
{
	struct lr_server_test_view *v = lr_server_watch_view_new();
	struct lr_server_text *tx = NULL;
	bool stopping = false, gone = false;
	char banner[256];
	int err = 0, rc;

	/* iperf3 -s says it listens again after each test (not with -1: it exits) */
	snprintf(banner, sizeof(banner),
		 "-----------------------------------------------------------\n"
		 "Server listening on %u (linerate, iperf3 protocol)\n"
		 "-----------------------------------------------------------\n",
		 lr_server_port(s));
	if (!v || (text && lr_server_text_open(&tx, text,
					       a->cfg->interval_set ? a->cfg->interval_ns : 0,
					       a->cfg->format,
					       a->cfg->traffic.one_off ? NULL : banner))) {
		free(v);
		return -ENOMEM;
	}
	if (a->cfg->json_stream)	/* iperf3's events on text, instead of its lines */
		lr_server_text_set_json_stream(tx, &a->cfg->traffic);
	lr_server_watch_set_reader(a->watch, tx != NULL);
	if (a->smp && lr_sampling_start(a->smp)) {
		lr_server_text_close(tx);
		free(v);
		return -EIO;
	}
	rc = lr_server_app_start(a, s);
	if (rc) {
		lr_server_text_close(tx);
		free(v);
		return rc;
	}
	while (!lr_server_app_done(a)) {
		if (lr_stop_signal && !stopping) {
			lr_server_stop(s);
			stopping = true;
			lr_server_text_set_after(tx, NULL); /* it will not listen again */
		}
		uint64_t now = lr_clock_mono_ns(), due = lr_server_text_next_ns(tx);
		uint64_t wait = due <= now ? 0 : due - now < POLL_NS ? due - now : POLL_NS;

		if (a->smp && !err && !gone) {
			int got = lr_sampling_pump(a->smp, wait);

			/* reported; stop serving rather than lose rows. The CSV's reader gone
			 * (`--csv - | head`) is the end of the run, not an error. */
			if (got < 0) {
				gone = got == -EPIPE;
				err = gone ? 0 : -EIO;
				lr_server_stop(s);
				stopping = true;
			}
		} else if (wait) {
			(void)lr_clock_sleep_until(now + wait);
		}
		if (tx && poll_text(tx, a->watch, v) < 0)
			tx = (lr_server_text_close(tx), NULL); /* stdout gone: serve on */
	}
	rc = lr_server_app_stop(a);
	if (tx)
		(void)poll_text(tx, a->watch, v); /* a test that ended with the server */
	lr_server_text_close(tx);
	free(v);
	if (a->smp && !err && !gone && lr_sampling_finish(a->smp, true) < 0)
		err = -EIO;
	return err ? err : rc;
}

int lr_server_app_close(struct lr_server_app *a)
{
	int rc;

	if (!a)
		return 0;
	lr_server_app_stop(a);
	lr_server_watch_close(a->watch);
	rc = lr_sampling_close(a->smp);
	free(a);
	return rc;
}

/* ---- the mode ---- */

struct report_ctx {
	const struct lr_config *cfg;
	const struct lr_output *out;	/* NULL: print nothing (the dashboard, or text mode,
					 * whose lines server_app prints as the test runs) */
	pthread_mutex_t lock;	/* one test's report at a time */
};

/* The interval's per-stream counts in the server's terms (sender = the server sends). */
static unsigned interval_streams(const struct lr_server_report *r, unsigned k,
				 struct lr_iperf3_interval *st)
{
	const struct lr_traffic_results *R = r->res;
	const struct lr_server_interval *iv = &r->iv[k];

	for (unsigned i = 0; i < R->n_streams; i++)
		st[i] = (struct lr_iperf3_interval){
			.id = R->streams[i].id,
			.sender = !R->streams[i].client_sends,
			.udp = R->udp,
			.omitted = iv->omitted,
			.bytes = iv->bytes[i],
			.retransmits = iv->retransmits[i],
			.lost = iv->lost[i],
			.packets = iv->packets ? iv->packets[i] : 0,
			.jitter_s = iv->jitter_s ? iv->jitter_s[i] : 0,
			.tcp = iv->tcp ? iv->tcp[i] : (struct lr_tcp_sample){0},
		};
	return R->n_streams;
}

static json_t *report_json(const struct report_ctx *x, const struct lr_server_report *r,
			   struct lr_iperf3_interval *st)
{
	struct lr_traffic_config tc = x->cfg->traffic;
	json_t *arr = json_array(), *j, *start, *acc;

	for (unsigned k = 0; arr && k < r->n_intervals; k++) {
		unsigned n = interval_streams(r, k, st);

		for (unsigned i = 0; i < n; i++)
			st[i].server = true;	/* --bidir's "sum" is the client's sending */
		json_array_append_new(arr, lr_iperf3_json_interval(r->iv[k].start_s, r->iv[k].end_s,
								   st, n));
	}
	tc.host = r->res->remote_host;
	tc.omit_s = r->omit_s;
	j = lr_iperf3_json(&tc, r->res, arr, r->error);
	if (r->error && !r->have_end)	/* iperf3: an end it never reached is {} */
		json_object_set_new(j, "end", json_object());
	start = json_object_get(j, "start");
	if (!r->started) {	/* refused at its parameters: iperf3 knows only these */
		json_t *keep = json_pack("{s:o,s:O,s:O}", "connected", json_array(), "version",
					 json_object_get(start, "version"), "system_info",
					 json_object_get(start, "system_info"));

		if (keep && r->res->bitrate_bps)	/* the client's -b, as it sent it */
			json_object_set_new(keep, "target_bitrate",
					    json_integer((json_int_t)r->res->bitrate_bps));
		json_object_set_new(j, "start", keep ? keep : json_object());
	} else {
		/* a server was not connecting: iperf3 -s says whom it accepted */
		json_object_del(start, "connecting_to");
		acc = json_pack("{s:s,s:i}", "host", r->res->remote_host, "port",
				r->res->remote_port);
		if (acc)
			json_object_set_new(start, "accepted_connection", acc);
	}
	if (x->cfg->title)
		json_object_set_new(j, "title", json_string(x->cfg->title));
	if (r->res->rr.on)	/* --rr: the transactions this end answered (no round trips) */
		lr_rr_app_report(NULL, j, r->res->remote_host, r->res, &(struct lr_rr_cpu){0},
				 &(struct lr_rr_cpu){0});
	return j;
}

static char *report_text(const struct report_ctx *x, const struct lr_server_report *r,
			 struct lr_iperf3_interval *st)
{
	char *buf = NULL, *done;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "Accepted connection from %s, port %u\n", r->res->remote_host,
		r->res->remote_port);
	for (unsigned k = 0; k < r->n_intervals; k++)
		lr_iperf3_print_interval(f, r->iv[k].start_s, r->iv[k].end_s, st,
					 interval_streams(r, k, st), x->cfg->format);
	lr_iperf3_print_summary(f, r->res, x->cfg->format, x->cfg->verbose);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	done = strstr(buf, "\nlinerate Done.\n");	/* the client's last words, not a server's */
	if (done)
		done[1] = '\0';
	return buf;
}

/* [session thread] iperf3 -s's report of each test at its end: with -J one JSON document on
 * stdout, with an "error" when the test failed; the text or JSON goes to the client when it
 * asked (--get-server-output). */
static char *server_report(void *arg, const struct lr_server_report *r, bool *json)
{
	struct report_ctx *x = arg;
	struct lr_iperf3_interval *st = calloc(r->res->n_streams + 1, sizeof(*st));
	char *text = NULL;

	if (!st)
		return NULL;
	*json = x->cfg->json;
	pthread_mutex_lock(&x->lock);
	if (x->cfg->json) {
		json_t *j = report_json(x, r, st);

		if (j && x->out && !x->cfg->json_stream) {	/* else server_text's events */
			json_dumpf(j, x->out->json, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			fputc('\n', x->out->json);
			fflush(x->out->json);
		}
		if (j && r->want_output)
			text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(j);
	} else if (r->want_output) {	/* the live lines are server_app's; this is the client's */
		text = report_text(x, r, st);
	}
	pthread_mutex_unlock(&x->lock);
	free(st);
	return text;
}


int lr_run_server(const struct lr_config *cfg)
{
	const struct lr_traffic_config *tc = &cfg->traffic;
	struct lr_server_opts o = {
		.bind = tc->bind,
		.bind_dev = tc->bind_dev[0] ? tc->bind_dev : NULL,
		.mptcp = tc->mptcp,
		.port = tc->port,
		.one_off = tc->one_off,
		.pin = tc->affinity >= 0,
		.cpu = tc->affinity,
		.pin_set = tc->affinity_node >= 0,
		.cpus = tc->affinity_cpus,
		.no_gso = tc->no_gso,
		.rcv_timeout_ms = tc->rcv_timeout_ms,
		.snd_timeout_ms = tc->snd_timeout_ms,
		.interval_ns = cfg->interval_set ? cfg->interval_ns : 0,
		.idle_timeout_s = tc->idle_timeout_s,
		.rate_limit_bps = tc->server_rate_limit_bps,
		.rate_limit_ms = tc->server_rate_limit_ms,
		.max_duration_s = tc->server_max_duration_s,
		.file = tc->file,
		.auth = tc->auth,	/* --rsa-private-key-path etc.: checked by the CLI */
		/* no should_stop: the server runs on its own thread and the main thread, which
		 * sees the signals, stops it (mode_server.c, dash_server.c) */
	};
	struct lr_server *s;
	struct lr_server_app *app;
	struct lr_peer_server *peer = NULL;
	struct lr_output out;
	struct report_ctx rx = {.cfg = cfg};
	int rc;

	/* the peer view (docs/wire.md, part 2): offered to linerate clients unless --no-peer-stats */
	if (!tc->no_peer_stats && lr_peer_server_open(&peer) == 0)
		o.peer = lr_peer_server_hooks(peer);

	/* on a terminal the dashboard, else each test's lines and the CSVs (mode_server.c) */
	bool dash = lr_server_app_dashboard(cfg);
	char why[200];

	if (lr_server_app_unused(cfg, dash, why, sizeof(why))) {
		fprintf(stderr, "linerate: %s (see linerate --help)\n", why);
		lr_peer_server_close(peer);
		return 2;
	}
	rc = lr_server_app_open(&app, cfg, !dash);
	if (rc) {
		lr_peer_server_close(peer);
		return lr_config_sampling_status(cfg, rc);
	}
	o.watch = lr_server_app_hooks(app);
	lr_log_set_echo(LR_LOG_INFO);
	unsigned logged = lr_log_errors_echoed();

	rc = lr_server_open(&s, &o);
	if (rc < 0) {
		lr_server_app_close(app);
		if (lr_log_errors_echoed() == logged)	/* else the cause is on stderr already */
			fprintf(stderr, "linerate: cannot listen on port %u: %s\n",
				tc->port ? tc->port : 5201u, strerror(-rc));
		lr_peer_server_close(peer);
		return 1;
	}
	pthread_mutex_init(&rx.lock, NULL);
	lr_server_set_report(s, server_report, &rx);	/* --get-server-output, -J */
	if (dash) {
		rc = lr_run_dashboard_server(cfg, app, s);
		pthread_mutex_destroy(&rx.lock);
		lr_server_app_stop(app);
		lr_server_close(s);
		lr_server_app_close(app);
		lr_peer_server_close(peer);
		return rc;
	}
	if (lr_output_open(&out, cfg)) {
		pthread_mutex_destroy(&rx.lock);
		lr_server_close(s);
		lr_server_app_close(app);
		lr_peer_server_close(peer);
		return 1;
	}
	/* --logfile takes everything, as iperf3's: the engine's lines (stderr) go there too */
	if (out.file && dup2(fileno(out.file), STDERR_FILENO) < 0)
		fprintf(stderr, "linerate: --logfile: %s\n", strerror(errno));
	rx.out = &out;	/* the server's thread starts in lr_server_app_run: after this */
	if (!cfg->json)
		fprintf(out.text, "-----------------------------------------------------------\n"
			"Server listening on %u (linerate, iperf3 protocol)\n"
			"-----------------------------------------------------------\n",
			lr_server_port(s));
	fflush(out.text);
	/* -J: one JSON document per test from server_report, no live lines; --json-stream:
	 * server_text's events as the test runs */
	rc = lr_server_app_run(app, s,
			       cfg->json_stream ? out.json : cfg->json ? NULL : out.text);
	lr_server_close(s);
	pthread_mutex_destroy(&rx.lock);
	if (lr_server_app_close(app) && rc >= 0)
		rc = -EIO;
	lr_peer_server_close(peer);
	if (rc < 0 && rc != -EIO)
		fprintf(stderr, "linerate: server failed: %s\n", strerror(-rc));
	if (lr_output_close(&out, cfg))
		rc = -EIO;
	return rc < 0 ? 1 : 0;
}
