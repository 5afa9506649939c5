/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iperf3's control protocol (../shared/protocols/docs/wire.md): the cookie, state bytes,
 * 4-byte big-endian length-prefixed JSON, the test parameters and the results. The codecs are
 * pure (buffer in, struct out) so they can be unit-tested and fuzzed; the I/O helpers bound
 * every read by a timeout and a stop flag. [any] */
#ifndef LINERATE_PROTO_H
#define LINERATE_PROTO_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

#define LR_PROTO_PORT	      5201
#define LR_PROTO_COOKIE_LEN   37 /* 36 chars [a-z2-7] + NUL, all 37 sent */
#define LR_PROTO_PARAMS_MAX   8192 /* iperf3 3.18+ MAX_PARAMS_JSON_STRING */
#define LR_PROTO_RESULTS_MAX  (16u << 20) /* results carry server output: allow 16 MiB */
#define LR_PROTO_MAX_STREAMS  128 /* per direction (iperf3 MAX_STREAMS) */
#define LR_PROTO_MAX_RESULTS  (2 * LR_PROTO_MAX_STREAMS) /* bidir: 2P entries */
#define LR_PROTO_UDP_MIN_LEN  16
#define LR_PROTO_UDP_MAX_LEN  65507
#define LR_PROTO_TCP_MAX_LEN  (1u << 20)
#define LR_PROTO_TCP_DEF_LEN  131072
#define LR_PROTO_UDP_DEF_LEN  1460
#define LR_PROTO_UDP_DEF_RATE 1048576 /* iperf3 UDP_RATE, bit/s */
#define LR_PROTO_MAX_TIME_S   86400
#define LR_PROTO_ERR_MAX      128

/* One signed byte on the control socket (iperf3's state values). */
enum lr_proto_state {
	LR_PROTO_TEST_START = 1,
	LR_PROTO_TEST_RUNNING = 2,
	LR_PROTO_TEST_END = 4,
	LR_PROTO_PARAM_EXCHANGE = 9,
	LR_PROTO_CREATE_STREAMS = 10,
	LR_PROTO_SERVER_TERMINATE = 11,
	LR_PROTO_CLIENT_TERMINATE = 12,
	LR_PROTO_EXCHANGE_RESULTS = 13,
	LR_PROTO_DISPLAY_RESULTS = 14,
	LR_PROTO_IPERF_DONE = 16,
	LR_PROTO_ACCESS_DENIED = -1,
	LR_PROTO_SERVER_ERROR = -2,
};

/* UDP stream "connect": client -> server, then the reply (compare bytes, never host ints). */
extern const uint8_t lr_proto_udp_connect_msg[4]; /* "9876" */
extern const uint8_t lr_proto_udp_connect_reply[4]; /* "6789" */
extern const uint8_t lr_proto_udp_legacy_reply[4]; /* 987654321 little-endian */
/* A 4-byte reply (current or legacy). */
bool lr_proto_udp_is_reply(const void *buf, size_t len);
/* A 4-byte setup datagram either way: a resent one that arrives late on a data socket is never
 * data (the client resends until answered, and a linerate server answers every one). */
bool lr_proto_udp_is_setup(const void *buf, size_t len);

/* Fills 36 random chars from iperf3's alphabet (getrandom) and a NUL. 0 or -errno. */
int lr_proto_cookie_make(char cookie[LR_PROTO_COOKIE_LEN]) LR_MUST_CHECK;
/* A well-formed cookie: 36 printable non-space ASCII bytes, then NUL. */
bool lr_proto_cookie_valid(const char cookie[LR_PROTO_COOKIE_LEN]);
/* Printable name of a state byte ("TEST_START", ...), "unknown" otherwise. */
const char *lr_proto_state_name(int state);

/* The test parameters, iperf3's `send_parameters` keys. Absent keys decode to the defaults
 * lr_proto_params_init sets. */
struct lr_proto_params {
	bool udp; /* "udp": true, else "tcp": true */
	bool reverse; /* "reverse" */
	bool bidir; /* "bidirectional" */
	bool nodelay; /* "nodelay" */
	bool mptcp; /* "mptcp": the TCP data connections are MPTCP */
	bool udp_64bit; /* "udp_counters_64bit" */
	bool repeating_payload; /* "repeating_payload" */
	bool get_server_output; /* "get_server_output" */
	bool zerocopy; /* "zerocopy" */
	bool dont_fragment; /* "dont_fragment" */
	bool skip_rx_copy; /* "skip_rx_copy" */
	char extra_data[1024]; /* "extra_data", "" = unset */
	int64_t omit_s; /* "omit" 0..600 */
	int64_t time_s; /* "time" 0..86400 */
	uint64_t num_bytes; /* "num" (-n), 0 unused */
	uint64_t blockcount; /* "blockcount" (-k), 0 unused */
	unsigned parallel; /* "parallel" 1..128 */
	unsigned mss; /* "MSS", 0 = unset, <= 32767 */
	uint64_t window_bytes; /* "window", 0 = autotune, <= 512 MiB */
	uint64_t len; /* "len": block / datagram size (checked per protocol) */
	uint64_t bandwidth_bps; /* "bandwidth", 0 = unlimited */
	uint64_t fqrate_bps; /* "fqrate" */
	int64_t pacing_timer_us; /* "pacing_timer" (0: left out); iperf3 3.22 stores it only */
	int64_t burst; /* "burst" 1..1000 blocks back to back per pacing step, 0 = absent */
	int server_affinity; /* "server_affinity", -1 = unset */
	uint32_t flowlabel; /* "flowlabel" (-L) 1..0xfffff, 0 = unset; iperf3's server only stores it */
	int tos; /* "TOS" 0..255 */
	char congestion[32]; /* "congestion", "" = unset */
	char client_version[32]; /* "client_version", "" = unset */
	char authtoken[4096 + 1]; /* "authtoken" (auth.h, LR_AUTH_TOKEN_MAX), "" = none */
	/* "linerate_peer_stats" {"v","interval_ms"} (docs/wire.md, part 2); iperf3 ignores it. A
	 * malformed one decodes as not asked. */
	bool peer_stats;
	unsigned peer_interval_ms;
	/* ... with "probe":1 in it: latency probes asked too (docs/wire.md, part 3); anything
	 * else there is not asked */
	bool probe;
};

void lr_proto_params_init(struct lr_proto_params *p); /* iperf3's defaults, TCP */

/* Encodes as iperf3's client does (exact types, false flags omitted). *out is malloc'd,
 * not NUL-terminated in the count, caller frees. 0 or -errno (-EINVAL on a bad value). */
int lr_proto_params_encode(const struct lr_proto_params *p, char **out,
			   size_t *out_len) LR_MUST_CHECK;
/* Decodes len bytes (no NUL needed). Wrong types and out-of-range values are rejected with
 * -EINVAL and a reason in err, an SCTP test with -EPROTONOSUPPORT; unknown keys are ignored; 2^64-1 from <= 3.13 peers reads as
 * -1. 0 or -errno. */
int lr_proto_params_decode(const char *buf, size_t len, struct lr_proto_params *p,
			   char err[LR_PROTO_ERR_MAX]) LR_MUST_CHECK;

struct lr_proto_stream_result {
	int id; /* 1, 3, 4, ... */
	uint64_t bytes;
	int64_t retransmits; /* -1 = not available */
	double jitter_s; /* seconds */
	int64_t errors; /* UDP lost */
	int64_t packets; /* sender: sent; receiver: highest seq */
	int64_t omitted_errors;
	int64_t omitted_packets;
	double start_time_s;
	double end_time_s;
};

struct lr_proto_results {
	double cpu_total; /* percent */
	double cpu_user;
	double cpu_system;
	int sender_has_retransmits; /* 1, 0, or -1 when this side only received */
	char congestion_used[32]; /* "" = absent */
	unsigned n_streams;
	struct lr_proto_stream_result streams[LR_PROTO_MAX_RESULTS];
	/* the server's own report when the client asked (--get-server-output): JSON text for
	 * "server_output_json" (an object) or plain text for "server_output_text"; malloc'd by
	 * decode (lr_proto_results_release frees it), borrowed by encode. NULL = none. */
	char *server_output;
	bool server_output_json;
};

/* Frees what decode allocated in *r (the server output). */
void lr_proto_results_release(struct lr_proto_results *r);
int lr_proto_results_encode(const struct lr_proto_results *r, char **out,
			    size_t *out_len) LR_MUST_CHECK;
/* Same rules as lr_proto_params_decode; more than LR_PROTO_MAX_RESULTS streams is -E2BIG. */
int lr_proto_results_decode(const char *buf, size_t len, struct lr_proto_results *r,
			    char err[LR_PROTO_ERR_MAX]) LR_MUST_CHECK;

/* Big-endian length prefix. decode: -EMSGSIZE when 0 or > max. */
/* o as compact JSON text in *out (malloc'd, *len bytes); takes o's reference. rc: the
 * json_object_set_new results OR'ed, non-zero meaning one failed. 0 or -ENOMEM. */
struct json_t;
int lr_proto_json_text(struct json_t *o, int rc, char **out, size_t *len) LR_MUST_CHECK;
/* -d (iperf3's): a control message as iperf3 -d prints it, "LABEL" then the object indented,
 * on stderr (lr_debug). The text as sent or received; nothing when -d is off. */
void lr_proto_debug_json(const char *label, const char *buf, size_t len);
void lr_proto_len_encode(uint32_t len, uint8_t hdr[4]);
int lr_proto_len_decode(const uint8_t hdr[4], uint32_t max, uint32_t *len) LR_MUST_CHECK;

/* A control-socket endpoint for the bounded I/O below. `stop` (may be NULL) is checked at
 * least every 50 ms; when set the call returns -ECANCELED. When side_fd >= 0 and becomes
 * readable, side_cb(side_arg) runs on the calling thread (the server answers intruders). */
struct lr_proto_conn {
	int fd;
	const atomic_bool *stop;
	int side_fd;
	void (*side_cb)(void *arg);
	void *side_arg;
	const char *role;	/* "client" or "server": -d's state lines name it */
};

/* Reads exactly len bytes within timeout_ns (overall). 0, -ETIMEDOUT, -ECONNRESET on EOF
 * (also after a partial read), -ECANCELED, or -errno. */
int lr_proto_read(const struct lr_proto_conn *c, void *buf, size_t len,
		  uint64_t timeout_ns) LR_MUST_CHECK;
/* Writes all len bytes (MSG_NOSIGNAL) within timeout_ns. 0 or -errno. */
int lr_proto_write(const struct lr_proto_conn *c, const void *buf, size_t len,
		   uint64_t timeout_ns) LR_MUST_CHECK;
/* Best-effort callers may ignore the result. */
int lr_proto_state_send(const struct lr_proto_conn *c, int state);
/* *state gets the signed byte. */
int lr_proto_state_recv(const struct lr_proto_conn *c, int *state,
			uint64_t timeout_ns) LR_MUST_CHECK;
/* Length prefix + body (two writes, as iperf3). */
int lr_proto_msg_send(const struct lr_proto_conn *c, const char *buf, size_t len) LR_MUST_CHECK;
/* Reads one framed message of at most max bytes; *out is malloc'd with a NUL after len bytes,
 * caller frees. The whole message must arrive within timeout_ns. */
int lr_proto_msg_recv(const struct lr_proto_conn *c, uint32_t max, uint64_t timeout_ns, char **out,
		      size_t *out_len) LR_MUST_CHECK;

#endif
