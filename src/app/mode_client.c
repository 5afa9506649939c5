// SPDX-License-Identifier: GPL-2.0-or-later
/* Headless `linerate -c`: one test session beside a sampling run (CSV files, the verdict's
 * snapshots), iperf3's per-second lines or -J intervals from the streams' live counters, then
 * iperf3's summary and linerate's verdict. Runs on the main thread; polls lr_stop_signal and,
 * when its lines go to stdout, whether stdout's reader has gone (`| head`: the test then ends
 * as on a signal, exit 0). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include <jansson.h>

#include "linerate/core/clock.h"
#include "linerate/app/config.h"
#include "linerate/app/rr_app.h"
#include "linerate/run/peer.h"
#include "linerate/diagnose/cycles.h"
#include "linerate/diagnose/expect.h"
#include "linerate/diagnose/peer_loss.h"
#include "linerate/diagnose/latency.h"
#include "linerate/present/peer_out.h"
#include "linerate/present/iperf3_out.h"
#include "linerate/present/cycles_out.h"
#include "linerate/present/ledger_csv.h"
#include "linerate/present/ledger_out.h"
#include "linerate/present/latency_out.h"
#include "linerate/present/verdict_out.h"
#include "linerate/core/log.h"
#include "linerate/collect/route.h"
#include "linerate/app/run.h"
#include "linerate/run/sampling.h"
#include "linerate/sample/csv.h"
#include "linerate/run/session.h"
#include "linerate/sample/snapshot.h"
#include "linerate/traffic/stream.h"

#define DEFAULT_TRAFFIC_NS (10 * LR_NSEC_PER_SEC)

/* Warnings of the engine and the sampler go to stderr (no status line here). */
static void drain_log(uint64_t *seen)
{
	struct lr_log_entry e[16];
	size_t n;

	while ((n = lr_log_read(seen, e, LR_ARRAY_SIZE(e))) > 0)
		for (size_t i = 0; i < n; i++)
			if (e[i].level == LR_LOG_WARN)
				fprintf(stderr, "linerate: warning: %s\n", e[i].msg);
}

/* iperf3's interval lines (text) or its "intervals" array (-J), from the streams' live atomics.
 * They cover the test from the streams' first counted byte (counting starts at 0 when a stream
 * starts), one every report interval, and the last one up to the streams' own end, so that
 * they add up to the end totals. */
struct intervals {
	uint64_t every_ns;		/* the report interval: -i when given, else iperf3's 1 s */
	uint64_t length_ns;		/* the nominal length (-t), 0: by count (-n, -k) */
	uint64_t t0_ns, next_ns, last_ns;
	uint64_t omit_end_ns;	/* -O: when the omitted seconds end nominally, 0 = done/none */
	unsigned n;
	uint64_t bytes[LR_PROTO_MAX_RESULTS], retr[LR_PROTO_MAX_RESULTS];
	uint64_t lost[LR_PROTO_MAX_RESULTS];
	uint64_t packets[LR_PROTO_MAX_RESULTS];	/* UDP: sent, or the receiver's sequence */
	/* -J: each TCP socket's TCP_INFO at the intervals' ends, summed up as iperf3's (only
	 * where this side sends: under -R iperf3's client reads none) */
	struct lr_tcp_path path[LR_PROTO_MAX_RESULTS];
	int path_id[LR_PROTO_MAX_RESULTS];
	struct lr_iperf3_interval st[LR_PROTO_MAX_RESULTS];
	json_t *arr; /* -J only */
	FILE *json_out; /* --json-stream's lines */
	bool stream_started; /* --json-stream: the start event went out */
	FILE *out; /* text lines */
	char unit; /* -f */
	const struct lr_config *cfg;
};

/* The interval due next ends the test (within a tenth of an interval of its nominal end): it
 * waits for the streams' own end, so the test's last bytes are in it rather than in a tail
 * interval of their own. iperf3 cuts its last interval at the test's end the same way. */
static bool intervals_last(const struct intervals *iv)
{
	return iv->length_ns && !iv->omit_end_ns &&
	       iv->next_ns + iv->every_ns / 10 >= iv->t0_ns + iv->length_ns;
}

/* How long the main loop may wait: 100 ms, less when the next interval line is due sooner. */
static uint64_t intervals_wait(const struct intervals *iv)
{
	uint64_t now = lr_clock_mono_ns(), w = 100 * LR_NSEC_PER_MSEC;

	if (iv->t0_ns && intervals_last(iv))
		;	/* the streams' end brings it */
	else if (iv->t0_ns && iv->next_ns > now && iv->next_ns - now < w)
		w = iv->next_ns - now;
	else if (iv->t0_ns && iv->omit_end_ns && iv->next_ns >= iv->omit_end_ns)
		w = 5 * LR_NSEC_PER_MSEC;	/* the engine's -O mark is due */
	else if (iv->t0_ns && iv->next_ns <= now)
		w = LR_NSEC_PER_MSEC;
	return w;
}

/* The earliest start (first) or the latest end (!first) of the streams, 0 when none. */
static uint64_t streams_edge(struct lr_client *c, bool first)
{
	unsigned n = lr_client_stream_count(c);
	uint64_t edge = 0;

	for (unsigned i = 0; i < n; i++) {
		struct lr_client_stream_info ci;
		uint64_t t;

		if (lr_client_stream_info(c, i, &ci))
			continue;
		t = atomic_load(first ? &ci.stats->start_ns : &ci.stats->end_ns);
		if (t && (!edge || (first ? t < edge : t > edge)))
			edge = t;
	}
	return edge;
}

/* -V: iperf3's test description once the streams run. */
static void print_starting(FILE *f, const struct lr_config *cfg, unsigned n)
{
	const struct lr_traffic_config *tc = &cfg->traffic;
	char blk[48] = "";

	if (tc->length)
		snprintf(blk, sizeof(blk), ", %llu byte blocks", (unsigned long long)tc->length);
	fprintf(f, "Starting Test: protocol: %s, %u streams%s, omitting %u seconds, %.0f second test, "
		"tos %d\n", tc->udp ? "UDP" : "TCP", tc->bidir ? n / 2 : n, blk, tc->omit_s,
		(double)(cfg->duration_set ? cfg->duration_ns : DEFAULT_TRAFFIC_NS) / 1e9, tc->tos);
}

/* -V: what iperf3 -V says first: the version, the system, the time. */
static void print_verbose_head(FILE *f)
{
	struct utsname u;
	char when[64];
	time_t now = time(NULL);
	struct tm tm;

	fprintf(f, "linerate %s\n", lr_version());
	if (uname(&u) == 0)
		fprintf(f, "%s %s %s %s %s\n", u.sysname, u.nodename, u.release, u.version, u.machine);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	fprintf(f, "Time: %s\n", when);
}

/* iperf3's lines once the streams are connected: each stream's "[ id] local ... connected to
 * ..." (report_connected). */
static void print_connected(FILE *f, struct lr_client *c)
{
	struct lr_traffic_results *R = calloc(1, sizeof(*R));

	if (R && lr_client_start_info(c, R) == 0)
		for (unsigned i = 0; i < R->n_streams; i++)
			fprintf(f, "[%3d] local %s port %u connected to %s port %u\n",
				R->streams[i].id, R->local_host, R->streams[i].local_port,
				R->remote_host, R->streams[i].remote_port);
	free(R);
}

/* One interval from the last one to `now`: each stream's counters now (or at -O's mark when
 * at_mark) minus the last. The number of bytes it moved. */
static uint64_t intervals_collect(struct intervals *iv, struct lr_client *c, bool at_mark,
				  bool omitted, unsigned *k)
{
	unsigned n = lr_client_stream_count(c);
	uint64_t total = 0;

	*k = 0;
	for (unsigned i = 0; i < iv->n && i < n; i++) {
		struct lr_client_stream_info ci;
		uint64_t by, rt, lo, pk;

		if (lr_client_stream_info(c, i, &ci) < 0)
			continue;
		by = at_mark ? ci.omit_bytes : atomic_load(&ci.stats->bytes);
		rt = at_mark ? ci.omit_retransmits : atomic_load(&ci.stats->retransmits);
		lo = at_mark ? ci.omit_lost : atomic_load(&ci.stats->lost);
		pk = atomic_load(ci.sender ? &ci.stats->packets : &ci.stats->max_seq);
		iv->st[*k] = (struct lr_iperf3_interval){
			.id = ci.id,
			.sender = ci.sender,
			.udp = ci.udp,
			.omitted = omitted,
			.bytes = by - iv->bytes[i],
			.retransmits = rt - iv->retr[i],
			.lost = lo - iv->lost[i],
			.packets = pk - iv->packets[i],
			.jitter_s = (double)atomic_load(&ci.stats->jitter_ns) / 1e9,
		};
		if (!ci.udp)	/* as iperf3: the socket's state as the interval ends */
			lr_client_stream_tcp(c, i, &iv->st[*k].tcp);
		if (!ci.udp && (!iv->cfg->traffic.reverse || iv->cfg->traffic.bidir)) {
			lr_tcp_path_add(&iv->path[i], &iv->st[*k].tcp);
			iv->path_id[i] = ci.id;
		}
		(*k)++;
		total += by - iv->bytes[i];
		iv->bytes[i] = by;
		iv->retr[i] = rt;
		iv->lost[i] = lo;
		iv->packets[i] = pk;
	}
	return total;
}

/* --json-stream: one line {"event": NAME, "data": DATA} at once (takes data's reference), as
 * iperf3 3.17+: "start" when the streams run (-J's start object), "interval"s, then "error"
 * (a string) when the test failed, "server_output_json"/"_text", and "end" last. */
static void json_stream_event(struct intervals *iv, const char *name, json_t *data)
{
	json_t *ev = json_pack("{s:s,s:o}", "event", name, "data", data);

	if (!ev)
		return;
	json_dumpf(ev, iv->json_out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', iv->json_out);
	fflush(iv->json_out);
	json_decref(ev);
}

static void json_stream_start(struct intervals *iv, struct lr_client *c)
{
	struct lr_traffic_results *R = calloc(1, sizeof(*R));

	if (R && lr_client_start_info(c, R) == 0) {
		json_stream_event(iv, "start", lr_iperf3_json_start(&iv->cfg->traffic, R));
		iv->stream_started = true;
	}
	free(R);
}

static void intervals_emit(struct intervals *iv, bool json, uint64_t from, uint64_t to, unsigned k)
{
	double a = (double)(from - iv->t0_ns) / 1e9, b = (double)(to - iv->t0_ns) / 1e9;

	if (json && iv->cfg->json_stream) {
		json_t *o = lr_iperf3_json_interval(a, b, iv->st, k);

		if (iv->cfg->json_stream_full && o)	/* kept for the whole object at the end */
			json_array_append(iv->arr, o);
		json_stream_event(iv, "interval", o);
	} else if (json) {
		json_array_append_new(iv->arr, lr_iperf3_json_interval(a, b, iv->st, k));
	} else {
		lr_iperf3_print_interval(iv->out, a, b, iv->st, k, iv->unit);
		fflush(iv->out);
	}
}

/* -O: the omitted seconds ended at the engine's mark: their last interval ends there, and the
 * clock starts again from 0 (as iperf3's), so the rest adds up to the end totals. true when
 * the mark was handled now. */
static bool intervals_omit_end(struct intervals *iv, struct lr_client *c, bool json)
{
	uint64_t at;
	unsigned k;

	if (!iv->omit_end_ns || !lr_client_omit_over(c, &at))
		return false;
	if (at < iv->last_ns)
		at = iv->last_ns;
	intervals_collect(iv, c, true, true, &k);
	if (at > iv->last_ns)
		intervals_emit(iv, json, iv->last_ns, at, k);
	iv->omit_end_ns = 0;
	iv->t0_ns = iv->last_ns = at;
	iv->next_ns = at + iv->every_ns;
	return true;
}

static void intervals_tick(struct intervals *iv, struct lr_client *c, bool json, bool final)
{
	uint64_t now = lr_clock_mono_ns(), end, total;
	bool omitted;
	unsigned k;

	if (!iv->t0_ns) {
		if (lr_client_state(c) != LR_CLIENT_RUNNING)
			return;
		iv->t0_ns = iv->last_ns = streams_edge(c, true);
		if (!iv->t0_ns || iv->t0_ns > now)
			iv->t0_ns = iv->last_ns = now;
		iv->next_ns = iv->t0_ns + iv->every_ns;
		iv->n = lr_client_stream_count(c);	/* every stream exists once the test runs */
		if (iv->cfg->traffic.omit_s)
			iv->omit_end_ns = iv->t0_ns + iv->cfg->traffic.omit_s * LR_NSEC_PER_SEC;
		if (!json)
			print_connected(iv->out, c);
		if (iv->cfg->verbose && !json)
			print_starting(iv->out, iv->cfg, iv->n);
		if (json && iv->cfg->json_stream)
			json_stream_start(iv, c);
		if (!final)
			return;
	}
	if (intervals_omit_end(iv, c, json) && !final)
		return;
	/* an interval that would reach past the omitted seconds waits for the engine's mark */
	if (!final && iv->omit_end_ns && iv->next_ns >= iv->omit_end_ns)
		return;
	if (!final && (now < iv->next_ns || intervals_last(iv)))
		return;
	omitted = iv->omit_end_ns != 0;
	if (!final)
		now = iv->next_ns;	/* the interval's nominal end: no drift */
	else if ((end = streams_edge(c, false)) > iv->last_ns && end < now)
		now = end;	/* the streams' own end, not when the results came in */
	total = intervals_collect(iv, c, false, omitted, &k);
	/* as iperf3: a last sliver under a tenth of the interval that moved nothing is noise */
	if (final && total == 0 && (now - iv->last_ns) * 10 < iv->every_ns)
		return;
	intervals_emit(iv, json, iv->last_ns, now, k);
	iv->last_ns = now;
	iv->next_ns += iv->every_ns;
}

/* The intervals' TCP_INFO summaries into the results' streams (matched by id), for -J's end. */
static void intervals_paths(const struct intervals *iv, struct lr_traffic_results *R)
{
	for (unsigned i = 0; i < iv->n && i < LR_PROTO_MAX_RESULTS; i++)
		for (unsigned j = 0; iv->path[i].samples && j < R->n_streams; j++)
			if (R->streams[j].id == iv->path_id[i])
				R->streams[j].path = iv->path[i];
}

/* The interface the verdict speaks of: -I's when it names one, else the route's. */
static const char *verdict_iface(const struct lr_config *cfg, char *buf, size_t len)
{
	if (cfg->ifaces && !strchr(cfg->ifaces, ','))
		return cfg->ifaces;
	return lr_route_iface(cfg->traffic.host, buf, len) ? NULL : buf;
}

/* Why the run stops writing: a write error (reported: exit 1), or stdout's reader gone (`|
 * head`: the test ends as on a signal, exit 0, nothing said of it). */
enum stop_out { OUT_OK, OUT_FAILED, OUT_GONE };

/* --ledger-csv: the live ledger's newest interval, once. A write error is said once and ends
 * the test (the rows written stay whole). */
static void ledger_rows(struct lr_ledger_csv *lc, const struct lr_config *cfg,
			struct lr_session *ses, enum stop_out *st)
{
	int e;

	if (!lc || *st)
		return;
	e = lr_ledger_csv_write(lc, &ses->live, lr_ledger_dir_name(ses->live.total.dir),
				ses->live_real_ns, ses->live_elapsed_ns);
	if (!e && ses->bidir)	/* the down direction's rows after the up one's */
		e = lr_ledger_csv_write(lc, &ses->live_rev, lr_ledger_dir_name(ses->live_rev.total.dir),
					ses->live_real_ns, ses->live_elapsed_ns);
	if (!e)
		return;
	fprintf(stderr, "linerate: %s: cannot write: %s\n", cfg->ledger_csv, strerror(-e));
	*st = OUT_FAILED;
	lr_session_stop(ses);
}

/* A snapshot taken: the verdict's books and the live ledger, whose interval goes out. */
static void sample(struct lr_sampling *sm, struct lr_session *ses, struct lr_ledger_csv *lc,
		   const struct lr_config *cfg, enum stop_out *st)
{
	lr_session_sample(ses, lr_sampling_last(sm));
	ledger_rows(lc, cfg, ses, st);
}

/* --streams-csv: a `latency` row for each probe interval closed since the last call, at the
 * newest snapshot's time. A write error ends the test as a stream row's would. */
static void latency_rows(struct lr_sampling *sm, struct lr_session *ses, unsigned *seen,
			 enum stop_out *st)
{
	const struct lr_snapshot *snap = sm ? lr_sampling_last(sm) : NULL;
	struct lr_csv_latency row;
	char err[300];
	int e;

	while (snap && !*st && lr_session_latency_row(ses, seen, &row)) {
		e = lr_recorder_write_latency(lr_sampling_recorder(sm), snap, &row, err,
					      sizeof(err));
		if (!e)
			continue;
		if (err[0])
			fprintf(stderr, "linerate: %s\n", err);
		*st = e == -EPIPE ? OUT_GONE : OUT_FAILED;
		lr_session_stop(ses);
	}
}

/* Waits up to wait_ns for the client, writing CSV rows and feeding the verdict as snapshots
 * come. A write error or stdout's reader gone ends the test. */
static void pump(struct lr_sampling *sm, struct lr_session *ses, struct lr_ledger_csv *lc,
		 const struct lr_config *cfg, uint64_t wait_ns, enum stop_out *st)
{
	int got;

	if (!sm || *st) {
		lr_client_wait(ses->client, wait_ns);
		return;
	}
	got = lr_sampling_pump(sm, wait_ns);
	lr_session_poll(ses);
	lr_sampling_set_peer(sm, ses->peer);	/* the peer's rows from the next tick on */
	if (got > 0)
		sample(sm, ses, lc, cfg, st);
	if (got < 0) {
		*st = got == -EPIPE ? OUT_GONE : OUT_FAILED;
		lr_session_stop(ses);
	}
}

/* The sampler's last reading after the test: the books of the CSVs are closed. */
static void sampling_finish(struct lr_sampling *sm, struct lr_session *ses,
			    struct lr_ledger_csv *lc, const struct lr_config *cfg,
			    enum stop_out *st)
{
	int e;

	if (!sm || *st)
		return;
	e = lr_sampling_finish(sm, true);
	if (e < 0)
		*st = e == -EPIPE ? OUT_GONE : OUT_FAILED;
	else if (lr_sampling_last(sm))
		sample(sm, ses, lc, cfg, st);
}

/* iperf3's summary (text or -J) and, when sampling ran, the NIC's view and the verdict: text
 * after the summary, or a "linerate_verdict" object in the JSON (iperf3's readers ignore keys
 * they do not know). */
/* --get-server-output: the server's report as iperf3 -J carries it (an object or text). */
struct server_output {
	char *text;
	bool json;
};

/* --expect: each condition judged on the test's own results, its line on stderr (stdout may be
 * -J's document) and in -J as "linerate_expect". 3 when one is not met or cannot be judged. */
struct expect_run {
	enum lr_expect_result res[LR_EXPECT_MAX];
	char line[LR_EXPECT_MAX][200];
	unsigned n;
	bool failed;
};

static json_t *expect_json(const struct expect_run *x)
{
	static const char *const word[] = {[LR_EXPECT_MET] = "met",
					   [LR_EXPECT_NOT_MET] = "not met",
					   [LR_EXPECT_UNKNOWN] = "cannot be judged"};
	json_t *a = json_array();

	for (unsigned i = 0; a && i < x->n; i++)
		json_array_append_new(a, json_pack("{s:s,s:s}", "result", word[x->res[i]], "line",
						   x->line[i]));
	return a;
}

static void report(const struct lr_config *cfg, struct lr_session *ses, struct intervals *iv,
		   const struct lr_output *out, const struct lr_peer_summary *peer,
		   const struct server_output *so, const struct expect_run *x,
		   const struct lr_rr_cpu rr_cpu[2])
{
	const struct lr_traffic_results *R = ses->res;
	bool ran = ses->have_res && R->n_streams && (R->complete || R->stopped);
	bool verdict = ran && ses->have_verdict && ses->samples;

	if (cfg->json) {
		json_t *j = lr_iperf3_json(&cfg->traffic, R, iv->arr,
					   ses->failed && ses->error[0] ? ses->error : NULL);

		iv->arr = NULL;
		if (cfg->title)
			json_object_set_new(j, "title", json_string(cfg->title));
		if (so->text && so->json) {
			json_t *o = json_loads(so->text, 0, NULL);

			if (o)
				json_object_set_new(j, "server_output_json", o);
		} else if (so->text) {
			json_object_set_new(j, "server_output_text", json_string(so->text));
		}
		if (verdict) {
			json_t *v = lr_verdict_json(ses->acc, &ses->verdict);

			if (v)
				json_object_set_new(j, "linerate_verdict", v);
		}
		if (verdict && ses->have_ledger) {
			json_t *l = lr_ledger_json(&ses->ledger);

			if (l)
				json_object_set_new(j, "linerate_ledger", l);
		}
		/* --bidir: the down direction's beside it, named as iperf3 names its second
		 * direction's sums (sum_sent_bidir_reverse) */
		if (verdict && ses->have_ledger_rev) {
			json_t *l = lr_ledger_json(&ses->ledger_rev);

			if (l)
				json_object_set_new(j, "linerate_ledger_bidir_reverse", l);
		}
		if (verdict && ses->have_cycles) {
			json_t *c = lr_cycles_json(&ses->cycles);

			if (c)
				json_object_set_new(j, "linerate_cycles", c);
		}
		if (ran) {	/* also against a plain iperf3: its state says there were none */
			json_t *l = lr_latency_json(ses->lat);

			if (l)
				json_object_set_new(j, "linerate_latency", l);
		}
		if (x->n)
			json_object_set_new(j, "linerate_expect", expect_json(x));
		if (ran && cfg->rr)
			lr_rr_app_report(NULL, j, cfg->traffic.host, R, &rr_cpu[0], &rr_cpu[1]);
		if (ran && peer) {
			json_t *p = lr_peer_report_json(peer, &cfg->traffic);

			if (p)
				json_object_set_new(j, "linerate_peer", p);
		}
		if (cfg->json_stream) {	/* iperf3's closing events, then ours, "end" last */
			static const char *const tail[] = {"error", "server_output_json",
							   "server_output_text", "linerate_verdict",
							   "linerate_ledger",
							   "linerate_ledger_bidir_reverse",
							   "linerate_cycles",
							   "linerate_latency",
							   "linerate_expect",
							   "linerate_peer", "linerate_rr"};
			json_t *e = json_incref(json_object_get(j, "end"));

			for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]); i++) {
				json_t *v = json_object_get(j, tail[i]);

				if (v)
					json_stream_event(iv, tail[i], json_incref(v));
			}
			json_stream_event(iv, "end", e ? e : json_object());
		}
		/* iperf3 3.22: --json-stream-full-output adds -J's whole object after the events */
		if (!cfg->json_stream || cfg->json_stream_full) {
			json_dumpf(j, out->json, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			fputc('\n', out->json);
		}
		json_decref(j);
	} else if (ran) {
		if (cfg->rr)	/* netperf's table in place of iperf3's bulk summary */
			lr_rr_app_report(out->text, NULL, cfg->traffic.host, R, &rr_cpu[0],
					 &rr_cpu[1]);
		else
			lr_iperf3_print_summary(out->text, R, cfg->format, cfg->verbose);
		if (so->text)	/* iperf3 prints either form as it came */
			fprintf(out->text, "\nServer output:\n%s\n", so->text);
		if (verdict) {
			fputc('\n', out->text);
			lr_verdict_print(out->text, ses->acc, &ses->verdict);
		}
		if (peer)
			lr_peer_report_text(out->text, peer, &cfg->traffic);
		if (verdict && ses->have_ledger) {
			fputc('\n', out->text);
			lr_ledger_print(out->text, &ses->ledger);
		}
		if (verdict && ses->have_ledger_rev) {
			fputc('\n', out->text);
			lr_ledger_print(out->text, &ses->ledger_rev);
		}
		if (verdict && ses->have_cycles) {
			fputc('\n', out->text);
			lr_cycles_print(out->text, &ses->cycles);
		}
	}
	fflush(out->text);
}

static void expect_judge(const struct lr_config *cfg, const struct lr_session *ses,
			 const struct lr_peer_summary *peer, struct expect_run *x)
{
	struct lr_expect_facts f;
	struct lr_verdict_traffic vt;

	memset(&f, 0, sizeof(f));
	f.lost = f.packets = f.retransmits = -1;
	f.rate_bps = -1;
	f.udp = cfg->traffic.udp;
	f.peer_shares = peer != NULL;
	if (ses->have_res && ses->res->n_streams && !ses->failed) {
		lr_verdict_traffic_from(ses->res, &vt);
		lr_expect_traffic_facts(&vt, &f);
	}
	if (ses->have_cycles)
		lr_cycles_expect_facts(&ses->cycles, &f);
	x->n = cfg->expect.n;
	for (unsigned i = 0; i < x->n; i++) {
		x->res[i] = lr_expect_judge(&cfg->expect.c[i], &f, x->line[i], sizeof(x->line[i]));
		x->failed |= x->res[i] != LR_EXPECT_MET;
	}
}

static int run_client(const struct lr_config *cfg, struct intervals *iv, const struct lr_output *out)
{
	const struct lr_traffic_config *tc = &cfg->traffic;
	/* -n / -k end the test by count, as iperf3 (no time limit) */
	uint64_t dur = tc->num_bytes || tc->blockcount ? 0
		       : cfg->duration_set ? cfg->duration_ns : DEFAULT_TRAFFIC_NS;
	struct lr_sampling *sm = NULL;
	struct lr_ledger_csv *lc = NULL;
	struct lr_session ses;
	uint64_t log_seen = 0;
	char ifbuf[LR_IFNAMSIZ];
	enum stop_out st = OUT_OK;
	/* iperf3's lines go to stdout: a reader that leaves ends the test */
	bool on_stdout = !out->file && out->json == stdout;
	bool have_peer, rr_refused;
	struct lr_peer_summary peer;
	struct server_output so = {0};
	struct expect_run x = {0};
	struct lr_rr_cpu rr_cpu[2] = {0};
	unsigned lat_seen = 0;	/* latency rows written */
	int rc, e;

	rc = lr_config_sampling_traffic(&sm, cfg);
	if (rc < 0)
		return lr_config_sampling_status(cfg, rc);
	if (cfg->ledger_csv && (rc = lr_ledger_csv_open(&lc, cfg->ledger_csv)) < 0) {
		fprintf(stderr, "linerate: %s: %s\n", cfg->ledger_csv, strerror(-rc));
		lr_sampling_close(sm);
		return 1;
	}
	if (lr_session_init(&ses, sm ? lr_sampling_snapsrc(sm) : NULL,
			    verdict_iface(cfg, ifbuf, sizeof(ifbuf)))) {
		fprintf(stderr, "linerate: out of memory\n");
		lr_ledger_csv_close(lc);
		lr_sampling_close(sm);
		return 1;
	}
	lr_latency_init(ses.lat, cfg->json);	/* -J prints every interval's probes */
	if (!cfg->json && cfg->verbose)
		print_verbose_head(out->text);
	if (!cfg->json)
		fprintf(out->text, "Connecting to host %s, port %u\n", tc->host,
			tc->port ? tc->port : 5201u);
	if (!cfg->json && tc->reverse && !tc->bidir)
		fprintf(out->text, "Reverse mode, remote host %s is sending\n", tc->host);
	fflush(out->text);
	if (cfg->rr)
		lr_rr_cpu_read(&rr_cpu[0]);
	if (lr_session_start(&ses, tc, dur) < 0) {
		fprintf(stderr, "linerate: %s\n", ses.error);
		lr_ledger_csv_close(lc);
		lr_sampling_close(sm);
		lr_session_free(&ses);
		return 1;
	}
	while (!lr_client_wait(ses.client, 1)) {
		if (!st && on_stdout && lr_output_stdout_gone())
			st = OUT_GONE;
		if (lr_stop_signal || st == OUT_GONE)
			lr_session_stop(&ses);
		pump(sm, &ses, lc, cfg, intervals_wait(iv), &st);
		intervals_tick(iv, ses.client, cfg->json, false);
		lr_session_latency_tick(&ses, lr_clock_mono_ns());
		latency_rows(sm, &ses, &lat_seen, &st);
		drain_log(&log_seen);
	}
	if (cfg->rr)
		lr_rr_cpu_read(&rr_cpu[1]);
	rr_refused = cfg->rr && lr_client_rr_refused(ses.client);
	lr_session_poll(&ses);
	if (lr_client_state(ses.client) == LR_CLIENT_DONE)
		intervals_tick(iv, ses.client, cfg->json, true);
	/* a test that failed (a silent or vanished server) sends no last peer frame: waiting
	 * for one would only delay the error */
	if (sm && lr_client_state(ses.client) != LR_CLIENT_DONE)
		lr_sampling_set_peer(sm, NULL);
	sampling_finish(sm, &ses, lc, cfg, &st);
	if (sm)
		lr_sampling_set_peer(sm, NULL);	/* lr_session_finish closes the peer view */
	have_peer = ses.peer && lr_peer_rx_summary(ses.peer, &peer) == 0;
	drain_log(&log_seen);
	if (lr_client_state(ses.client) == LR_CLIENT_DONE)
		so.text = lr_client_server_output(ses.client, &so.json);
	lr_session_finish(&ses);
	latency_rows(sm, &ses, &lat_seen, &st);	/* the last interval's */
	if (!ses.have_res) {
		fprintf(stderr, "linerate: out of memory\n");
		st = OUT_FAILED;
	}
	if (ses.have_res)
		intervals_paths(iv, ses.res);
	if (cfg->expect.n)
		expect_judge(cfg, &ses, have_peer ? &peer : NULL, &x);
	report(cfg, &ses, iv, out, have_peer ? &peer : NULL, &so, &x, rr_cpu);
	free(so.text);
	if (ses.failed)
		fprintf(stderr, "linerate: %s\n", ses.error);
	for (unsigned i = 0; i < x.n; i++)
		fprintf(stderr, "%s\n", x.line[i]);
	rc = ses.failed && rr_refused ? LR_EXIT_RR_REFUSED
	     : ses.failed || st == OUT_FAILED			 ? 1
	     : x.failed					 ? 3
							 : 0;
	if (lr_sampling_close(sm) < 0)
		rc = 1;
	if ((e = lr_ledger_csv_close(lc)) < 0) {
		fprintf(stderr, "linerate: %s: %s\n", cfg->ledger_csv, strerror(-e));
		rc = 1;
	}
	lr_session_free(&ses);
	return rc;
}

int lr_run_client(const struct lr_config *cfg)
{
	struct intervals *iv = calloc(1, sizeof(*iv));
	struct lr_output out;
	int rc;

	if (!iv || !(iv->arr = json_array())) {
		fprintf(stderr, "linerate: out of memory\n");
		free(iv);
		return 1;
	}
	iv->every_ns = cfg->interval_set ? cfg->interval_ns : LR_NSEC_PER_SEC;
	iv->length_ns = cfg->traffic.num_bytes || cfg->traffic.blockcount ? 0
			: cfg->duration_set ? cfg->duration_ns : DEFAULT_TRAFFIC_NS;
	if (lr_output_open(&out, cfg)) {
		json_decref(iv->arr);
		free(iv);
		return 1;
	}
	iv->out = out.text;
	iv->json_out = out.json;
	iv->unit = cfg->format;
	iv->cfg = cfg;
	rc = run_client(cfg, iv, &out);
	if (lr_output_close(&out, cfg))
		rc = 1;
	json_decref(iv->arr);
	free(iv);
	return rc;
}
