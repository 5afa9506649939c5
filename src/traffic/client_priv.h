/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The client session's insides, shared by its three files; not part of any API. */
#ifndef LINERATE_CLIENT_PRIV_H
#define LINERATE_CLIENT_PRIV_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "linerate/core/common.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"
#include "stream_result.h"

/* Every wait is bounded so that a silent server, a blackholed link or a server that stopped
 * reading ends the test within its length + 10 s (issue 22):
 * - --connect-timeout (default 5 s): the control connect, each data stream's setup, and
 *   TEST_START once the streams are up;
 * - the setup up to the streams: max(10 s, --connect-timeout);
 * - TEST_END to IPERF_DONE: 8 s, or --rcv-timeout when shorter;
 * - CLIENT_TERMINATE / IPERF_DONE on the way out: 200 ms. */
#define CONNECT_TIMEOUT_DEF_MS 5000
#define SETUP_MIN_NS	       (10 * LR_NSEC_PER_SEC)
#define END_GRACE_NS	       (8 * LR_NSEC_PER_SEC)
#define RCV_TIMEOUT_DEF_MS     120000 /* iperf3's --rcv-timeout default */
#define BEST_EFFORT_NS	       (200 * LR_NSEC_PER_MSEC)

struct lr_client {
	struct lr_traffic_config tc;
	char *host, *bind, *congestion;
	struct lr_auth_client *auth; /* --username: the token's key and credentials, or NULL */
	uint64_t duration_ns;
	uint64_t connect_timeout_ns; /* --connect-timeout or the default */
	uint64_t rcv_timeout_ns; /* --rcv-timeout or iperf3's default */
	bool rcv_timeout_set;

	/* The current phase's bound on control waits (control thread): setup, run, end. */
	uint64_t deadline_ns;
	uint64_t budget_ns; /* its length, for the message when it runs out */
	pthread_t thread;
	bool thread_started;
	atomic_bool stop;
	_Atomic int state;

	pthread_mutex_t lock; /* err, streams publication, rate, done */
	pthread_cond_t done_cond;
	char err[256];
	uint64_t rate_bps;
	/* what a closed control connection most likely means in the phase being waited for
	 * (NULL: nothing to add); control thread only */
	const char *close_hint;

	int ctl_fd;
	char cookie[LR_PROTO_COOKIE_LEN];
	struct lr_proto_params params;
	struct sockaddr_storage peer;
	socklen_t peer_len;

	unsigned n_max;
	unsigned setting_up; /* the stream being set up (--cport + this) */
	_Atomic unsigned n_streams;
	struct lr_stream **streams;
	bool *joined; /* control thread only */

	struct rusage ru0;
	uint64_t t0_ns;
	/* -O (client_omit.c): each stream's counters when the omitted seconds ended, published
	 * by omit_at_ns (release) */
	struct lr_traffic_omit_mark *omit;
	_Atomic uint64_t omit_at_ns; /* 0 = not yet (or no -O) */
	/* when the test ended (TEST_END): the receivers' seconds end here, as iperf3's do; 0 =
	 * not yet. Control thread. */
	uint64_t test_end_ns;
	_Atomic uint64_t count_taken; /* -n/-k: bytes the sending streams took (stream.h) */
	struct lr_traffic_results *res;
	char *server_output; /* --get-server-output: what the server's results carried */
	bool server_output_json;
	/* peer view (client_peer.c): set once by the control thread, under lock */
	bool peer_offered;
	unsigned peer_interval_ms;
	uint32_t peer_max_frame;
	atomic_bool rr_refused; /* --rr: the server did not acknowledge it (client_rr.c) */
	uint16_t peer_probe_port;
	/* latency probes (probe_client.c): the prober once offered, set by the control thread
	 * under lock and freed by lr_client_close; the state before it runs, under lock */
	struct lr_probe_client *probe;
	int probe_state;	/* enum lr_probe_state */
};

/* Shared by the client_*.c files (control thread unless noted). */
void lr_client_set_err(struct lr_client *c, const char *fmt, ...) LR_PRINTF(2, 3);	/* [any] */
struct lr_proto_conn lr_client_ctl_conn(struct lr_client *c);
void lr_client_report_io_err(struct lr_client *c, const char *what, int rc);
/* Time left until c->deadline_ns (at least 1 ms, so an answer already there is read). */
uint64_t lr_client_left(const struct lr_client *c);
/* TCP_USER_TIMEOUT (--snd-timeout) on a control or TCP data socket; logged when refused. */
void lr_client_snd_timeout(struct lr_client *c, int fd);
unsigned lr_client_nstreams(const struct lr_client *c);	/* [any] */
/* -n/-k reached or -F's file sent: the data phase ends before -t (client_end.c). [control] */
bool lr_client_data_done(struct lr_client *c, uint64_t now);
/* One state byte within the phase's deadline; the server's error bytes become the error text.
 * 0 with *st, or -errno (reported). */
int lr_client_expect_state(struct lr_client *c, int *st, const char *what);
int lr_client_ctl_connect(struct lr_client *c);
int lr_client_send_params(struct lr_client *c);
int lr_client_create_streams(struct lr_client *c);
void lr_client_fill_addrs(struct lr_client *c);
int lr_client_exchange_results(struct lr_client *c);
void lr_client_partial_results(struct lr_client *c);
/* client_omit.c: takes the marks once the omitted seconds are over (no-op before, after, or
 * without -O); returns how long the caller may wait before it is due (UINT64_MAX: never). */
uint64_t lr_client_omit_poll(struct lr_client *c, uint64_t now);
/* The stream's mark, or NULL before the omitted seconds ended. */
const struct lr_traffic_omit_mark *lr_client_omit_mark(const struct lr_client *c, unsigned i);
/* client_peer.c: reads the offer that followed the state byte LR_PEER_OFFER_STATE. 0 or
 * -errno (error set). */
int lr_client_peer_read_offer(struct lr_client *c);
/* client_rr.c: --rr's acknowledgement, the first thing a linerate server sends after the
 * parameters (no-op without --rr). 0 or -errno (error set; rr_refused when it was none). */
int lr_client_rr_read_ack(struct lr_client *c);
/* client_peer.c: the offer said no probes (or none came): UNOFFERED when asked. */
void lr_client_probe_unoffered(struct lr_client *c);
/* client_streams.c: the streams while the test runs and after it. */
/* "; the last data from the server arrived 1.20 s into the test" or the like; "" before it. */
void lr_client_where_stopped(struct lr_client *c, char *buf, size_t size);
/* Stops and joins the streams: which 1 the senders, 0 the receivers, -1 all. */
void lr_client_stop_streams(struct lr_client *c, int which);
/* A failed stream or receivers idle past --rcv-timeout: -errno (reported), else 0. */
int lr_client_check_streams(struct lr_client *c, uint64_t now);
/* Stopped TCP senders' queues emptied (bounded), so both ends' byte counts agree. */
void lr_client_wait_sent_drained(struct lr_client *c);
/* Receivers take what is still in flight once the server stopped: until quiet (bounded). */
void lr_client_drain_receivers(struct lr_client *c);

#endif
