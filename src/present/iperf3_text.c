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

/* iperf3's unit_snprintf 'A': singular names ("293 KByte") */
static void fmt_byte(char *buf, size_t size, double b)
{
	static const char *const u[] = {"Byte", "KByte", "MByte", "GByte", "TByte"};

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
 * the client, or the server (server: it sends where the client does not), which prints only
 * its own line of each stream, as iperf3 -s does (the peer's count stays in -J and in the
 * client's lines). A TCP sender's line
 * has 12 blanks after its retransmits, a sum's 13 (report_bw_retrans_format and
 * report_sum_bw_retrans_format). */
/* -F: iperf3's report_diskfile line under a stream's sender line, with what this side sent
 * (or received) against the file's size at the end; an empty file counts as all of it. */
static void print_diskfile(FILE *f, const struct lr_traffic_results *R, uint64_t bytes)
{
	char b[32], s[32];
	int p = R->file_size > 0 ? (int)((double)bytes / (double)R->file_size * 100.0) : 100;

	fmt_byte(b, sizeof(b), (double)bytes);
	fmt_byte(s, sizeof(s), (double)R->file_size);
	fprintf(f, "        Sent %s / %s (%d%%) of %s\n", b, s, p, R->file);
}

static void print_stream(FILE *f, char unit, const char *tag,
			 const struct lr_traffic_stream_result *e, bool udp, bool server, bool sum,
			 const struct lr_traffic_results *R)
{
	bool local_sends = server ? !e->client_sends : e->client_sends;
	bool snd = (e->have_peer && !server) || local_sends;
	bool rcv = (e->have_peer && !server) || !local_sends;
	int64_t total;
	char extra[96];

	if (udp) {
		snprintf(extra, sizeof(extra), "%.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  ", 0.0,
			 (int64_t)0, e->packets_sent, 0.0);
		if (snd)
			print_line(f, unit, tag, e->sender_s, e->sent_bytes, extra, "sender");
		/* the receiver's line counts the receiver's datagrams (its highest sequence), as
		 * iperf3's, a sum its streams' (a stopped test has no sender's count: 0/0 once) */
		total = e->packets_received > 0 ? e->packets_received : e->packets_sent;
		snprintf(extra, sizeof(extra), "%.3f ms  %" PRId64 "/%" PRId64 " (%.2g%%)  ",
			 e->jitter_s * 1e3, e->lost, total, pct(e->lost, total));
		if (rcv)
			print_line(f, unit, tag, e->receiver_s ? e->receiver_s : e->sender_s,
				   e->received_bytes, extra, "receiver");
		return;
	}
	if (e->retransmits >= 0)
		snprintf(extra, sizeof(extra), "%3" PRId64 "%s", e->retransmits,
			 sum ? "             " : "            ");
	else
		snprintf(extra, sizeof(extra), "%16s", "");
	if (snd)
		print_line(f, unit, tag, e->sender_s, e->sent_bytes, extra, "sender");
	if (!sum && R->file && R->file_size >= 0)
		print_diskfile(f, R, local_sends ? e->sent_bytes : e->received_bytes);
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
		.packets_received = s->packets_received,
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
	print_stream(f, unit, tag, &e, udp, server, true, NULL);
}

/* The streams and sums in iperf3's order: one direction's streams then its [SUM] (only with
 * more than one stream that way), a client's sending direction first, a server's receiving
 * one; the roles (bidir) named from this side. verbose: -V's "Test Complete" line. */
static void print_results(FILE *f, const struct lr_traffic_results *R, char unit, bool server,
			  bool verbose)
{
	const char *up = server ? "RX-S" : "TX-C", *down = server ? "TX-S" : "RX-C";
	bool udp = R->udp, retr = !server;

	for (unsigned i = 0; i < R->n_streams; i++)
		retr |= !R->streams[i].client_sends;	/* a server's Retr: where it sends */
	fprintf(f, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	if (verbose)
		fprintf(f, "Test Complete. Summary Results:\n");
	if (udp)
		fprintf(f, "[ ID]%s Interval           Transfer     Bitrate         Jitter    "
		       "Lost/Total Datagrams\n",
		       R->bidir ? "[Role]" : "");
	else
		fprintf(f, "[ ID]%s Interval           Transfer     Bitrate%s\n",
			R->bidir ? "[Role]" : "", retr ? "         Retr" : "");
	for (int pass = 0; pass < 2; pass++) {
		/* client -> server first: what a client sends, what a server receives */
		bool sends = pass == 0;
		const struct lr_traffic_sum *sum = sends ? &R->sum_up : &R->sum_down;
		char tag[24];

		for (unsigned i = 0; i < R->n_streams; i++) {
			const struct lr_traffic_stream_result *e = &R->streams[i];

			if (e->client_sends != sends)
				continue;
			if (R->bidir)
				snprintf(tag, sizeof(tag), "[%3d][%s]", e->id, sends ? up : down);
			else
				snprintf(tag, sizeof(tag), "[%3d]", e->id);
			print_stream(f, unit, tag, e, udp, server, false, R);
		}
		snprintf(tag, sizeof(tag), "[SUM]%s%s%s", R->bidir ? "[" : "",
			 R->bidir ? (sends ? up : down) : "", R->bidir ? "]" : "");
		if (sum->n_streams > 1)
			print_sum(f, unit, tag, sum, udp, sends, R->complete, server);
	}
}

void lr_iperf3_print_server_summary(FILE *f, const struct lr_traffic_results *R, char unit)
{
	print_results(f, R, unit, true, false);
	if (R->stopped)
		fprintf(f, "(test ended early: this side's counts only)\n");
}

void lr_iperf3_print_summary(FILE *f, const struct lr_traffic_results *R, char unit, bool verbose)
{
	print_results(f, R, unit, false, verbose);
	/* iperf3 -V only, and only where this side sends (not under -R) */
	if (verbose && (!R->reverse || R->bidir))
		fprintf(f, "CPU Utilization: local/%s %.1f%% (%.1f%%u/%.1f%%s), remote/%s %.1f%% "
		       "(%.1f%%u/%.1f%%s)\n",
		       "sender", R->local_cpu_total, R->local_cpu_user, R->local_cpu_system,
		       "receiver", R->remote_cpu_total, R->remote_cpu_user, R->remote_cpu_system);
	if (R->stopped)
		fprintf(f, "(test stopped early: this side's counts only)\n");
	fprintf(f, "\nlinerate Done.\n");
}

/* iperf3's interval header, from the first stream (print_interval_results): a TCP client, or
 * a TCP server that sends (also under --bidir), has the Retr and Cwnd columns; a UDP sender
 * Total Datagrams; a UDP receiver (or --bidir) Jitter and Lost/Total. */
static void print_interval_header(FILE *f, const struct lr_iperf3_interval *st, bool bidir)
{
	const char *id = bidir ? "[ ID][Role]" : "[ ID]";
	const char *cols;

	if (!st[0].udp)
		cols = !st[0].server || st[0].sender || bidir ? "         Retr  Cwnd" : "";
	else if (st[0].sender && !bidir)
		cols = "         Total Datagrams";
	else
		cols = "         Jitter    Lost/Total Datagrams";
	fprintf(f, "%s Interval           Transfer     Bitrate%s\n", id, cols);
}

/* One stream's interval line in iperf3's formats (report_bw_*_format); role is "[TX-C]" and
 * the like under --bidir, else "". */
static void print_interval_stream(FILE *f, double a, double b, const struct lr_iperf3_interval *s,
				  const char *role, bool bidir, char unit)
{
	const char *om = s->omitted ? "(omitted)" : "";
	char bb[32], rr[32], cw[32];

	fmt_bytes(bb, sizeof(bb), (double)s->bytes);
	fmt_rate(rr, sizeof(rr), rate(s->bytes, b - a), unit);
	fprintf(f, "[%3d]%s %6.2f-%-6.2f sec  %s  %s", s->id, role, a, b, bb, rr);
	if (!s->udp && s->sender) {
		fmt_bytes(cw, sizeof(cw), (double)s->tcp.snd_cwnd);
		fprintf(f, "  %3llu   %s       %s\n", (unsigned long long)s->retransmits, cw, om);
	} else if (!s->udp) {
		fprintf(f, "                  %s\n", om);
	} else if (s->sender) {
		fprintf(f, " %s %llu  %s\n", bidir ? "          " : "",
			(unsigned long long)s->packets, om);
	} else {
		fprintf(f, "  %5.3f ms  %llu/%llu (%.2g%%)  %s\n", s->jitter_s * 1e3,
			(unsigned long long)s->lost, (unsigned long long)s->packets,
			pct((int64_t)s->lost, (int64_t)s->packets), om);
	}
}

/* One direction's [SUM] interval line (report_sum_bw_*_format; a UDP sender's has ten blanks
 * before its count even without --bidir, as iperf3's). */
static void print_interval_sum(FILE *f, double a, double b, const struct lr_iperf3_interval *st,
			       unsigned n, bool sender, const char *role, char unit)
{
	uint64_t by = 0, rt = 0, lo = 0, pk = 0;
	double jit = 0;
	unsigned m = 0;
	bool udp = st[0].udp;
	const char *om = st[0].omitted ? "(omitted)" : "";
	char bb[32], rr[32];

	for (unsigned i = 0; i < n; i++) {
		if (st[i].sender != sender)
			continue;
		by += st[i].bytes;
		rt += st[i].retransmits;
		lo += st[i].lost;
		pk += st[i].packets;
		jit += st[i].jitter_s;
		m++;
	}
	fmt_bytes(bb, sizeof(bb), (double)by);
	fmt_rate(rr, sizeof(rr), rate(by, b - a), unit);
	fprintf(f, "[SUM]%s %6.2f-%-6.2f sec  %s  %s", role, a, b, bb, rr);
	if (!udp && sender)
		fprintf(f, "  %3llu             %s\n", (unsigned long long)rt, om);
	else if (!udp)
		fprintf(f, "                  %s\n", om);
	else if (sender)
		fprintf(f, " %s %llu  %s\n", "          ", (unsigned long long)pk, om);
	else
		fprintf(f, "  %5.3f ms  %llu/%llu (%.2g%%)  %s\n", m ? jit / m * 1e3 : 0.0,
			(unsigned long long)lo, (unsigned long long)pk,
			pct((int64_t)lo, (int64_t)pk), om);
}

void lr_iperf3_print_interval(FILE *f, double a, double b, const struct lr_iperf3_interval *st,
			      unsigned n, char unit)
{
	unsigned n_snd = 0, per_dir;
	bool bidir, server = n && st[0].server;

	if (!n)
		return;
	for (unsigned i = 0; i < n; i++)
		n_snd += st[i].sender;
	bidir = n_snd && n_snd < n;
	per_dir = bidir ? n_snd : n;	/* iperf3's num_streams: -P */
	if (a == 0 && !st[0].no_header)
		print_interval_header(f, st, bidir);
	else if (per_dir > 1)
		fprintf(f, "- - - - - - - - - - - - - - - - - - - - - - - - -\n");
	/* iperf3's order: a client's sending streams first, a server's receiving ones */
	for (int pass = 0; pass < (bidir ? 2 : 1); pass++) {
		bool snd = bidir ? (pass == 0) != server : st[0].sender;
		const char *role = !bidir ? "" : snd ? (server ? "[TX-S]" : "[TX-C]")
						       : (server ? "[RX-S]" : "[RX-C]");

		for (unsigned i = 0; i < n; i++)
			if (st[i].sender == snd)
				print_interval_stream(f, a, b, &st[i], role, bidir, unit);
		if (per_dir > 1)
			print_interval_sum(f, a, b, st, n, snd, role, unit);
	}
}
