// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Headless sampling: the sampler thread publishes, this (main) thread writes CSV rows for
 * every snapshot until -t runs out or a signal arrives. On a signal the snapshot in hand is
 * written, files are flushed and closed; a write error is one line and exit 1. [main]
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "linerate/board.h"
#include "linerate/config.h"
#include "linerate/csv.h"
#include "linerate/log.h"
#include "linerate/run.h"
#include "linerate/sampler.h"
#include "linerate/snapshot.h"

struct sinks {
	struct lr_csv *ifaces, *cpus;
	bool failed;
};

static int open_sinks(const struct lr_config *cfg, struct sinks *k)
{
	const char *ifpath = cfg->csv;
	int err;

	if (!cfg->csv && !cfg->cpu_csv)
		ifpath = "-";	/* headless with no file: interface rows on stdout */
	if (ifpath) {
		err = lr_csv_open(&k->ifaces, ifpath, LR_CSV_IFACES);
		if (err) {
			fprintf(stderr, "linerate: --csv %s: %s\n", ifpath, strerror(-err));
			return err;
		}
	}
	if (cfg->cpu_csv) {
		err = lr_csv_open(&k->cpus, cfg->cpu_csv, LR_CSV_CPUS);
		if (err) {
			fprintf(stderr, "linerate: --cpu-csv %s: %s\n", cfg->cpu_csv, strerror(-err));
			return err;
		}
	}
	return 0;
}

static const char *shown(const struct lr_csv *c)
{
	return strcmp(lr_csv_path(c), "-") ? lr_csv_path(c) : "stdout";
}

static int write_sinks(struct sinks *k, const struct lr_snapshot *snap)
{
	int err = 0;

	if (k->ifaces && (err = lr_csv_write(k->ifaces, snap)))
		fprintf(stderr, "linerate: writing %s: %s\n", shown(k->ifaces), strerror(-err));
	else if (k->cpus && (err = lr_csv_write(k->cpus, snap)))
		fprintf(stderr, "linerate: writing %s: %s\n", shown(k->cpus), strerror(-err));
	k->failed |= err != 0;
	return err;
}

/* Flushes and closes; a file that already failed was reported once, not again. */
static int close_sinks(struct sinks *k)
{
	struct lr_csv *all[] = {k->ifaces, k->cpus};
	int ret = 0;

	for (size_t i = 0; i < LR_ARRAY_SIZE(all); i++) {
		char name[256];
		int err;

		if (!all[i])
			continue;
		snprintf(name, sizeof(name), "%s", shown(all[i]));
		err = lr_csv_close(all[i]);
		if (err && !k->failed)
			fprintf(stderr, "linerate: closing %s: %s\n", name, strerror(-err));
		if (err)
			ret = err;
	}
	return ret;
}

int lr_run_headless(const struct lr_config *cfg)
{
	struct sinks k = {0};
	struct lr_board *board = NULL;
	struct lr_sampler *sampler = NULL;
	struct lr_snapshot snap;
	uint64_t seen = 0;
	int rc = 1, err;

	lr_snapshot_init(&snap);
	lr_log_set_echo(LR_LOG_WARN);	/* no status line here: warnings go to stderr */
	if (open_sinks(cfg, &k))
		goto out;
	err = lr_board_open(&board);
	if (!err)
		err = lr_sampler_open(&sampler, cfg, board);
	if (!err)
		err = lr_sampler_start(sampler);
	if (err) {
		fprintf(stderr, "linerate: cannot start sampling: %s\n", strerror(-err));
		goto out;
	}
	rc = 0;
	while (!lr_stop_signal) {
		if (!lr_board_wait(board, seen, 100 * LR_NSEC_PER_MSEC))
			continue;
		err = lr_board_read(board, &snap, &seen);
		if (err < 0 || (err > 0 && write_sinks(&k, &snap))) {
			rc = 1;
			break;
		}
		/* -t: stop with the tick that reaches it (half an interval of tolerance) */
		if (cfg->duration_ns && snap.elapsed_ns + snap.target_interval_ns / 2 >= cfg->duration_ns)
			break;
	}
	lr_sampler_close(sampler);	/* joins the thread: nothing publishes after this */
	sampler = NULL;
	/* a signal: the row that was in flight is part of the run */
	if (rc == 0 && lr_stop_signal && lr_board_read(board, &snap, &seen) > 0 &&
	    write_sinks(&k, &snap))
		rc = 1;
out:
	lr_sampler_close(sampler);
	lr_board_close(board);
	lr_snapshot_free(&snap);
	if (close_sinks(&k))
		rc = 1;
	return rc;
}
