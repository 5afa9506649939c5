/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The server's insides, shared by the acceptor (server.c) and the test sessions
 * (server_session.c); not part of any API. */
#ifndef LINERATE_SERVER_PRIV_H
#define LINERATE_SERVER_PRIV_H

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

#define MAX_PENDING	  64
#define COOKIE_TIMEOUT_NS (10 * LR_NSEC_PER_SEC)
#define PARAMS_TIMEOUT_NS (10 * LR_NSEC_PER_SEC)
#define STREAM_TIMEOUT_NS (10 * LR_NSEC_PER_SEC)
#define CTL_TIMEOUT_NS	  (10 * LR_NSEC_PER_SEC)
/* No TEST_END this long after the test's time: the client or the link is gone (iperf3 waits
 * 40 s; 10 s keeps the server ready for the next client within the test + 10 s, issue 22) */
#define GRACE_NS	   (10 * LR_NSEC_PER_SEC)
#define STREAMS_GONE_NS	   (2 * LR_NSEC_PER_SEC) /* data streams failed, no word on control */
#define RCV_TIMEOUT_DEF_MS 120000 /* iperf3's --rcv-timeout default */
#define DRAIN_MAX_NS	  (500 * LR_NSEC_PER_MSEC)
#define RATE_IV_MAX	  600 /* --server-bitrate-limit: 60 s of 0.1 s intervals */

enum phase { PH_SETUP, PH_ACCEPT, PH_RUN, PH_FINISH, PH_DONE };

struct pending {
	int fd;
	uint64_t deadline_ns;
	size_t got;
	bool ready; /* full cookie; waits for the previous test to finish */
	char cookie[LR_PROTO_COOKIE_LEN];
	char peer[64];
};

struct session {
	struct lr_server *srv;
	pthread_t thread;
	int ctl_fd;
	char peer[64];
	char cookie[LR_PROTO_COOKIE_LEN];
	_Atomic int phase;
	atomic_bool stop;
	int pipe_rd, pipe_wr; /* accepted data fds, acceptor -> session */
	int udp_fd;
	struct lr_proto_params p;
	unsigned n_recv, n_send, n;
	struct lr_stream **streams;
	struct lr_traffic_omit_mark *omit; /* per stream: the client's -O (stream_result.h) */
	bool omit_taken;
	/* TEST_END's arrival: the receivers' seconds end here, as iperf3's do (a paced sender's
	 * last block may come ~100 ms earlier, its in-flight bytes later); 0 = none came */
	uint64_t test_end_ns;
	_Atomic uint64_t count_taken; /* -n/-k: bytes this side's senders took (stream.h) */
	/* the report's intervals (server_report.c): cumulative counters per tick */
	struct tick {
		uint64_t at_ns;
		bool omit_end; /* the -O mark: the clock starts again here */
		uint64_t *vals; /* per stream: TICK_VALS counters (server_intervals.c) */
		struct lr_tcp_sample *tcp; /* per stream: TCP_INFO then */
	} *ticks;
	unsigned n_ticks, cap_ticks;
	uint64_t next_tick_ns;
	/* --server-bitrate-limit: every stream's bytes (both ways) in each of the last report
	 * intervals, a ring of the window's count (iperf3's rule: server_session.c) */
	uint64_t rate_iv[RATE_IV_MAX];
	unsigned rate_at, rate_seen;
	uint64_t rate_prev, rate_next_ns;
	/* a failed test: iperf3 -s's -J "error" text (NULL none), and whether this side's results
	 * stand in for its end (the client terminated it), as iperf3 reports them */
	const char *fail;
	bool fail_end;
	char fail_buf[160];
	struct rusage ru0;
	uint64_t t0_ns;
	/* peer view (server_peer.c) */
	atomic_bool peer_offered;	/* begin() said yes and the offer went out */
	atomic_bool peer_taken;		/* the channel was handed over (acceptor) */
	bool peer_ended;		/* end() ran (session thread) */
	struct lr_probe_server *probe;	/* latency probes' responder (probe_server.c) */
	/* the app's view (server_report.c), session thread only */
	bool watch_begun, watch_ended, wres_filled;
	struct lr_traffic_results *wres;	/* heap: large */
};

struct lr_server {
	struct lr_server_opts o;
	int lfd;
	int family;
	struct sockaddr_storage local;
	socklen_t local_len;
	atomic_bool stop;
	_Atomic unsigned tests_done;
	struct pending pend[MAX_PENDING];
	struct session *sess;
	atomic_bool listener_tuned; /* a test's -w/-M is on lfd (set by the session) */
	/* a session asks the acceptor for an MPTCP listener (its test's "mptcp", or -s -m); the
	 * acceptor clears it once lfd is remade, lproto saying what lfd is (0 or IPPROTO_MPTCP) */
	atomic_bool want_mptcp;
	_Atomic int lproto;
	struct lr_auth_server *auth; /* o.auth's keys and users, or NULL: no authentication */
	/* latency probes answered / refused over every test (lr_server_probe_counts) */
	_Atomic uint64_t probe_answered, probe_refused;
};

/* [acceptor] A connection that sent a valid cookie becomes the test: its session thread runs
 * params, streams, the test and results. 0 or -errno. */
int lr_server_session_start(struct lr_server *srv, struct pending *pd);
/* [acceptor] Joins and frees a finished session. */
void lr_server_session_end(struct lr_server *srv);

/* [any] --bind-dev on a listening socket (TCP or a UDP test's). 0 or -errno. */
int lr_server_bind_dev(const struct lr_server *s, int fd);

/* Session thread helpers shared by server_session.c and server_streams.c. */
struct lr_proto_conn lr_server_sess_conn(struct session *ss);
/* SERVER_ERROR and iperf3's i_errno, best effort. */
void lr_server_send_error(struct session *ss, int ierrno);
/* ... with the errno iperf3 prints after its message ("Protocol not supported"). */
void lr_server_send_error_errno(struct session *ss, int ierrno, int err);
/* A bounded I/O result in words for the log. */
const char *lr_server_io_what(int rc);
/* --snd-timeout (TCP_USER_TIMEOUT) on a control or TCP data socket; ms 0 = leave it. */
void lr_server_snd_timeout(struct session *ss, int fd, unsigned int ms);
/* The client's -n/-k stops this side's senders: TCP only. The client ends a counted test when
 * it has sent or received the count (iperf3); a UDP datagram lost on the way is never sent
 * again, so a UDP sender that stopped at the count could leave the client waiting for it.
 * UDP senders go on until TEST_END, as iperf3's paced senders do (docs/wire.md §5.1). */
static inline bool lr_server_count_shared(const struct session *ss)
{
	return !ss->p.udp && (ss->p.num_bytes || ss->p.blockcount);
}
/* CREATE_STREAMS, then every data stream of the test in accept order. 0 (phase PH_RUN) or
 * -errno (logged). */
int lr_server_create_streams(struct session *ss);
/* server_report.c. [session] Records the streams' counters when a tick is due (or now, when
 * force): the report's interval boundaries. */
void lr_server_tick(struct session *ss, uint64_t now, bool force, bool omit_end);
/* What the server's -J tells of its own side beside the merged results (server_intervals.c):
 * each TCP socket's TCP_INFO over the report intervals, the data sockets' buffers, the control
 * connection's MSS. */
void lr_server_local_facts(struct session *ss, struct lr_traffic_results *R);
/* ... the socket facts alone (the first data socket's buffers, the control connection's MSS). */
void lr_server_sock_facts(struct session *ss, bool *have, uint64_t *bufsize, int *snd,
			  int *rcv, int *mss);
/* [session] The report of a test whose results came in: the app's hook; *loc gets the output
 * the client asked for. */
void lr_server_report(struct session *ss, struct lr_proto_results *loc,
		      const struct lr_proto_results *peer);
/* [session] The report of a test that failed (ss->fail), with what is known of it: the app's
 * hook, as iperf3 -s -J prints its error object. The streams have stopped. */
void lr_server_report_failed(struct session *ss);
void lr_server_report_free(struct session *ss);
/* Peer view (server_peer.c, docs/wire.md (part 2)). [session] Sends the offer when the client
 * asked and the app's begin() agrees; 0, or -errno when the control write failed. */
int lr_server_peer_offer(struct session *ss);
/* [session] Calls the app's end() once if the test offered. */
void lr_server_peer_end(struct session *ss);
/* [session] Stops the test's probe responder, if any (the session's end). */
void lr_server_probe_end(struct session *ss);
/* [acceptor] A test waits for its peer-stats channel: read new connections' first bytes
 * instead of denying them at once. */
bool lr_server_peer_waiting(const struct lr_server *s);
/* [acceptor] pd's 37 bytes are the running test's peer-stats hello: the fd went to the app
 * (true), or was closed as a failed attempt (true); false: not a hello. */
bool lr_server_peer_take(struct lr_server *s, struct pending *pd);

/* This side's results of the test so far (the streams have stopped). [session] */
void lr_server_local_results(struct session *ss, struct lr_proto_results *r);
/* The app's view (server_report.c, opts.watch). [session] test_begin once the streams run. */
void lr_server_watch_begin(struct session *ss);
/* [session] The merged results once exchanged (peer NULL: this side's only). */
void lr_server_merge_results(struct session *ss, const struct lr_proto_results *loc,
			     const struct lr_proto_results *peer, struct lr_traffic_results *R);
void lr_server_watch_results(struct session *ss, const struct lr_proto_results *loc,
			     const struct lr_proto_results *peer);
/* [session] test_end once after test_begin, streams stopped, before they are freed. */
void lr_server_watch_end(struct session *ss);

#endif
