/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One traffic stream: a thread that sends or receives on one connected data socket (TCP, or
 * UDP in iperf3's datagram format), paced to a target rate that can change while it runs.
 * The control protocol (proto/client/server) creates the sockets and drives start/stop; the
 * stream only moves data and counts it. Depends on core only. */
#ifndef LINERATE_STREAM_H
#define LINERATE_STREAM_H

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/core/streamstats.h"

struct lr_stream_params {
	int fd; /* connected data socket; the stream owns it from open on */
	int id; /* iperf3 stream id (1, 3, 4, ...) */
	bool udp;
	bool sender; /* false = receiver */
	size_t len; /* TCP write/read size, or the exact UDP datagram size (16..65507) */
	/* sender: target, 0 = unlimited; receiver: the sender's target (a UDP receiver takes 0
	 * as no per-datagram kernel timestamps, stream_udp.c). Published as the stats' target */
	uint64_t rate_bps;
	/* sender with a rate: iperf3's -b RATE/BURST, this many blocks (datagrams) back to back,
	 * then the wait that keeps the average at rate_bps; 0 = the pacer's own batches */
	unsigned burst;
	int cpu; /* pin the thread to this CPU, -1 = no pinning */
	bool pin_set; /* -A node:N: pin the thread to `cpus` instead (cpu is -1) */
	cpu_set_t cpus;
	bool no_gso; /* UDP: plain sendmmsg/recvmmsg, no UDP_SEGMENT/UDP_GRO */
	bool udp_64bit_seq; /* iperf3's udp_counters_64bit */
	bool zerocopy; /* TCP sender: MSG_ZEROCOPY where the kernel has it */
	size_t rx_len; /* TCP receiver: bytes per read (lr_stream_tcp_read_len), 0 = len */
	bool repeating_payload; /* sender: "0123456789..." (iperf3's --repeating-payload) */
	bool skip_rx_copy; /* TCP receiver: MSG_TRUNC, the kernel drops the bytes uncopied */
	/* TCP, iperf3's -F: a sender's payload is this file's content (blocks read from it; at
	 * its end the stream idles as at -n's), a receiver writes what it reads into it
	 * (created or truncated, 0600 as iperf3's). NULL = none */
	const char *file;
	/* sender: -n/-k's share of this stream; it sends whole blocks (datagrams) until its
	 * bytes reach this, then idles until stopped. 0 = no limit */
	uint64_t max_bytes;
	/* --rr (rr.h, stream_rr.c): a request/response flow of these sizes instead of a bulk
	 * stream, 0 = bulk. rr_client: it sends the requests and times the answers (a sender
	 * in the results: its bytes are the requests); else it answers them (a receiver). len,
	 * rate_bps, burst and the payload options are not used */
	uint32_t rr_req_bytes, rr_resp_bytes;
	bool rr_client;
};

/* A TCP receiver's read size: up to 1 MiB, less when many streams share a 16 MiB budget,
 * never below len. Longer reads hold the socket while segments arrive, so the kernel's
 * receive work for them runs on the reader's CPU rather than the sender's (on veth and
 * loopback the sender's CPU is the bottleneck): ~5% more for one stream on the bench host. */
size_t lr_stream_tcp_read_len(size_t len, unsigned receivers);

struct lr_stream; /* opaque: the thread, buffers, the fd */

/* Allocates buffers and takes ownership of p->fd (closed by lr_stream_close, also on error).
 * Does not start the thread. 0 or -errno. */
int lr_stream_open(struct lr_stream **out, const struct lr_stream_params *p) LR_MUST_CHECK;
/* iperf3's -w on a data socket (or the listener its data sockets come from): both buffers,
 * clamped to INT_MAX. 0 or -errno. */
int lr_stream_sock_window(int fd, uint64_t bytes) LR_MUST_CHECK;
/* Starts the thread; counting begins now. 0 or -errno. */
int lr_stream_start(struct lr_stream *s) LR_MUST_CHECK;
/* [any] Changes the target rate of a running sender (and its stats' target at once); takes
 * effect within one pacing step, without a burst. 0 = unlimited. */
void lr_stream_set_rate(struct lr_stream *s, uint64_t rate_bps);
/* Before lr_stream_start: -n/-k counted over all of a test's sending streams, as iperf3 counts
 * them (the test ends when their total reaches the count, whichever stream sent it): each
 * whole block a stream sends is taken from *taken (shared by those streams, starting at 0)
 * while it is below limit. Replaces the stream's own max_bytes. */
void lr_stream_share_count(struct lr_stream *s, _Atomic uint64_t *taken, uint64_t limit);
/* [any] -O's mark, the end of the omitted seconds: a UDP receiver restarts its jitter from the
 * next datagram, as iperf3 resets it then; every counter stays cumulative (the caller notes
 * them and subtracts). Takes effect at the thread's next batch. */
void lr_stream_omit_mark(struct lr_stream *s);
/* [any] Asks the thread to stop; it returns from any blocking call within 100 ms. */
void lr_stream_stop(struct lr_stream *s);
/* Joins the thread (after lr_stream_stop, or when it ended by itself: peer closed). */
void lr_stream_join(struct lr_stream *s);
/* Joins if needed, closes the fd, frees. NULL-safe. */
void lr_stream_close(struct lr_stream *s);

const struct lr_stream_stats *lr_stream_stats(const struct lr_stream *s);
const struct lr_stream_params *lr_stream_params(const struct lr_stream *s);
/* Which data path runs, for the log and the summary: "tcp", "tcp zerocopy" (MSG_ZEROCOPY),
 * "tcp sendfile" (zerocopy asked, and MSG_ZEROCOPY missing or copied by the kernel on this
 * route), "udp gso+sendmmsg", "udp sendmmsg", "udp gro+recvmmsg", "udp recvmmsg". It can change
 * while the stream runs (a fallback); the pointer is a string literal, always valid. */
const char *lr_stream_path(const struct lr_stream *s);
/* -errno that ended the thread early (peer reset, ...), 0 when stopped or still running. */
int lr_stream_error(const struct lr_stream *s);
struct lr_rr_result;
/* --rr: adds this flow's counts to *sum (nothing for a bulk stream). After lr_stream_join. */
void lr_stream_rr_add(const struct lr_stream *s, struct lr_rr_result *sum);
/* -F sender: the whole file went out (its end read, its last block sent). */
bool lr_stream_file_done(const struct lr_stream *s);

#endif
