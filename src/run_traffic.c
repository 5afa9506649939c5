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
#include "linerate/config.h"
#include "linerate/gencol.h"
#include "linerate/headless.h"
#include "linerate/log.h"
#include "linerate/run.h"
#include "linerate/sampler.h"
#include "linerate/snapshot.h"
#include "linerate/traffic.h"
#include "linerate/verdict.h"

#ifndef LR_VERSION
#define LR_VERSION "0"
#endif
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

static void print_stream(const char *tag, const struct lr_traffic_stream_result *e, bool udp)
{
	char extra[96];

	if (udp) {
		snprintf(extra, sizeof(extra), "%.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  ", 0.0,
			 (int64_t)0, e->packets_sent, 0.0);
		print_line(tag, e->sender_s, e->sent_bytes, extra, "sender");
		snprintf(extra, sizeof(extra), "%.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  ",
			 e->jitter_s * 1e3, e->lost, e->packets_sent,
			 pct(e->lost, e->packets_sent));
		print_line(tag, e->receiver_s ? e->receiver_s : e->sender_s, e->received_bytes,
			   extra, "receiver");
		return;
	}
	if (e->retransmits >= 0)
		snprintf(extra, sizeof(extra), "%5" PRId64 "             ", e->retransmits);
	else
		snprintf(extra, sizeof(extra), "%18s", "");
	print_line(tag, e->sender_s, e->sent_bytes, extra, "sender");
	print_line(tag, e->receiver_s ? e->receiver_s : e->sender_s, e->received_bytes,
		   "                  ", "receiver");
}

static void print_sum(const char *tag, const struct lr_traffic_sum *s, bool udp)
{
	struct lr_traffic_stream_result e = {
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
			print_sum(R->bidir ? "[SUM][TX-C]" : "[SUM]", &R->sum_up, udp);
		if (R->sum_down.n_streams)
			print_sum(R->bidir ? "[SUM][RX-C]" : "[SUM]", &R->sum_down, udp);
	}
	printf("CPU Utilization: local/%s %.1f%% (%.1f%%u/%.1f%%s), remote/%s %.1f%% "
	       "(%.1f%%u/%.1f%%s)\n",
	       R->reverse ? "receiver" : "sender", R->local_cpu_total, R->local_cpu_user,
	       R->local_cpu_system, R->reverse ? "sender" : "receiver", R->remote_cpu_total,
	       R->remote_cpu_user, R->remote_cpu_system);
	if (R->stopped)
		printf("(test stopped early; receiver counts are partial)\n");
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

static json_t *build_json(const struct lr_traffic_config *tc, const struct lr_traffic_results *R,
			  const char *error)
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
	json_object_set_new(start, "version", json_string("linerate " LR_VERSION));
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
	json_object_set_new(root, "intervals", json_array());

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

/* The NIC's view of the run: the sampler (and any CSV files asked for) beside the test. */
struct sampling {
	struct lr_headless *h;
	struct lr_verdict_acc *acc;
	struct lr_gen_source src;
	uint64_t last_seq;
	bool failed; /* a CSV write failed (reported): exit 1 */
};

static unsigned gen_count(void *arg)
{
	return lr_client_stream_count(arg);
}

static int gen_info(void *arg, unsigned i, struct lr_gen_stream *out)
{
	struct lr_client_stream_info ci;
	int err = lr_client_stream_info(arg, i, &ci);

	if (err)
		return err;
	out->id = ci.id;
	out->sender = ci.sender;
	out->udp = ci.udp;
	out->stats = ci.stats;
	return 0;
}

/* Without CSV files sampling is a bonus: when it cannot start, the test runs without it. */
static int sampling_open(struct sampling *sm, const struct lr_config *cfg, struct lr_client *c)
{
	bool files = cfg->csv || cfg->cpu_csv || cfg->streams_csv;
	const char *iface = cfg->ifaces && !strchr(cfg->ifaces, ',') ? cfg->ifaces : NULL;

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
	lr_verdict_init(sm->acc, iface);
	sm->src = (struct lr_gen_source){.count = gen_count, .info = gen_info, .arg = c};
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

/* Waits up to 100 ms for the client, writing CSV rows as snapshots come. */
static void sampling_pump(struct sampling *sm, struct lr_client *c)
{
	int got;

	if (!sm->h || sm->failed) {
		lr_client_wait(c, 100 * LR_NSEC_PER_MSEC);
		return;
	}
	got = lr_headless_pump(sm->h, 100 * LR_NSEC_PER_MSEC);
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

static double sum_rate(const struct lr_traffic_sum *s)
{
	if (s->received_bytes && s->receiver_s > 0)
		return (double)s->received_bytes * 8 / s->receiver_s;
	if (s->sent_bytes && s->sender_s > 0)
		return (double)s->sent_bytes * 8 / s->sender_s;
	return -1;
}

static void print_verdict(const struct sampling *sm, const struct lr_traffic_results *R)
{
	struct lr_verdict_traffic vt = {
		.ran = R->n_streams > 0, .udp = R->udp, .parallel = R->parallel};
	struct lr_verdict v;

	if (!sm->h || !sm->acc || !sm->last_seq)
		return;
	vt.up_bps = R->sum_up.n_streams ? sum_rate(&R->sum_up) : -1;
	vt.down_bps = R->sum_down.n_streams ? sum_rate(&R->sum_down) : -1;
	vt.retransmits = R->sum_up.n_streams ? R->sum_up.retransmits : -1;
	if (R->sum_down.n_streams && R->sum_down.retransmits >= 0)
		vt.retransmits =
			(vt.retransmits < 0 ? 0 : vt.retransmits) + R->sum_down.retransmits;
	vt.udp_lost = vt.udp_packets = -1;
	if (R->udp && (R->complete || !R->sum_up.n_streams)) {
		vt.udp_lost = R->sum_up.lost + R->sum_down.lost;
		vt.udp_packets = R->sum_up.packets_sent + R->sum_down.packets_sent;
	}
	lr_verdict_compute(sm->acc, &vt, &v);
	printf("\n");
	lr_verdict_print(stdout, sm->acc, &v);
}

int lr_run_client(const struct lr_config *cfg)
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
		sampling_pump(&sm, c);
		drain_log();
	}
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
		json_t *j = build_json(tc, R, err[0] ? err : NULL);

		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
	} else if (R->n_streams && (R->complete || R->stopped)) {
		print_text(R);
		print_verdict(&sm, R);
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
		.should_stop = server_should_stop,
	};
	struct lr_server *s;
	int rc;

	lr_log_set_echo(LR_LOG_INFO);
	rc = lr_server_open(&s, &o);
	if (rc < 0) {
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
