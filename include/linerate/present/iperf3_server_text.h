/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iperf3 -s's text for each test the server runs (traffic/server_view.h): the accepted
 * connection, the streams, an interval block every report interval, the summary. [main] */
#ifndef LINERATE_IPERF3_SERVER_TEXT_H
#define LINERATE_IPERF3_SERVER_TEXT_H

#include <stdint.h>
#include <stdio.h>

struct lr_server_text; /* opaque */
struct lr_server_test_view;

/* interval_ns: iperf3's -i (0 = 1 s); unit: -f; after: text after each summary (iperf3's
 * "Server listening" banner again), NULL none; borrowed. 0 or -1 (out of memory). */
int lr_server_text_open(struct lr_server_text **out, FILE *f, uint64_t interval_ns, char unit,
			const char *after);
/* Prints what is due now, v being the newest read of the server's test (kept by the caller
 * until the next poll: next_ns reads it). 1 printed, 0 nothing, -1 on a write error. */
int lr_server_text_poll(struct lr_server_text *t, const struct lr_server_test_view *v);
/* CLOCK_MONOTONIC when the next interval line is due, UINT64_MAX none (no test running):
 * poll then, so each line counts its own interval. */
uint64_t lr_server_text_next_ns(const struct lr_server_text *t);
/* A new text after each summary (NULL: none, e.g. the server is stopping). */
void lr_server_text_set_after(struct lr_server_text *t, const char *after);
/* --json-stream: iperf3's events (start, interval, end) instead of the text; tc, the server's
 * own options (borrowed), fills what the client did not send, as in the server's -J. */
struct lr_traffic_config;
void lr_server_text_set_json_stream(struct lr_server_text *t, const struct lr_traffic_config *tc);
void lr_server_text_close(struct lr_server_text *t); /* NULL-safe */

#endif
