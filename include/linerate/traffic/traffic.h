/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iperf3-compatible traffic sessions: the client (a control thread plus one lr_stream per data
 * connection) and the server (one test at a time). Both speak iperf3's wire protocol and work
 * against a plain iperf3 peer. Library code: no printing, errors go to lr_log and to the
 * session's error text. Depends on core only. */
#ifndef LINERATE_TRAFFIC_H
#define LINERATE_TRAFFIC_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "linerate/core/common.h"
#include "linerate/traffic/auth.h"
#include "linerate/traffic/proto.h"

#define LR_MAX_STREAMS 128	/* iperf3's MAX_STREAMS */

struct lr_traffic_config {	/* iperf3's options, same meanings */
	const char *host;	/* -c HOST, NULL = no traffic */
	uint16_t port;		/* -p, 5201 */
	const char *bind;	/* -B */
	/* --bind-dev, -c HOST%DEV, -B ADDR%DEV: SO_BINDTODEVICE on every socket, "" = none */
	char bind_dev[16];
	bool udp;		/* -u */
	bool mptcp;		/* -m/--mptcp: TCP data streams are IPPROTO_MPTCP (server: asked of
				 * every test's data listener) */
	unsigned parallel;	/* -P, 1..128 */
	uint64_t bitrate_bps;	/* -b per stream; 0 unlimited; UDP default 1 Mbit/s as iperf3 */
	bool bitrate_set;
	unsigned burst;		/* -b RATE/BURST: BURST blocks back to back per pacing step, 0 unset */
	int pacing_timer_us;	/* --pacing-timer: sent to the server (iperf3 3.22 ignores it) */
	bool pacing_timer_set;	/* else iperf3's 1000 is sent */
	uint64_t length;	/* -l; 0 = iperf3's default (TCP 128 KiB, UDP from the MSS) */
	bool reverse;		/* -R */
	bool bidir;		/* --bidir */
	unsigned mss;		/* -M, 0 unset */
	uint64_t window;	/* -w bytes, 0 unset */
	int affinity;		/* -A n: this side's stream threads on CPU n, -1 unset */
	int server_affinity;	/* -A n,m: asks the server for CPU m, -1 unset */
	/* -A node:N: this side's stream threads on node N's CPUs (affinity is -1 then) */
	int affinity_node;	/* N, -1 unset */
	cpu_set_t affinity_cpus;	/* its CPUs, resolved by the app from this machine's /sys */
	const char *congestion;	/* -C */
	unsigned omit_s;	/* -O: seconds run first and left out of every count */
	bool get_server_output;	/* --get-server-output: the server's report comes back */
	uint64_t num_bytes;	/* -n: the test ends after this many bytes (0: by time) */
	uint64_t blockcount;	/* -k: ... after this many blocks of -l bytes */
	bool nodelay;		/* -N: TCP_NODELAY on the data streams */
	int tos;		/* -S / --dscp: IP_TOS / IPV6_TCLASS on the data streams, 0 unset */
	int family;		/* -4 AF_INET, -6 AF_INET6, 0 either */
	uint32_t flowlabel;	/* -L: IPv6 flow label of the client's data streams, 0 unset */
	bool zerocopy;		/* -Z: the TCP sender's zero-copy path */
	bool dont_fragment;	/* --dont-fragment: IP_PMTUDISC_DO (no fragmentation) */
	uint64_t fq_rate_bps;	/* --fq-rate: SO_MAX_PACING_RATE on the data streams, bit/s */
	uint16_t cport;		/* --cport: data streams from this local port on (+i) */
	bool repeating_payload;	/* --repeating-payload: "0123456789..." as iperf3 */
	const char *file;	/* -F: the TCP payload read from, or written to, this file */
	const char *extra_data;	/* --extra-data: passed to the server, in the JSON */
	bool udp_64bit;		/* --udp-counters-64bit */
	bool skip_rx_copy;	/* --skip-rx-copy: TCP receivers discard with MSG_TRUNC */
	bool cntl_ka;		/* --cntl-ka[=IDLE/INTV/CNT]: keepalive on the control conn */
	int ka_idle, ka_intv, ka_cnt;	/* 0 = the system's */
	uint32_t idle_timeout_s;	/* server --idle-timeout, 0 unset */
	uint64_t server_rate_limit_bps;	/* server --server-bitrate-limit, 0 unset */
	uint32_t server_rate_limit_ms;	/* ... averaged over this window, 0 = iperf3's 5 s */
	uint32_t server_max_duration_s;	/* server --server-max-duration, 0 unset */
	bool one_off;		/* -1 (server) */
	bool no_gso;		/* --no-gso: plain sendmmsg/recvmmsg path */
	bool no_start;		/* --no-start: dashboard waits for `s` */
	bool demo;		/* --demo: in-process server on loopback */
	uint32_t connect_timeout_ms;	/* --connect-timeout: control connect and each data
					 * stream's setup (UDP retried); 0 = 5000 */
	uint32_t rcv_timeout_ms;	/* --rcv-timeout: no data received for this long ends
					 * the test; 0 = iperf3's 120000 */
	uint32_t snd_timeout_ms;	/* --snd-timeout: TCP_USER_TIMEOUT, 0 = the system's */
	/* Peer view (docs/wire.md, part 2): the client does not ask / the server does not offer. */
	bool no_peer_stats;	/* --no-peer-stats */
	/* client: no latency probes (DESIGN section 16, docs/wire.md part 3); --no-peer-stats
	 * asks for none either */
	bool no_latency;	/* --no-latency */
	uint64_t peer_interval_ns;	/* client: the sampling interval it asks the server for */
	struct lr_auth_opts auth;	/* --username etc. (auth.h); all NULL = no authentication */
	uint64_t report_interval_ns;	/* -i as the report's interval (-J's test_start.interval),
					 * 0 = iperf3's 1 s; the engine does not use it */
};

/* A TCP data socket's TCP_INFO at one moment, in the units iperf3's -J prints them. */
struct lr_tcp_sample {
	bool valid;		/* read (a TCP socket, getsockopt worked) */
	uint64_t snd_cwnd;	/* bytes: tcpi_snd_cwnd * tcpi_snd_mss */
	uint64_t snd_wnd;	/* tcpi_snd_wnd: the peer's advertised receive window */
	uint32_t rtt_us, rttvar_us;	/* tcpi_rtt, tcpi_rttvar */
	uint32_t pmtu;		/* tcpi_pmtu */
	uint32_t reorder;	/* tcpi_reord_seen: reordering events so far */
	uint32_t retransmits;	/* tcpi_total_retrans: segments retransmitted so far */
	/* tcpi_data_segs_out / _in: data segments sent / received so far, one per MSS-sized
	 * segment whatever TSO, GSO or GRO made of the skbs; 32 bits, wrapping. have_segs:
	 * the kernel filled them (4.6+) */
	uint32_t data_segs_out, data_segs_in;
	bool have_segs;
};
/* Reads fd's TCP_INFO into *out (out->valid false on failure). [any] */
void lr_tcp_sample_read(int fd, struct lr_tcp_sample *out);
/* The congestion control algorithm fd actually uses (TCP_CONGESTION) into buf, "" when
 * unknown. [any] */
void lr_tcp_congestion_read(int fd, char *buf, size_t len);

/* A sending socket's TCP_INFO over a test's report intervals (one sample at each interval's
 * end, as iperf3's): -J's max_snd_cwnd, max_snd_wnd, max/min/mean_rtt, reorder. */
struct lr_tcp_path {
	unsigned samples;	/* 0: none taken (the peer's socket, or UDP) */
	uint64_t max_snd_cwnd, max_snd_wnd;
	uint32_t max_rtt_us, min_rtt_us;
	uint64_t sum_rtt_us;	/* mean = sum / samples */
	uint32_t reorder;	/* the last sample's */
};
/* Adds one sample (an invalid one is ignored). [any] */
void lr_tcp_path_add(struct lr_tcp_path *p, const struct lr_tcp_sample *s);

struct lr_stream_stats;

/* ---------------- client ---------------- */

enum lr_client_state {
	LR_CLIENT_IDLE, /* opened, not started */
	LR_CLIENT_CONNECTING, /* control connection, params, stream setup */
	LR_CLIENT_RUNNING, /* data flowing */
	LR_CLIENT_ENDING, /* TEST_END sent, exchanging results */
	LR_CLIENT_DONE, /* finished (normally or stopped early: see results.stopped) */
	LR_CLIENT_ERROR, /* failed: lr_client_error() says why */
};

struct lr_client; /* opaque: control socket, control thread, the streams */

struct lr_client_stream_info {
	int id; /* iperf3 stream id: 1, 3, 4, ... */
	bool sender; /* this side (the client) sends on it */
	bool udp;
	const struct lr_stream_stats *stats; /* live atomics; valid until lr_client_close */
	/* -O: the stream's counters when the omitted seconds ended (valid once
	 * lr_client_omit_over is true); the results leave them out */
	uint64_t omit_bytes, omit_retransmits, omit_lost;
};

/* One stream after the test: both sides' views merged by id. */
struct lr_traffic_stream_result {
	int id;
	bool client_sends; /* direction: client -> server */
	bool udp;
	uint64_t sent_bytes; /* sender's count */
	uint64_t received_bytes; /* receiver's count */
	double sender_s; /* sender's stream duration */
	double receiver_s;
	int64_t retransmits; /* TCP sender's, -1 unknown */
	int64_t packets_sent; /* UDP: datagrams the sender sent */
	int64_t packets_received; /* UDP: receiver's highest sequence */
	int64_t lost; /* UDP receiver's loss count */
	int64_t out_of_order; /* UDP receiver, -1 when the receiver is the peer */
	double jitter_s; /* UDP receiver's jitter */
	bool have_peer; /* peer results arrived for this id */
	uint16_t local_port, remote_port; /* the data connection, 0 unknown */
	struct lr_tcp_path path; /* this side's socket over the report intervals */
};

/* Sums over one direction, like iperf3's sum_sent / sum_received. */
struct lr_traffic_sum {
	unsigned n_streams;
	uint64_t sent_bytes;
	uint64_t received_bytes;
	double sender_s; /* longest stream duration */
	double receiver_s;
	int64_t retransmits; /* -1 unknown */
	int64_t packets_sent;
	int64_t packets_received; /* the receivers' datagrams (their highest sequences) */
	int64_t lost;
	double jitter_s; /* mean over streams */
};
/* Adds one stream's result to a direction's sum (retransmits -1 once one is unknown; jitter is
 * summed: the caller divides by n_streams). [any] */
struct lr_traffic_stream_result;
void lr_traffic_sum_add(struct lr_traffic_sum *s, const struct lr_traffic_stream_result *e);

struct lr_traffic_results {
	bool complete; /* results were exchanged with the peer */
	bool stopped; /* lr_client_stop (or a signal) ended the test early */
	/* server view: the test failed, iperf3 -s's "error" text ("" none); server_error_end:
	 * the results stand for its end anyway (the client terminated it) */
	char server_error[160];
	bool server_error_end;
	bool udp, reverse, bidir;
	unsigned parallel;
	uint64_t len; /* block / datagram size used */
	uint64_t bitrate_bps; /* per-stream target, 0 unlimited */
	uint64_t duration_ns; /* measured: TEST_RUNNING .. end */
	uint64_t start_real_ns; /* CLOCK_REALTIME at TEST_RUNNING */
	char cookie[LR_PROTO_COOKIE_LEN];
	char local_host[64], remote_host[64]; /* control connection, numeric */
	uint16_t local_port, remote_port;
	double local_cpu_total, local_cpu_user, local_cpu_system;
	double remote_cpu_total, remote_cpu_user, remote_cpu_system;
	char remote_congestion[32];
	char local_congestion[32]; /* TCP_CONGESTION of this side's data sockets, "" unknown */
	bool server_view; /* the server's results: "sender" and "receiver" as it sees them */
	/* -J start's socket facts, as iperf3's client reports them (have_sockbuf: known) */
	bool have_sockbuf;
	uint64_t sock_bufsize; /* -w asked, 0 none */
	int sndbuf_actual, rcvbuf_actual; /* SO_SNDBUF / SO_RCVBUF of the first data socket */
	int tcp_mss_default; /* TCP_MAXSEG of the control connection, 0 unknown */
	const char *file; /* client -F: the file (NULL none) and its size at the end, -1 unknown */
	int64_t file_size;
	unsigned n_streams;
	struct lr_traffic_stream_result streams[LR_PROTO_MAX_RESULTS];
	struct lr_traffic_sum sum_up; /* client -> server streams */
	struct lr_traffic_sum sum_down; /* server -> client streams */
};

/* Copies *tc (and its strings). duration_ns 0 = until lr_client_stop. Nothing happens on the
 * network until lr_client_start. 0 or -errno (-EINVAL: no host, bad parallel/length). */
int lr_client_open(struct lr_client **out, const struct lr_traffic_config *tc,
		   uint64_t duration_ns) LR_MUST_CHECK;
/* [any] Starts the control thread (signals blocked in it); returns at once. Once per object:
 * to restart with other options, close and open a new one. 0 or -errno. */
int lr_client_start(struct lr_client *c) LR_MUST_CHECK;
/* [any] Ends the test early (CLIENT_TERMINATE to the server); returns at once. The state
 * reaches DONE within 200 ms. */
void lr_client_stop(struct lr_client *c);
/* [any] New per-stream target for the streams this side sends on (0 = unlimited). */
void lr_client_set_rate(struct lr_client *c, uint64_t rate_bps);
/* [any] */
enum lr_client_state lr_client_state(const struct lr_client *c);
/* [any] Copies the error text ("" when none) into buf. */
void lr_client_error(struct lr_client *c, char *buf, size_t size);
/* [any] Waits until DONE or ERROR, up to timeout_ns (0 = forever). true when finished. */
bool lr_client_wait(struct lr_client *c, uint64_t timeout_ns);
/* [any] Streams created so far (grows during setup, never shrinks before close). */
unsigned lr_client_stream_count(const struct lr_client *c);
/* [any] 0 or -ENOENT. */
int lr_client_stream_info(const struct lr_client *c, unsigned i, struct lr_client_stream_info *out);
/* [any] Stream i's TCP_INFO now (its socket stays open until lr_client_close), for -J's
 * intervals; out->valid false for UDP or before the stream exists. */
void lr_client_stream_tcp(struct lr_client *c, unsigned i, struct lr_tcp_sample *out);
/* [any] Once DONE: a copy (malloc'd, caller frees) of the report the server sent back for
 * --get-server-output, *json telling a JSON object from text; NULL when none came. */
char *lr_client_server_output(struct lr_client *c, bool *json);
/* [any] -O: true once the omitted seconds are over (then *at_ns, may be NULL, is when, on
 * CLOCK_MONOTONIC, and lr_client_stream_info carries each stream's counters at that moment). */
bool lr_client_omit_over(const struct lr_client *c, uint64_t *at_ns);
/* The peer-stats channel a linerate server offered for this test (docs/wire.md, part 2). */
struct lr_client_peer {
	struct sockaddr_storage addr;	/* the control connection's server address */
	socklen_t addr_len;
	char cookie[LR_PROTO_COOKIE_LEN];
	unsigned interval_ms;	/* the server's tick */
	uint32_t max_frame;
	uint16_t probe_port;	/* the offer's latency probe port, 0 none (probe.h) */
};
/* [any] true once the server offered its samples (then *out is filled); false while not (yet),
 * and for good against a plain iperf3 or a server run with --no-peer-stats. */
bool lr_client_peer_offer(struct lr_client *c, struct lr_client_peer *out);
/* [any] Final results once DONE (partial, local view only when stopped early). *out is
 * caller-owned (it is large: allocate it). 0, or -EAGAIN before DONE/ERROR. */
int lr_client_results(struct lr_client *c, struct lr_traffic_results *out) LR_MUST_CHECK;
/* [any] Once RUNNING: what iperf3's -J "start" block tells (settings, cookie, addresses, each
 * stream's id and ports, no counts) in *out (caller-owned, large), for --json-stream's start
 * event while the test runs. 0, or -EAGAIN before the streams run. */
int lr_client_start_info(struct lr_client *c, struct lr_traffic_results *out) LR_MUST_CHECK;
/* Stops if needed, joins every thread, closes every socket, frees. NULL-safe. */
void lr_client_close(struct lr_client *c);

/* ---------------- server ---------------- */

struct lr_server; /* opaque: the listener, pending connections, the current test */

/* One reporting interval of a test as the server saw it (iperf3 -s's interval lines). */
struct lr_server_interval {
	double start_s, end_s; /* from the test's start; after -O's mark from 0 again */
	bool omitted;
	/* per stream, in the results' order, over this interval */
	const uint64_t *bytes, *retransmits, *lost;
	/* UDP: datagrams (a receiver's by sequence, a sender's as sent); a receiver's jitter at
	 * the interval's end */
	const uint64_t *packets;
	const double *jitter_s;
	const struct lr_tcp_sample *tcp; /* TCP: each socket's TCP_INFO at the interval's end */
};

/* A finished test for the server's report, or a failed one (error). */
struct lr_server_report {
	/* the test failed: iperf3 -s's -J "error" text; NULL = it ran to its results exchange */
	const char *error;
	bool started; /* its streams ran: res has its facts and iv its whole intervals so far */
	bool have_end; /* res has results (this side's alone after a failure); else none known */
	const struct lr_traffic_results *res; /* both ends' views merged by stream id */
	unsigned n_intervals;
	const struct lr_server_interval *iv;
	unsigned omit_s; /* the client's -O */
	int64_t time_s; /* the client's -t */
	bool want_output; /* the client asked for it (--get-server-output) */
	const char *client_version; /* "" when it said nothing */
};

struct lr_server_opts {
	const char *bind; /* -B address, NULL = any (IPv6 dual-stack, else IPv4) */
	const char *bind_dev; /* --bind-dev: SO_BINDTODEVICE on every listener, NULL = none */
	bool mptcp; /* -m: every test's data listener is MPTCP (as a client's "mptcp" asks) */
	uint16_t port; /* 0 = 5201 */
	bool one_off; /* -1: return after one test */
	bool pin; /* -A: stream threads on `cpu` unless the client asks for one (-A n,m) */
	int cpu;
	bool pin_set; /* -A node:N: on these CPUs instead, unless the client asks for one */
	cpu_set_t cpus;
	bool no_gso; /* --no-gso: plain recvmmsg/sendmmsg for every UDP test */
	uint32_t rcv_timeout_ms; /* --rcv-timeout: a test that receives nothing this long ends
				  * (SERVER_ERROR 144, as iperf3 3.21); 0 = 120000 */
	uint32_t snd_timeout_ms; /* --snd-timeout: TCP_USER_TIMEOUT on control and data, 0 =
				  * the system's (data) and 30 s (control) */
	uint64_t interval_ns; /* -i: the report's intervals, 0 = 1 s */
	uint32_t idle_timeout_s; /* --idle-timeout: no test this long: drop what waits (with
				  * one_off: return), 0 = never */
	uint64_t rate_limit_bps; /* --server-bitrate-limit: a test asking more, or averaging more
				  * (both directions), fails with IETOTALRATE; 0 = none */
	uint32_t rate_limit_ms; /* ... the average over the last report intervals that make this
				 * window (iperf3's rule), 0 = iperf3's 5 s */
	const char *file; /* -F: each TCP stream's payload read from this file (-R), or what it
			   * receives written to it; a UDP test is refused (iperf3's error 34) */
	uint32_t max_duration_s; /* --server-max-duration: a test asking a longer -t + -O, or no
				  * -t (time 0: -n, -k), is refused with iperf3's error 37; 0 = none */
	/* [session thread] A test ended with results: the app writes its report, and when
	 * r->want_output returns it (malloc'd, freed by the server) for the client, *json
	 * saying it is one JSON object rather than text. NULL = no reports. */
	char *(*report)(void *arg, const struct lr_server_report *r, bool *json);
	void *report_arg;
	/* Polled every 50 ms by lr_server_run; true ends the server (may be NULL). */
	bool (*should_stop)(void *arg);
	void *arg;
	/* Peer view (docs/wire.md, part 2): NULL = never offered (--no-peer-stats). */
	const struct lr_server_peer_hooks *peer;
	/* The app's view of each test (its dashboard, text lines, CSV): NULL = none. */
	const struct lr_server_test_hooks *watch;
	/* --rsa-private-key-path + --authorized-users-path: tests need a valid token (auth.h);
	 * both NULL = any test is accepted and a token ignored, as iperf3 */
	struct lr_auth_opts auth;
};

/* One data stream of a server test, as the app sees it. */
struct lr_server_stream_info {
	int id;			/* iperf3 stream id: 1, 3, 4, ... */
	bool sender;		/* this side (the server) sends on it */
	char local_host[64], remote_host[64];	/* the data connection, numeric */
	uint16_t local_port, remote_port;
};

/* A test the server runs: the client's parameters and its streams. */
struct lr_server_test_info {
	char local_host[64], remote_host[64];	/* the control connection, numeric */
	uint16_t local_port, remote_port;
	bool udp, reverse, bidir;
	unsigned parallel;	/* -P */
	uint64_t len;		/* -l: block / datagram size */
	uint64_t bitrate_bps;	/* -b per stream, 0 unlimited */
	int64_t time_s;		/* -t, 0 with -n/-k */
	int64_t omit_s;		/* -O */
	uint64_t num_bytes, blockcount;	/* -n, -k; 0 unused */
	char client_version[32];
	uint64_t start_ns;	/* CLOCK_MONOTONIC when the streams started (TEST_RUNNING) */
	uint64_t start_real_ns;	/* CLOCK_REALTIME then */
	/* -J start's socket facts, as iperf3 -s reports them (have_sockbuf: known) */
	bool have_sockbuf;
	uint64_t sock_bufsize;	/* the client's -w, 0 none */
	int sndbuf_actual, rcvbuf_actual;	/* SO_SNDBUF / SO_RCVBUF of the first data socket */
	int tcp_mss_default;	/* TCP: TCP_MAXSEG of the control connection, 0 unknown */
	unsigned n_streams;
	struct lr_server_stream_info streams[LR_PROTO_MAX_RESULTS];
};

/* How the app follows each test. Both hooks run on the test's session thread, must be
 * bounded (they hold up the next test) and never call back into the server. */
struct lr_server_test_hooks {
	void *arg;
	/* [session thread] The streams exist and count (started); streams[i] are their live
	 * counters (relaxed atomics, core/streamstats.h), readable from any thread until
	 * test_end returns and never after. *info is valid during the call only. */
	void (*test_begin)(void *arg, const struct lr_server_test_info *info,
			   const struct lr_stream_stats *const *streams, unsigned n);
	/* [session thread] Once after test_begin: the streams have stopped and the results are
	 * known (complete when exchanged with the client; else this side's counts, stopped
	 * set). Streams are freed after it returns. *r is valid during the call only. */
	void (*test_end)(void *arg, const struct lr_traffic_results *r);
};

/* What the app learns of a test whose client asked for the server's samples. */
struct lr_server_peer_test {
	char local_host[64], remote_host[64];	/* the control connection, numeric */
	unsigned interval_ms;	/* the client's ask, clamped to 50..10000 */
};

/* The generic hook by which the app (which owns a sampler) streams samples; the traffic layer
 * only negotiates and authenticates the channel. */
struct lr_server_peer_hooks {
	void *arg;
	/* [session thread] A client asked: 0 to offer (start sampling now), <0 to decline. */
	int (*begin)(void *arg, const struct lr_server_peer_test *t);
	/* [acceptor thread] The authenticated channel, once per offered test, before end: the
	 * fd (blocking mode unspecified) is the hook's to use and close. */
	void (*attach)(void *arg, int fd);
	/* [session thread] Once after a successful begin, when the streams have stopped (or the
	 * test failed): send the last sample, close the channel, stop sampling. Bounded. */
	void (*end)(void *arg);
};

/* Binds and listens. 0 or -errno (logged with the address). */
int lr_server_open(struct lr_server **out, const struct lr_server_opts *o) LR_MUST_CHECK;
/* Serves until should_stop/lr_server_stop, or after one test with one_off. Runs on the calling
 * thread; each test runs on a session thread. 0 or -errno on a fatal listener error. */
int lr_server_run(struct lr_server *s) LR_MUST_CHECK;
/* [any] Makes lr_server_run return within 200 ms (SERVER_TERMINATE to a connected client). */
void lr_server_stop(struct lr_server *s);
/* [any] Number of tests that ran to a results exchange. */
unsigned lr_server_tests_done(const struct lr_server *s);
/* Sets o.report / o.report_arg after open (before lr_server_run). */
void lr_server_set_report(struct lr_server *s,
			  char *(*report)(void *arg, const struct lr_server_report *r, bool *json),
			  void *arg);
/* The port the server listens on (opts.port, or 5201 when it was 0). */
uint16_t lr_server_port(const struct lr_server *s);
void lr_server_close(struct lr_server *s);

#endif
