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
#include "linerate/app/matrix_run.h"
#include "linerate/app/run.h"
#include "linerate/app/sampling.h"
#include "linerate/core/clock.h"
#include "linerate/core/log.h"
#include "linerate/present/matrix_out.h"

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

/* Without CSV files sampling is a bonus: when it cannot start, the CPU columns stay empty. */
static int open_sampling(struct lr_sampling **sm, const struct lr_config *cfg)
{
	bool files = lr_config_csv_named(cfg);

	*sm = NULL;
	if (lr_sampling_open(sm, cfg, false) < 0) {
		*sm = NULL;
		return files ? -EIO : 0;
	}
	if (lr_sampling_start(*sm) < 0) {
		lr_sampling_close(*sm);
		*sm = NULL;
		return files ? -EIO : 0;
	}
	return 0;
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
	struct lr_matrix_run *m = NULL;
	uint64_t log_seen = 0;
	unsigned shown = 0;
	bool io_failed = false;
	char err[320];
	int rc;

	/* the SPEC first: a bad one costs nothing, not even a sampler */
	rc = lr_matrix_run_open(&m, cfg, NULL, err, sizeof(err));
	lr_matrix_run_close(m);
	if (rc) {
		fprintf(stderr, "linerate: %s\n", err);
		return rc;
	}
	if (open_sampling(&sm, cfg) < 0)
		return 1;
	rc = lr_matrix_run_open(&m, cfg, sm ? lr_sampling_snapsrc(sm) : NULL, err, sizeof(err));
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
	rc = lr_matrix_run_report(m, stdout);
	if (lr_matrix_run_close(m) || io_failed)
		rc = 1;
	if (lr_sampling_close(sm) < 0)
		rc = 1;
	return rc;
}
