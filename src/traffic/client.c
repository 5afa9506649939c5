// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3-compatible client session. lr_client_start spawns one control thread that connects,
 * exchanges cookie and params, opens the data connections one at a time (TCP: connect + cookie;
 * UDP: the 4-byte handshake), hands them to lr_stream, runs for the duration, exchanges
 * results and closes. The session owns the control socket, the control thread and the streams;
 * any thread may query state, live stream stats, change the rate or stop it. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/traffic/peer_wire.h"
#include "linerate/traffic/probe.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"
#include "client_priv.h"
#include "probe_priv.h"

void lr_client_set_err(struct lr_client *c, const char *fmt, ...) LR_PRINTF(2, 3);
void lr_client_set_err(struct lr_client *c, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&c->lock);
	if (!c->err[0]) {
		va_start(ap, fmt);
		vsnprintf(c->err, sizeof(c->err), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&c->lock);
	lr_log(LR_LOG_ERR, "%s", c->err);
}

static void set_state(struct lr_client *c, enum lr_client_state st)
{
	pthread_mutex_lock(&c->lock);
	atomic_store(&c->state, (int)st);
	pthread_cond_broadcast(&c->done_cond);
	pthread_mutex_unlock(&c->lock);
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int lr_client_open(struct lr_client **out, const struct lr_traffic_config *tc, uint64_t duration_ns)
{
	struct lr_client *c;
	struct lr_auth_client *auth = NULL;
	char aerr[LR_AUTH_ERR_MAX];
	unsigned p = tc->parallel ? tc->parallel : 1;

	if (!tc->host || !tc->host[0] || p > LR_PROTO_MAX_STREAMS)
		return -EINVAL;
	if (tc->length &&
	    (tc->udp ? (tc->length < LR_PROTO_UDP_MIN_LEN || tc->length > LR_PROTO_UDP_MAX_LEN)
		     : tc->length > LR_PROTO_TCP_MAX_LEN))
		return -EINVAL;
	/* the CLI checked the files; one changed since is this test's failure, said once */
	if (lr_auth_client_wanted(&tc->auth)) {
		int rc = lr_auth_client_open(&auth, &tc->auth, aerr);

		if (rc < 0) {
			lr_log(LR_LOG_ERR, "client: %s", aerr);
			return rc;
		}
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		lr_auth_client_close(auth);
		return -ENOMEM;
	}
	c->auth = auth;
	c->res = calloc(1, sizeof(*c->res));
	c->tc = *tc;
	c->tc.parallel = p;
	c->host = strdup(tc->host);
	c->bind = dup_or_null(tc->bind);
	c->congestion = dup_or_null(tc->congestion);
	c->n_max = tc->bidir ? 2 * p : p;
	c->streams = calloc(c->n_max, sizeof(*c->streams));
	c->joined = calloc(c->n_max, sizeof(*c->joined));
	c->omit = tc->omit_s ? calloc(c->n_max, sizeof(*c->omit)) : NULL;
	if (!c->joined || (tc->omit_s && !c->omit) || !c->res || !c->host || (tc->bind && !c->bind) ||
	    (tc->congestion && !c->congestion) || !c->streams) {
		free(c->res);
		free(c->host);
		free(c->bind);
		free(c->congestion);
		free(c->streams);
		free(c->joined);
		free(c->omit);
		lr_auth_client_close(c->auth);
		free(c);
		return -ENOMEM;
	}
	c->tc.host = c->host;
	c->tc.bind = c->bind;
	c->tc.congestion = c->congestion;
	if (!c->tc.port)
		c->tc.port = LR_PROTO_PORT;
	c->duration_ns = duration_ns;
	c->connect_timeout_ns = (uint64_t)(tc->connect_timeout_ms ? tc->connect_timeout_ms
								  : CONNECT_TIMEOUT_DEF_MS) *
				LR_NSEC_PER_MSEC;
	c->rcv_timeout_set = tc->rcv_timeout_ms != 0;
	c->rcv_timeout_ns =
		(uint64_t)(tc->rcv_timeout_ms ? tc->rcv_timeout_ms : RCV_TIMEOUT_DEF_MS) *
		LR_NSEC_PER_MSEC;
	c->deadline_ns = UINT64_MAX;
	c->rate_bps = tc->udp && !tc->bitrate_set ? LR_PROTO_UDP_DEF_RATE : tc->bitrate_bps;
	c->ctl_fd = -1;
	pthread_mutex_init(&c->lock, NULL);
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* wall-clock jumps */
		pthread_cond_init(&c->done_cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	atomic_init(&c->stop, false);
	atomic_init(&c->state, LR_CLIENT_IDLE);
	atomic_init(&c->n_streams, 0);
	atomic_init(&c->omit_at_ns, 0);
	*out = c;
	return 0;
}

/* ---- sockets ---- */

/* ---- protocol helpers ---- */

struct lr_proto_conn lr_client_ctl_conn(struct lr_client *c)
{
	return (struct lr_proto_conn){.fd = c->ctl_fd, .stop = &c->stop, .side_fd = -1, .role = "client"};
}

uint64_t lr_client_left(const struct lr_client *c)
{
	uint64_t now = lr_clock_mono_ns();

	return c->deadline_ns > now + LR_NSEC_PER_MSEC ? c->deadline_ns - now : LR_NSEC_PER_MSEC;
}

static void set_deadline(struct lr_client *c, uint64_t budget_ns)
{
	c->budget_ns = budget_ns;
	c->deadline_ns = lr_clock_mono_ns() + budget_ns;
}

void lr_client_report_io_err(struct lr_client *c, const char *what, int rc)
{
	char tail[96];

	if (rc == -ECANCELED)
		return;
	lr_client_where_stopped(c, tail, sizeof(tail));
	if (rc == -ECONNRESET)
		lr_client_set_err(c, "the server closed or reset the control connection while %s%s%s%s",
				  what, c->close_hint ? " (" : "", c->close_hint ? c->close_hint : "",
				  c->close_hint ? ")" : "");
	else if (rc == -ETIMEDOUT)
		lr_client_set_err(
			c, "the server went silent while %s (no answer within %.1f s%s)%s", what,
			(double)c->budget_ns / 1e9,
			c->rcv_timeout_set && c->budget_ns == c->rcv_timeout_ns ? ", --rcv-timeout"
										: "",
			tail);
	else
		lr_client_set_err(c, "control connection error while %s: %s%s", what, strerror(-rc),
				  tail);
}

/* One state byte within the phase's deadline; handles the server's error bytes. 0 with *st,
 * or -errno (reported). */
int lr_client_expect_state(struct lr_client *c, int *st, const char *what)
{
	struct lr_proto_conn cc = lr_client_ctl_conn(c);
	int rc = lr_proto_state_recv(&cc, st, lr_client_left(c));

	if (rc < 0) {
		lr_client_report_io_err(c, what, rc);
		return rc;
	}
	if (*st == LR_PROTO_ACCESS_DENIED) {
		lr_client_set_err(c, "the server is busy running a test; try again later");
		return -EBUSY;
	}
	if (*st == LR_PROTO_SERVER_ERROR) {
		uint8_t b[8] = {0};
		int ie;

		if (lr_proto_read(&cc, b, 8, 2 * LR_NSEC_PER_SEC) < 0)
			lr_log(LR_LOG_DEBUG, "client: SERVER_ERROR without its two ints");
		ie = (int)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 |
			   b[3]);
		lr_client_set_err(c, "the server reported an error (iperf3 error %d%s) while %s",
				  ie,
				  ie == 34 ? ": cannot transfer file using UDP"
				  : ie == 37 ? ": client's requested duration exceeds the server's maximum "
					     "permitted limit"
				  : ie == 144 ? ": it received no data for its --rcv-timeout"
				  : ie == 160 ? ": no TEST_END came in time"
				  : ie == LR_AUTH_IEAUTHTEST ? ": test authorization failed (access denied)"
							     : "",
				  what);
		return -EPROTO;
	}
	if (*st == LR_PROTO_SERVER_TERMINATE) {
		lr_client_set_err(c, "the server terminated the test");
		return -ECONNABORTED;
	}
	return 0;
}

static int expect_exact(struct lr_client *c, int want, const char *what)
{
	int st, rc = lr_client_expect_state(c, &st, what);

	if (rc < 0)
		return rc;
	if (st != want) {
		lr_client_set_err(c, "unexpected message %d (%s) from the server while %s", st,
			lr_proto_state_name(st), what);
		return -EPROTO;
	}
	return 0;
}

/* CREATE_STREAMS, after a linerate server's peer-stats offer when this client asked for one
 * (docs/wire.md, part 2); a plain iperf3 server sends CREATE_STREAMS alone. */
static int expect_create_streams(struct lr_client *c)
{
	/* iperf3 up to 3.20 answers a refused token with SERVER_ERROR 142 (said as such); 3.21+
	 * just closes the connection, and its own client then says "no error": name the likely
	 * cause then, and only then. */
	const char *what = "waiting for CREATE_STREAMS";
	int st, rc;

	c->close_hint = c->auth ? "how an iperf3 3.21+ server refuses a token: check the user, "
				  "password, RSA padding and clock skew"
				: NULL;
	rc = lr_client_expect_state(c, &st, what);
	if (rc == 0 && st == LR_PEER_OFFER_STATE && c->params.peer_stats) {
		rc = lr_client_peer_read_offer(c);
		if (rc == 0)
			rc = lr_client_expect_state(c, &st, what);
	}
	c->close_hint = NULL;
	lr_client_probe_unoffered(c);
	if (rc < 0)
		return rc;
	if (st != LR_PROTO_CREATE_STREAMS) {
		lr_client_set_err(c, "unexpected message %d (%s) from the server while %s", st,
				  lr_proto_state_name(st), what);
		return -EPROTO;
	}
	return 0;
}

unsigned lr_client_nstreams(const struct lr_client *c)
{
	return atomic_load(&c->n_streams);
}

/* Waits for the run to end: duration, stop, a message from the server, a failed stream. 0 when
 * the time is up, 1 when stopped, -errno on a server message/error. */
static int run_phase(struct lr_client *c)
{
	uint64_t end = c->duration_ns ? c->t0_ns + (uint64_t)c->tc.omit_s * LR_NSEC_PER_SEC +
						c->duration_ns
				      : UINT64_MAX;

	for (;;) {
		struct pollfd pfd = {.fd = c->ctl_fd, .events = POLLIN};
		uint64_t now = lr_clock_mono_ns(), omit_due = lr_client_omit_poll(c, now), wake;
		int ms, st, rc;

		if (atomic_load(&c->stop))
			return 1;
		if (omit_due == UINT64_MAX && c->duration_ns && atomic_load(&c->omit_at_ns))
			end = atomic_load(&c->omit_at_ns) + c->duration_ns; /* -t after -O's mark */
		if (now >= end || lr_client_data_done(c, now))
			return 0;
		rc = lr_client_check_streams(c, now);
		if (rc < 0)
			return rc;
		wake = omit_due < end - now ? now + omit_due : end; /* -O's mark is due */
		ms = wake - now > 50 * LR_NSEC_PER_MSEC ? 50
							: (int)((wake - now) / LR_NSEC_PER_MSEC) + 1;
		if (c->tc.num_bytes || c->tc.blockcount)
			ms = 1;	/* a count overshoots by what moves while it sleeps */
		rc = poll(&pfd, 1, ms);
		if (rc <= 0)
			continue;
		set_deadline(c, 10 * LR_NSEC_PER_SEC); /* the rest of a message that began */
		rc = lr_client_expect_state(c, &st, "running the test");
		if (rc < 0)
			return rc;
		lr_client_set_err(c, "unexpected message %d (%s) from the server during the test", st,
			lr_proto_state_name(st));
		return -EPROTO;
	}
}

static void fill_config(struct lr_client *c)
{
	struct lr_traffic_results *R = c->res;

	R->udp = c->tc.udp;
	R->reverse = c->params.reverse;
	R->bidir = c->tc.bidir;
	R->parallel = c->tc.parallel;
	R->len = c->params.len;
	R->bitrate_bps = c->params.bandwidth_bps;
	memcpy(R->cookie, c->cookie, sizeof(R->cookie));
}

/* Receivers keep counting until the server has stopped sending (EXCHANGE_RESULTS). */
static int finish(struct lr_client *c)
{
	struct lr_proto_conn cc = lr_client_ctl_conn(c);
	int8_t b = LR_PROTO_TEST_END;
	int rc;

	c->test_end_ns = lr_clock_mono_ns();
	lr_probe_client_quiet(c->probe);
	lr_client_stop_streams(c, 1);
	c->res->duration_ns = lr_clock_mono_ns() - c->t0_ns;
	if (atomic_load(&c->omit_at_ns))	/* the measured part: after -O's mark */
		c->res->duration_ns = lr_clock_mono_ns() - atomic_load(&c->omit_at_ns);
	set_state(c, LR_CLIENT_ENDING);
	/* the end of the test to IPERF_DONE: a server answers in milliseconds */
	set_deadline(c, c->rcv_timeout_set && c->rcv_timeout_ns < END_GRACE_NS ? c->rcv_timeout_ns
									       : END_GRACE_NS);
	lr_client_wait_sent_drained(c);
	rc = lr_proto_write(&cc, &b, 1, lr_client_left(c));
	if (rc < 0) {
		lr_client_report_io_err(c, "sending TEST_END", rc);
		return rc;
	}
	rc = expect_exact(c, LR_PROTO_EXCHANGE_RESULTS, "waiting for the results after TEST_END");
	if (rc == 0)
		lr_client_drain_receivers(c);
	lr_client_stop_streams(c, 0);
	if (rc < 0)
		return rc;
	rc = lr_client_exchange_results(c);
	if (rc < 0)
		return rc;
	rc = expect_exact(c, LR_PROTO_DISPLAY_RESULTS, "waiting for DISPLAY_RESULTS");
	if (rc < 0)
		return rc;
	/* the last answers come while the server's responder still runs: it stops at the
	 * session's end, which IPERF_DONE starts */
	lr_probe_client_stop(c->probe);
	b = LR_PROTO_IPERF_DONE;
	rc = lr_proto_write(&cc, &b, 1, lr_client_left(c));
	if (rc < 0)
		lr_client_report_io_err(c, "sending IPERF_DONE", rc);
	return rc;
}

static void *control_thread(void *arg)
{
	struct lr_client *c = arg;
	struct lr_proto_conn cc;
	bool started = false;
	int rc, st;

	set_state(c, LR_CLIENT_CONNECTING);
	set_deadline(c,
		     c->connect_timeout_ns > SETUP_MIN_NS ? c->connect_timeout_ns : SETUP_MIN_NS);
	rc = lr_proto_cookie_make(c->cookie);
	if (rc < 0) {
		lr_client_set_err(c, "cannot make a cookie: %s", strerror(-rc));
		goto out;
	}
	rc = lr_client_ctl_connect(c);
	if (rc < 0)
		goto out;
	cc = lr_client_ctl_conn(c);
	lr_client_fill_addrs(c);
	rc = lr_proto_write(&cc, c->cookie, LR_PROTO_COOKIE_LEN, lr_client_left(c));
	if (rc < 0) {
		lr_client_report_io_err(c, "sending the cookie", rc);
		goto out;
	}
	rc = expect_exact(c, LR_PROTO_PARAM_EXCHANGE, "waiting for the parameter exchange");
	if (rc < 0)
		goto out;
	started = true;
	rc = lr_client_send_params(c);
	if (rc < 0)
		goto out;
	fill_config(c);
	rc = lr_client_rr_read_ack(c);
	if (rc == 0)
		rc = expect_create_streams(c);
	if (rc < 0) {
		if (rc == -ECONNRESET)
			lr_client_set_err(c, "the server refused the test parameters");
		goto out;
	}
	/* an idle baseline before the first data byte, even where streams set up in a blink */
	if (c->probe)
		lr_probe_client_baseline(c->probe, &c->stop);
	rc = lr_client_create_streams(c);
	if (rc < 0)
		goto out;
	set_deadline(c, c->connect_timeout_ns); /* a server with every stream starts at once */
	rc = expect_exact(c, LR_PROTO_TEST_START, "waiting for TEST_START");
	if (rc == 0)
		rc = lr_client_expect_state(c, &st, "waiting for TEST_RUNNING");
	if (rc < 0)
		goto out;
	if (st != LR_PROTO_TEST_RUNNING) {
		lr_client_set_err(c, "unexpected message %d (%s) instead of TEST_RUNNING", st,
			lr_proto_state_name(st));
		rc = -EPROTO;
		goto out;
	}
	if (c->probe)
		lr_probe_client_load(c->probe);
	getrusage(RUSAGE_SELF, &c->ru0);
	c->t0_ns = lr_clock_mono_ns();
	c->res->start_real_ns = lr_clock_real_ns();
	atomic_store(&c->count_taken, 0);
	for (unsigned i = 0; i < lr_client_nstreams(c); i++) {
		/* -n/-k over all sending streams together, as iperf3 counts them */
		if (lr_stream_params(c->streams[i])->sender)
			lr_stream_share_count(c->streams[i], &c->count_taken,
					      c->tc.num_bytes ? c->tc.num_bytes
							      : c->tc.blockcount * c->params.len);
		rc = lr_stream_start(c->streams[i]);
		if (rc < 0) {
			lr_client_set_err(c, "cannot start data stream %u: %s", i + 1, strerror(-rc));
			goto out;
		}
	}
	set_state(c, LR_CLIENT_RUNNING);
	rc = run_phase(c);
	if (rc == 0)
		rc = finish(c);
out:
	lr_client_stop_streams(c, -1);
	lr_probe_client_stop(c->probe);
	if (rc == 1 || rc == -ECANCELED) { /* stopped early */
		int8_t b = LR_PROTO_CLIENT_TERMINATE;

		cc = lr_client_ctl_conn(c);
		cc.stop = NULL;
		if (c->ctl_fd >= 0 && started && lr_proto_write(&cc, &b, 1, BEST_EFFORT_NS) < 0)
			lr_log(LR_LOG_DEBUG, "client: CLIENT_TERMINATE not sent");
		if (!c->res->duration_ns && c->t0_ns)
			c->res->duration_ns = lr_clock_mono_ns() - c->t0_ns;
		c->res->stopped = true;
		lr_client_partial_results(c);
		rc = 0;
	} else if (rc < 0 && started && c->ctl_fd >= 0) {
		int8_t b = LR_PROTO_IPERF_DONE; /* as iperf3 does on a local error */

		cc = lr_client_ctl_conn(c);
		cc.stop = NULL;
		if (lr_proto_write(&cc, &b, 1, BEST_EFFORT_NS) < 0)
			lr_log(LR_LOG_DEBUG, "client: IPERF_DONE not sent");
		if (c->t0_ns)
			lr_client_partial_results(c);
	}
	if (c->ctl_fd >= 0) {
		shutdown(c->ctl_fd, SHUT_WR);
		close(c->ctl_fd);
		c->ctl_fd = -1;
	}
	set_state(c, rc < 0 ? LR_CLIENT_ERROR : LR_CLIENT_DONE);
	return NULL;
}

int lr_client_start(struct lr_client *c)
{
	sigset_t all, old;
	int rc;

	if (c->thread_started)
		return -EALREADY;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&c->thread, NULL, control_thread, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return -rc;
	c->thread_started = true;
	return 0;
}

void lr_client_stop(struct lr_client *c)
{
	atomic_store(&c->stop, true);
}

void lr_client_set_rate(struct lr_client *c, uint64_t rate_bps)
{
	pthread_mutex_lock(&c->lock);
	c->rate_bps = rate_bps;
	for (unsigned i = 0; i < lr_client_nstreams(c); i++)
		if (lr_stream_params(c->streams[i])->sender)
			lr_stream_set_rate(c->streams[i], rate_bps);
	pthread_mutex_unlock(&c->lock);
}

enum lr_client_state lr_client_state(const struct lr_client *c)
{
	return (enum lr_client_state)atomic_load(&c->state);
}

void lr_client_error(struct lr_client *c, char *buf, size_t size)
{
	pthread_mutex_lock(&c->lock);
	snprintf(buf, size, "%s", c->err);
	pthread_mutex_unlock(&c->lock);
}

static bool finished(const struct lr_client *c)
{
	int st = atomic_load(&c->state);

	return st == LR_CLIENT_DONE || st == LR_CLIENT_ERROR;
}

bool lr_client_wait(struct lr_client *c, uint64_t timeout_ns)
{
	uint64_t deadline = timeout_ns ? lr_clock_mono_ns() + timeout_ns : 0;
	struct timespec ts = {.tv_sec = (time_t)(deadline / LR_NSEC_PER_SEC),
			      .tv_nsec = (long)(deadline % LR_NSEC_PER_SEC)};
	bool done;

	pthread_mutex_lock(&c->lock);
	while (!finished(c)) {
		if (!deadline)
			pthread_cond_wait(&c->done_cond, &c->lock);
		else if (pthread_cond_timedwait(&c->done_cond, &c->lock, &ts) == ETIMEDOUT)
			break;
	}
	done = finished(c);
	pthread_mutex_unlock(&c->lock);
	return done;
}

unsigned lr_client_stream_count(const struct lr_client *c)
{
	return lr_client_nstreams(c);
}

int lr_client_stream_info(const struct lr_client *c, unsigned i, struct lr_client_stream_info *out)
{
	const struct lr_stream_params *sp;

	if (i >= lr_client_nstreams(c))
		return -ENOENT;
	sp = lr_stream_params(c->streams[i]);
	out->id = sp->id;
	out->sender = sp->sender;
	out->udp = sp->udp;
	out->stats = lr_stream_stats(c->streams[i]);
	{
		const struct lr_traffic_omit_mark *m = lr_client_omit_mark(c, i);

		out->omit_bytes = m ? m->bytes : 0;
		out->omit_retransmits = m ? m->retransmits : 0;
		out->omit_lost = m ? m->lost : 0;
	}
	return 0;
}

/* TCP_INFO on demand: the app cuts -J's intervals and samples each TCP socket at their ends,
 * as iperf3 does. */
void lr_client_stream_tcp(struct lr_client *c, unsigned i, struct lr_tcp_sample *out)
{
	const struct lr_stream_params *sp;

	out->valid = false;
	if (i >= lr_client_nstreams(c) || !c->streams[i])
		return;
	sp = lr_stream_params(c->streams[i]);
	if (!sp->udp)
		lr_tcp_sample_read(sp->fd, out);
}

char *lr_client_server_output(struct lr_client *c, bool *json)
{
	if (!finished(c) || !c->server_output)
		return NULL;
	*json = c->server_output_json;
	return strdup(c->server_output);
}

int lr_client_results(struct lr_client *c, struct lr_traffic_results *out)
{
	if (!finished(c))
		return -EAGAIN;
	*out = *c->res;
	return 0;
}

void lr_client_close(struct lr_client *c)
{
	if (!c)
		return;
	if (c->thread_started) {
		lr_client_stop(c);
		pthread_join(c->thread, NULL);
	}
	for (unsigned i = 0; i < lr_client_nstreams(c); i++)
		lr_stream_close(c->streams[i]);
	if (c->ctl_fd >= 0)
		close(c->ctl_fd);
	lr_probe_client_free(c->probe);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->done_cond);
	free(c->streams);
	free(c->joined);
	free(c->omit);
	free(c->server_output);
	free(c->res);
	free(c->host);
	free(c->bind);
	free(c->congestion);
	lr_auth_client_close(c->auth);
	free(c);
}
