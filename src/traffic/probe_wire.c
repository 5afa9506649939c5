// SPDX-License-Identifier: GPL-2.0-or-later
/* The latency probe's datagram (docs/wire.md, part 3): one fixed header and padding. Decoding
 * is both ends' defence: the server's responder reads requests from the network and the
 * client's prober reads replies, so every byte is checked before anything is believed, and
 * each refusal has its own errno for the counters and the tests. No I/O, no globals. [any] */
#include <errno.h>
#include <string.h>

#include "linerate/traffic/probe.h"
#include "linerate/traffic/proto.h"

#define OFF_VERSION 4
#define OFF_TYPE    5
#define OFF_COOKIE  8
#define OFF_SEQ	    (OFF_COOKIE + LR_PROTO_COOKIE_LEN - 1)
#define OFF_SENT    (OFF_SEQ + 8)

_Static_assert(OFF_SENT + 8 == LR_PROBE_HDR_BYTES, "the header is 60 bytes");

static const uint8_t magic[4] = {'L', 'R', 'p', 'b'};	/* LR_PROBE_MAGIC, no NUL */

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int lr_probe_encode(uint8_t *buf, size_t size, uint8_t type, const char *cookie, uint64_t seq,
		    uint64_t sent_ns)
{
	if (size < LR_PROBE_HDR_BYTES || size > LR_PROBE_SIZE_MAX)
		return -EINVAL;
	memset(buf, 0, size);
	memcpy(buf, magic, sizeof(magic));
	buf[OFF_VERSION] = LR_PROBE_VERSION;
	buf[OFF_TYPE] = type;
	memcpy(buf + OFF_COOKIE, cookie, LR_PROTO_COOKIE_LEN - 1);
	put_be64(buf + OFF_SEQ, seq);
	put_be64(buf + OFF_SENT, sent_ns);
	return 0;
}

int lr_probe_decode(const uint8_t *buf, size_t len, uint8_t want, size_t want_len,
		    const char *cookie, uint64_t *seq)
{
	if (len < LR_PROBE_HDR_BYTES || len > LR_PROBE_SIZE_MAX || (want_len && len != want_len))
		return -EMSGSIZE;
	if (memcmp(buf, magic, sizeof(magic)))
		return -EBADMSG;
	if (buf[OFF_VERSION] != LR_PROBE_VERSION)
		return -EPROTONOSUPPORT;
	if (buf[OFF_TYPE] != want)
		return -EPROTO;
	if (memcmp(buf + OFF_COOKIE, cookie, LR_PROTO_COOKIE_LEN - 1))
		return -EACCES;
	*seq = get_be64(buf + OFF_SEQ);
	return 0;
}
