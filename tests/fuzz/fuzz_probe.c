// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: arbitrary bytes as a latency probe datagram (docs/wire.md part 3), read the way
 * the server's responder reads a request (any size in bounds) and the way the client's prober
 * reads a reply (exactly its own size), each against the datagram's own cookie bytes (so the
 * seeds captured from a real run, tests/fuzz/capture_probe_corpus.sh, are accepted) and
 * against another. Checks: an accepted datagram has the size, magic, version, type and cookie
 * asked for and re-encodes to the same header; the server's turned-round answer is no longer
 * than the request and decodes as a reply of the same sequence.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/traffic/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char other[] = "abcdefghijklmnopqrstuvwxyz234567abcd";

static void check(const uint8_t *data, size_t size, uint8_t want, size_t want_len,
		  const char *cookie)
{
	uint8_t re[LR_PROBE_SIZE_MAX], turned[LR_PROBE_SIZE_MAX];
	uint64_t seq = 0, seq2 = 0;

	if (lr_probe_decode(data, size, want, want_len, cookie, &seq) < 0)
		return;
	if (size < LR_PROBE_HDR_BYTES || size > LR_PROBE_SIZE_MAX ||
	    (want_len && size != want_len) || memcmp(data, LR_PROBE_MAGIC, 4) ||
	    data[4] != LR_PROBE_VERSION || data[5] != want || memcmp(data + 8, cookie, 36))
		abort();
	/* everything but the reserved bytes, the send time and the padding is what decode read */
	if (lr_probe_encode(re, size, want, cookie, seq, 0) < 0 || memcmp(re, data, 6) ||
	    memcmp(re + 8, data + 8, 44))
		abort();
	if (want != LR_PROBE_T_REQUEST)
		return;
	memcpy(turned, data, size);
	turned[5] = LR_PROBE_T_REPLY;
	if (lr_probe_decode(turned, size, LR_PROBE_T_REPLY, size, cookie, &seq2) < 0 || seq2 != seq)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char own[37] = {0};

	if (size >= 44)
		memcpy(own, data + 8, 36);
	else
		memcpy(own, other, 36);
	check(data, size, LR_PROBE_T_REQUEST, 0, own);
	check(data, size, LR_PROBE_T_REPLY, LR_PROBE_SIZE_DEF, own);
	check(data, size, LR_PROBE_T_REQUEST, 0, other);
	check(data, size, LR_PROBE_T_REPLY, LR_PROBE_SIZE_DEF, other);
	return 0;
}
