/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iperf3's UDP datagram header and the receiver's accounting of it. Wire layout, all
 * big-endian: u32 seconds, u32 microseconds (sender's CLOCK_MONOTONIC), then the sequence
 * number as u32, or u64 when udp_counters_64bit was negotiated; the rest is filler. Sequence
 * numbers start at 1 per stream. Pure functions and a caller-owned POD. [any] */
#ifndef LINERATE_UDP_HDR_H
#define LINERATE_UDP_HDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LR_UDP_HDR_LEN32 12 /* sec, usec, u32 seq */
#define LR_UDP_HDR_LEN64 16 /* sec, usec, u64 seq */
#define LR_UDP_MIN_LEN	 16 /* iperf3 MIN_UDP_BLOCKSIZE */
#define LR_UDP_MAX_LEN	 65507 /* iperf3 MAX_UDP_BLOCKSIZE */

struct lr_udp_hdr {
	uint32_t sec;
	uint32_t usec;
	uint64_t seq; /* truncated to 32 bits on the wire unless seq64 */
};

static inline size_t lr_udp_hdr_len(bool seq64)
{
	return seq64 ? LR_UDP_HDR_LEN64 : LR_UDP_HDR_LEN32;
}

/* Header time from a CLOCK_MONOTONIC reading, as iperf3 fills it. */
void lr_udp_hdr_set_time(struct lr_udp_hdr *h, uint64_t mono_ns);
/* Writes lr_udp_hdr_len(seq64) bytes at buf. */
void lr_udp_hdr_encode(uint8_t *buf, const struct lr_udp_hdr *h, bool seq64);
/* 0, or -EINVAL when len is shorter than the header. */
int lr_udp_hdr_decode(const uint8_t *buf, size_t len, bool seq64, struct lr_udp_hdr *out);

/* Receiver accounting, iperf3's rules (iperf_udp_recv): `lost` is iperf3's `errors`. */
struct lr_udp_acct {
	uint64_t packets; /* datagrams accounted (long enough to hold a header) */
	uint64_t bytes; /* their bytes */
	uint64_t short_dgrams; /* datagrams too short for a header: counted nowhere else */
	uint64_t max_seq; /* highest sequence seen; iperf3's receiver "packets" */
	uint64_t lost;
	uint64_t out_of_order;
	double jitter_ns; /* RFC 1889 smoothed interarrival jitter */
	int64_t prev_transit_ns;
	bool have_transit;
};

void lr_udp_acct_init(struct lr_udp_acct *a);
/* One datagram with header h, `bytes` long, arrived at arrival_ns (receiver's CLOCK_MONOTONIC):
 * seq > max+1 adds the gap to lost; seq <= max counts out_of_order and, while lost > 0,
 * takes one back (iperf3 assumes a late datagram is not a duplicate). */
void lr_udp_acct_add(struct lr_udp_acct *a, const struct lr_udp_hdr *h, size_t bytes,
		     uint64_t arrival_ns);
/* Decodes and accounts one raw datagram; a datagram shorter than the header only bumps
 * short_dgrams and returns -EINVAL. */
int lr_udp_acct_feed(struct lr_udp_acct *a, const uint8_t *dgram, size_t len, bool seq64,
		     uint64_t arrival_ns);

#endif
