// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sampling run on the main thread: the board, the sampler thread and the CSV sinks. Used by
 * `--headless` and by headless traffic runs, so samples and traffic share one clock and one
 * set of files. Every output error is reported once, naming the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/board.h"
#include "linerate/core/clock.h"
#include "linerate/app/config.h"
#include "linerate/present/csv.h"
#include "linerate/headless.h"
#include "linerate/core/log.h"
#include "linerate/sample/sampler.h"
#include "linerate/sample/snapshot.h"

enum { SINK_IFACES, SINK_CPUS, SINK_STREAMS, SINK__COUNT };

struct lr_headless {
	struct lr_board *board;
	struct lr_sampler *sampler;
	struct lr_csv *sink[SINK__COUNT];
	const char *opt[SINK__COUNT];	/* the option that named the file, for messages */
	struct lr_snapshot snap;
	uint64_t seen;
	bool have_snap;
	bool failed;	/* an error was reported: do not report the same file again at close */
};

static const char *shown(const struct lr_csv *c)
{
	return strcmp(lr_csv_path(c), "-") ? lr_csv_path(c) : "stdout";
}

static int open_sink(struct lr_headless *h, int i, const char *opt, const char *path,
		     enum lr_csv_kind kind)
{
	int err;

	if (!path)
		return 0;
	h->opt[i] = opt;
	err = lr_csv_open(&h->sink[i], path, kind);
	if (err)
		fprintf(stderr, "linerate: %s %s: %s\n", opt, path, strerror(-err));
	return err;
}

int lr_headless_open(struct lr_headless **out, const struct lr_config *cfg, bool stdout_default)
{
	struct lr_headless *h = calloc(1, sizeof(*h));
	const char *ifpath = cfg->csv;
	int err;

	if (!h)
		return -ENOMEM;
	lr_snapshot_init(&h->snap);
	if (!ifpath && !cfg->cpu_csv && !cfg->streams_csv && stdout_default)
		ifpath = "-";
	err = open_sink(h, SINK_IFACES, "--csv", ifpath, LR_CSV_IFACES);
	if (!err)
		err = open_sink(h, SINK_CPUS, "--cpu-csv", cfg->cpu_csv, LR_CSV_CPUS);
	if (!err)
		err = open_sink(h, SINK_STREAMS, "--streams-csv", cfg->streams_csv, LR_CSV_STREAMS);
	if (!err)
		err = lr_board_open(&h->board);
	if (!err) {
		unsigned logged = lr_log_errors_echoed();

		err = lr_sampler_open(&h->sampler, cfg, h->board);
		if (err && lr_log_errors_echoed() == logged)	/* else the cause is on stderr */
			fprintf(stderr, "linerate: cannot start sampling: %s\n", strerror(-err));
	}
	if (err) {
		h->failed = true;
		lr_headless_close(h);
		return err;
	}
	*out = h;
	return 0;
}

int lr_headless_start(struct lr_headless *h)
{
	int err = lr_sampler_start(h->sampler);

	if (err)
		fprintf(stderr, "linerate: cannot start the sampler thread: %s\n", strerror(-err));
	return err;
}

static int write_all(struct lr_headless *h)
{
	for (int i = 0; i < SINK__COUNT; i++) {
		int err;

		if (!h->sink[i])
			continue;
		err = lr_csv_write(h->sink[i], &h->snap);
		if (err) {
			fprintf(stderr, "linerate: writing %s: %s\n", shown(h->sink[i]),
				strerror(-err));
			h->failed = true;
			return err;
		}
	}
	return 0;
}

static int read_and_write(struct lr_headless *h)
{
	int got = lr_board_read(h->board, &h->snap, &h->seen);

	if (got <= 0)
		return got;
	h->have_snap = true;
	return write_all(h) ? -EIO : 1;
}

int lr_headless_pump(struct lr_headless *h, uint64_t timeout_ns)
{
	if (!lr_board_wait(h->board, h->seen, timeout_ns))
		return 0;
	return read_and_write(h);
}

int lr_headless_finish(struct lr_headless *h, bool final_tick)
{
	int err;

	lr_sampler_stop(h->sampler);	/* nothing publishes behind our back after this */
	if (final_tick) {
		err = lr_sampler_tick(h->sampler, lr_clock_mono_ns());
		if (err)
			return err;
	}
	err = read_and_write(h);
	return err < 0 ? err : 0;
}

const struct lr_snapshot *lr_headless_last(const struct lr_headless *h)
{
	return h->have_snap ? &h->snap : NULL;
}

struct lr_sampler *lr_headless_sampler(struct lr_headless *h)
{
	return h->sampler;
}

int lr_headless_close(struct lr_headless *h)
{
	int ret = 0;

	if (!h)
		return 0;
	lr_sampler_close(h->sampler);
	lr_board_close(h->board);
	for (int i = 0; i < SINK__COUNT; i++) {
		char name[256];
		int err;

		if (!h->sink[i])
			continue;
		snprintf(name, sizeof(name), "%s", shown(h->sink[i]));
		err = lr_csv_close(h->sink[i]);
		if (err && !h->failed)
			fprintf(stderr, "linerate: closing %s: %s\n", name, strerror(-err));
		if (err)
			ret = err;
	}
	lr_snapshot_free(&h->snap);
	free(h);
	return ret;
}
