// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iperf3's -J document for a test run by linerate: start, intervals, end (streams, sums, CPU),
 * in iperf3's key names so that scripts written for iperf3 read it unchanged.
 */
#include <stdio.h>
#include <sys/utsname.h>
#include <time.h>

#include <jansson.h>

#include "linerate/core/clock.h"
#include "linerate/core/common.h"
#include "linerate/present/iperf3_out.h"
#include "linerate/traffic/traffic.h"

static double rate(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes * 8.0 / secs : 0;
}

static double pct(int64_t lost, int64_t total)
{
	return total > 0 ? 100.0 * (double)lost / (double)total : 0;
}

/* Moves key to the end of o, as iperf3 orders its keys ("sender" last). */
static void last(json_t *o, const char *key)
{
	json_t *v = json_incref(json_object_get(o, key));

	if (!v)
		return;
	json_object_del(o, key);
	json_object_set_new(o, key, v);
}

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

/* iperf3's sender summary of a TCP stream: its socket's TCP_INFO over the report intervals
 * (this side's socket; zeros when it took none, as iperf3's client under -R prints). */
static void jpath(json_t *o, const struct lr_tcp_path *p)
{
	json_object_set_new(o, "reorder", json_integer(p->reorder));
	json_object_set_new(o, "max_snd_cwnd", json_integer((json_int_t)p->max_snd_cwnd));
	json_object_set_new(o, "max_snd_wnd", json_integer((json_int_t)p->max_snd_wnd));
	json_object_set_new(o, "max_rtt", json_integer(p->max_rtt_us));
	json_object_set_new(o, "min_rtt", json_integer(p->min_rtt_us));
	json_object_set_new(o, "mean_rtt",
			    json_integer(p->samples ? (json_int_t)(p->sum_rtt_us / p->samples) : 0));
	last(o, "sender");
}

static json_t *judp(const struct lr_traffic_stream_result *e)
{
	json_t *o = jside(e, true);

	json_object_set_new(o, "jitter_ms", json_real(e->jitter_s * 1e3));
	json_object_set_new(o, "lost_packets", json_integer(e->lost));
	json_object_set_new(o, "packets", json_integer(e->packets_sent));
	json_object_set_new(o, "lost_percent", json_real(pct(e->lost, e->packets_sent)));
	/* iperf3 prints its own count, so a sender's 0, where the receiver is the peer */
	json_object_set_new(o, "out_of_order", json_integer(e->out_of_order > 0 ? e->out_of_order
										 : 0));
	last(o, "sender");
	return o;
}

/* A direction's UDP datagrams by the receiver's sequence (iperf3's receiver packet count). */
static int64_t rx_packets(const struct lr_traffic_results *R, bool up)
{
	int64_t n = 0;

	for (unsigned i = 0; i < R->n_streams; i++)
		if (R->streams[i].client_sends == up)
			n += R->streams[i].packets_received;
	return n;
}

static json_t *jsum(const struct lr_traffic_results *R, const struct lr_traffic_sum *s,
		    bool sender)
{
	struct lr_traffic_stream_result e;
	json_t *o;

	lr_iperf3_sum_result(s, R->udp, &e);
	o = jside(&e, sender);
	json_object_del(o, "socket");	/* a sum is no socket's */
	if (R->udp) {	/* iperf3 3.9+: the sender's count, and the receiver's with its loss */
		int64_t rx = rx_packets(R, s == &R->sum_up);
		int64_t pk = sender ? e.packets_sent : rx;

		json_object_set_new(o, "jitter_ms", json_real(sender ? 0 : e.jitter_s * 1e3));
		json_object_set_new(o, "lost_packets", json_integer(sender ? 0 : e.lost));
		json_object_set_new(o, "packets", json_integer(pk));
		json_object_set_new(o, "lost_percent",
				    json_real(sender ? 0 : pct(e.lost, e.packets_sent ? e.packets_sent
										 : rx)));
		last(o, "sender");
	}
	return o;
}

/* The congestion control each end used, as iperf3 names them from this side's role. */
static void jcongestion(json_t *end, const struct lr_traffic_results *R)
{
	bool we_send = R->server_view ? R->reverse || R->bidir : !R->reverse && !R->bidir;
	const char *snd = we_send ? R->local_congestion : R->remote_congestion;
	const char *rcv = we_send ? R->remote_congestion : R->local_congestion;

	if (R->udp)
		return;
	if (snd[0])
		json_object_set_new(end, "sender_tcp_congestion", json_string(snd));
	if (rcv[0])
		json_object_set_new(end, "receiver_tcp_congestion", json_string(rcv));
}

/* iperf3's "system_info": uname's fields as `uname -a` prints them (less the OS name). */
static json_t *system_info(void)
{
	struct utsname u;
	char buf[5 * sizeof(u.sysname) + 8];

	if (uname(&u) < 0)
		return json_string("");
	snprintf(buf, sizeof(buf), "%s %s %s %s %s", u.sysname, u.nodename, u.release, u.version,
		 u.machine);
	return json_string(buf);
}

json_t *lr_iperf3_json_start(const struct lr_traffic_config *tc, const struct lr_traffic_results *R)
{
	json_t *start = json_object();
	json_t *conn = json_array(), *c0 = json_object(), *ts = json_object(), *ct = json_object();
	json_t *tst = json_object();
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
	json_object_set_new(start, "system_info", system_info());
	gmtime_r(&t, &tm);
	strftime(tbuf, sizeof(tbuf), "%a, %d %b %Y %H:%M:%S GMT", &tm);
	json_object_set_new(ts, "time", json_string(tbuf));
	json_object_set_new(ts, "timesecs", json_integer((json_int_t)t));
	json_object_set_new(ts, "timemillisecs",
			    json_integer((json_int_t)(R->start_real_ns / LR_NSEC_PER_MSEC)));
	json_object_set_new(start, "timestamp", ts);
	json_object_set_new(ct, "host", json_string(tc->host));
	json_object_set_new(ct, "port", json_integer(tc->port ? tc->port : 5201u));
	json_object_set_new(start, "connecting_to", ct);
	json_object_set_new(start, "cookie", json_string(R->cookie));
	if (!R->udp && tc->mss)	/* iperf3: the -M asked, else the control connection's */
		json_object_set_new(start, "tcp_mss", json_integer(tc->mss));
	else if (!R->udp && R->tcp_mss_default)
		json_object_set_new(start, "tcp_mss_default", json_integer(R->tcp_mss_default));
	if (R->have_sockbuf) {
		json_object_set_new(start, "sock_bufsize", json_integer((json_int_t)R->sock_bufsize));
		json_object_set_new(start, "sndbuf_actual", json_integer(R->sndbuf_actual));
		json_object_set_new(start, "rcvbuf_actual", json_integer(R->rcvbuf_actual));
	}
	/* iperf3 3.17+ repeats these here, whatever the protocol */
	json_object_set_new(start, "target_bitrate", json_integer((json_int_t)R->bitrate_bps));
	json_object_set_new(start, "fq_rate", json_integer((json_int_t)tc->fq_rate_bps));
	json_object_set_new(tst, "protocol", json_string(R->udp ? "UDP" : "TCP"));
	json_object_set_new(tst, "num_streams", json_integer(R->parallel));
	json_object_set_new(tst, "blksize", json_integer((json_int_t)R->len));
	json_object_set_new(tst, "omit", json_integer(tc->omit_s));
	json_object_set_new(tst, "duration",
			    json_integer((json_int_t)((R->duration_ns + LR_NSEC_PER_SEC / 2) /
							    LR_NSEC_PER_SEC)));
	json_object_set_new(tst, "bytes", json_integer((json_int_t)tc->num_bytes));
	json_object_set_new(tst, "blocks", json_integer((json_int_t)tc->blockcount));
	json_object_set_new(tst, "reverse", json_integer(R->reverse));
	json_object_set_new(tst, "tos", json_integer(tc->tos));
	json_object_set_new(tst, "target_bitrate", json_integer((json_int_t)R->bitrate_bps));
	json_object_set_new(tst, "bidir", json_integer(R->bidir));
	json_object_set_new(tst, "fqrate", json_integer((json_int_t)tc->fq_rate_bps));
	/* iperf3 3.21: the report interval, and whether UDP GSO/GRO were on for the test */
	json_object_set_new(tst, "interval",
			    json_real(tc->report_interval_ns ? (double)tc->report_interval_ns / 1e9
							     : 1.0));
	json_object_set_new(tst, "gso", json_integer(R->udp && !tc->no_gso));
	json_object_set_new(tst, "gro", json_integer(R->udp && !tc->no_gso));
	json_object_set_new(start, "test_start", tst);
	return start;
}

/* Takes the reference to intervals. */
json_t *lr_iperf3_json(const struct lr_traffic_config *tc, const struct lr_traffic_results *R,
		       json_t *intervals, const char *error)
{
	json_t *root = json_object(), *end = json_object();
	json_t *streams = json_array(), *cpu = json_object();
	const struct lr_traffic_sum *main_dir = R->reverse ? &R->sum_down : &R->sum_up;
	/* iperf3 prints the TCP_INFO summary where its side sends: a client unless -R (then
	 * zeros), a server under -R or --bidir */
	bool paths = R->server_view ? R->reverse || R->bidir : true;

	json_object_set_new(root, "start", lr_iperf3_json_start(tc, R));
	json_object_set_new(root, "intervals", intervals);

	for (unsigned i = 0; i < R->n_streams; i++) {
		const struct lr_traffic_stream_result *e = &R->streams[i];
		json_t *s = json_object();

		if (e->udp) {
			json_object_set_new(s, "udp", judp(e));
		} else {
			json_t *snd = jside(e, true);

			if (paths)
				jpath(snd, &e->path);
			json_object_set_new(s, "sender", snd);
			json_object_set_new(s, "receiver", jside(e, false));
		}
		json_array_append_new(streams, s);
	}
	json_object_set_new(end, "streams", streams);
	json_object_set_new(end, "sum_sent", jsum(R, main_dir, true));
	json_object_set_new(end, "sum_received", jsum(R, main_dir, false));
	if (R->bidir) {
		json_object_set_new(end, "sum_sent_bidir_reverse",
				    jsum(R, &R->sum_down, true));
		json_object_set_new(end, "sum_received_bidir_reverse",
				    jsum(R, &R->sum_down, false));
	}
	if (R->udp) {
		struct lr_traffic_stream_result e;

		json_t *sum;

		lr_iperf3_sum_result(main_dir, true, &e);
		sum = judp(&e);
		json_object_del(sum, "socket");
		json_object_del(sum, "out_of_order");
		json_object_set_new(end, "sum", sum);
	}
	json_object_set_new(cpu, "host_total", json_real(R->local_cpu_total));
	json_object_set_new(cpu, "host_user", json_real(R->local_cpu_user));
	json_object_set_new(cpu, "host_system", json_real(R->local_cpu_system));
	json_object_set_new(cpu, "remote_total", json_real(R->remote_cpu_total));
	json_object_set_new(cpu, "remote_user", json_real(R->remote_cpu_user));
	json_object_set_new(cpu, "remote_system", json_real(R->remote_cpu_system));
	json_object_set_new(end, "cpu_utilization_percent", cpu);
	jcongestion(end, R);
	json_object_set_new(root, "end", end);
	if (tc->extra_data)
		json_object_set_new(root, "extra_data", json_string(tc->extra_data));
	if (error)
		json_object_set_new(root, "error", json_string(error));
	return root;
}


static json_t *jinterval(int id, double a, double b, uint64_t bytes)
{
	json_t *o = json_object();

	json_object_set_new(o, "socket", json_integer(id));
	json_object_set_new(o, "start", json_real(a));
	json_object_set_new(o, "end", json_real(b));
	json_object_set_new(o, "seconds", json_real(b - a));
	json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
	json_object_set_new(o, "bits_per_second", json_real(rate(bytes, b - a)));
	return o;
}

/* iperf3's UDP columns of an interval: a sender's datagrams, a receiver's jitter and loss. */
static void judp_interval(json_t *o, bool sender, uint64_t packets, double jitter_s,
			  uint64_t lost)
{
	if (!sender) {
		json_object_set_new(o, "jitter_ms", json_real(jitter_s * 1e3));
		json_object_set_new(o, "lost_packets", json_integer((json_int_t)lost));
	}
	json_object_set_new(o, "packets", json_integer((json_int_t)packets));
	if (!sender)
		json_object_set_new(o, "lost_percent",
				    json_real(pct((int64_t)lost, (int64_t)packets)));
}

static void jflags(json_t *o, bool omitted, bool sender)
{
	json_object_set_new(o, "omitted", json_boolean(omitted));
	json_object_set_new(o, "sender", json_boolean(sender));
}

static json_t *jinterval_stream(double a, double b, const struct lr_iperf3_interval *s)
{
	json_t *o = jinterval(s->id, a, b, s->bytes);

	if (s->sender && !s->udp) {	/* iperf3: the sending socket's TCP_INFO then */
		json_object_set_new(o, "retransmits", json_integer((json_int_t)s->retransmits));
		json_object_set_new(o, "snd_cwnd", json_integer((json_int_t)s->tcp.snd_cwnd));
		json_object_set_new(o, "snd_wnd", json_integer((json_int_t)s->tcp.snd_wnd));
		json_object_set_new(o, "rtt", json_integer(s->tcp.rtt_us));
		json_object_set_new(o, "rttvar", json_integer(s->tcp.rttvar_us));
		json_object_set_new(o, "pmtu", json_integer(s->tcp.pmtu));
		json_object_set_new(o, "reorder", json_integer(s->tcp.reorder));
	} else if (s->udp) {
		judp_interval(o, s->sender, s->packets, s->jitter_s, s->lost);
	}
	jflags(o, s->omitted, s->sender);
	return o;
}

/* An interval's sum over the streams of one direction (up: client -> server), as iperf3's. */
static json_t *jinterval_sum(double a, double b, const struct lr_iperf3_interval *st, unsigned n,
			     bool up)
{
	uint64_t total = 0, retr = 0, packets = 0, lost = 0;
	double jitter = 0;
	unsigned k = 0;
	bool sender = false;
	json_t *sum;

	for (unsigned i = 0; i < n; i++) {
		if ((st[i].sender != st[i].server) != up)
			continue;
		total += st[i].bytes;
		retr += st[i].retransmits;
		packets += st[i].packets;
		lost += st[i].lost;
		jitter += st[i].jitter_s;
		sender = st[i].sender;
		k++;
	}
	if (!k)
		return NULL;
	sum = jinterval(0, a, b, total);
	json_object_del(sum, "socket");
	if (sender && !st[0].udp)
		json_object_set_new(sum, "retransmits", json_integer((json_int_t)retr));
	else if (st[0].udp)	/* iperf3: the streams' mean jitter */
		judp_interval(sum, sender, packets, jitter / k, lost);
	jflags(sum, st[0].omitted, sender);
	return sum;
}

json_t *lr_iperf3_json_interval(double a, double b, const struct lr_iperf3_interval *st,
				unsigned n)
{
	json_t *o = json_object(), *streams = json_array(), *sum, *rev;
	bool bidir = false;

	for (unsigned i = 0; i < n; i++) {
		json_array_append_new(streams, jinterval_stream(a, b, &st[i]));
		bidir |= st[i].sender != st[0].sender;
	}
	json_object_set_new(o, "streams", streams);
	/* one direction: its sum; --bidir: "sum" client -> server, "sum_bidir_reverse" back */
	sum = n ? jinterval_sum(a, b, st, n, bidir ? true : st[0].sender != st[0].server) : NULL;
	if (!sum) {
		sum = jinterval(0, a, b, 0);
		json_object_del(sum, "socket");
		jflags(sum, false, true);
	}
	json_object_set_new(o, "sum", sum);
	rev = bidir ? jinterval_sum(a, b, st, n, false) : NULL;
	if (rev)
		json_object_set_new(o, "sum_bidir_reverse", rev);
	return o;
}
