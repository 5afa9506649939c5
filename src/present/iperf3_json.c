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
	struct lr_traffic_stream_result e;

	lr_iperf3_sum_result(s, udp, &e);
	return jside(&e, sender);
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

	json_object_set_new(root, "start", lr_iperf3_json_start(tc, R));
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
		struct lr_traffic_stream_result e;

		lr_iperf3_sum_result(main_dir, true, &e);
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
	if (tc->extra_data)
		json_object_set_new(root, "extra_data", json_string(tc->extra_data));
	if (error)
		json_object_set_new(root, "error", json_string(error));
	return root;
}


static json_t *jinterval(int id, double a, double b, uint64_t bytes, bool sender, bool omitted)
{
	json_t *o = json_object();

	json_object_set_new(o, "socket", json_integer(id));
	json_object_set_new(o, "start", json_real(a));
	json_object_set_new(o, "end", json_real(b));
	json_object_set_new(o, "seconds", json_real(b - a));
	json_object_set_new(o, "bytes", json_integer((json_int_t)bytes));
	json_object_set_new(o, "bits_per_second", json_real(rate(bytes, b - a)));
	json_object_set_new(o, "omitted", json_boolean(omitted));
	json_object_set_new(o, "sender", json_boolean(sender));
	return o;
}

/* An interval's sum over the streams of one direction (up: client -> server), as iperf3's. */
static json_t *jinterval_sum(double a, double b, const struct lr_iperf3_interval *st, unsigned n,
			     bool up)
{
	uint64_t total = 0, retr = 0;
	bool sender = false, any = false;
	json_t *sum;

	for (unsigned i = 0; i < n; i++) {
		if ((st[i].sender != st[i].server) != up)
			continue;
		total += st[i].bytes;
		retr += st[i].retransmits;
		sender = st[i].sender;
		any = true;
	}
	if (!any)
		return NULL;
	sum = jinterval(0, a, b, total, sender, st[0].omitted);
	json_object_del(sum, "socket");
	if (sender && !st[0].udp)
		json_object_set_new(sum, "retransmits", json_integer((json_int_t)retr));
	return sum;
}

json_t *lr_iperf3_json_interval(double a, double b, const struct lr_iperf3_interval *st,
				unsigned n)
{
	json_t *o = json_object(), *streams = json_array(), *sum, *rev;
	bool bidir = false;

	for (unsigned i = 0; i < n; i++) {
		json_t *one = jinterval(st[i].id, a, b, st[i].bytes, st[i].sender, st[i].omitted);

		if (st[i].sender && !st[i].udp)
			json_object_set_new(one, "retransmits",
					    json_integer((json_int_t)st[i].retransmits));
		json_array_append_new(streams, one);
		bidir |= st[i].sender != st[0].sender;
	}
	json_object_set_new(o, "streams", streams);
	/* one direction: its sum; --bidir: "sum" client -> server, "sum_bidir_reverse" back */
	sum = n ? jinterval_sum(a, b, st, n, bidir ? true : st[0].sender != st[0].server) : NULL;
	if (!sum) {
		sum = jinterval(0, a, b, 0, true, false);
		json_object_del(sum, "socket");
	}
	json_object_set_new(o, "sum", sum);
	rev = bidir ? jinterval_sum(a, b, st, n, false) : NULL;
	if (rev)
		json_object_set_new(o, "sum_bidir_reverse", rev);
	return o;
}
