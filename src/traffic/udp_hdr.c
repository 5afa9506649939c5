// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iperf3 UDP datagram header encode/decode and the receiver's loss, reordering and jitter
 * accounting. Pure code over caller-owned structs, called by the UDP stream threads on every
 * datagram and by the fuzzer; no I/O, no clock.
 */
#include <errno.h>
#include <string.h>

#include "linerate/core/common.h"
#include "linerate/traffic/udp_hdr.h"

static inline void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void lr_udp_hdr_set_time(struct lr_udp_hdr *h, uint64_t mono_ns)
{
	h->sec = (uint32_t)(mono_ns / LR_NSEC_PER_SEC);
	h->usec = (uint32_t)(mono_ns % LR_NSEC_PER_SEC / LR_NSEC_PER_USEC);
}

void lr_udp_hdr_encode(uint8_t *buf, const struct lr_udp_hdr *h, bool seq64)
{
	put32(buf, h->sec);
	put32(buf + 4, h->usec);
	if (seq64) {
		put32(buf + 8, (uint32_t)(h->seq >> 32));
		put32(buf + 12, (uint32_t)h->seq);
	} else {
		put32(buf + 8, (uint32_t)h->seq);
	}
}

int lr_udp_hdr_decode(const uint8_t *buf, size_t len, bool seq64, struct lr_udp_hdr *out)
{
	if (len < lr_udp_hdr_len(seq64))
		return -EINVAL;
	out->sec = get32(buf);
	out->usec = get32(buf + 4);
	if (seq64)
		out->seq = (uint64_t)get32(buf + 8) << 32 | get32(buf + 12);
	else
		out->seq = get32(buf + 8);
	return 0;
}

void lr_udp_acct_init(struct lr_udp_acct *a)
{
	memset(a, 0, sizeof(*a));
}

void lr_udp_acct_add(struct lr_udp_acct *a, const struct lr_udp_hdr *h, size_t bytes,
		     uint64_t arrival_ns)
{
	uint64_t sent_ns =
		(uint64_t)h->sec * LR_NSEC_PER_SEC + (uint64_t)h->usec * LR_NSEC_PER_USEC;
	/* Transit across two unsynchronised clocks: only its changes matter. Unsigned
	 * subtraction then a signed view keeps it defined for any input. */
	int64_t transit = (int64_t)(arrival_ns - sent_ns);

	if (h->seq > a->max_seq) {
		if (h->seq > a->max_seq + 1)
			a->lost += h->seq - 1 - a->max_seq;
		a->max_seq = h->seq;
	} else {
		a->out_of_order++;
		if (a->lost)
			a->lost--;
	}
	if (a->have_transit) {
		double d = (double)transit - (double)a->prev_transit_ns;

		if (d < 0)
			d = -d;
		a->jitter_ns += (d - a->jitter_ns) / 16.0;
	}
	a->prev_transit_ns = transit;
	a->have_transit = true;
	a->packets++;
	a->bytes += bytes;
}

int lr_udp_acct_feed(struct lr_udp_acct *a, const uint8_t *dgram, size_t len, bool seq64,
		     uint64_t arrival_ns)
{
	struct lr_udp_hdr h;

	if (lr_udp_hdr_decode(dgram, len, seq64, &h) < 0) {
		a->short_dgrams++;
		return -EINVAL;
	}
	lr_udp_acct_add(a, &h, len, arrival_ns);
	return 0;
}
