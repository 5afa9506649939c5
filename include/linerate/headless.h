/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One sampling run for the run_* entry points: the board, the sampler thread and the CSV
 * files the command line asked for (--csv, --cpu-csv, --streams-csv). The main thread pumps
 * snapshots into the files; errors are printed as one line naming the file (this is glue,
 * not library code). [main] */
#ifndef LINERATE_HEADLESS_H
#define LINERATE_HEADLESS_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_headless;
struct lr_config;
struct lr_gen_source;
struct lr_snapshot;
struct lr_sampler;

/* Opens the files (stdout_default: interface rows to stdout when no file was given) and the
 * sampler; does not start the thread. 0 or -errno (already reported on stderr). */
int lr_headless_open(struct lr_headless **out, const struct lr_config *cfg, bool stdout_default)
	LR_MUST_CHECK;
int lr_headless_start(struct lr_headless *h) LR_MUST_CHECK;
/* Waits up to timeout_ns for a new snapshot and writes its rows. 1 written, 0 nothing new,
 * -errno on a write error (reported). */
int lr_headless_pump(struct lr_headless *h, uint64_t timeout_ns) LR_MUST_CHECK;
/* Stops the thread; with final_tick, takes one more reading now (traffic has stopped: the
 * books are closed) and writes it; else writes a snapshot still unread. 0 or -errno. */
int lr_headless_finish(struct lr_headless *h, bool final_tick) LR_MUST_CHECK;
/* The newest snapshot written (or read), NULL before the first. Valid until the next pump. */
const struct lr_snapshot *lr_headless_last(const struct lr_headless *h);
struct lr_sampler *lr_headless_sampler(struct lr_headless *h);
/* Flushes and closes everything. 0, or -errno when a file could not be closed (reported). */
int lr_headless_close(struct lr_headless *h);

#endif
