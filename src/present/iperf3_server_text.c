// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What `iperf3 -s` prints for each test, from the server's watch: "Accepted connection from",
 * the streams' "local ... connected to" lines, one interval block every report interval (the
 * counters' deltas, on the test's own clock), and the summary once the results are known.
 * Main thread; the formatting is iperf3_text.c's. With --json-stream the same moments are
 * iperf3 3.17+'s events instead, one JSON object a line: "start" (-J's start block, as the
 * server's -J has it), "interval" each report interval, "end" (-J's end) with the results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "linerate/present/iperf3_server_text.h"
#include "linerate/core/clock.h"
#include "linerate/present/iperf3_out.h"
#include "linerate/traffic/server_view.h"

struct lr_server_text {
	FILE *f;
	const char *after; /* printed after each summary, NULL none */
	uint64_t interval_ns;
	char unit;
	unsigned seq; /* the test being printed, 0 none */
	bool done; /* its summary is out */
	uint64_t last_ns; /* the end of the last interval printed (mono) */
	uint64_t base_ns; /* the intervals' 0.00: the start, then the end of -O's omit */
	uint64_t omit_end_ns; /* -O: the omitted seconds end here, 0 none */
	uint64_t length_ns; /* the client's -t, 0 with -n or -k */
	bool printed; /* an interval of this test is out (the header with it) */
	struct lr_server_test_counts prev[LR_PROTO_MAX_RESULTS];
	const struct lr_server_test_view *v;	/* the caller's, during a poll */
	struct lr_iperf3_interval iv[LR_PROTO_MAX_RESULTS];
	const struct lr_traffic_config *json_tc; /* --json-stream: the server's own options */
};

void lr_server_text_set_json_stream(struct lr_server_text *t, const struct lr_traffic_config *tc)
{
	if (t)
		t->json_tc = tc;
}

/* --json-stream: {"event":NAME,"data":DATA} on one line (takes data's reference). */
static void json_event(struct lr_server_text *t, const char *name, json_t *data)
{
	json_t *ev = json_pack("{s:s,s:o}", "event", name, "data", data ? data : json_object());

	if (!ev)
		return;
	json_dumpf(ev, t->f, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fputc('\n', t->f);
	json_decref(ev);
}

/* The server's -J keys for a test (mode_server.c's report): whom it accepted, not whom it
 * connected to; the client's -O, -n, -k. */
static json_t *json_start(struct lr_server_text *t)
{
	const struct lr_server_test_info *in = &t->v->info;
	struct lr_traffic_results *R = calloc(1, sizeof(*R));
	struct lr_traffic_config tc = *t->json_tc;
	json_t *start, *acc;

	if (!R)
		return NULL;
	R->udp = in->udp;
	R->reverse = in->reverse;
	R->bidir = in->bidir;
	R->parallel = in->parallel;
	R->len = in->len;
	R->bitrate_bps = in->bitrate_bps;
	R->duration_ns = (uint64_t)(in->time_s > 0 ? in->time_s : 0) * LR_NSEC_PER_SEC;
	R->start_real_ns = in->start_real_ns;
	memcpy(R->local_host, in->local_host, sizeof(R->local_host));
	memcpy(R->remote_host, in->remote_host, sizeof(R->remote_host));
	R->have_sockbuf = in->have_sockbuf;
	R->sock_bufsize = in->sock_bufsize;
	R->sndbuf_actual = in->sndbuf_actual;
	R->rcvbuf_actual = in->rcvbuf_actual;
	R->tcp_mss_default = in->tcp_mss_default;
	R->n_streams = in->n_streams;
	for (unsigned i = 0; i < in->n_streams; i++) {
		R->streams[i].id = in->streams[i].id;
		R->streams[i].client_sends = !in->streams[i].sender;
		R->streams[i].udp = in->udp;
		R->streams[i].local_port = in->streams[i].local_port;
		R->streams[i].remote_port = in->streams[i].remote_port;
	}
	tc.host = in->remote_host;
	tc.omit_s = (unsigned)in->omit_s;
	tc.num_bytes = in->num_bytes;
	tc.blockcount = in->blockcount;
	start = lr_iperf3_json_start(&tc, R);
	free(R);
	if (!start)
		return NULL;
	json_object_del(start, "connecting_to");
	acc = json_pack("{s:s,s:i}", "host", in->remote_host, "port", (int)in->remote_port);
	if (acc)
		json_object_set_new(start, "accepted_connection", acc);
	return start;
}

static json_t *json_end(struct lr_server_text *t)
{
	struct lr_traffic_config tc = *t->json_tc;
	json_t *j, *end;

	tc.host = t->v->info.remote_host;
	tc.omit_s = (unsigned)t->v->info.omit_s;
	j = lr_iperf3_json(&tc, &t->v->res, json_array(), NULL);
	end = json_incref(json_object_get(j, "end"));
	json_decref(j);
	return end;
}

int lr_server_text_open(struct lr_server_text **out, FILE *f, uint64_t interval_ns, char unit,
			const char *after)
{
	struct lr_server_text *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	t->f = f;
	t->interval_ns = interval_ns ? interval_ns : LR_NSEC_PER_SEC;
	t->unit = unit;
	t->after = after;
	*out = t;
	return 0;
}

/* The interval due next ends the test (within a tenth of an interval of -t's end, -O's
 * seconds over): it waits for the test's end, so the streams' last bytes are in it and not in
 * a short tail interval of their own. */
static bool last_held(const struct lr_server_text *t)
{
	return t->length_ns && t->omit_end_ns <= t->last_ns &&
	       t->last_ns + t->interval_ns + t->interval_ns / 10 >= t->base_ns + t->length_ns;
}

uint64_t lr_server_text_next_ns(const struct lr_server_text *t)
{
	uint64_t next;

	if (!t || !t->seq || t->done || last_held(t))
		return UINT64_MAX;
	next = t->last_ns + t->interval_ns;
	/* an interval never straddles the omit's end: iperf3 starts the clock again there */
	return t->omit_end_ns > t->last_ns && t->omit_end_ns < next ? t->omit_end_ns : next;
}

void lr_server_text_set_after(struct lr_server_text *t, const char *after)
{
	if (t)
		t->after = after;
}

void lr_server_text_close(struct lr_server_text *t)
{
	if (!t)
		return;
	free(t);
}

static void print_begin(struct lr_server_text *t)
{
	const struct lr_server_test_info *in = &t->v->info;

	if (t->json_tc)
		json_event(t, "start", json_start(t));
	else
		fprintf(t->f, "Accepted connection from %s, port %u\n", in->remote_host,
			in->remote_port);
	for (unsigned i = 0; i < in->n_streams && !t->json_tc; i++) {
		const struct lr_server_stream_info *s = &in->streams[i];

		fprintf(t->f, "[%3d] local %s port %u connected to %s port %u\n", s->id,
			s->local_host, s->local_port, s->remote_host, s->remote_port);
	}
	t->last_ns = t->base_ns = in->start_ns;
	t->omit_end_ns = in->omit_s > 0 ? in->start_ns + (uint64_t)in->omit_s * LR_NSEC_PER_SEC : 0;
	t->length_ns = in->time_s > 0 ? (uint64_t)in->time_s * LR_NSEC_PER_SEC : 0;
	t->printed = false;
	memset(t->prev, 0, sizeof(t->prev));
	t->done = false;
}

/* One block of interval lines from t->last_ns to to_ns, with the counts in t->v. */
static void print_interval(struct lr_server_text *t, uint64_t to_ns)
{
	const struct lr_server_test_info *in = &t->v->info;
	double a = (double)(t->last_ns - t->base_ns) / 1e9, b = (double)(to_ns - t->base_ns) / 1e9;
	bool omitted = t->omit_end_ns && to_ns <= t->omit_end_ns;

	for (unsigned i = 0; i < in->n_streams; i++) {
		const struct lr_server_test_counts *c = &t->v->c[i], *p = &t->prev[i];

		t->iv[i] = (struct lr_iperf3_interval){
			.id = in->streams[i].id,
			.sender = in->streams[i].sender,
			.udp = in->udp,
			.bytes = c->bytes - p->bytes,
			.retransmits = c->retransmits - p->retransmits,
			.lost = c->lost - p->lost,
			.server = true,
			/* UDP: a receiver's datagrams by sequence, a sender's as sent */
			.packets = in->streams[i].sender ? c->packets - p->packets
							 : c->max_seq - p->max_seq,
			.jitter_s = (double)c->jitter_ns / 1e9,
			.omitted = omitted,
			.no_header = t->printed,
			.tcp = {.valid = c->cwnd_bytes != 0, .snd_cwnd = c->cwnd_bytes},
		};
		t->prev[i] = *c;
	}
	if (t->json_tc)
		json_event(t, "interval", lr_iperf3_json_interval(a, b, t->iv, in->n_streams));
	else
		lr_iperf3_print_interval(t->f, a, b, t->iv, in->n_streams, t->unit);
	t->printed = true;
	t->last_ns = to_ns;
	if (omitted && to_ns == t->omit_end_ns)
		t->base_ns = to_ns; /* the measured seconds count from 0.00 again */
}

/* The streams' last count: the latest end among them (a receiver's last byte). */
static uint64_t end_of(const struct lr_server_test_view *v)
{
	uint64_t end = 0;

	for (unsigned i = 0; i < v->info.n_streams; i++)
		if (v->c[i].end_ns > end)
			end = v->c[i].end_ns;
	return end ? end : v->now_ns;
}

int lr_server_text_poll(struct lr_server_text *t, const struct lr_server_test_view *v)
{
	bool any = false;

	t->v = v;
	if (!v->seq || (v->seq == t->seq && t->done))
		return 0;
	if (v->seq != t->seq) {
		t->seq = v->seq;
		print_begin(t);
		any = true;
	}
	if (!v->ended) {
		/* due: print the counts read now as the interval that just ended */
		uint64_t due = lr_server_text_next_ns(t);

		if (v->now_ns >= due && !last_held(t)) {
			print_interval(t, due);
			any = true;
		}
	} else {
		uint64_t end = end_of(v);
		/* --json-stream of a failed test, as iperf3 3.22's: its whole intervals, "error",
		 * then an "end" that is {} unless the results stand for it */
		bool failed = t->json_tc && v->res.server_error[0];
		bool moved = false;

		for (unsigned i = 0; i < v->info.n_streams; i++)
			moved |= v->c[i].bytes != t->prev[i].bytes;
		if (failed && !v->res.server_error_end)	/* the whole intervals it reached */
			while (lr_server_text_next_ns(t) <= end)
				print_interval(t, lr_server_text_next_ns(t));
		else if (moved)	/* every byte in some interval: they add up to the summary */
			print_interval(t, end > t->last_ns ? end : t->last_ns);
		if (failed)
			json_event(t, "error", json_string(v->res.server_error));
		if (failed && !v->res.server_error_end)
			json_event(t, "end", json_object());
		else if (t->json_tc)
			json_event(t, "end", json_end(t));
		else
			lr_iperf3_print_server_summary(t->f, &v->res, t->unit);
		if (t->after && !t->json_tc)
			fputs(t->after, t->f);
		t->done = true;
		any = true;
	}
	if (any && fflush(t->f))
		return -1;
	return any;
}
