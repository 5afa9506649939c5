// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: arbitrary bytes as a stream of UDP datagrams into the iperf3 header parser and
 * the receiver accounting. Byte 0 picks the sequence width and a datagram length; the rest is
 * cut into datagrams of that length (the last one short), each with a fuzzed arrival time.
 * Checks the accounting invariants the streams rely on.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/traffic/udp_hdr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_udp_acct a;
	uint64_t arrival = 0, max_before;
	bool seq64;
	size_t dlen, off;

	if (size < 1)
		return 0;
	seq64 = data[0] & 1;
	dlen = (size_t)(data[0] >> 1) + 1; /* 1..128: short and full datagrams */
	lr_udp_acct_init(&a);
	for (off = 1; off < size; off += dlen) {
		size_t n = size - off < dlen ? size - off : dlen;
		struct lr_udp_hdr h, back;
		uint8_t re[16];
		int rc;

		arrival += (uint64_t)data[off] * 977;
		max_before = a.max_seq;
		rc = lr_udp_hdr_decode(data + off, n, seq64, &h);
		if (rc == 0) {
			/* encode(decode(x)) reproduces the header bytes */
			lr_udp_hdr_encode(re, &h, seq64);
			if (memcmp(re, data + off, lr_udp_hdr_len(seq64)))
				abort();
			if (lr_udp_hdr_decode(re, sizeof(re), seq64, &back) || back.seq != h.seq)
				abort();
		} else if (n >= lr_udp_hdr_len(seq64)) {
			abort();
		}
		lr_udp_acct_feed(&a, data + off, n, seq64, arrival);
		if (a.max_seq < max_before)
			abort();
	}
	/* lost can only come from gaps below max_seq */
	if (a.lost > a.max_seq || a.jitter_ns < 0 || a.jitter_ns != a.jitter_ns)
		abort();
	return 0;
}
