// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate -c HOST --matrix SPEC` headless: the cases of the SPEC one after another, each a
 * test session exactly as a single `-c` test (same engine, same results), beside one sampling
 * run (the --csv files cover the whole grid). Each case runs -O + -t seconds, its row is
 * written to --matrix-csv as soon as it ends, the link is let settle before the next; at the
 * end the Markdown table (or -J's linerate_matrix) goes to stdout. A signal ends the running
 * case unfinished and writes what finished. Progress goes to stderr. Main thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "linerate/app/config.h"
#include "linerate/app/matrix_case.h"
#include "linerate/app/matrix_spec.h"
#include "linerate/app/run.h"
#include "linerate/app/sampling.h"
#include "linerate/app/session.h"
#include "linerate/collect/route.h"
#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/core/streamstats.h"
#include "linerate/present/matrix_out.h"
#include "linerate/sample/snapshot.h"

#define DEFAULT_CASE_NS (10 * LR_NSEC_PER_SEC)
#define SETTLE_MAX_NS (5 * LR_NSEC_PER_SEC)	/* the bound on waiting for a quiet link */
#define QUIET_FLOOR_BPS (16 * 1024)		/* bytes/s a link may carry and be quiet */
#define BUSY_TRIES 5				/* a plain iperf3 -s still busy: retries */

enum case_end { CASE_DONE, CASE_FAILED, CASE_STOPPED };

struct matrix_run {
	const struct lr_config *cfg;
	struct lr_matrix_spec spec;
	char keys[LR_MK__COUNT + 1];	/* the SPEC's letters, in order: the table's columns */
	uint64_t case_ns;
	struct lr_sampling *sm;		/* NULL: no samples (CPU columns stay empty) */
	struct lr_session ses;
	struct lr_matrix_acc acc;
	char iface[LR_IFNAMSIZ];	/* the test interface, "" unknown */
	FILE *csv;
	struct lr_matrix_row *rows;
	unsigned n_rows;
	uint64_t log_seen;
	uint64_t start_ns;		/* the running case's data began */
	double omitted_s;		/* -O: seconds from start_ns to the marks, 0 without */
	bool io_failed;
};

static void drain_log(uint64_t *seen)
{
	struct lr_log_entry e[16];
	size_t n;

	while ((n = lr_log_read(seen, e, LR_ARRAY_SIZE(e))) > 0)
		for (size_t i = 0; i < n; i++)
			if (e[i].level == LR_LOG_WARN)
				fprintf(stderr, "linerate: warning: %s\n", e[i].msg);
}

/* -I's interface when it names one, else the route's to HOST. */
static void pick_iface(struct matrix_run *m)
{
	const struct lr_config *cfg = m->cfg;

	if (cfg->ifaces && !strchr(cfg->ifaces, ','))
		snprintf(m->iface, sizeof(m->iface), "%s", cfg->ifaces);
	else if (lr_route_iface(cfg->traffic.host, m->iface, sizeof(m->iface)))
		m->iface[0] = '\0';
}

/* Waits up to wait_ns for a snapshot (CSV rows written); the newest, or NULL. */
static const struct lr_snapshot *pump(struct matrix_run *m, uint64_t wait_ns)
{
	int got;

	if (!m->sm || m->io_failed) {
		if (m->ses.client)
			lr_client_wait(m->ses.client, wait_ns);
		else if (lr_clock_sleep_until(lr_clock_mono_ns() + wait_ns) < 0)
			return NULL;	/* a signal: the loop sees lr_stop_signal */
		return NULL;
	}
	got = lr_sampling_pump(m->sm, wait_ns);
	if (got < 0)
		m->io_failed = true;	/* reported by the recorder */
	return got > 0 ? lr_sampling_last(m->sm) : NULL;
}

/* Omit: each stream's local counters when the omitted seconds end. */
static void mark_streams(struct matrix_run *m)
{
	struct lr_client *c = m->ses.client;
	unsigned n = lr_client_stream_count(c);

	m->acc.n_marks = 0;
	for (unsigned i = 0; i < n && i < LR_PROTO_MAX_RESULTS; i++) {
		struct lr_client_stream_info ci;

		if (lr_client_stream_info(c, i, &ci))
			continue;
		m->acc.marks[m->acc.n_marks++] = (struct lr_matrix_mark){
			.id = ci.id,
			.bytes = atomic_load(&ci.stats->bytes),
			.packets = atomic_load(&ci.stats->packets),
			.retransmits = atomic_load(&ci.stats->retransmits),
			.lost = atomic_load(&ci.stats->lost),
		};
	}
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

static void feed(struct matrix_run *m, const struct lr_snapshot *s)
{
	if (s && lr_matrix_acc_add(&m->acc, s))
		lr_session_sample(&m->ses, s);
}

/* One attempt at a case: start, follow, and finish the session. */
static enum case_end attempt(struct matrix_run *m, const struct lr_traffic_config *tc)
{
	struct lr_session *ses = &m->ses;
	uint64_t omit = m->cfg->omit_ns, end_wait;
	bool marked = omit == 0, stopped = false;

	lr_matrix_acc_init(&m->acc, m->iface);
	m->omitted_s = 0;
	if (lr_session_start(ses, tc, m->case_ns + omit) < 0)
		return CASE_FAILED;
	while (!lr_client_wait(ses->client, 1)) {
		uint64_t now = lr_clock_mono_ns(), wait = 100 * LR_NSEC_PER_MSEC;
		const struct lr_snapshot *s;

		if (lr_stop_signal && !stopped) {
			lr_session_stop(ses);
			stopped = true;
		}
		if (m->acc.win_start_ns && !marked) {
			if (now >= m->acc.win_start_ns) {
				mark_streams(m);
				m->omitted_s = (double)(lr_clock_mono_ns() - m->start_ns) / 1e9;
				marked = true;
			} else if (m->acc.win_start_ns - now < wait) {
				wait = m->acc.win_start_ns - now;
			}
		}
		s = pump(m, wait);
		lr_session_poll(ses);
		if (ses->running_ns && !m->acc.win_start_ns) {
			m->start_ns = streams_start(ses);
			m->acc.win_start_ns = m->start_ns + omit;
		}
		feed(m, s);
		drain_log(&m->log_seen);
	}
	lr_session_poll(ses);
	m->acc.win_end_ns = ses->done_ns;
	/* the tick that saw the last bytes, bounded */
	end_wait = lr_clock_mono_ns() + 2 * m->cfg->interval_ns + 100 * LR_NSEC_PER_MSEC;
	while (m->sm && ses->running_ns && !m->io_failed && lr_clock_mono_ns() < end_wait) {
		const struct lr_snapshot *s = pump(m, 50 * LR_NSEC_PER_MSEC);

		feed(m, s);
		if (s && s->mono_ns >= m->acc.win_end_ns)
			break;
	}
	lr_session_finish(ses);
	drain_log(&m->log_seen);
	if (stopped || ses->stop_asked)
		return CASE_STOPPED;
	if (ses->failed || !ses->have_res || !ses->res->complete)
		return CASE_FAILED;
	return CASE_DONE;
}

/* Bytes/s on the test interface in the newest tick, -1 unknown. */
static double iface_rate(const struct matrix_run *m, const struct lr_snapshot *s)
{
	const struct lr_iface_snap *i = m->iface[0] ? lr_snapshot_iface(s, m->iface) : NULL;
	uint64_t need = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_TX_BYTES);

	if (!i || (i->valid & need) != need)
		return -1;
	return i->per_s[LR_M_RX_BYTES] + i->per_s[LR_M_TX_BYTES];
}

/* Until a whole tick on the test interface is quiet (under 1 % of the last case's rate, and
 * at least a floor), bounded; without samples, one interval. */
static void settle(struct matrix_run *m, double last_bps)
{
	uint64_t start = lr_clock_mono_ns(), deadline = start + SETTLE_MAX_NS;
	double quiet = last_bps > 0 ? last_bps / 8 / 100 : 0;

	if (quiet < QUIET_FLOOR_BPS)
		quiet = QUIET_FLOOR_BPS;
	if (!m->sm || !m->iface[0]) {
		pump(m, m->cfg->interval_ns);
		return;
	}
	while (!lr_stop_signal && !m->io_failed && lr_clock_mono_ns() < deadline) {
		const struct lr_snapshot *s = pump(m, 100 * LR_NSEC_PER_MSEC);
		double r;

		if (!s || s->mono_ns - s->interval_ns < start)
			continue;	/* a tick that began before the case had ended */
		r = iface_rate(m, s);
		if (r >= 0 && r < quiet)
			return;
	}
}

static int write_row(struct matrix_run *m, const struct lr_matrix_row *r)
{
	if (!m->csv)
		return 0;
	if (lr_matrix_csv_row(m->csv, r) || fflush(m->csv)) {
		fprintf(stderr, "linerate: %s: cannot write: %s\n", m->cfg->matrix_csv,
			strerror(errno ? errno : EIO));
		return -EIO;
	}
	return 0;
}

static void progress(const struct matrix_run *m, const struct lr_matrix_row *r)
{
	fprintf(stderr, "linerate: case %u/%u", r->index, m->spec.n_cases);
	for (const char *k = m->keys; *k; k++) {
		switch (*k) {
		case 'P': fprintf(stderr, " P=%u", r->streams); break;
		case 'l': fprintf(stderr, " l=%llu", (unsigned long long)r->length); break;
		case 'u': fprintf(stderr, " u=%s", r->udp ? "udp" : "tcp"); break;
		case 'R': fprintf(stderr, " R=%s", r->dir == 2 ? "bidir" : r->dir ? "1" : "0"); break;
		case 'b': fprintf(stderr, " b=%llu", (unsigned long long)r->bitrate_bps); break;
		case 'w': fprintf(stderr, " w=%llu", (unsigned long long)r->window); break;
		case 'M': fprintf(stderr, " M=%u", r->mss); break;
		case 'C': fprintf(stderr, " C=%s", r->congestion); break;
		default: break;
		}
	}
	if (r->receiver_bps >= 0)
		fprintf(stderr, ": %.2f Mbit/s received\n", r->receiver_bps / 1e6);
	else
		fprintf(stderr, ": %s\n", r->verdict);
}

/* Waits wait_ns (samples keep flowing to the CSV files), or until a signal. */
static void back_off(struct matrix_run *m, uint64_t wait_ns)
{
	uint64_t end = lr_clock_mono_ns() + wait_ns, now;

	while (!lr_stop_signal && !m->io_failed && (now = lr_clock_mono_ns()) < end)
		pump(m, end - now < 100 * LR_NSEC_PER_MSEC ? end - now : 100 * LR_NSEC_PER_MSEC);
}

/* One case, with busy retries. The row is kept unless the case was stopped. */
static enum case_end run_case(struct matrix_run *m, unsigned i)
{
	struct lr_traffic_config tc;
	struct lr_matrix_row *r = &m->rows[m->n_rows];
	enum case_end e = CASE_FAILED;

	lr_matrix_case(&m->spec, &m->cfg->traffic, i, &tc);
	for (unsigned t = 0; t < BUSY_TRIES && !lr_stop_signal; t++) {
		e = attempt(m, &tc);
		if (e != CASE_FAILED || m->ses.running_ns || !strstr(m->ses.error, "busy"))
			break;
		if (t + 1 < BUSY_TRIES) {
			fprintf(stderr, "linerate: case %u: the server is busy; again in %.1f s\n", i + 1,
				(t + 1) * 0.5);
			back_off(m, (uint64_t)(t + 1) * 500 * LR_NSEC_PER_MSEC);
		}
	}
	if (e == CASE_STOPPED || lr_stop_signal)
		return CASE_STOPPED;
	lr_matrix_row_case(r, i + 1, &tc);
	if (e == CASE_DONE)
		lr_matrix_row_fill(r, m->ses.res, &m->acc, m->omitted_s);
	if (e == CASE_FAILED)
		snprintf(r->verdict, sizeof(r->verdict), "failed: %s",
			 m->ses.error[0] ? m->ses.error : "no results from the server");
	else if (m->ses.have_verdict && m->ses.samples)
		lr_matrix_verdict_line(&m->ses.verdict, r->verdict, sizeof(r->verdict));
	else
		snprintf(r->verdict, sizeof(r->verdict), "no samples of the measured seconds");
	m->n_rows++;
	progress(m, r);
	if (write_row(m, r))
		m->io_failed = true;
	return e;
}

static int print_results(const struct matrix_run *m)
{
	if (m->cfg->json) {
		json_t *o = json_object(), *arr = json_array();

		if (!o || !arr) {
			json_decref(o);
			json_decref(arr);
			return -ENOMEM;
		}
		for (unsigned i = 0; i < m->n_rows; i++)
			json_array_append_new(arr, lr_matrix_json_row(&m->rows[i]));
		json_object_set_new(o, "linerate_matrix", arr);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(o);
	} else {
		printf("linerate matrix to %s: %u of %u cases, %.3g s each after %.3g s omitted\n\n",
		       m->cfg->traffic.host, m->n_rows, m->spec.n_cases, (double)m->case_ns / 1e9,
		       (double)m->cfg->omit_ns / 1e9);
		if (lr_matrix_markdown(stdout, m->keys, m->rows, m->n_rows))
			return -EIO;
	}
	return fflush(stdout) ? -EIO : 0;
}

/* Before any traffic: the SPEC, -t, the CSV file. 0, or the exit code. */
static int prepare(struct matrix_run *m)
{
	const struct lr_config *cfg = m->cfg;
	char err[256];

	if (lr_matrix_spec_parse(cfg->matrix, &m->spec, err, sizeof(err)) ||
	    lr_matrix_spec_check(&m->spec, &cfg->traffic, err, sizeof(err))) {
		fprintf(stderr, "linerate: %s\n", err);
		return 2;
	}
	if ((cfg->csv && !strcmp(cfg->csv, "-")) || (cfg->cpu_csv && !strcmp(cfg->cpu_csv, "-")) ||
	    (cfg->streams_csv && !strcmp(cfg->streams_csv, "-"))) {
		fprintf(stderr, "linerate: --csv -: stdout carries the matrix table; name a file\n");
		return 2;
	}
	if (cfg->duration_set && !cfg->duration_ns) {
		fprintf(stderr, "linerate: -t: a matrix case needs a length (more than 0 s)\n");
		return 2;
	}
	m->case_ns = cfg->duration_set ? cfg->duration_ns : DEFAULT_CASE_NS;
	for (unsigned k = 0; k < m->spec.n_keys; k++)
		m->keys[k] = lr_matrix_key_letter(m->spec.order[k]);
	m->rows = calloc(m->spec.n_cases, sizeof(*m->rows));
	if (!m->rows) {
		fprintf(stderr, "linerate: out of memory\n");
		return 1;
	}
	if (cfg->matrix_csv) {
		m->csv = fopen(cfg->matrix_csv, "w");
		if (!m->csv || fprintf(m->csv, "%s\n", lr_matrix_csv_header()) < 0 || fflush(m->csv)) {
			fprintf(stderr, "linerate: %s: %s\n", cfg->matrix_csv, strerror(errno));
			return 1;
		}
	}
	return 0;
}

static int open_sampling(struct matrix_run *m)
{
	const struct lr_config *cfg = m->cfg;
	bool files = cfg->csv || cfg->cpu_csv || cfg->streams_csv;

	if (lr_sampling_open(&m->sm, cfg, false) < 0) {
		m->sm = NULL;
		return files ? -EIO : 0;
	}
	if (lr_sampling_start(m->sm) < 0) {
		lr_sampling_close(m->sm);
		m->sm = NULL;
		return files ? -EIO : 0;
	}
	return 0;
}

static int run(struct matrix_run *m)
{
	unsigned failed = 0, i;
	int rc = prepare(m);

	if (rc)
		return rc;
	pick_iface(m);
	if (open_sampling(m) < 0)
		return 1;
	if (lr_session_init(&m->ses, m->sm ? lr_sampling_snapsrc(m->sm) : NULL,
			    m->iface[0] ? m->iface : NULL)) {
		fprintf(stderr, "linerate: out of memory\n");
		return 1;
	}
	for (i = 0; i < m->spec.n_cases && !lr_stop_signal && !m->io_failed; i++) {
		enum case_end e = run_case(m, i);

		if (e == CASE_STOPPED)
			break;
		failed += e == CASE_FAILED;
		if (i + 1 < m->spec.n_cases)
			settle(m, m->n_rows ? m->rows[m->n_rows - 1].receiver_bps : -1);
	}
	if (m->sm && !m->io_failed && lr_sampling_finish(m->sm, false) < 0)
		m->io_failed = true;
	if (print_results(m))
		m->io_failed = true;
	if (i < m->spec.n_cases)
		fprintf(stderr, "linerate: matrix ended after %u of %u cases\n", m->n_rows,
			m->spec.n_cases);
	return failed || m->io_failed || i < m->spec.n_cases ? 1 : 0;
}

int lr_run_matrix(const struct lr_config *cfg)
{
	struct matrix_run *m = calloc(1, sizeof(*m));
	int rc;

	if (!m) {
		fprintf(stderr, "linerate: out of memory\n");
		return 1;
	}
	m->cfg = cfg;
	rc = run(m);
	lr_session_free(&m->ses);
	if (lr_sampling_close(m->sm) < 0)
		rc = 1;
	if (m->csv && fclose(m->csv)) {
		fprintf(stderr, "linerate: %s: %s\n", cfg->matrix_csv, strerror(errno));
		rc = 1;
	}
	free(m->rows);
	free(m);
	return rc;
}
