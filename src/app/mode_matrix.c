// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate --headless -c HOST --matrix SPEC`: the matrix runner
 * (matrix_run.c) stepped beside one sampling run, so the --csv files cover the whole grid.
 * Progress on stderr, one line per finished case; at the end the Markdown table (or -J's
 * linerate_matrix) on stdout. A signal ends the running case unfinished and writes what
 * finished. Main thread only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "linerate/app/config.h"
#include "linerate/run/matrix_run.h"
#include "linerate/app/run.h"
#include "linerate/run/sampling.h"
#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/diagnose/matrix_row.h"
#include "linerate/present/matrix_out.h"

/* --matrix-csv: each row as it finishes (the runner's on_row). */
static int csv_row(void *arg, const struct lr_matrix_row *r)
{
	struct lr_matrix_app *a = arg;

	if (lr_matrix_csv_row(a->csv, r) || fflush(a->csv)) {
		lr_log(LR_LOG_ERR, "%s: cannot write: %s", a->cfg->matrix_csv,
		       strerror(errno ? errno : EIO));
		return -EIO;
	}
	return 0;
}

/* The peer's samples of each case into --csv, --cpu-csv and --queues-csv as `side=peer` rows,
 * as a plain -c writes them (the runner's on_peer). */
static int peer_rows(void *arg, const struct lr_snapshot *peer, const char *host)
{
	struct lr_matrix_app *a = arg;
	char err[320] = "";
	int e = lr_recorder_write_peer(a->rec, peer, host, err, sizeof(err));

	if (e && err[0])
		lr_log(LR_LOG_ERR, "%s", err);
	return e;
}

/* What the command line asks of a grid beside its SPEC: 0, or 2 with one line in err. */
static int usage_check(const struct lr_config *cfg, char *err, size_t len)
{
	if (lr_config_csv_stdout(cfg)) {
		snprintf(err, len, "--csv -: stdout carries the matrix table; name a file");
		return 2;
	}
	if (cfg->duration_set && !cfg->duration_ns) {
		snprintf(err, len, "-t: a matrix case needs a length (more than 0 s)");
		return 2;
	}
	return 0;
}

int lr_matrix_app_open(struct lr_matrix_app *a, const struct lr_config *cfg,
		       struct lr_snapsrc *src, struct lr_recorder *rec, char *err, size_t len)
{
	struct lr_matrix_opts o = {
		.spec = cfg->matrix,
		.traffic = cfg->traffic,
		.iface = cfg->ifaces && !strchr(cfg->ifaces, ',') ? cfg->ifaces : NULL,
		.case_ns = cfg->duration_ns,
		.omit_ns = cfg->omit_ns,
		.interval_ns = cfg->interval_ns,
		.on_row = csv_row,
		.on_peer = rec ? peer_rows : NULL,
		.row_arg = a,
	};
	int rc;

	memset(a, 0, sizeof(*a));
	a->cfg = cfg;
	a->rec = rec;
	rc = usage_check(cfg, err, len);
	if (rc)
		return rc;
	if (!cfg->duration_set)
		o.case_ns = 0;	/* the runner's default */
	if (!cfg->matrix_csv)
		o.on_row = NULL;
	rc = lr_matrix_run_open(&a->run, &o, src, err, len);
	if (!rc && cfg->matrix_csv) {
		a->csv = fopen(cfg->matrix_csv, "w");
		if (!a->csv || fprintf(a->csv, "%s\n", lr_matrix_csv_header()) < 0 ||
		    fflush(a->csv)) {
			snprintf(err, len, "%s: %s", cfg->matrix_csv, strerror(errno));
			rc = 1;
		}
	}
	if (rc)
		lr_matrix_app_close(a);
	return rc;
}

int lr_matrix_app_report(struct lr_matrix_app *a, FILE *f)
{
	const struct lr_config *cfg = a->cfg;
	unsigned n, cases = lr_matrix_run_cases(a->run), ended = lr_matrix_run_ended(a->run);
	const struct lr_matrix_row *rows = lr_matrix_run_rows(a->run, &n);
	int rc = lr_matrix_run_status(a->run), err;

	err = lr_matrix_report(f, cfg->json, cfg->traffic.host, lr_matrix_run_keys(a->run), rows, n,
			       cases, (double)lr_matrix_run_case_ns(a->run) / 1e9,
			       (double)cfg->omit_ns / 1e9);
	/* stdout's reader gone (`| head`) is the end of the table, not an error */
	if (err && !(f == stdout && lr_output_stdout_gone())) {
		fprintf(stderr, "linerate: writing the matrix table: %s\n", strerror(-err));
		rc = 1;
	}
	if (ended < cases)
		fprintf(stderr, "linerate: matrix ended after %u of %u cases\n", ended, cases);
	return rc;
}

int lr_matrix_app_close(struct lr_matrix_app *a)
{
	int rc = 0;

	lr_matrix_run_close(a->run);
	a->run = NULL;
	if (a->csv && fclose(a->csv)) {
		fprintf(stderr, "linerate: %s: %s\n", a->cfg->matrix_csv, strerror(errno));
		rc = 1;
	}
	a->csv = NULL;
	return rc;
}

static void drain_log(uint64_t *seen)
{
	struct lr_log_entry e[16];
	size_t n;

	while ((n = lr_log_read(seen, e, LR_ARRAY_SIZE(e))) > 0)
		for (size_t i = 0; i < n; i++)
			if (e[i].level >= LR_LOG_WARN)
				fprintf(stderr, "linerate: %s%s\n",
					e[i].level == LR_LOG_WARN ? "warning: " : "", e[i].msg);
}

static void progress(struct lr_matrix_run *m, unsigned *shown)
{
	unsigned n;
	const struct lr_matrix_row *rows = lr_matrix_run_rows(m, &n);

	for (; *shown < n; (*shown)++) {
		const struct lr_matrix_row *r = &rows[*shown];
		char name[128];

		lr_matrix_run_case_name(m, r->index, name, sizeof(name));
		if (r->receiver_bps >= 0)
			fprintf(stderr, "linerate: case %u/%u %s: %.2f Mbit/s received\n", r->index,
				lr_matrix_run_cases(m), name, r->receiver_bps / 1e6);
		else
			fprintf(stderr, "linerate: case %u/%u %s: %s\n", r->index,
				lr_matrix_run_cases(m), name, r->verdict);
	}
}

int lr_run_matrix(const struct lr_config *cfg)
{
	struct lr_sampling *sm = NULL;
	struct lr_matrix_app a;
	struct lr_matrix_run *m;
	uint64_t log_seen = 0;
	unsigned shown = 0;
	bool io_failed = false;
	char err[320];
	int rc;

	/* the SPEC first: a bad one costs nothing, not even a sampler */
	rc = usage_check(cfg, err, sizeof(err));
	if (!rc) {
		rc = lr_matrix_run_open(&m, &(struct lr_matrix_opts){.spec = cfg->matrix,
								     .traffic = cfg->traffic},
					NULL, err, sizeof(err));
		lr_matrix_run_close(m);
	}
	if (rc) {
		fprintf(stderr, "linerate: %s\n", err);
		return rc;
	}
	rc = lr_config_sampling_traffic(&sm, cfg);	/* a bonus: else CPU columns are empty */
	if (rc < 0)
		return lr_config_sampling_status(cfg, rc);
	rc = lr_matrix_app_open(&a, cfg, sm ? lr_sampling_snapsrc(sm) : NULL,
				sm ? lr_sampling_recorder(sm) : NULL, err, sizeof(err));
	m = a.run;
	if (rc) {
		fprintf(stderr, "linerate: %s\n", err);
		lr_sampling_close(sm);
		return rc;
	}
	while (!lr_matrix_run_done(m)) {
		uint64_t wait = lr_matrix_run_wait_ns(m);
		int got = 0;

		if (lr_stop_signal)
			lr_matrix_run_stop(m);
		if (sm && !io_failed) {
			got = lr_sampling_pump(sm, wait);
			if (got < 0) {	/* reported by the recorder */
				io_failed = true;
				lr_matrix_run_stop(m);
			}
		} else if (wait && lr_clock_sleep_until(lr_clock_mono_ns() + wait) < 0) {
			continue;	/* a signal: seen at the top */
		}
		if (got > 0)
			lr_matrix_run_snapshot(m, lr_sampling_last(sm));
		lr_matrix_run_step(m);
		progress(m, &shown);
		drain_log(&log_seen);
	}
	if (sm && !io_failed && lr_sampling_finish(sm, false) < 0)
		io_failed = true;
	drain_log(&log_seen);
	rc = lr_matrix_app_report(&a, stdout);
	if (lr_matrix_app_close(&a) || io_failed)
		rc = 1;
	if (lr_sampling_close(sm) < 0)
		rc = 1;
	return rc;
}
