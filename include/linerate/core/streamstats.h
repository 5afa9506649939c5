/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A traffic stream's live counters: the one data type shared by the traffic engine, which
 * writes them, and the sampler, which reads them; it lives below both so that neither
 * depends on the other. [any] */
#ifndef LINERATE_STREAMSTATS_H
#define LINERATE_STREAMSTATS_H

#include <stdatomic.h>
#include <stdint.h>

/* Live counters: written by the stream thread with relaxed atomics, read by anyone. Counting
 * starts at lr_stream_start. TCP_INFO fields are sampled every 250 ms and at the end. UDP
 * receiver: `packets` counts every datagram (GRO buffers split), also those too short for a
 * header, which the loss/order/jitter accounting ignores; lost/out_of_order/max_seq/jitter_ns
 * are published once per receive batch. */
struct lr_stream_stats {
	_Atomic uint64_t bytes; /* payload bytes sent or received */
	_Atomic uint64_t packets; /* UDP datagrams sent/received; TCP: data segments (TCP_INFO) */
	_Atomic uint64_t packets_unknown; /* TCP: the kernel gives no segment count (before 4.6) */
	_Atomic uint64_t retransmits; /* TCP sender: TCP_INFO tcpi_total_retrans */
	_Atomic uint64_t cwnd_bytes; /* TCP sender: snd_cwnd * snd_mss */
	_Atomic uint64_t rtt_us; /* TCP sender: tcpi_rtt */
	_Atomic uint64_t lost; /* UDP receiver: iperf3's `errors` */
	_Atomic uint64_t out_of_order; /* UDP receiver */
	_Atomic uint64_t jitter_ns; /* UDP receiver: RFC 1889 smoothed jitter */
	_Atomic uint64_t max_seq; /* UDP receiver: highest sequence seen (iperf3 "packets") */
	_Atomic uint64_t start_ns; /* CLOCK_MONOTONIC at start, 0 before */
	/* CLOCK_MONOTONIC when the thread stopped counting (a receiver: its last byte), 0 while
	 * running */
	_Atomic uint64_t end_ns;
	/* CLOCK_MONOTONIC of the last data that arrived (receiver) or that the kernel took (TCP
	 * sender: its send buffer had drained), 0 none yet: --rcv-timeout, and where the traffic
	 * stopped on a link that went silent */
	_Atomic uint64_t last_ns;
	/* The CPU the thread last moved data on (sched_getcpu) + 1, 0 unknown: where the stream
	 * ran, against the NIC's NUMA node (issue 19) */
	_Atomic uint64_t cpu1;
	/* The stream's target (-b) + 1, bit/s: 1 unlimited, 0 unknown (zeroed stats know none).
	 * A sender's is the rate its pacer runs at, changed with it; a receiver's is the rate the
	 * sender was asked for (the client's -b, sent as iperf3's "bandwidth") */
	_Atomic uint64_t target_bps1;
	/* Constant per stream, set once before the stream is handed to anyone (lr_stream_open):
	 * -l, bytes per UDP datagram or TCP write, 0 unknown; and a TCP socket's congestion
	 * control (TCP_CONGESTION, at most 16 bytes) packed into two words, all zero unknown */
	_Atomic uint64_t length;
	_Atomic uint64_t congestion[2];
};

/* [any] The target's codec: 0 = unlimited; a rate beyond INT64_MAX - 1 is taken as that. */
static inline void lr_stream_stats_set_target(struct lr_stream_stats *s, uint64_t bps)
{
	atomic_store_explicit(&s->target_bps1, (bps < INT64_MAX ? bps : INT64_MAX - 1) + 1,
			      memory_order_relaxed);
}

/* [any] bit/s, 0 unlimited, -1 unknown */
static inline int64_t lr_stream_stats_target(const struct lr_stream_stats *s)
{
	return (int64_t)atomic_load_explicit(&s->target_bps1, memory_order_relaxed) - 1;
}

/* [any] The congestion control's name codec: up to 16 bytes (TCP_CA_NAME_MAX), more cut. */
static inline void lr_stream_stats_set_congestion(struct lr_stream_stats *s, const char *name)
{
	for (unsigned w = 0; w < 2; w++) {
		uint64_t v = 0;

		for (unsigned b = 0; b < 8 && *name; b++)
			v |= (uint64_t)(unsigned char)*name++ << (8 * b);
		atomic_store_explicit(&s->congestion[w], v, memory_order_relaxed);
	}
}

/* [any] into buf (at least 17 bytes): "" unknown */
static inline void lr_stream_stats_congestion(const struct lr_stream_stats *s, char *buf)
{
	unsigned n = 0;

	for (unsigned w = 0; w < 2; w++) {
		uint64_t v = atomic_load_explicit(&s->congestion[w], memory_order_relaxed);

		for (unsigned b = 0; b < 8; b++)
			buf[n++] = (char)(v >> (8 * b) & 0xff);
	}
	buf[16] = '\0';
}

#endif
