// SPDX-License-Identifier: GPL-2.0-or-later
/* One iperf3 test on the server, on its own thread: params (bounded, type-checked), the data
 * streams (server_streams.c), the run, bounded by the test's length + a grace, --rcv-timeout
 * and what the streams say, and the results exchange. Ends only its own test on any error;
 * the acceptor goes on serving. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"
#include "server_priv.h"

/* iperf3 -s's -J "error" texts for the failures it reports (its i_errno strings, "error - "
 * where iperf3 prints that prefix) */
#define FAIL_RATE  "error - total required bandwidth is larger than server limit"
#define FAIL_AUTH  "error - test authorization failed"
#define FAIL_CLOSE "the client has unexpectedly closed the connection"

/* ---------------- session (one test, own thread) ---------------- */

struct lr_proto_conn lr_server_sess_conn(struct session *ss)
{
	return (struct lr_proto_conn){.fd = ss->ctl_fd, .stop = &ss->stop, .side_fd = -1,
				      .role = "server"};
}

void lr_server_send_error(struct session *ss, int ierrno)
{
	lr_server_send_error_errno(ss, ierrno, 0);
}

void lr_server_send_error_errno(struct session *ss, int ierrno, int err)
{
	struct lr_proto_conn cc = lr_server_sess_conn(ss);
	uint8_t b[9] = {(uint8_t)LR_PROTO_SERVER_ERROR, (uint8_t)(ierrno >> 24),
			(uint8_t)(ierrno >> 16), (uint8_t)(ierrno >> 8), (uint8_t)ierrno,
			(uint8_t)(err >> 24), (uint8_t)(err >> 16), (uint8_t)(err >> 8), (uint8_t)err};

	cc.stop = NULL;
	if (lr_proto_write(&cc, b, sizeof(b), LR_NSEC_PER_SEC) < 0)
		lr_log(LR_LOG_DEBUG, "server: SERVER_ERROR not sent to %s", ss->peer);
}

const char *lr_server_io_what(int rc)
{
	switch (rc) {
	case -ETIMEDOUT: return "timed out";
	case -ECONNRESET: return "closed the connection";
	case -EMSGSIZE: return "sent a bad message length";
	case -ECANCELED: return "interrupted (server stopping)";
	case -ECONNABORTED: return "ended by the client";
	default: return strerror(-rc);
	}
}

static void stop_streams(struct session *ss, int which) /* 1 senders, 0 receivers, -1 all */
{
	for (unsigned i = 0; i < ss->n; i++)
		if (ss->streams[i] && (which < 0 || (int)(i >= ss->n_recv) == which))
			lr_stream_stop(ss->streams[i]);
	for (unsigned i = 0; i < ss->n; i++)
		if (ss->streams[i] && (which < 0 || (int)(i >= ss->n_recv) == which))
			lr_stream_join(ss->streams[i]);
}

/* The client stopped sending before TEST_END; take what is still in flight, then stop. */
static void drain_receivers(struct session *ss)
{
	uint64_t end = lr_clock_mono_ns() + DRAIN_MAX_NS, prev = UINT64_MAX;
	int quiet = 0;

	while (ss->n_recv && lr_clock_mono_ns() < end && quiet < 2) {
		uint64_t sum = 0;

		for (unsigned i = 0; i < ss->n_recv; i++)
			sum += atomic_load(&lr_stream_stats(ss->streams[i])->bytes);
		quiet = sum == prev ? quiet + 1 : 0;
		prev = sum;
		if (lr_clock_sleep_until(lr_clock_mono_ns() + 20 * LR_NSEC_PER_MSEC) < 0)
			break;
	}
	stop_streams(ss, 0);
}

/* iperf3 closes the data sockets on TEST_END; its 3.12 receiver may sit in a blocking read of a
 * partial block until it sees EOF. FIN after the queued data; the stream still owns the fd. */
static void shutdown_data(struct session *ss, int which, int how)
{
	for (unsigned i = 0; i < ss->n; i++)
		if (ss->streams[i] && (which < 0 || (int)(i >= ss->n_recv) == which))
			shutdown(lr_stream_params(ss->streams[i])->fd, how);
}

/* The omitted seconds are over: every stream's counters now, left out of its results. */
static void take_omit_marks(struct session *ss)
{
	uint64_t now = lr_clock_mono_ns();

	for (unsigned i = 0; i < ss->n; i++) {
		const struct lr_stream_stats *st = lr_stream_stats(ss->streams[i]);
		struct lr_traffic_omit_mark *m = &ss->omit[i];

		/* retransmits stay unmarked (0): the server's results count them whole, the
		 * client's from the mark */
		m->bytes = atomic_load(&st->bytes);
		m->packets = atomic_load(&st->packets);
		m->lost = atomic_load(&st->lost);
		m->max_seq = atomic_load(&st->max_seq);
		m->out_of_order = atomic_load(&st->out_of_order);
		m->at_ns = now;
		lr_stream_omit_mark(ss->streams[i]);
	}
	ss->omit_taken = true;
	lr_log(LR_LOG_DEBUG, "server: test from %s: %lld omitted second(s) over", ss->peer,
	       (long long)ss->p.omit_s);
}

/* This side's results (stream_result.c), each stream timed from its -O mark to its end. */
static void local_results(struct session *ss, struct lr_proto_results *r)
{
	lr_traffic_results_local(r, ss->streams, ss->n, ss->omit, ss->p.udp, &ss->ru0, ss->t0_ns);
	for (unsigned i = 0; i < ss->n; i++) {
		const struct lr_stream_stats *st = lr_stream_stats(ss->streams[i]);
		const struct lr_stream_params *sp = lr_stream_params(ss->streams[i]);
		uint64_t a = atomic_load(&st->start_ns), b = atomic_load(&st->end_ns);

		if (ss->omit[i].at_ns > a)
			a = ss->omit[i].at_ns;
		if (!sp->sender && ss->test_end_ns)
			b = ss->test_end_ns;
		r->streams[i].end_time_s = a && b > a ? (double)(b - a) / 1e9 : 0;
	}
}

void lr_server_local_results(struct session *ss, struct lr_proto_results *r)
{
	local_results(ss, r);
}

static void log_summary(struct session *ss, const struct lr_proto_results *loc)
{
	uint64_t rx = 0, tx = 0;
	double secs = (double)(lr_clock_mono_ns() - ss->t0_ns) / 1e9;

	for (unsigned i = 0; i < loc->n_streams; i++) {
		if (i < ss->n_recv)
			rx += loc->streams[i].bytes;
		else
			tx += loc->streams[i].bytes;
	}
	lr_log(LR_LOG_INFO,
	       "server: test from %s done: %s, %u stream(s)%s%s, received %llu bytes "
	       "(%.2f Mbit/s), sent %llu bytes (%.2f Mbit/s) in %.2f s",
	       ss->peer, ss->p.udp ? "UDP" : "TCP", ss->p.parallel,
	       ss->p.reverse ? ", reverse" : "", ss->p.bidir ? ", bidir" : "",
	       (unsigned long long)rx, secs > 0 ? (double)rx * 8 / secs / 1e6 : 0,
	       (unsigned long long)tx, secs > 0 ? (double)tx * 8 / secs / 1e6 : 0, secs);
}

static int exchange_results(struct session *ss)
{
	struct lr_proto_conn cc = lr_server_sess_conn(ss);
	struct lr_proto_results *loc = calloc(1, sizeof(*loc)), *peer = calloc(1, sizeof(*peer));
	char err[LR_PROTO_ERR_MAX];
	char *buf = NULL;
	size_t len;
	int rc = -ENOMEM;

	if (!loc || !peer)
		goto out;
	local_results(ss, loc);
	rc = lr_proto_state_send(&cc, LR_PROTO_EXCHANGE_RESULTS);
	if (rc < 0)
		goto out;
	rc = lr_proto_msg_recv(&cc, LR_PROTO_RESULTS_MAX, CTL_TIMEOUT_NS, &buf, &len);
	if (rc < 0) {
		lr_log(LR_LOG_WARN, "server: test from %s: client results: %s", ss->peer,
		       lr_server_io_what(rc));
		goto out;
	}
	lr_proto_debug_json("get_results", buf, len);
	rc = lr_proto_results_decode(buf, len, peer, err);
	free(buf);
	buf = NULL;
	if (rc < 0) {
		lr_log(LR_LOG_WARN, "server: test from %s: bad client results: %s", ss->peer, err);
		goto out;
	}
	/* counted before the client can see the end of the exchange (lr_server_tests_done) */
	atomic_fetch_add(&ss->srv->tests_done, 1);
	lr_server_report(ss, loc, peer);
	rc = lr_proto_results_encode(loc, &buf, &len);
	if (rc == 0) {
		lr_proto_debug_json("send_results", buf, len);
		rc = lr_proto_msg_send(&cc, buf, len);
	}
	if (rc == 0)
		rc = lr_proto_state_send(&cc, LR_PROTO_DISPLAY_RESULTS);
	if (rc == 0)
		log_summary(ss, loc);
	lr_server_watch_results(ss, loc, peer);
out:
	free(buf);
	if (loc)
		free(loc->server_output);
	if (peer)
		lr_proto_results_release(peer);
	free(loc);
	free(peer);
	return rc;
}

/* What the data streams say about a client that sends no TEST_END: a stream failed (reset,
 * --snd-timeout), every TCP receiver saw the client close, or nothing arrived for
 * --rcv-timeout. A failure waits STREAMS_GONE_NS for the control connection to explain it
 * (a client may close its sockets right after TEST_END). 1 = end the test (logged), else 0. */
static int check_streams(struct session *ss, uint64_t now, uint64_t *trouble_ns)
{
	uint64_t rcv_to = (uint64_t)(ss->srv->o.rcv_timeout_ms ? ss->srv->o.rcv_timeout_ms
							       : RCV_TIMEOUT_DEF_MS) *
			  LR_NSEC_PER_MSEC;
	uint64_t last = ss->t0_ns;
	unsigned ended = 0, failed = 0;
	int err = 0;

	for (unsigned i = 0; i < ss->n; i++) {
		const struct lr_stream_stats *st = lr_stream_stats(ss->streams[i]);
		int e = lr_stream_error(ss->streams[i]);

		if (e) {
			failed++;
			err = e;
		}
		if (i < ss->n_recv) {
			uint64_t v = atomic_load(&st->last_ns);

			last = v > last ? v : last;
			ended += !ss->p.udp && atomic_load(&st->end_ns) != 0;
		}
	}
	if (ss->n_recv && now > last && now - last >= rcv_to) {
		lr_log(LR_LOG_WARN,
		       "server: test from %s: no data for %.1f s (--rcv-timeout); ended", ss->peer,
		       (double)rcv_to / 1e9);
		lr_server_send_error(ss, 144 /* IENOMSG */);
		ss->fail = "error - idle timeout for receiving data";
		return 1;
	}
	if (!failed && !(ss->n_recv && ended == ss->n_recv)) {
		*trouble_ns = 0;
		return 0;
	}
	if (!*trouble_ns)
		*trouble_ns = now;
	if (now - *trouble_ns < STREAMS_GONE_NS)
		return 0;
	ss->fail = FAIL_CLOSE;
	if (failed) {
		snprintf(ss->fail_buf, sizeof(ss->fail_buf),
			 "error - unable to read from stream socket: %s", strerror(-err));
		ss->fail = ss->fail_buf;
	}
	if (failed && err == -ETIMEDOUT && ss->srv->o.snd_timeout_ms)
		lr_log(LR_LOG_WARN,
		       "server: test from %s: the client acknowledged nothing for %u ms "
		       "(--snd-timeout); ended",
		       ss->peer, ss->srv->o.snd_timeout_ms);
	else if (failed)
		lr_log(LR_LOG_WARN,
		       "server: test from %s: a data stream failed (%s) and no "
		       "TEST_END came; ended",
		       ss->peer, strerror(-err));
	else
		lr_log(LR_LOG_WARN,
		       "server: test from %s: the client closed its data connections "
		       "and sent no TEST_END; ended",
		       ss->peer);
	return 1;
}

/* --server-bitrate-limit: what the test asks for (streams x rate, both ways in bidir). */
/* --server-max-duration, iperf3 3.22's rule (get_parameters): -t + -O above the limit, or no
 * -t at all (a -n/-k test sends time 0), is refused before any stream. */
static bool asks_too_long(struct session *ss)
{
	uint32_t max = ss->srv->o.max_duration_s;

	return max && (ss->p.time_s + ss->p.omit_s > max || !ss->p.time_s);
}

static bool asks_too_much(struct session *ss)
{
	uint64_t lim = ss->srv->o.rate_limit_bps;
	unsigned streams = ss->p.parallel * (ss->p.bidir ? 2 : 1);

	return lim && ss->p.bandwidth_bps && ss->p.bandwidth_bps > lim / streams;
}

/* --server-bitrate-limit while it runs, iperf3's rule: at the end of each report interval the
 * bytes of every stream (both ways) over the last N whole intervals, N the window in intervals
 * (rounded, at least 1), make an average over N nominal intervals; none is taken before N have
 * passed, so a test shorter than the window is never ended. true = over the limit (logged). */
static bool over_limit(struct session *ss, uint64_t now)
{
	uint64_t every = ss->srv->o.interval_ns ? ss->srv->o.interval_ns : LR_NSEC_PER_SEC;
	uint64_t win = (uint64_t)(ss->srv->o.rate_limit_ms ? ss->srv->o.rate_limit_ms : 5000) *
		       LR_NSEC_PER_MSEC;
	uint64_t n = win <= every ? 1 : (win + every / 2) / every, total = 0, sum = 0;
	double bps;

	if (!ss->srv->o.rate_limit_bps || now < ss->rate_next_ns)
		return false;
	ss->rate_next_ns += every;
	if (ss->rate_next_ns <= now)	/* late: the next boundary from here */
		ss->rate_next_ns = now + every;
	if (n > RATE_IV_MAX)
		n = RATE_IV_MAX;
	for (unsigned i = 0; i < ss->n; i++)
		total += atomic_load(&lr_stream_stats(ss->streams[i])->bytes);
	ss->rate_iv[ss->rate_at] = total - ss->rate_prev;
	ss->rate_prev = total;
	ss->rate_at = (ss->rate_at + 1) % (unsigned)n;
	if (++ss->rate_seen < n)
		return false;
	ss->rate_seen = (unsigned)n;
	for (unsigned i = 0; i < n; i++)
		sum += ss->rate_iv[i];
	bps = (double)sum * 8 / ((double)(n * every) / 1e9);
	if (bps <= (double)ss->srv->o.rate_limit_bps)
		return false;
	lr_log(LR_LOG_WARN,
	       "server: test from %s: %.0f bit/s over the last %.1f s is above "
	       "--server-bitrate-limit %llu; ended",
	       ss->peer, bps, (double)(n * every) / 1e9,
	       (unsigned long long)ss->srv->o.rate_limit_bps);
	return true;
}

/* Waits for the client's end of test, bounded: the test's length + GRACE_NS, --rcv-timeout,
 * and what the streams say (check_streams). 0 on TEST_END, 1 when the test ended otherwise
 * (logged), -errno on I/O error. */
static int run_phase(struct session *ss)
{
	struct lr_proto_conn cc = lr_server_sess_conn(ss);
	uint64_t limit =
		ss->p.time_s ? (uint64_t)(ss->p.time_s + ss->p.omit_s) * LR_NSEC_PER_SEC + GRACE_NS
			     : UINT64_MAX - 1;
	uint64_t trouble_ns = 0;
	uint64_t omit_end = ss->t0_ns + (uint64_t)ss->p.omit_s * LR_NSEC_PER_SEC;

	for (;;) {
		uint64_t now = lr_clock_mono_ns(), wait = 200 * LR_NSEC_PER_MSEC;
		int st, rc;

		if (ss->p.omit_s && !ss->omit_taken) {
			if (now >= omit_end) {
				take_omit_marks(ss);
				lr_server_tick(ss, ss->omit[0].at_ns, true, true);
			}
			else if (omit_end - now < wait)
				wait = omit_end - now;
		}
		if (now - ss->t0_ns >= limit) {
			lr_log(LR_LOG_WARN,
			       "server: test from %s: no TEST_END %lld s after its "
			       "%lld s; ended",
			       ss->peer, (long long)(GRACE_NS / LR_NSEC_PER_SEC),
			       (long long)(ss->p.time_s + ss->p.omit_s));
			lr_server_send_error(ss, 160 /* IESERVERTESTDURATIONEXPIRED */);
			ss->fail = "error - server test duration expired";
			return 1;
		}
		lr_server_tick(ss, now, false, false);
		if (over_limit(ss, now)) {
			lr_server_send_error(ss, 27 /* IETOTALRATE */);
			ss->fail = FAIL_RATE;
			return 1;
		}
		if (ss->next_tick_ns > now && ss->next_tick_ns - now < wait)
			wait = ss->next_tick_ns - now;
		rc = lr_proto_state_recv(&cc, &st, wait);
		if (rc == -ETIMEDOUT) {
			if (check_streams(ss, lr_clock_mono_ns(), &trouble_ns))
				return 1;
			continue;
		}
		if (rc == -ECONNRESET)
			ss->fail = FAIL_CLOSE;
		else if (rc < 0 && rc != -ECANCELED)
			ss->fail = "error - unable to receive control message - port may not be "
				   "available, the other side may have stopped running, etc.";
		if (rc < 0)
			return rc;
		switch (st) {
		case LR_PROTO_TEST_END:
			ss->test_end_ns = lr_clock_mono_ns();
			return 0;
		case LR_PROTO_TEST_START: /* iperf3 ignores it too */ continue;
		case LR_PROTO_CLIENT_TERMINATE:
			lr_log(LR_LOG_INFO, "server: client %s terminated the test", ss->peer);
			/* iperf3 reports its side's results up to here, the last interval cut short */
			ss->fail = "the client has terminated";
			ss->fail_end = true;
			lr_server_tick(ss, lr_clock_mono_ns(), true, false);
			return 1;
		case LR_PROTO_IPERF_DONE:
			lr_log(LR_LOG_INFO, "server: client %s ended the test (IPERF_DONE)",
			       ss->peer);
			return 1;
		default:
			lr_log(LR_LOG_WARN, "server: client %s sent unexpected byte %d; test ended",
			       ss->peer, st);
			ss->fail = "error - received an unknown control message (ensure other "
				   "side is iperf3 and not iperf)";
			return 1;
		}
	}
}

static void wait_done(struct session *ss)
{
	struct lr_proto_conn cc = lr_server_sess_conn(ss);
	int st;

	/* IPERF_DONE or EOF; either way the test is over. */
	if (lr_proto_state_recv(&cc, &st, CTL_TIMEOUT_NS) == 0 && st != LR_PROTO_IPERF_DONE)
		lr_log(LR_LOG_DEBUG, "server: client %s sent %d instead of IPERF_DONE", ss->peer,
		       st);
}

static bool parse_params(struct session *ss)
{
	struct lr_proto_conn cc = lr_server_sess_conn(ss);
	char err[LR_PROTO_ERR_MAX];
	char *buf;
	size_t len;
	int rc;

	rc = lr_proto_msg_recv(&cc, LR_PROTO_PARAMS_MAX, PARAMS_TIMEOUT_NS, &buf, &len);
	if (rc < 0) {
		lr_log(LR_LOG_WARN, "server: client %s: parameters: %s", ss->peer,
		       lr_server_io_what(rc));
		return false;
	}
	lr_proto_debug_json("get_parameters:", buf, len);
	rc = lr_proto_params_decode(buf, len, &ss->p, err);
	free(buf);
	if (rc < 0) {
		lr_log(LR_LOG_WARN, "server: client %s: bad parameters: %s", ss->peer, err);
		if (rc == -EPROTONOSUPPORT)	/* iperf3's words for it */
			lr_server_send_error_errno(ss, 202 /* IESTREAMLISTEN */, EPROTONOSUPPORT);
		else
			lr_server_send_error(ss, 114 /* IERECVPARAMS */);
		return false;
	}
	ss->n_recv = ss->p.bidir ? ss->p.parallel : (ss->p.reverse ? 0 : ss->p.parallel);
	ss->n_send = ss->p.bidir ? ss->p.parallel : (ss->p.reverse ? ss->p.parallel : 0);
	ss->n = ss->n_recv + ss->n_send;
	ss->streams = calloc(ss->n, sizeof(*ss->streams));
	ss->omit = calloc(ss->n, sizeof(*ss->omit));
	if (!ss->streams || !ss->omit) {
		lr_log(LR_LOG_ERR, "server: out of memory");
		return false;
	}
	return true;
}

/* With keys (--rsa-private-key-path): the token must decrypt, be fresh and name a user of
 * the file, else SERVER_ERROR IEAUTHTEST as iperf3 (auth.h). Without: any test, token or not. */
static bool authorized(struct session *ss)
{
	char why[LR_AUTH_ERR_MAX];

	if (!ss->srv->auth)
		return true;
	if (lr_auth_server_check(ss->srv->auth, ss->p.authtoken, (int64_t)time(NULL), why) == 0) {
		lr_log(LR_LOG_DEBUG, "server: client %s authenticated: %s", ss->peer, why);
		return true;
	}
	lr_log(LR_LOG_WARN, "server: client %s: test authorization failed: %s", ss->peer, why);
	lr_server_send_error(ss, LR_AUTH_IEAUTHTEST);
	ss->fail = FAIL_AUTH;
	return false;
}

static void *session_thread(void *arg)
{
	struct session *ss = arg;
	struct lr_proto_conn cc = lr_server_sess_conn(ss);
	bool stopped = false;
	int rc;

	if (lr_proto_state_send(&cc, LR_PROTO_PARAM_EXCHANGE) < 0 || !parse_params(ss) ||
	    !authorized(ss))
		goto out;
	if (asks_too_much(ss)) {
		lr_log(LR_LOG_WARN, "server: test from %s asks %u x %llu bit/s: above "
		       "--server-bitrate-limit; refused", ss->peer,
		       ss->p.parallel * (ss->p.bidir ? 2 : 1),
		       (unsigned long long)ss->p.bandwidth_bps);
		lr_server_send_error(ss, 27 /* IETOTALRATE */);
		ss->fail = FAIL_RATE;
		goto out;
	}
	if (asks_too_long(ss)) {	/* iperf3 checks both; IETOTALRATE is the one it sends */
		lr_log(LR_LOG_WARN, "server: test from %s asks %lld s (-t %lld, -O %lld): above "
		       "--server-max-duration %u s; refused", ss->peer,
		       (long long)(ss->p.time_s + ss->p.omit_s), (long long)ss->p.time_s,
		       (long long)ss->p.omit_s, ss->srv->o.max_duration_s);
		lr_server_send_error(ss, 37 /* IEMAXSERVERTESTDURATIONEXCEEDED */);
		ss->fail = "error - client's requested duration exceeds the server's maximum "
			   "permitted limit";
		goto out;
	}
	/* iperf3: the last error its get_parameters meets wins, 27 over 37 over 34 */
	if (ss->srv->o.file && ss->p.udp) {
		lr_log(LR_LOG_WARN, "server: test from %s is UDP: no file (-F) over UDP; refused",
		       ss->peer);
		lr_server_send_error(ss, 34 /* IEUDPFILETRANSFER */);
		ss->fail = "error - cannot transfer file using UDP";
		goto out;
	}
	if (lr_server_peer_offer(ss) < 0)
		goto out;
	rc = lr_server_create_streams(ss);
	if (rc < 0)
		goto out;
	if (lr_proto_state_send(&cc, LR_PROTO_TEST_START) < 0 ||
	    lr_proto_state_send(&cc, LR_PROTO_TEST_RUNNING) < 0)
		goto out;
	getrusage(RUSAGE_SELF, &ss->ru0);
	ss->t0_ns = lr_clock_mono_ns();
	ss->rate_next_ns = ss->t0_ns + (ss->srv->o.interval_ns ? ss->srv->o.interval_ns
							       : LR_NSEC_PER_SEC);
	lr_server_tick(ss, ss->t0_ns, true, false);
	atomic_store(&ss->count_taken, 0);
	for (unsigned i = 0; i < ss->n; i++) {
		/* the client's -n/-k over all the streams this side sends on, as iperf3 counts */
		if (lr_stream_params(ss->streams[i])->sender && lr_server_count_shared(ss))
			lr_stream_share_count(ss->streams[i], &ss->count_taken,
					      ss->p.num_bytes ? ss->p.num_bytes
							      : ss->p.blockcount * ss->p.len);
		rc = lr_stream_start(ss->streams[i]);
		if (rc < 0) {
			lr_log(LR_LOG_ERR, "server: cannot start stream: %s", strerror(-rc));
			goto out;
		}
	}
	lr_server_watch_begin(ss);
	rc = run_phase(ss);
	if (rc < 0) {
		lr_log(LR_LOG_WARN, "server: client %s %s during the test", ss->peer,
		       lr_server_io_what(rc));
		goto out;
	}
	if (rc > 0)
		goto out;
	stop_streams(ss, 1);
	shutdown_data(ss, 1, SHUT_WR);
	drain_receivers(ss);
	shutdown_data(ss, 0, SHUT_RDWR);
	lr_server_tick(ss, lr_clock_mono_ns(), true, false);	/* the last interval's end */
	lr_server_peer_end(ss);	/* the last sample sees every byte, before the results */
	if (exchange_results(ss) == 0)
		wait_done(ss);
out:
	atomic_store(&ss->phase, PH_FINISH);
	if (atomic_load(&ss->stop)) {
		stopped = true;
		if (ss->ctl_fd >= 0) {
			cc.stop = NULL;
			(void)lr_proto_state_send(&cc, LR_PROTO_SERVER_TERMINATE);
		}
	}
	if (ss->streams)
		stop_streams(ss, -1);
	if (ss->fail && !stopped)
		lr_server_report_failed(ss);
	lr_server_peer_end(ss);
	lr_server_probe_end(ss);
	lr_server_watch_end(ss);
	if (stopped)
		lr_log(LR_LOG_INFO, "server: test from %s stopped", ss->peer);
	atomic_store(&ss->phase, PH_DONE);
	return NULL;
}

static void session_free(struct session *ss)
{
	int fd;

	if (!ss)
		return;
	for (unsigned i = 0; ss->streams && i < ss->n; i++)
		lr_stream_close(ss->streams[i]);
	free(ss->streams);
	free(ss->wres);
	free(ss->omit);
	lr_server_report_free(ss);
	if (ss->udp_fd >= 0)
		close(ss->udp_fd);
	while (read(ss->pipe_rd, &fd, sizeof(fd)) == (ssize_t)sizeof(fd))
		close(fd);
	close(ss->pipe_rd);
	close(ss->pipe_wr);
	if (ss->ctl_fd >= 0) {
		shutdown(ss->ctl_fd, SHUT_RDWR);
		close(ss->ctl_fd);
	}
	free(ss);
}

/* A peer that vanishes without a FIN (host gone) is noticed in ~30 s even in a -t 0 test,
 * which has no safety timer. */
static void keepalive(struct session *ss)
{
	int one = 1, idle = 10, intvl = 5, cnt = 3, fd = ss->ctl_fd;

	if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one)) < 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle)) < 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl)) < 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt)) < 0)
		lr_log(LR_LOG_WARN,
		       "server: test from %s: no TCP keepalive on the control "
		       "connection (%s): a vanished -t 0 client is noticed only by its data",
		       ss->peer, strerror(errno));
	lr_server_snd_timeout(ss, fd,
			      ss->srv->o.snd_timeout_ms ? ss->srv->o.snd_timeout_ms : 30000);
}

int lr_server_session_start(struct lr_server *srv, struct pending *pd)
{
	struct session *ss = calloc(1, sizeof(*ss));
	int pfd[2], rc, one = 1, fl;
	sigset_t all, old;

	if (!ss)
		return -ENOMEM;
	if (pipe2(pfd, O_CLOEXEC | O_NONBLOCK) < 0) {
		rc = -errno;
		free(ss);
		return rc;
	}
	ss->srv = srv;
	ss->pipe_rd = pfd[0];
	ss->pipe_wr = pfd[1];
	ss->udp_fd = -1;
	ss->ctl_fd = pd->fd;
	memcpy(ss->cookie, pd->cookie, sizeof(ss->cookie));
	memcpy(ss->peer, pd->peer, sizeof(ss->peer));
	atomic_init(&ss->phase, PH_SETUP);
	atomic_init(&ss->stop, false);
	atomic_init(&ss->peer_offered, false);
	atomic_init(&ss->peer_taken, false);
	/* the acceptor made it non-blocking (accept4); the bounded reads need that */
	fl = fcntl(ss->ctl_fd, F_GETFL);
	if (fl < 0 || (!(fl & O_NONBLOCK) && fcntl(ss->ctl_fd, F_SETFL, fl | O_NONBLOCK) < 0)) {
		rc = -errno;
		lr_log(LR_LOG_ERR, "server: test from %s: O_NONBLOCK: %s", pd->peer, strerror(-rc));
		close(pfd[0]);
		close(pfd[1]);
		free(ss);
		return rc;
	}
	if (setsockopt(ss->ctl_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		lr_log(LR_LOG_WARN,
		       "server: test from %s: TCP_NODELAY on the control connection: %s", pd->peer,
		       strerror(errno));
	keepalive(ss);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&ss->thread, NULL, session_thread, ss);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		ss->ctl_fd = -1; /* the caller still owns pd->fd */
		session_free(ss);
		return -rc;
	}
	pd->fd = -1;
	srv->sess = ss;
	lr_log(LR_LOG_INFO, "server: accepted test from %s", ss->peer);
	return 0;
}

void lr_server_session_end(struct lr_server *srv)
{
	struct session *ss = srv->sess;

	if (!ss)
		return;
	atomic_store(&ss->stop, true);
	pthread_join(ss->thread, NULL);
	session_free(ss);
	srv->sess = NULL;
}
