// SPDX-License-Identifier: GPL-2.0-or-later
/* `linerate -s`: the iperf3-compatible server on the main thread until a signal (or, with -1,
 * one test). Prints iperf3's banner; the engine logs each test. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "linerate/app/config.h"
#include "linerate/app/output.h"
#include "linerate/run/peer.h"
#include "linerate/core/log.h"
#include "linerate/app/run.h"
#include "linerate/app/server_app.h"
#include "linerate/present/iperf3_out.h"
#include "linerate/traffic/traffic.h"

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
	j = lr_iperf3_json(&tc, r->res, arr, NULL);
	start = json_object_get(j, "start");
	/* a server was not connecting: iperf3 -s says whom it accepted */
	json_object_del(start, "connecting_to");
	acc = json_pack("{s:s,s:i}", "host", r->res->remote_host, "port", r->res->remote_port);
	if (acc)
		json_object_set_new(start, "accepted_connection", acc);
	if (x->cfg->title)
		json_object_set_new(j, "title", json_string(x->cfg->title));
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
	lr_iperf3_print_summary(f, r->res, x->cfg->format);
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
 * stdout; the text or JSON goes to the client when it asked (--get-server-output). */
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
		.rate_limit_s = tc->server_rate_limit_s,
		.auth = tc->auth,	/* --rsa-private-key-path etc.: checked by the CLI */
		/* no should_stop: the server runs on its own thread and the main thread, which
		 * sees the signals, stops it (server_app.c, dash_server.c) */
	};
	struct lr_server *s;
	struct lr_server_app *app;
	struct lr_peer_server *peer = NULL;
	struct lr_output out;
	struct report_ctx rx = {.cfg = cfg};
	int rc;

	/* the peer view (docs/peer-stats.md): offered to linerate clients unless --no-peer-stats */
	if (!tc->no_peer_stats && lr_peer_server_open(&peer) == 0)
		o.peer = lr_peer_server_hooks(peer);

	/* on a terminal the dashboard, else each test's lines and the CSVs (server_app.c) */
	bool dash = lr_server_app_dashboard(cfg);
	char why[200];

	if (lr_server_app_unused(cfg, dash, why, sizeof(why))) {
		fprintf(stderr, "linerate: %s (see linerate --help)\n", why);
		lr_peer_server_close(peer);
		return 2;
	}
	if (lr_server_app_open(&app, cfg, !dash)) {
		lr_peer_server_close(peer);
		return 1;
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
