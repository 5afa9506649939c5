/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency under load (DESIGN section 16, docs/wire.md part 3): while a test runs against a
 * linerate server, the client sends small UDP request/response probes to a port the server
 * offered for the test, authenticated by the test's cookie, and keeps their round trips: an
 * idle baseline before the load starts, then every round trip under load. A plain iperf3 at
 * either end never sees a probe. This is what the client's engine hands up; [any] thread. */
#ifndef LINERATE_PROBE_H
#define LINERATE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "linerate/core/common.h"
#include "linerate/core/lathist.h"

struct lr_client;
struct lr_server;

enum lr_probe_state {
	LR_PROBE_OFF,		/* not asked (--no-latency, --no-peer-stats) */
	LR_PROBE_ASKED,		/* asked; the server has not answered yet */
	LR_PROBE_UNOFFERED,	/* the server offers none: a plain iperf3, an older linerate,
				 * or one run with --no-peer-stats */
	LR_PROBE_IDLE,		/* measuring the idle baseline, before the load starts */
	LR_PROBE_LOAD,		/* the test's load runs */
	LR_PROBE_DONE,		/* the test ended; the counts are final */
};

/* Cumulative since the test began: take two copies and subtract (lr_lathist_sub) for one
 * interval. A probe counts once: answered (its round trip is in idle or load, by when it was
 * sent), lost (no answer within timeout_ns: never a latency), or still in flight. */
struct lr_probe_stats {
	enum lr_probe_state state;
	uint64_t every_ns;	/* time between two probes */
	uint64_t timeout_ns;	/* a probe not answered within this is lost */
	uint64_t size_bytes;	/* UDP payload of a probe and of its answer */
	uint64_t sent, answered, lost;	/* all probes; sent = answered + lost + in flight */
	uint64_t load_sent, load_answered, load_lost;	/* those sent once the load ran */
	uint64_t refused;	/* datagrams on the probe socket taken for no probe: another
				 * sender, a wrong cookie, an unknown or repeated sequence */
	struct lr_lathist idle;	/* round trips of probes sent before the load started */
	struct lr_lathist load;	/* ... of probes sent since */
};

/* The probe datagram (docs/wire.md §L2), big-endian: magic "LRpb", version, type, 2 bytes
 * 0, the cookie's 36 characters, the sequence number, the client's send time, zero padding
 * to the probe's size. A reply is the request with another type byte, never longer. */
#define LR_PROBE_MAGIC	     "LRpb"
#define LR_PROBE_VERSION     1
#define LR_PROBE_T_REQUEST   1
#define LR_PROBE_T_REPLY     2
#define LR_PROBE_HDR_BYTES   60
#define LR_PROBE_SIZE_DEF    64	  /* UDP payload of a probe and of its answer */
#define LR_PROBE_SIZE_MAX    1024 /* the largest request a server answers */
/* One probe every 10 ms under load: ~100 probes/s of 64 B (+ 28 B of headers) is ~0.07
 * Mbit/s each way, under 1 % of any rate worth testing (10 Mbit/s and up), and still 100
 * round trips a second for each interval's percentiles. */
#define LR_PROBE_EVERY_NS    (10 * 1000 * 1000ull)
/* No answer within 2 s: lost. Far above any queue worth measuring (a 2 s queue is already
 * a broken link) and short enough that a lost probe is said within the interval after. */
#define LR_PROBE_TIMEOUT_NS  (2000 * 1000 * 1000ull)
/* The idle baseline the client waits for before it opens its streams: this many answered
 * ping-pong probes, or LR_PROBE_BASELINE_NS, whichever comes first. */
#define LR_PROBE_BASELINE    20
#define LR_PROBE_BASELINE_NS (200 * 1000 * 1000ull)
#define LR_PROBE_REPLY_RATE  2000 /* the server answers at most this many a second, per test */

/* [any] Writes a probe of size bytes (LR_PROBE_HDR_BYTES to LR_PROBE_SIZE_MAX) into buf.
 * cookie: the test's 36 characters. 0 or -EINVAL (size out of bounds). */
int lr_probe_encode(uint8_t *buf, size_t size, uint8_t type, const char *cookie, uint64_t seq,
		    uint64_t sent_ns) LR_MUST_CHECK;
/* [any] Checks len bytes from an untrusted sender as a probe of type want, for the test of
 * cookie (36 characters); want_len 0 takes any size from LR_PROBE_HDR_BYTES to
 * LR_PROBE_SIZE_MAX, else exactly want_len. 0 with *seq, or one refusal: -EMSGSIZE the size,
 * -EBADMSG the magic, -EPROTONOSUPPORT the version, -EPROTO the type, -EACCES the cookie. */
int lr_probe_decode(const uint8_t *buf, size_t len, uint8_t want, size_t want_len,
		    const char *cookie, uint64_t *seq) LR_MUST_CHECK;

/* [any] The probes of c's test so far (cumulative; state OFF before the parameters went out
 * without an ask). *out is caller-owned. 0, or -EINVAL when c or out is NULL. */
int lr_client_probe_stats(struct lr_client *c, struct lr_probe_stats *out);
/* [any] The client's probe socket's own address (where the answers must come to), or with
 * server the server's probe address it sends to. 0, or -ENOENT while no prober runs. */
int lr_client_probe_addr(struct lr_client *c, bool server, struct sockaddr_storage *ss,
			 socklen_t *len);
/* [any] The probes a server answered and refused (another sender, malformed, a wrong cookie,
 * over the rate) over all its tests so far: its own count, beside the client's. */
void lr_server_probe_counts(const struct lr_server *s, uint64_t *answered, uint64_t *refused);

#endif
