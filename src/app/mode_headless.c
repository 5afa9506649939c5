// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate --headless` without traffic: every snapshot until -t runs out or a signal arrives,
 * as CSV rows (the files asked for, or stdout when piped), as sar-style text on a terminal, and
 * with -J as the run's JSON at the end. On a signal the snapshot in flight is part of the run
 * and the files are closed; a write error is one line and exit 1; stdout's reader gone (`|
 * head`) ends the run as a signal does, without that last row. [app]
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linerate/app/config.h"
#include "linerate/app/run.h"
#include "linerate/run/sampling.h"
#include "linerate/core/log.h"
#include "linerate/present/runsum.h"
#include "linerate/present/sar_text.h"
#include "linerate/sample/snapshot.h"

/* What stdout carries besides the CSV files named. */
enum out_kind {
	OUT_CSV,	/* interface rows (piped, or nothing else asked) */
	OUT_TEXT,	/* sar's shape: a person is reading */
	OUT_JSON,	/* -J: the run's JSON at the end */
	OUT_NONE,	/* files only */
};

static enum out_kind out_kind(const struct lr_config *cfg)
{
	bool named = lr_config_csv_named(cfg);
	bool csv_stdout = lr_config_csv_stdout(cfg);

	if (cfg->json)
		return csv_stdout ? OUT_NONE : OUT_JSON;
	if (csv_stdout)
		return OUT_NONE;
	if (isatty(STDOUT_FILENO))
		return OUT_TEXT;
	return named ? OUT_NONE : OUT_CSV;
}

/* One snapshot for the text or the books. */
static int show(enum out_kind k, struct lr_runsum *rs, const struct lr_snapshot *s)
{
	if (k == OUT_TEXT)
		lr_sar_print_tick(stdout, s);
	if ((k == OUT_TEXT || k == OUT_JSON) && lr_runsum_add(rs, s)) {
		fprintf(stderr, "linerate: out of memory\n");
		return -ENOMEM;
	}
	return 0;
}

static int finish_output(enum out_kind k, const struct lr_runsum *rs)
{
	if (k == OUT_TEXT) {
		lr_sar_print_average(stdout, rs);
	} else if (k == OUT_JSON) {
		json_t *j = lr_runsum_json(rs);

		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(j);
	}
	return lr_output_flush_stdout() ? 1 : 0;
}

int lr_run_headless(const struct lr_config *cfg)
{
	enum out_kind k = out_kind(cfg);
	const struct lr_snapshot *last;
	struct lr_sampling *h;
	struct lr_runsum rs;
	uint64_t seen = 0;
	bool gone = false;
	int rc = 0, err;

	lr_log_set_echo(LR_LOG_WARN);	/* no status line here: warnings go to stderr */
	/* a metrics endpoint is an output of its own: CSV to stdout only when asked (--csv -) */
	err = lr_config_sampling_open(&h, cfg, k == OUT_CSV && !cfg->listen);
	if (err)
		return lr_config_sampling_status(cfg, err);
	if (lr_sampling_start(h)) {
		lr_sampling_close(h);
		return 1;
	}
	lr_runsum_init(&rs);
	while (!lr_stop_signal) {
		int got = lr_sampling_pump(h, 100 * LR_NSEC_PER_MSEC);

		if (got == -EPIPE)	/* stdout's reader has gone: the end, the files whole */
			gone = true;
		if (got < 0) {
			rc = gone ? 0 : 1;
			break;
		}
		if (!got)
			continue;
		last = lr_sampling_last(h);
		seen = last->seq;
		if (show(k, &rs, last)) {
			rc = 1;
			break;
		}
		/* -t: stop with the tick that reaches it (half an interval of tolerance) */
		if (cfg->duration_ns &&
		    last->elapsed_ns + last->target_interval_ns / 2 >= cfg->duration_ns)
			break;
	}
	/* a signal: the row that was in flight is part of the run */
	if (rc == 0 && !gone && lr_sampling_finish(h, false))
		rc = 1;
	last = lr_sampling_last(h);
	if (rc == 0 && last && last->seq != seen && show(k, &rs, last))
		rc = 1;
	if (rc == 0 && finish_output(k, &rs))
		rc = 1;
	lr_runsum_free(&rs);
	if (lr_sampling_close(h))
		rc = 1;
	return rc;
}
