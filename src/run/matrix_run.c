// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The matrix's cases one after another, as a state machine the owner of the snapshots steps:
 * start a case (a test session, as a single `-c` test: the engine runs -O's seconds and
 * marks their end), follow it (the measured window opens at that mark), wait for the tick
 * that saw its last bytes, make and write its row,
 * let the link settle, the next. A server still busy with another test (a plain iperf3 -s) is
 * retried with a growing back-off. Skip and stop end the running case without a row.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/run/matrix_case.h"
#include "linerate/diagnose/latency.h"
#include "linerate/run/matrix_run.h"
#include "linerate/run/matrix_spec.h"
#include "linerate/run/peer.h"
#include "linerate/run/session.h"
#include "linerate/collect/route.h"
#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/core/streamstats.h"
#include "linerate/diagnose/matrix_row.h"
#include "linerate/sample/snapshot.h"

#define DEFAULT_CASE_NS (10 * LR_NSEC_PER_SEC)
#define SETTLE_MAX_NS (5 * LR_NSEC_PER_SEC)	/* the bound on waiting for a quiet link */
#define QUIET_FLOOR_BPS (16 * 1024)		/* bytes/s a link may carry and be quiet */
#define BUSY_TRIES 5				/* a busy server: attempts per case */
#define STEP_NS (100 * LR_NSEC_PER_MSEC)

enum phase { PH_START, PH_RUN, PH_TAIL, PH_BACKOFF, PH_SETTLE, PH_END };
enum case_end { CASE_DONE, CASE_FAILED, CASE_STOPPED };

struct lr_matrix_run {
	struct lr_matrix_opts o;	/* a copy; its strings are borrowed */
	struct lr_snapsrc *src;
	struct lr_matrix_spec spec;
	char keys[LR_MK__COUNT + 1];	/* the SPEC's letters, in order: the table's columns */
	uint64_t case_ns;
	struct lr_session ses;
	bool ses_ok;
	struct lr_traffic_config tc;	/* the running case's */
	struct lr_matrix_acc acc;
	struct lr_matrix_acc peer;	/* the peer's samples of the same window, when it shares */
	struct lr_snapshot peer_snap;	/* the newest built from its frames */
	char iface[LR_IFNAMSIZ];	/* the test interface, "" unknown */
	struct lr_matrix_row *rows;
	unsigned n_rows;
	enum phase ph;
	unsigned next;			/* the case running or to run, 0-based */
	unsigned tries, ended;		/* busy attempts of this case; cases ended (rows, skips) */
	uint64_t start_ns;		/* the running case's data began */
	uint64_t real_start_ns;		/* wall clock: the running case's test was started */
	bool tail_seen, settled;
	uint64_t deadline_ns;		/* TAIL, BACKOFF, SETTLE: the bound */
	uint64_t settle_from_ns;
	double quiet_Bps;
	uint64_t first_ns, case_t0_ns;	/* for the ETA */
	bool skip, stop, io_failed;
	unsigned failed;
	uint64_t peer_stale_ns;		/* the ended case's peer had been silent this long, 0 fresh */
};

static int fail(char *err, size_t len, int rc, const char *fmt, ...) LR_PRINTF(4, 5);
static int fail(char *err, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return rc;
}

int lr_matrix_run_open(struct lr_matrix_run **out, const struct lr_matrix_opts *o,
		       struct lr_snapsrc *src, char *err, size_t len)
{
	struct lr_matrix_run *m = calloc(1, sizeof(*m));
	int rc;

	*out = NULL;
	if (!m)
		return fail(err, len, 1, "out of memory");
	m->o = *o;
	m->src = src;
	rc = lr_matrix_spec_parse(o->spec, &m->spec, err, len) ||
			     lr_matrix_spec_check(&m->spec, &o->traffic, err, len)
		     ? 2
		     : 0;
	if (!rc && !(m->rows = calloc(m->spec.n_cases, sizeof(*m->rows))))
		rc = fail(err, len, 1, "out of memory");
	if (o->iface && o->iface[0])
		snprintf(m->iface, sizeof(m->iface), "%s", o->iface);
	else if (!rc && lr_route_iface(o->traffic.host, m->iface, sizeof(m->iface)))
		m->iface[0] = '\0';
	if (!rc && lr_session_init(&m->ses, src, m->iface[0] ? m->iface : NULL))
		rc = fail(err, len, 1, "out of memory");
	if (rc) {
		lr_matrix_run_close(m);
		return rc;
	}
	m->ses_ok = true;
	m->case_ns = o->case_ns ? o->case_ns : DEFAULT_CASE_NS;
	for (unsigned k = 0; k < m->spec.n_keys; k++)
		m->keys[k] = lr_matrix_key_letter(m->spec.order[k]);
	m->ph = PH_START;
	*out = m;
	return 0;
}

/* When data began to flow: the earliest stream's own start (the state is seen later). */
static uint64_t streams_start(const struct lr_session *ses)
{
	unsigned n = lr_client_stream_count(ses->client);
	uint64_t first = 0;

	for (unsigned i = 0; i < n; i++) {
		struct lr_client_stream_info ci;
		uint64_t t;

		if (lr_client_stream_info(ses->client, i, &ci))
			continue;
		t = atomic_load(&ci.stats->start_ns);
		if (t && (!first || t < first))
			first = t;
	}
	return first && first <= ses->running_ns ? first : ses->running_ns;
}

/* The running case's state: the window opens (data flows; with -O, the engine's mark), the
 * end. */
static void follow(struct lr_matrix_run *m)
{
	enum lr_client_state st = lr_session_poll(&m->ses);
	uint64_t now = lr_clock_mono_ns(), mark;

	if (m->ses.running_ns && !m->start_ns)
		m->start_ns = streams_start(&m->ses);
	if (m->start_ns && !m->acc.win_start_ns) {
		if (!m->tc.omit_s)
			m->acc.win_start_ns = m->start_ns;
		else if (lr_client_omit_over(m->ses.client, &mark))
			m->acc.win_start_ns = mark;
	}
	if (m->ph == PH_RUN && (st == LR_CLIENT_DONE || st == LR_CLIENT_ERROR)) {
		m->acc.win_end_ns = m->ses.done_ns;
		m->deadline_ns = now + 2 * m->o.interval_ns + STEP_NS;
		m->ph = PH_TAIL;
	}
}

/* Bytes/s on the test interface in the tick, -1 unknown. */
static double iface_rate(const struct lr_matrix_run *m, const struct lr_snapshot *s)
{
	const struct lr_iface_snap *i = m->iface[0] ? lr_snapshot_iface(s, m->iface) : NULL;
	uint64_t need = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_TX_BYTES);

	if (!i || (i->valid & need) != need)
		return -1;
	return i->per_s[LR_M_RX_BYTES] + i->per_s[LR_M_TX_BYTES];
}

/* The peer's newest frame (docs/wire.md, part 2), stamped with the local tick that saw it
 * arrive, into the peer's window. The matrix is the only reader of its session's frames. */
static void take_peer(struct lr_matrix_run *m, const struct lr_snapshot *local)
{
	char host[LR_PEER_HOST_MAX];

	if (!m->ses.peer)
		return;
	m->peer.win_start_ns = m->acc.win_start_ns;
	m->peer.win_end_ns = m->acc.win_end_ns;
	if (lr_peer_rx_build(m->ses.peer, local, &m->peer_snap, host, sizeof(host)) != 1)
		return;
	lr_matrix_acc_add_peer(&m->peer, &m->peer_snap, local->mono_ns);
	if (m->o.on_peer && m->o.on_peer(m->o.row_arg, &m->peer_snap, host))
		m->io_failed = true;
}

/* The server sends its last frame before the results: the case's end waits for it (or the
 * channel's end), within the tail's bound. */
static bool peer_done(struct lr_matrix_run *m)
{
	return !m->ses.peer || lr_peer_rx_wait_end(m->ses.peer, 0);
}

void lr_matrix_run_snapshot(struct lr_matrix_run *m, const struct lr_snapshot *s)
{
	if (m->ph == PH_RUN)
		follow(m);
	if ((m->ph == PH_RUN || m->ph == PH_TAIL) && lr_matrix_acc_add(&m->acc, s))
		lr_session_sample(&m->ses, s);
	if (m->ph == PH_RUN || m->ph == PH_TAIL)
		take_peer(m, s);
	if (m->ph == PH_TAIL && s->mono_ns >= m->acc.win_end_ns)
		m->tail_seen = true;
	if (m->ph == PH_SETTLE && s->mono_ns - s->interval_ns >= m->settle_from_ns) {
		double r = iface_rate(m, s);

		if (r >= 0 && r < m->quiet_Bps)
			m->settled = true;
	}
}

static int write_row(struct lr_matrix_run *m, const struct lr_matrix_row *r)
{
	return m->o.on_row ? m->o.on_row(m->o.row_arg, r) : 0;
}

static void make_row(struct lr_matrix_run *m, enum case_end e)
{
	struct lr_matrix_row *r = &m->rows[m->n_rows];
	struct lr_session *ses = &m->ses;

	lr_matrix_row_case(r, m->next + 1, &m->tc);
	r->time_start = (double)m->real_start_ns / 1e9;
	if (ses->done_ns) {	/* the test's end, on the wall clock */
		uint64_t ago = lr_clock_mono_ns() - ses->done_ns;

		r->time_end = (double)(lr_clock_real_ns() - ago) / 1e9;
	}
	if (e == CASE_DONE) {
		lr_matrix_row_fill(r, ses->res, &m->acc);
		lr_matrix_row_fill_peer(r, &m->peer);
		if (!lr_latency_none(ses->lat)) {	/* no probes: unknown, never 0 */
			r->rtt_idle_us = ses->lat->idle.p99_ns < 0 ? -1 : ses->lat->idle.p99_ns / 1000;
			r->rtt_p99_us = ses->lat->load.p99_ns < 0 ? -1 : ses->lat->load.p99_ns / 1000;
		}
	}
	if (e == CASE_FAILED) {
		char tail[96] = "";

		if (m->peer_stale_ns)	/* the whole server stopped, not only its data path */
			snprintf(tail, sizeof(tail),
				 "; the peer stale: nothing from its sampler for the last %.1f s",
				 (double)m->peer_stale_ns / 1e9);
		snprintf(r->verdict, sizeof(r->verdict), "failed: %s%s",
			 ses->error[0] ? ses->error : "no results from the server", tail);
	}
	else if (ses->have_verdict && ses->samples)
		lr_matrix_verdict_line(&ses->verdict, r, r->verdict, sizeof(r->verdict));
	else
		snprintf(r->verdict, sizeof(r->verdict), "no samples of the measured seconds");
	m->n_rows++;
	m->failed += e == CASE_FAILED;
	if (write_row(m, r))
		m->io_failed = true;
}

/* The next case after settling, or the end. */
static void next_case(struct lr_matrix_run *m, double last_bps)
{
	uint64_t now = lr_clock_mono_ns();

	m->next++;
	m->ended++;
	m->tries = 0;
	if (m->stop || m->io_failed || m->next >= m->spec.n_cases) {
		m->ph = PH_END;
		return;
	}
	m->quiet_Bps = last_bps > 0 ? last_bps / 8 / 100 : 0;	/* 1 % of the last rate */
	if (m->quiet_Bps < QUIET_FLOOR_BPS)
		m->quiet_Bps = QUIET_FLOOR_BPS;
	m->settle_from_ns = now;
	/* without samples of the interface, one interval */
	m->deadline_ns = now + (m->src && m->iface[0] ? SETTLE_MAX_NS : m->o.interval_ns);
	m->settled = false;
	m->ph = PH_SETTLE;
}

/* The case has ended and the tick that saw its last bytes is in (or the wait ran out). */
static void end_case(struct lr_matrix_run *m)
{
	struct lr_session *ses = &m->ses;
	struct lr_snapshot now = {.mono_ns = lr_clock_mono_ns()};
	enum case_end e;

	take_peer(m, &now);	/* the last frame, arrived since the last tick */
	m->peer_stale_ns = ses->peer ? lr_peer_rx_stale_ns(ses->peer, now.mono_ns) : 0;
	lr_session_finish(ses);
	if (m->skip || ses->stop_asked)	/* a case that ended by itself keeps its row */
		e = CASE_STOPPED;
	else if (ses->failed || !ses->have_res || !ses->res->complete)
		e = CASE_FAILED;
	else
		e = CASE_DONE;
	if (e == CASE_STOPPED) {
		if (m->stop)
			m->ph = PH_END;
		else
			next_case(m, -1);	/* skipped: no row */
		return;
	}
	if (e == CASE_FAILED && !ses->running_ns && strstr(ses->error, "busy") &&
	    m->tries + 1 < BUSY_TRIES) {
		m->tries++;
		lr_log(LR_LOG_WARN, "case %u: the server is busy; again in %.1f s", m->next + 1,
		       m->tries * 0.5);
		m->deadline_ns = lr_clock_mono_ns() + m->tries * 500 * LR_NSEC_PER_MSEC;
		m->ph = PH_BACKOFF;
		return;
	}
	make_row(m, e);
	next_case(m, m->rows[m->n_rows - 1].receiver_bps);
}

static void start_case(struct lr_matrix_run *m)
{
	uint64_t now = lr_clock_mono_ns();

	if (m->stop || m->next >= m->spec.n_cases) {
		m->ph = PH_END;
		return;
	}
	if (!m->first_ns)
		m->first_ns = now;
	if (!m->tries)
		m->case_t0_ns = now;
	lr_matrix_case(&m->spec, &m->o.traffic, m->next, &m->tc);
	lr_matrix_acc_init(&m->acc, m->iface);
	lr_matrix_acc_init(&m->peer, NULL);
	m->tail_seen = m->skip = false;
	m->start_ns = 0;
	m->real_start_ns = lr_clock_real_ns();
	if (lr_session_start(&m->ses, &m->tc, m->case_ns) < 0) {	/* the engine adds -O */
		make_row(m, CASE_FAILED);
		next_case(m, -1);
		return;
	}
	m->ph = PH_RUN;
}

bool lr_matrix_run_step(struct lr_matrix_run *m)
{
	enum phase old = m->ph;
	unsigned rows = m->n_rows;
	uint64_t now = lr_clock_mono_ns();

	switch (m->ph) {
	case PH_START:
		start_case(m);
		break;
	case PH_RUN:
		follow(m);
		break;
	case PH_TAIL:
		if (!m->src || !m->ses.running_ns || (m->tail_seen && peer_done(m)) ||
		    now >= m->deadline_ns)
			end_case(m);
		break;
	case PH_BACKOFF:
		if (m->stop)
			m->ph = PH_END;
		else if (now >= m->deadline_ns)
			m->ph = PH_START;
		break;
	case PH_SETTLE:
		if (m->stop)
			m->ph = PH_END;
		else if (m->settled || now >= m->deadline_ns)
			m->ph = PH_START;
		break;
	case PH_END:
	default:
		break;
	}
	return m->ph != old || m->n_rows != rows;
}

uint64_t lr_matrix_run_wait_ns(const struct lr_matrix_run *m)
{
	uint64_t now = lr_clock_mono_ns(), due = 0;

	if (m->ph == PH_START)
		return 0;
	if (m->ph == PH_TAIL || m->ph == PH_BACKOFF || m->ph == PH_SETTLE)
		due = m->deadline_ns;
	if (due && due <= now)
		return 0;
	return due && due - now < STEP_NS ? due - now : STEP_NS;
}

void lr_matrix_run_skip(struct lr_matrix_run *m)
{
	if (m->ph == PH_SETTLE || m->ph == PH_BACKOFF) {
		/* the case shown as next (lr_matrix_run_current), not started: passed over, no row;
		 * settling goes on for the one after, a busy server's back-off was this case's */
		m->next++;
		m->ended++;
		m->tries = 0;
		if (m->next >= m->spec.n_cases)
			m->ph = PH_END;
		else if (m->ph == PH_BACKOFF)
			m->ph = PH_START;
		return;
	}
	if (m->ph != PH_RUN || !lr_session_active(&m->ses))
		return;	/* ended already: its row is on the way */
	m->skip = true;
	lr_session_stop(&m->ses);
}

void lr_matrix_run_stop(struct lr_matrix_run *m)
{
	m->stop = true;
	if (m->ph == PH_RUN)
		lr_session_stop(&m->ses);
}

bool lr_matrix_run_done(const struct lr_matrix_run *m)
{
	return m->ph == PH_END;
}

const struct lr_matrix_row *lr_matrix_run_rows(const struct lr_matrix_run *m, unsigned *n)
{
	*n = m->n_rows;
	return m->rows;
}

unsigned lr_matrix_run_cases(const struct lr_matrix_run *m)
{
	return m->spec.n_cases;
}

unsigned lr_matrix_run_current(const struct lr_matrix_run *m)
{
	return m->ph == PH_END ? 0 : m->next + 1;
}

double lr_matrix_run_eta_s(const struct lr_matrix_run *m)
{
	uint64_t now = lr_clock_mono_ns();
	double per_case = (double)(m->case_ns + m->o.omit_ns) / 1e9 + 0.5, in_case, left;
	/* the case whose share (its run, tail and the settling after it) is being spent: while
	 * the link settles, the one that just ended (next has moved on, case_t0_ns has not) */
	unsigned slot = m->ph == PH_SETTLE ? m->next - 1 : m->next;

	if (m->ph == PH_END)
		return 0;
	if (slot && m->case_t0_ns > m->first_ns)	/* measured, settling included */
		per_case = (double)(m->case_t0_ns - m->first_ns) / 1e9 / slot;
	in_case = m->case_t0_ns && m->ph != PH_START ? (double)(now - m->case_t0_ns) / 1e9 : 0;
	if (in_case > per_case)
		in_case = per_case;
	left = per_case * (m->spec.n_cases - slot) - in_case;
	return left > 0 ? left : 0;
}

const char *lr_matrix_run_keys(const struct lr_matrix_run *m)
{
	return m->keys;
}

void lr_matrix_run_case_name(const struct lr_matrix_run *m, unsigned index, char *buf, size_t len)
{
	struct lr_traffic_config tc;
	size_t k = 0;

	buf[0] = '\0';
	if (!index || index > m->spec.n_cases)
		return;
	lr_matrix_case(&m->spec, &m->o.traffic, index - 1, &tc);
	for (const char *p = m->keys; *p && k < len; p++) {
		int n = 0;

		switch (*p) {
		case 'P': n = snprintf(buf + k, len - k, "P=%u ", tc.parallel); break;
		case 'l': n = snprintf(buf + k, len - k, "l=%llu ", (unsigned long long)tc.length); break;
		case 'u': n = snprintf(buf + k, len - k, "u=%s ", tc.udp ? "udp" : "tcp"); break;
		case 'R': n = snprintf(buf + k, len - k, "R=%s ", tc.bidir ? "bidir" : tc.reverse ? "1" : "0"); break;
		case 'b': n = snprintf(buf + k, len - k, "b=%llu ", (unsigned long long)tc.bitrate_bps); break;
		case 'w': n = snprintf(buf + k, len - k, "w=%llu ", (unsigned long long)tc.window); break;
		case 'M': n = snprintf(buf + k, len - k, "M=%u ", tc.mss); break;
		case 'C': n = snprintf(buf + k, len - k, "C=%s ", tc.congestion ? tc.congestion : ""); break;
		default: break;
		}
		if (n < 0)
			break;
		k += (size_t)n;
	}
	if (k >= len)
		k = len - 1;
	if (k && buf[k - 1] == ' ')
		k--;
	buf[k] = '\0';
}

const char *lr_matrix_run_iface(const struct lr_matrix_run *m)
{
	return m->iface;
}

void lr_matrix_run_view(const struct lr_matrix_run *m, struct lr_matrix_progress *v, char *name,
			size_t len)
{
	uint64_t now = lr_clock_mono_ns();

	v->rows = m->rows;
	v->n_rows = m->n_rows;
	v->n_cases = m->spec.n_cases;
	v->running = lr_matrix_run_current(m);
	lr_matrix_run_case_name(m, v->running, name, len);
	v->running_name = name;
	v->eta_s = lr_matrix_run_eta_s(m);
	v->running_s = (m->ph == PH_RUN || m->ph == PH_TAIL) && m->start_ns && now > m->start_ns
			       ? (double)(now - m->start_ns) / 1e9
			       : -1;
}

unsigned lr_matrix_run_ended(const struct lr_matrix_run *m)
{
	return m->ended;
}

uint64_t lr_matrix_run_case_ns(const struct lr_matrix_run *m)
{
	return m->case_ns;
}

int lr_matrix_run_status(const struct lr_matrix_run *m)
{
	return m->failed || m->io_failed || m->ended < m->spec.n_cases ? 1 : 0;
}

void lr_matrix_run_close(struct lr_matrix_run *m)
{
	if (!m)
		return;
	if (m->ses_ok) {	/* else lr_session_init freed its parts */
		if (m->ses.client && !lr_session_shutdown(&m->ses, 2 * LR_NSEC_PER_SEC))
			lr_log(LR_LOG_WARN, "the traffic client did not stop within 2 s");
		lr_session_free(&m->ses);
	}
	lr_snapshot_free(&m->peer_snap);
	free(m->rows);
	free(m);
}
