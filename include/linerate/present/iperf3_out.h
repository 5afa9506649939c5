/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What an iperf3 user reads: a test's per-interval lines and final summary in iperf3's text
 * layout, and iperf3's -J JSON shape, from the traffic engine's results. Formatting only: the
 * caller decides what was measured and when. [present] */
#ifndef LINERATE_IPERF3_OUT_H
#define LINERATE_IPERF3_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "linerate/traffic/traffic.h"

struct lr_traffic_config;
struct lr_traffic_results;
struct lr_traffic_stream_result;
struct lr_traffic_sum;

/* One stream's counts over one reporting interval. */
struct lr_iperf3_interval {
	int id;
	bool sender, udp;
	bool omitted; /* -O: within the omitted seconds ("(omitted)", "omitted": true) */
	uint64_t bytes, retransmits, lost;
	/* server: iperf3 -s's columns (UDP receiver: jitter and lost/total, where packets is
	 * the interval's datagrams by sequence; UDP sender: the datagrams sent) */
	bool server;
	uint64_t packets;
	double jitter_s;
	bool no_header;	/* st[0]: no header even at a == 0 (iperf3 restarts at 0 after -O) */
	/* -J (either side): a UDP stream's datagrams and jitter as above; a TCP sender's socket
	 * at the interval's end (zeros when it was not read, as iperf3's) */
	struct lr_tcp_sample tcp;
};

/* unit: iperf3's -f for the bitrate column ('a' adaptive bits, the default; 'A' adaptive
 * bytes; k m g t fixed bits; K M G T fixed bytes); the transfer column stays adaptive bytes.
 * Text: iperf3's "[ ID] Interval ..." header first when a == 0 (else its "- - -" line when a
 * direction has more than one stream), one line per stream, a direction's [SUM] line when it
 * has more than one stream. */
void lr_iperf3_print_interval(FILE *f, double a, double b, const struct lr_iperf3_interval *st,
			      unsigned n, char unit);
/* -J: one element of iperf3's "intervals" array ({"streams": [...], "sum": {...}}). */
json_t *lr_iperf3_json_interval(double a, double b, const struct lr_iperf3_interval *st,
				unsigned n);
/* The end-of-test summary in iperf3's text layout, "linerate Done." last; verbose (-V) adds
 * iperf3 -V's "Test Complete" and CPU lines. */
void lr_iperf3_print_summary(FILE *f, const struct lr_traffic_results *R, char unit, bool verbose);
/* The same for the server's side of a test: its own view of the roles, no CPU line. */
void lr_iperf3_print_server_summary(FILE *f, const struct lr_traffic_results *R, char unit);
/* A direction's sum as one stream's result, so sums print like streams (out_of_order unknown). */
void lr_iperf3_sum_result(const struct lr_traffic_sum *s, bool udp,
			  struct lr_traffic_stream_result *e);
/* -J's "start" object (--json-stream's start event): R's settings, cookie, addresses and
 * streams (its counts are not read). */
json_t *lr_iperf3_json_start(const struct lr_traffic_config *tc, const struct lr_traffic_results *R);
/* iperf3's -J document; takes the reference to intervals. error: the run's error or NULL. */
json_t *lr_iperf3_json(const struct lr_traffic_config *tc, const struct lr_traffic_results *R,
		       json_t *intervals, const char *error);

#endif
