// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iperf3's text layout for a test: interval lines and the end summary, with iperf3's units
 * (transfer in 1024-based bytes, bitrate in 1000-based bits).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "linerate/present/iperf3_out.h"
#include "linerate/traffic/traffic.h"

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

/* iperf3's -f: 'a' adaptive bits (default), 'A' adaptive bytes, k m g t fixed bits (1000),
 * K M G T fixed bytes (1024), per second. */
static void fmt_rate(char *buf, size_t size, double bps, char unit)
{
	static const char *const bits[] = {"bits/sec", "Kbits/sec", "Mbits/sec", "Gbits/sec",
					   "Tbits/sec"};
	static const char *const bytes[] = {"Bytes/sec", "KBytes/sec", "MBytes/sec",
					    "GBytes/sec", "TBytes/sec"};
	static const char fixed[] = "kmgt";
	const char *at = unit ? strchr(fixed, unit | 0x20) : NULL;
	bool in_bytes = unit >= 'A' && unit <= 'Z';
	double base = in_bytes ? 1024.0 : 1000.0, v = in_bytes ? bps / 8 : bps;

	if (!unit || unit == 'a') {
		fmt_bits(buf, size, bps);
		return;
	}
	if (unit == 'A' || !at) {
		fmt_unit(buf, size, v, base, in_bytes ? bytes : bits, 5);
		return;
	}
	for (const char *c = fixed; c <= at; c++)
		v /= base;
	snprintf(buf, size, v < 9.995 ? "%4.2f %s" : v < 99.95 ? "%4.1f %s" : "%4.0f %s", v,
		 (in_bytes ? bytes : bits)[at - fixed + 1]);
}

static double rate(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes * 8.0 / secs : 0;
}

static double pct(int64_t lost, int64_t total)
{
	return total > 0 ? 100.0 * (double)lost / (double)total : 0;
}

static void print_line(FILE *f, char unit, const char *tag, double secs, uint64_t bytes, const char *extra,
		       const char *role)
{
	char b[32], r[32];

	fmt_bytes(b, sizeof(b), (double)bytes);
	fmt_rate(r, sizeof(r), rate(bytes, secs), unit);
	fprintf(f, "%s   0.00-%-6.2f sec  %s  %s  %s%s\n", tag, secs, b, r, extra, role);
}

/* A stream stopped early has only this side's count: the other line is left out. This side is
 * the client, or the server (server: it sends where the client does not). */
static void print_stream(FILE *f, char unit, const char *tag,
			 const struct lr_traffic_stream_result *e, bool udp, bool server)
{
	bool local_sends = server ? !e->client_sends : e->client_sends;
	bool snd = e->have_peer || local_sends, rcv = e->have_peer || !local_sends;
	int64_t total;
	char extra[96];

	if (udp) {
		snprintf(extra, sizeof(extra), "%.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  ", 0.0,
			 (int64_t)0, e->packets_sent, 0.0);
		if (snd)
			print_line(f, unit, tag, e->sender_s, e->sent_bytes, extra, "sender");
		/* the receiver's line counts the receiver's datagrams (its highest sequence), as
		 * iperf3's; a sum has only the sender's */
		total = e->packets_received > 0 ? e->packets_received : e->packets_sent;
		snprintf(extra, sizeof(extra), "%.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  ",
			 e->jitter_s * 1e3, e->lost, total, pct(e->lost, total));
		if (rcv)
			print_line(f, unit, tag, e->receiver_s ? e->receiver_s : e->sender_s,
				   e->received_bytes, extra, "receiver");
		return;
	}
	/* iperf3's columns: "  %3u" retransmits then 13 blanks, or 18 blanks, before the role */
	if (e->retransmits >= 0)
		snprintf(extra, sizeof(extra), "%3" PRId64 "             ", e->retransmits);
	else
		snprintf(extra, sizeof(extra), "%16s", "");
	if (snd)
		print_line(f, unit, tag, e->sender_s, e->sent_bytes, extra, "sender");
	if (rcv)
		print_line(f, unit, tag, e->receiver_s ? e->receiver_s : e->sender_s, e->received_bytes,
			   "                ", "receiver");
}

void lr_iperf3_sum_result(const struct lr_traffic_sum *s, bool udp,
			  struct lr_traffic_stream_result *e)
{
	*e = (struct lr_traffic_stream_result){
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
}

static void print_sum(FILE *f, char unit, const char *tag, const struct lr_traffic_sum *s, bool udp,
		      bool sends, bool complete, bool server)
{
	struct lr_traffic_stream_result e;

	lr_iperf3_sum_result(s, udp, &e);
	e.client_sends = sends;
	e.have_peer = complete;
	print_stream(f, unit, tag, &e, udp, server);
}

/* The streams and sums; the roles (bidir) named from this side, as iperf3 does. */
static void print_results(FILE *f, const struct lr_traffic_results *R, char unit, bool server)
{
	const char *up = server ? "RX-S" : "TX-C", *down = server ? "TX-S" : "RX-C";
	bool udp = R->udp;

	fprintf(f, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	if (udp)
		fprintf(f, "[ ID]%s Interval           Transfer     Bitrate         Jitter    "
		       "Lost/Total Datagrams\n",
		       R->bidir ? "[Role]" : "");
	else
		fprintf(f, "[ ID]%s Interval           Transfer     Bitrate         Retr\n",
		       R->bidir ? "[Role]" : "");
	for (unsigned i = 0; i < R->n_streams; i++) {
		const struct lr_traffic_stream_result *e = &R->streams[i];
		char tag[24];

		if (R->bidir)
			snprintf(tag, sizeof(tag), "[%3d][%s]", e->id, e->client_sends ? up : down);
		else
			snprintf(tag, sizeof(tag), "[%3d]", e->id);
		print_stream(f, unit, tag, e, udp, server);
	}
	if (R->n_streams > 1 || R->bidir) {
		char tag[16];

		snprintf(tag, sizeof(tag), "[SUM]%s%s%s", R->bidir ? "[" : "", R->bidir ? up : "",
			 R->bidir ? "]" : "");
		if (R->sum_up.n_streams)
			print_sum(f, unit, tag, &R->sum_up, udp, true, R->complete, server);
		snprintf(tag, sizeof(tag), "[SUM]%s%s%s", R->bidir ? "[" : "", R->bidir ? down : "",
			 R->bidir ? "]" : "");
		if (R->sum_down.n_streams)
			print_sum(f, unit, tag, &R->sum_down, udp, false, R->complete, server);
	}
}

void lr_iperf3_print_server_summary(FILE *f, const struct lr_traffic_results *R, char unit)
{
	print_results(f, R, unit, true);
	if (R->stopped)
		fprintf(f, "(test ended early: this side's counts only)\n");
}

void lr_iperf3_print_summary(FILE *f, const struct lr_traffic_results *R, char unit)
{
	print_results(f, R, unit, false);
	fprintf(f, "CPU Utilization: local/%s %.1f%% (%.1f%%u/%.1f%%s), remote/%s %.1f%% "
	       "(%.1f%%u/%.1f%%s)\n",
	       R->reverse ? "receiver" : "sender", R->local_cpu_total, R->local_cpu_user,
	       R->local_cpu_system, R->reverse ? "sender" : "receiver", R->remote_cpu_total,
	       R->remote_cpu_user, R->remote_cpu_system);
	if (R->stopped)
		fprintf(f, "(test stopped early: this side's counts only)\n");
	fprintf(f, "\nlinerate Done.\n");
}

void lr_iperf3_print_interval(FILE *f, double a, double b, const struct lr_iperf3_interval *st,
			      unsigned n, char unit)
{
	uint64_t sum = 0;
	char bb[32], rr[32];

	if (a == 0 && n && st[0].no_header)
		;
	else if (a == 0 && n && st[0].server)
		fprintf(f, "[ ID] Interval           Transfer     Bitrate%s\n",
			st[0].udp && !st[0].sender ? "         Jitter    Lost/Total Datagrams"
			: st[0].udp ? "         Total Datagrams" : st[0].sender ? "         Retr" : "");
	else if (a == 0)
		fprintf(f, "[ ID] Interval           Transfer     Bitrate         Retr/Lost\n");
	for (unsigned i = 0; i < n; i++) {
		const struct lr_iperf3_interval *s = &st[i];
		char tag[16], extra[48] = "";

		snprintf(tag, sizeof(tag), "[%3d]", s->id);
		if (s->server && s->udp && !s->sender)
			snprintf(extra, sizeof(extra), "%.3f ms  %llu/%llu (%.2g%%)", s->jitter_s * 1e3,
				 (unsigned long long)s->lost, (unsigned long long)s->packets,
				 pct((int64_t)s->lost, (int64_t)s->packets));
		else if (s->server && s->udp)
			snprintf(extra, sizeof(extra), "%llu", (unsigned long long)s->packets);
		else if (s->sender && !s->udp)
			snprintf(extra, sizeof(extra), "%5llu", (unsigned long long)s->retransmits);
		else if (!s->sender && s->udp)
			snprintf(extra, sizeof(extra), "%5llu lost", (unsigned long long)s->lost);
		fmt_bytes(bb, sizeof(bb), (double)s->bytes);
		fmt_rate(rr, sizeof(rr), rate(s->bytes, b - a), unit);
		bool blank = s->server && !extra[0];

		if (blank)	/* iperf3's blank Retr column */
			snprintf(extra, sizeof(extra), "%16s", "");
		fprintf(f, "%s %6.2f-%-6.2f sec  %s  %s  %s%s\n", tag, a, b, bb, rr, extra,
			s->omitted ? (blank ? "(omitted)" : "  (omitted)")
			: s->sender || s->server ? "" : "  (received)");
		sum += s->bytes;
	}
	if (n > 1) {
		fmt_bytes(bb, sizeof(bb), (double)sum);
		fmt_rate(rr, sizeof(rr), rate(sum, b - a), unit);
		fprintf(f, "[SUM] %6.2f-%-6.2f sec  %s  %s%s\n", a, b, bb, rr,
			st[0].omitted ? "  (omitted)" : "");
	}
}
