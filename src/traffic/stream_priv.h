/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internals shared by stream.c (lifecycle, TCP) and stream_udp.c (UDP). Not an API. */
#ifndef LINERATE_STREAM_PRIV_H
#define LINERATE_STREAM_PRIV_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/traffic/pacer.h"
#include "linerate/traffic/rr.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/udp_hdr.h"

#define LR_STREAM_SLICE_NS   20000000ULL /* longest blocking step: stop latency bound */
#define LR_STREAM_TIMEO_US   20000 /* SO_RCVTIMEO / SO_SNDTIMEO */
#define LR_UDP_GSO_MAX_SEGS  64 /* UDP_MAX_SEGMENTS on older kernels */
#define LR_UDP_GSO_MAX_BYTES 65000 /* one super-buffer stays below the IP limit */
#define LR_UDP_SEND_MSGS     16 /* super-buffers per sendmmsg (GSO path) */
#define LR_UDP_PLAIN_MSGS    256 /* datagrams per sendmmsg/recvmmsg (plain path) */
#define LR_UDP_GRO_MSGS	     16 /* 64 KiB buffers per recvmmsg (GRO path) */
#define LR_UDP_GRO_BUF	     65536
#define LR_TCP_RX_MAX	     (1u << 20) /* TCP receiver: longest read */
#define LR_TCP_RX_BUDGET     (16u << 20) /* ... shared by all of a test's receivers */
/* TCP_INFO sampling period: a stream's packets (its data segments) lag its bytes by at most
 * this; one getsockopt per period per stream */
#define LR_TCP_INFO_EVERY_NS 10000000ULL

struct lr_stream {
	struct lr_stream_params p;
	struct lr_stream_stats st;
	pthread_t thread;
	bool started;
	bool joined;
	atomic_bool stop;
	atomic_bool file_done; /* -F sender: the file's end reached and sent */
	_Atomic uint64_t rate_bps; /* wanted rate; the thread applies it to its pacer */
	_Atomic uint32_t rate_gen; /* bumped on every lr_stream_set_rate */
	_Atomic int err;
	_Atomic(const char *) path; /* string literal */
	_Atomic uint32_t omit_gen; /* bumped by lr_stream_omit_mark */
	uint32_t omit_seen; /* the thread's copy: a change restarts the UDP jitter */
	/* -n/-k over all of a test's sending streams (lr_stream_share_count): bytes the streams
	 * took so far, shared; NULL = this stream's own max_bytes */
	_Atomic uint64_t *count_taken;
	uint64_t count_limit;

	struct lr_pacer pacer;
	uint32_t rate_gen_seen;
	unsigned burst_left; /* -b RATE/BURST: blocks of this burst still to go out unpaced */
	/* receiver: when the last byte arrived; the receiver's end time (the drain after the
	 * sender stopped is not receiving time), 0 = nothing yet */
	uint64_t last_rx_ns;

	/* UDP */
	bool gso; /* UDP_SEGMENT accepted by the socket */
	bool gro; /* UDP_GRO accepted by the socket */
	bool rx_tstamp; /* SO_TIMESTAMPNS: per-datagram arrival times */
	size_t segs; /* datagrams per GSO super-buffer */
	size_t max_dgrams; /* datagrams per sendmmsg call */
	uint64_t next_seq;
	struct lr_udp_acct acct;
	struct mmsghdr *msgs;
	struct iovec *iov;
	uint8_t *ctrl; /* recvmmsg: one cmsg area per message */
	size_t nmsgs;
	size_t slot_len; /* bytes per message buffer */
	size_t slot_stride; /* receiver: slot_len rounded up, so big slots start on a page */
	uint64_t rcvbuf; /* receiver: SO_RCVBUF as the kernel counts it (truesize bytes) */
	uint64_t last_batch_ns; /* receiver: when the previous recvmmsg returned */
	uint64_t setup_dgrams; /* receiver: late 4-byte setup datagrams, not counted as data */

	/* TCP */
	uint32_t segs_seen; /* the data segments TCP_INFO last gave (32 bits, wrapping) */
	bool zc;
	uint32_t zc_pending; /* zerocopy sends not yet reaped */
	int sf_fd; /* memfd holding the pattern for sendfile(), -1 = not used */
	int file_fd; /* -F's file, -1 = none */

	uint8_t *buf;
	size_t buf_len;

	/* --rr (stream_rr.c): this flow's counts, the thread's own until it is joined */
	struct lr_rr_result rr;
};

/* stream.c */
void *lr_stream_buf_alloc(size_t len); /* page-aligned, zeroed; lr_stream_buf_free */
void lr_stream_buf_free(void *buf, size_t len);
void lr_stream_pace_refresh(struct lr_stream *s, uint64_t now_ns);
bool lr_stream_stopping(const struct lr_stream *s);
/* -n/-k: how many of `want` blocks of `unit` bytes the stream may still send (0 = the count is
 * reached: idle until stopped). Takes them from the shared count when there is one. */
size_t lr_stream_count_take(struct lr_stream *s, size_t want, size_t unit);
/* Gives back n blocks taken and not sent (a refused or partial send). */
void lr_stream_count_unsent(struct lr_stream *s, size_t n, size_t unit);
void lr_stream_fail(struct lr_stream *s, int err);

/* stream_udp.c */
int lr_stream_udp_setup(struct lr_stream *s);
void lr_stream_udp_send_loop(struct lr_stream *s);
void lr_stream_udp_recv_loop(struct lr_stream *s);
/* How long a receiver that drained its socket may nap: msgs messages of `bytes` in all came
 * in dt_ns; a quarter of rcvbuf (SO_RCVBUF, truesize bytes) may fill meanwhile. */
long lr_stream_udp_nap_ns(uint64_t rcvbuf, int msgs, uint64_t bytes, uint64_t dt_ns);

/* stream_rr.c */
int lr_stream_rr_setup(struct lr_stream *s);
void lr_stream_rr_loop(struct lr_stream *s);

/* Notes the CPU this stream thread runs on (a memory load with rseq): called where data moved. */
static inline void lr_stream_note_cpu(struct lr_stream *s)
{
	int c = sched_getcpu();

	atomic_store_explicit(&s->st.cpu1, c >= 0 ? (uint64_t)c + 1 : 0, memory_order_relaxed);
}

#endif
