// SPDX-License-Identifier: GPL-2.0-or-later
/* `linerate -s` and headless `linerate -c`: glue between struct lr_config and the traffic
 * sessions, plus the final summary in iperf3's text layout or iperf3's JSON shape (-J).
 * Runs on the main thread; polls lr_stop_signal (set by main's signal handlers). Prints to
 * stdout/stderr: it is the presentation end of the traffic engine. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "linerate/clock.h"
#include "linerate/traffic_glue.h"
#include "linerate/config.h"
#include "linerate/gencol.h"
#include "linerate/headless.h"
#include "linerate/log.h"
#include "linerate/route.h"
#include "linerate/run.h"
#include "linerate/sampler.h"
#include "linerate/snapshot.h"
#include "linerate/stream.h"
#include "linerate/traffic.h"
#include "linerate/verdict.h"

#define DEFAULT_TRAFFIC_NS (10 * LR_NSEC_PER_SEC)

/* iperf3's units: transfer in 1024-based bytes, bitrate in 1000-based bits. */
static void fmt_unit(char *buf, size_t size, double v, double base, const char *const *u, int nu)
{
	int i = 0;

	while (v >= base * 0.99 && i < nu - 1) {
		v /= base;
		i++;
	}
	if (v < 9.995)
		snprintf(buf, size, "%4.2f %s", v, u[i]);
	else if (v < 99.95)
		snprintf(buf, size, "%4.1f %s", v, u[i]);
	else
		snprintf(buf, size, "%4.0f %s", v, u[i]);
}

static void fmt_bytes(char *buf, size_t size, double b)
{
	static const char *const u[] = {"Bytes", "KBytes", "MBytes", "GBytes", "TBytes"};

	fmt_unit(buf, size, b, 1024.0, u, 5);
}

static void fmt_bits(char *buf, size_t size, double bps)
{
	static const char *const u[] = {"bits/sec", "Kbits/sec", "Mbits/sec", "Gbits/sec",
					"Tbits/sec"};

	fmt_unit(buf, size, bps, 1000.0, u, 5);
}

static double rate(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes * 8.0 / secs : 0;
}

static double pct(int64_t lost, int64_t total)
{
	return total > 0 ? 100.0 * (double)lost / (double)total : 0;
}

static void print_line(const char *tag, double secs, uint64_t bytes, const char *extra,
		       const char *role)
{
	char b[32], r[32];

	fmt_bytes(b, sizeof(b), (double)bytes);
	fmt_bits(r, sizeof(r), rate(bytes, secs));
	printf("%s   0.00-%-6.2f sec  %s  %s  %s%s\n", tag, secs, b, r, extra, role);
}

/* A stream stopped early has only this side's count: the other line is left out. */
static void print_stream(const char *tag, const struct lr_traffic_stream_result *e, bool udp)
{
	bool snd = e->have_peer || e->client_sends, rcv = e->have_peer || !e->client_sends;
	char extra[96];

	if (udp) {
		snprintf(extra, sizeof(extra), "%.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  ", 0.0,
			 (int64_t)0, e->packets_sent, 0.0);
		if (snd)
			print_line(tag, e->sender_s, e->sent_bytes, extra, "sender");
		snprintf(extra, sizeof(extra), "%.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  ",
			 e->jitter_s * 1e3, e->lost, e->packets_sent,
			 pct(e->lost, e->packets_sent));
		if (rcv)
			print_line(tag, e->receiver_s ? e->receiver_s : e->sender_s,
				   e->received_bytes, extra, "receiver");
		return;
	}
	if (e->retransmits >= 0)
		snprintf(extra, sizeof(extra), "%5" PRId64 "             ", e->retransmits);
	else
		snprintf(extra, sizeof(extra), "%18s", "");
	if (snd)
		print_line(tag, e->sender_s, e->sent_bytes, extra, "sender");
	if (rcv)
		print_line(tag, e->receiver_s ? e->receiver_s : e->sender_s, e->received_bytes,
			   "                  ", "receiver");
}

static void print_sum(const char *tag, const struct lr_traffic_sum *s, bool udp, bool sends,
		      bool complete)
{
	struct lr_traffic_stream_result e = {
		.client_sends = sends,
		.have_peer = complete,
		.sent_bytes = s->sent_bytes,
		.received_bytes = s->received_bytes,
		.sender_s = s->sender_s,
		.receiver_s = s->receiver_s,
		.retransmits = s->retransmits,
		.packets_sent = s->packets_sent,
		.lost = s->lost,
		.jitter_s = s->jitter_s,
	};

	print_stream(tag, &e, udp);
}

static void print_text(const struct lr_traffic_results *R)
{
	bool udp = R->udp;

	printf("- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	if (udp)
		printf("[ ID]%s Interval           Transfer     Bitrate         Jitter    "
		       "Lost/Total Datagrams\n",
		       R->bidir ? "[Role]" : "");
	else
		printf("[ ID]%s Interval           Transfer     Bitrate         Retr\n",
		       R->bidir ? "[Role]" : "");
	for (unsigned i = 0; i < R->n_streams; i++) {
		const struct lr_traffic_stream_result *e = &R->streams[i];
		char tag[24];

		if (R->bidir)
			snprintf(tag, sizeof(tag), "[%3d][%s]", e->id,
				 e->client_sends ? "TX-C" : "RX-C");
		else
			snprintf(tag, sizeof(tag), "[%3d]", e->id);
		print_stream(tag, e, udp);
	}
	if (R->n_streams > 1 || R->bidir) {
		if (R->sum_up.n_streams)
			print_sum(R->bidir ? "[SUM][TX-C]" : "[SUM]", &R->sum_up, udp, true,
				  R->complete);
		if (R->sum_down.n_streams)
			print_sum(R->bidir ? "[SUM][RX-C]" : "[SUM]", &R->sum_down, udp, false,
				  R->complete);
	}
	printf("CPU Utilization: local/%s %.1f%% (%.1f%%u/%.1f%%s), remote/%s %.1f%% "
	       "(%.1f%%u/%.1f%%s)\n",
	       R->reverse ? "receiver" : "sender", R->local_cpu_total, R->local_cpu_user,
	       R->local_cpu_system, R->reverse ? "sender" : "receiver", R->remote_cpu_total,
	       R->remote_cpu_user, R->remote_cpu_system);
	if (R->stopped)
		printf("(test stopped early: this side's counts only)\n");
	printf("\nlinerate Done.\n");
}

/* ---- JSON (iperf3's -J shape) ---- */

static json_t *jside(const struct lr_traffic_stream_result *e, bool sender)
{
	double secs = sender ? e->sender_s : (e->receiver_s ? e->receiver_s : e->sender_s);
	uint64_t bytes = sender ? e->sent_bytes : e->received_bytes;
	json_t *o = json_object();

	json_object_set_new(o, "socket", json_integer(e->id));
	json_object_set_new(o, "start", json_real(0));
	json_object_set_new(o, "end", json_real(secs));
	json_object_set_new(o, "seconds", json_real(secs));
	json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
	json_object_set_new(o, "bits_per_second", json_real(rate(bytes, secs)));
	if (sender && !e->udp)
		json_object_set_new(o, "retransmits", json_integer(e->retransmits));
	json_object_set_new(o, "sender", json_boolean(sender));
	return o;
}

static json_t *judp(const struct lr_traffic_stream_result *e)
{
	json_t *o = jside(e, true);

	json_object_set_new(o, "jitter_ms", json_real(e->jitter_s * 1e3));
	json_object_set_new(o, "lost_packets", json_integer(e->lost));
	json_object_set_new(o, "packets", json_integer(e->packets_sent));
	json_object_set_new(o, "lost_percent", json_real(pct(e->lost, e->packets_sent)));
	if (e->out_of_order >= 0)
		json_object_set_new(o, "out_of_order", json_integer(e->out_of_order));
	return o;
}

static json_t *jsum(const struct lr_traffic_sum *s, bool sender, bool udp)
{
	struct lr_traffic_stream_result e = {
		.udp = udp,
		.sent_bytes = s->sent_bytes,
		.received_bytes = s->received_bytes,
		.sender_s = s->sender_s,
		.receiver_s = s->receiver_s,
		.retransmits = s->retransmits,
		.packets_sent = s->packets_sent,
		.lost = s->lost,
		.jitter_s = s->jitter_s,
		.out_of_order = -1,
	};

	if (udp && sender == false)
		return jside(&e, false);
	return jside(&e, sender);
}

/* Takes the reference to intervals. */
static json_t *build_json(const struct lr_traffic_config *tc, const struct lr_traffic_results *R,
			  json_t *intervals, const char *error)
{
	json_t *root = json_object(), *start = json_object(), *end = json_object();
	json_t *conn = json_array(), *c0 = json_object(), *ts = json_object(), *ct = json_object();
	json_t *tst = json_object(), *streams = json_array(), *cpu = json_object();
	const struct lr_traffic_sum *main_dir = R->reverse ? &R->sum_down : &R->sum_up;
	char tbuf[64];
	time_t t = (time_t)(R->start_real_ns / LR_NSEC_PER_SEC);
	struct tm tm;

	for (unsigned i = 0; i < R->n_streams; i++) {
		c0 = i ? json_object() : c0;
		json_object_set_new(c0, "socket", json_integer(R->streams[i].id));
		json_object_set_new(c0, "local_host", json_string(R->local_host));
		json_object_set_new(c0, "local_port", json_integer(R->streams[i].local_port));
		json_object_set_new(c0, "remote_host", json_string(R->remote_host));
		json_object_set_new(c0, "remote_port", json_integer(R->streams[i].remote_port));
		json_array_append_new(conn, c0);
	}
	if (!R->n_streams)
		json_decref(c0);
	json_object_set_new(start, "connected", conn);
	snprintf(tbuf, sizeof(tbuf), "linerate %s", lr_version());
	json_object_set_new(start, "version", json_string(tbuf));
	gmtime_r(&t, &tm);
	strftime(tbuf, sizeof(tbuf), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	json_object_set_new(ts, "time", json_string(tbuf));
	json_object_set_new(ts, "timesecs", json_integer((json_int_t)t));
	json_object_set_new(start, "timestamp", ts);
	json_object_set_new(ct, "host", json_string(tc->host));
	json_object_set_new(ct, "port", json_integer(tc->port ? tc->port : 5201u));
	json_object_set_new(start, "connecting_to", ct);
	json_object_set_new(start, "cookie", json_string(R->cookie));
	json_object_set_new(tst, "protocol", json_string(R->udp ? "UDP" : "TCP"));
	json_object_set_new(tst, "num_streams", json_integer(R->parallel));
	json_object_set_new(tst, "blksize", json_integer((json_int_t)R->len));
	json_object_set_new(tst, "omit", json_integer(0));
	json_object_set_new(tst, "duration",
			    json_integer((json_int_t)(R->duration_ns / LR_NSEC_PER_SEC)));
	json_object_set_new(tst, "bytes", json_integer(0));
	json_object_set_new(tst, "blocks", json_integer(0));
	json_object_set_new(tst, "reverse", json_integer(R->reverse));
	json_object_set_new(tst, "tos", json_integer(0));
	json_object_set_new(tst, "target_bitrate", json_integer((json_int_t)R->bitrate_bps));
	json_object_set_new(tst, "bidir", json_integer(R->bidir));
	json_object_set_new(start, "test_start", tst);
	json_object_set_new(root, "start", start);
	json_object_set_new(root, "intervals", intervals);

	for (unsigned i = 0; i < R->n_streams; i++) {
		const struct lr_traffic_stream_result *e = &R->streams[i];
		json_t *s = json_object();

		if (e->udp) {
			json_object_set_new(s, "udp", judp(e));
		} else {
			json_object_set_new(s, "sender", jside(e, true));
			json_object_set_new(s, "receiver", jside(e, false));
		}
		json_array_append_new(streams, s);
	}
	json_object_set_new(end, "streams", streams);
	json_object_set_new(end, "sum_sent", jsum(main_dir, true, R->udp));
	json_object_set_new(end, "sum_received", jsum(main_dir, false, R->udp));
	if (R->bidir) {
		json_object_set_new(end, "sum_sent_bidir_reverse",
				    jsum(&R->sum_down, true, R->udp));
		json_object_set_new(end, "sum_received_bidir_reverse",
				    jsum(&R->sum_down, false, R->udp));
	}
	if (R->udp) {
		struct lr_traffic_stream_result e = {
			.udp = true,
			.sent_bytes = main_dir->sent_bytes,
			.sender_s = main_dir->sender_s,
			.packets_sent = main_dir->packets_sent,
			.lost = main_dir->lost,
			.jitter_s = main_dir->jitter_s,
			.out_of_order = -1,
		};

		json_object_set_new(end, "sum", judp(&e));
	}
	json_object_set_new(cpu, "host_total", json_real(R->local_cpu_total));
	json_object_set_new(cpu, "host_user", json_real(R->local_cpu_user));
	json_object_set_new(cpu, "host_system", json_real(R->local_cpu_system));
	json_object_set_new(cpu, "remote_total", json_real(R->remote_cpu_total));
	json_object_set_new(cpu, "remote_user", json_real(R->remote_cpu_user));
	json_object_set_new(cpu, "remote_system", json_real(R->remote_cpu_system));
	json_object_set_new(end, "cpu_utilization_percent", cpu);
	if (R->remote_congestion[0])
		json_object_set_new(end, "receiver_tcp_congestion",
				    json_string(R->remote_congestion));
	json_object_set_new(root, "end", end);
	if (error)
		json_object_set_new(root, "error", json_string(error));
	return root;
}

static void drain_log(void)
{
	static uint64_t seen;
	struct lr_log_entry e[16];
	size_t n;

	while ((n = lr_log_read(&seen, e, LR_ARRAY_SIZE(e))) > 0)
		for (size_t i = 0; i < n; i++)
			if (e[i].level == LR_LOG_WARN)
				fprintf(stderr, "linerate: warning: %s\n", e[i].msg);
}

/* Per-second lines (text) or iperf3's "intervals" array (-J), from the streams' live atomics.
 * Seconds are counted from the moment the client reports RUNNING. */
struct intervals {
	uint64_t t0_ns, next_ns, last_ns;
	unsigned n;
	uint64_t bytes[LR_PROTO_MAX_RESULTS], retr[LR_PROTO_MAX_RESULTS];
	uint64_t pkts[LR_PROTO_MAX_RESULTS], lost[LR_PROTO_MAX_RESULTS];
	json_t *arr; /* -J only */
};

static json_t *jinterval(int id, double a, double b, uint64_t bytes, bool sender)
{
	json_t *o = json_object();

	json_object_set_new(o, "socket", json_integer(id));
	json_object_set_new(o, "start", json_real(a));
	json_object_set_new(o, "end", json_real(b));
	json_object_set_new(o, "seconds", json_real(b - a));
	json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
	json_object_set_new(o, "bits_per_second", json_real(rate(bytes, b - a)));
	json_object_set_new(o, "omitted", json_false());
	json_object_set_new(o, "sender", json_boolean(sender));
	return o;
}

/* How long the main loop may wait: 100 ms, less when the next interval line is due sooner. */
static uint64_t intervals_wait(const struct intervals *iv)
{
	uint64_t now = lr_clock_mono_ns(), w = 100 * LR_NSEC_PER_MSEC;

	if (iv->t0_ns && iv->next_ns > now && iv->next_ns - now < w)
		w = iv->next_ns - now;
	else if (iv->t0_ns && iv->next_ns <= now)
		w = LR_NSEC_PER_MSEC;
	return w;
}

static void intervals_tick(struct intervals *iv, struct lr_client *c, bool json, bool final)
{
	uint64_t now = lr_clock_mono_ns();
	unsigned n = lr_client_stream_count(c);
	double a, b;
	uint64_t sum = 0;
	bool sum_sender = true;
	json_t *streams = NULL, *one = NULL;

	if (!iv->t0_ns) {
		if (lr_client_state(c) != LR_CLIENT_RUNNING)
			return;
		iv->t0_ns = iv->last_ns = now;
		iv->next_ns = now + LR_NSEC_PER_SEC;
		iv->n = n;
		for (unsigned i = 0; i < n; i++) {
			struct lr_client_stream_info ci;

			if (lr_client_stream_info(c, i, &ci) == 0)
				iv->bytes[i] = atomic_load(&ci.stats->bytes);
		}
		return;
	}
	if (!final && now < iv->next_ns)
		return;
	if (final) { /* the streams' own end, not when the results came in */
		uint64_t end = 0;

		for (unsigned i = 0; i < n; i++) {
			struct lr_client_stream_info ci;

			if (lr_client_stream_info(c, i, &ci) == 0 &&
			    atomic_load(&ci.stats->end_ns) > end)
				end = atomic_load(&ci.stats->end_ns);
		}
		if (end > iv->last_ns && end < now)
			now = end;
	}
	if (final && now - iv->last_ns < 250 * LR_NSEC_PER_MSEC)
		return; /* a sliver after the last full second: not worth a line */
	a = (double)(iv->last_ns - iv->t0_ns) / 1e9;
	b = (double)(now - iv->t0_ns) / 1e9;
	if (json)
		streams = json_array();
	else if (a == 0)
		printf("[ ID] Interval           Transfer     Bitrate         Retr/Lost\n");
	for (unsigned i = 0; i < iv->n && i < n; i++) {
		struct lr_client_stream_info ci;
		uint64_t by, rt, lo;

		if (lr_client_stream_info(c, i, &ci) < 0)
			continue;
		by = atomic_load(&ci.stats->bytes);
		rt = atomic_load(&ci.stats->retransmits);
		lo = atomic_load(&ci.stats->lost);
		if (json) {
			one = jinterval(ci.id, a, b, by - iv->bytes[i], ci.sender);
			if (ci.sender && !ci.udp)
				json_object_set_new(one, "retransmits",
						    json_integer((json_int_t)(rt - iv->retr[i])));
			json_array_append_new(streams, one);
		} else {
			char tag[16], extra[48] = "";

			snprintf(tag, sizeof(tag), "[%3d]", ci.id);
			if (ci.sender && !ci.udp)
				snprintf(extra, sizeof(extra), "%5llu",
					 (unsigned long long)(rt - iv->retr[i]));
			else if (!ci.sender && ci.udp)
				snprintf(extra, sizeof(extra), "%5llu lost",
					 (unsigned long long)(lo - iv->lost[i]));
			printf("%s %6.2f-%-6.2f sec  ", tag, a, b);
			{
				char bb[32], rr[32];

				fmt_bytes(bb, sizeof(bb), (double)(by - iv->bytes[i]));
				fmt_bits(rr, sizeof(rr), rate(by - iv->bytes[i], b - a));
				printf("%s  %s  %s%s\n", bb, rr, extra,
				       ci.sender ? "" : "  (received)");
			}
		}
		sum += by - iv->bytes[i];
		sum_sender = i ? sum_sender : ci.sender;
		iv->bytes[i] = by;
		iv->retr[i] = rt;
		iv->lost[i] = lo;
	}
	if (json) {
		json_t *o = json_object();

		json_object_set_new(o, "streams", streams);
		json_object_set_new(o, "sum", jinterval(0, a, b, sum, sum_sender));
		json_object_del(json_object_get(o, "sum"), "socket");
		json_array_append_new(iv->arr, o);
	} else if (iv->n > 1) {
		char bb[32], rr[32];

		fmt_bytes(bb, sizeof(bb), (double)sum);
		fmt_bits(rr, sizeof(rr), rate(sum, b - a));
		printf("[SUM] %6.2f-%-6.2f sec  %s  %s\n", a, b, bb, rr);
	}
	if (!json)
		fflush(stdout);
	iv->last_ns = now;
	iv->next_ns += LR_NSEC_PER_SEC;
}

/* The NIC's view of the run: the sampler (and any CSV files asked for) beside the test. */
struct sampling {
	struct lr_headless *h;
	struct lr_verdict_acc *acc;
	struct lr_gen_source src;
	uint64_t last_seq;
	bool failed; /* a CSV write failed (reported): exit 1 */
};

/* Without CSV files sampling is a bonus: when it cannot start, the test runs without it. */
static int sampling_open(struct sampling *sm, const struct lr_config *cfg, struct lr_client *c)
{
	bool files = cfg->csv || cfg->cpu_csv || cfg->streams_csv;
	const char *iface = cfg->ifaces && !strchr(cfg->ifaces, ',') ? cfg->ifaces : NULL;
	char route_if[LR_IFNAMSIZ];

	memset(sm, 0, sizeof(*sm));
	if (lr_headless_open(&sm->h, cfg, false) < 0) {
		sm->h = NULL;
		return files ? -EIO : 0;
	}
	sm->acc = malloc(sizeof(*sm->acc));
	if (!sm->acc) {
		lr_headless_close(sm->h);
		sm->h = NULL;
		return files ? -ENOMEM : 0;
	}
	/* the verdict speaks of the interface the test leaves by, unless -I names one */
	if (!iface && !lr_route_iface(cfg->traffic.host, route_if, sizeof(route_if)))
		iface = route_if;
	lr_verdict_init(sm->acc, iface);
	lr_client_gen_source(c, &sm->src);
	lr_sampler_set_traffic(lr_headless_sampler(sm->h), &sm->src);
	if (lr_headless_start(sm->h) < 0) {
		lr_sampler_set_traffic(lr_headless_sampler(sm->h), NULL);
		lr_headless_close(sm->h);
		free(sm->acc);
		sm->h = NULL;
		sm->acc = NULL;
		return files ? -EIO : 0;
	}
	return 0;
}

static void sampling_take(struct sampling *sm)
{
	const struct lr_snapshot *s = lr_headless_last(sm->h);

	if (s && s->seq != sm->last_seq) {
		lr_verdict_add(sm->acc, s);
		sm->last_seq = s->seq;
	}
}

/* Waits up to wait_ns for the client, writing CSV rows as snapshots come. */
static void sampling_pump(struct sampling *sm, struct lr_client *c, uint64_t wait_ns)
{
	int got;

	if (!sm->h || sm->failed) {
		lr_client_wait(c, wait_ns);
		return;
	}
	got = lr_headless_pump(sm->h, wait_ns);
	if (got > 0)
		sampling_take(sm);
	if (got < 0) {
		sm->failed = true; /* reported by headless; end the test */
		lr_client_stop(c);
	}
}

static void sampling_finish(struct sampling *sm)
{
	if (!sm->h)
		return;
	if (!sm->failed && lr_headless_finish(sm->h, true) < 0)
		sm->failed = true;
	else if (!sm->failed)
		sampling_take(sm);
	lr_sampler_set_traffic(lr_headless_sampler(sm->h), NULL); /* before the streams go */
}

static void sampling_close(struct sampling *sm)
{
	if (sm->h && lr_headless_close(sm->h) < 0)
		sm->failed = true;
	free(sm->acc);
	sm->h = NULL;
	sm->acc = NULL;
}

/* The NIC's view and the verdict, when sampling ran: text after the summary, or a
 * "linerate_verdict" object in the JSON (iperf3's readers ignore keys they do not know). */
static void add_verdict(const struct sampling *sm, const struct lr_traffic_results *R,
			json_t *root)
{
	struct lr_verdict_traffic vt;
	struct lr_verdict v;

	if (!sm->h || !sm->acc || !sm->last_seq)
		return;
	lr_verdict_traffic_from(R, &vt);
	lr_verdict_compute(sm->acc, &vt, &v);
	if (root) {
		json_t *j = lr_verdict_json(sm->acc, &v);

		if (j)
			json_object_set_new(root, "linerate_verdict", j);
		return;
	}
	printf("\n");
	lr_verdict_print(stdout, sm->acc, &v);
}

static int run_client(const struct lr_config *cfg, struct intervals *iv)
{
	const struct lr_traffic_config *tc = &cfg->traffic;
	uint64_t dur = cfg->duration_set ? cfg->duration_ns : DEFAULT_TRAFFIC_NS;
	struct lr_traffic_results *R = NULL;
	struct lr_client *c = NULL;
	struct sampling sm;
	char err[256] = "";
	int rc;

	rc = lr_client_open(&c, tc, dur);
	if (rc < 0) {
		fprintf(stderr, "linerate: cannot set up the test: %s\n", strerror(-rc));
		return 1;
	}
	if (sampling_open(&sm, cfg, c) < 0) {
		lr_client_close(c);
		return 1;
	}
	if (!cfg->json)
		printf("Connecting to host %s, port %u\n", tc->host, tc->port ? tc->port : 5201u);
	fflush(stdout);
	rc = lr_client_start(c);
	if (rc < 0) {
		fprintf(stderr, "linerate: cannot start the client: %s\n", strerror(-rc));
		sampling_finish(&sm);
		sampling_close(&sm);
		lr_client_close(c);
		return 1;
	}
	while (!lr_client_wait(c, 1)) {
		if (lr_stop_signal)
			lr_client_stop(c);
		sampling_pump(&sm, c, intervals_wait(iv));
		intervals_tick(iv, c, cfg->json, false);
		drain_log();
	}
	if (iv->t0_ns && lr_client_state(c) == LR_CLIENT_DONE)
		intervals_tick(iv, c, cfg->json, true);
	sampling_finish(&sm);
	drain_log();
	R = malloc(sizeof(*R));
	if (!R || lr_client_results(c, R) < 0) {
		fprintf(stderr, "linerate: out of memory\n");
		free(R);
		sampling_close(&sm);
		lr_client_close(c);
		return 1;
	}
	if (lr_client_state(c) == LR_CLIENT_ERROR)
		lr_client_error(c, err, sizeof(err));
	if (cfg->json) {
		json_t *j = build_json(tc, R, iv->arr, err[0] ? err : NULL);

		iv->arr = NULL;
		if (R->n_streams && (R->complete || R->stopped))
			add_verdict(&sm, R, j);
		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
	} else if (R->n_streams && (R->complete || R->stopped)) {
		print_text(R);
		add_verdict(&sm, R, NULL);
	}
	fflush(stdout);
	if (err[0])
		fprintf(stderr, "linerate: %s\n", err);
	rc = err[0] || sm.failed ? 1 : 0;
	free(R);
	sampling_close(&sm);
	rc = rc || sm.failed ? 1 : 0;
	lr_client_close(c);
	return rc;
}

int lr_run_client(const struct lr_config *cfg)
{
	struct intervals *iv = calloc(1, sizeof(*iv));
	int rc;

	if (!iv || !(iv->arr = json_array())) {
		fprintf(stderr, "linerate: out of memory\n");
		free(iv);
		return 1;
	}
	rc = run_client(cfg, iv);
	json_decref(iv->arr);
	free(iv);
	return rc;
}

static bool server_should_stop(void *arg)
{
	(void)arg;
	return lr_stop_signal != 0;
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
		.no_gso = tc->no_gso,
		.rcv_timeout_ms = tc->rcv_timeout_ms,
		.snd_timeout_ms = tc->snd_timeout_ms,
		.should_stop = server_should_stop,
	};
	struct lr_server *s;
	int rc;

	lr_log_set_echo(LR_LOG_INFO);
	unsigned logged = lr_log_errors_echoed();

	rc = lr_server_open(&s, &o);
	if (rc < 0) {
		if (lr_log_errors_echoed() == logged)	/* else the cause is on stderr already */
			fprintf(stderr, "linerate: cannot listen on port %u: %s\n",
				tc->port ? tc->port : 5201u, strerror(-rc));
		return 1;
	}
	printf("-----------------------------------------------------------\n"
	       "Server listening on %u (linerate, iperf3 protocol)\n"
	       "-----------------------------------------------------------\n",
	       lr_server_port(s));
	fflush(stdout);
	rc = lr_server_run(s);
	lr_server_close(s);
	if (rc < 0) {
		fprintf(stderr, "linerate: server failed: %s\n", strerror(-rc));
		return 1;
	}
	return 0;
}
