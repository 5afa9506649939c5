/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A headless sampling run: the snapshot source and the recorder together, pumped by the main
 * thread of `--headless` and of headless `-c`, so samples and traffic share one clock and one
 * set of files. Errors are printed on stderr as one line naming the file (no screen to keep
 * clean here). [main] */
#ifndef LINERATE_SAMPLING_H
#define LINERATE_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/core/exporter.h"
#include "linerate/run/recorder.h"
#include "linerate/sample/sampler.h"

struct lr_sampling;
struct lr_snapshot;
struct lr_snapsrc;

struct lr_sampling_opts {
	struct lr_sampler_opts sampler;
	struct lr_recorder_files files;
	bool stdout_default;		/* interface rows to stdout when no file was given */
	const char *listen;		/* --listen [ADDR:]PORT, NULL none */
	struct lr_exporter exporter;	/* what listen serves: taken over (closed by the run) */
};

/* Opens the metrics endpoint (first: a port in use ends the run before any output), the
 * source and the files; does not start the thread. 0 or -errno (already reported on
 * stderr). */
int lr_sampling_open(struct lr_sampling **out, const struct lr_sampling_opts *o) LR_MUST_CHECK;
int lr_sampling_start(struct lr_sampling *h) LR_MUST_CHECK;
/* Waits up to timeout_ns for a new snapshot and writes its rows. 1 written, 0 nothing new,
 * -EIO on a write error (reported), -EPIPE when stdout's reader has gone (not reported: the
 * run ends normally; nothing more is written). */
int lr_sampling_pump(struct lr_sampling *h, uint64_t timeout_ns) LR_MUST_CHECK;
/* Stops the thread; with final_tick, takes one more reading now (traffic has stopped: the
 * books are closed) and writes it; else writes a snapshot still unread. 0 or -errno. */
int lr_sampling_finish(struct lr_sampling *h, bool final_tick) LR_MUST_CHECK;
/* The newest snapshot written (or read), NULL before the first. Valid until the next pump. */
const struct lr_snapshot *lr_sampling_last(const struct lr_sampling *h);
struct lr_snapsrc *lr_sampling_snapsrc(struct lr_sampling *h);
/* The files it writes, for rows it does not sample itself (a matrix's peer); NULL none. */
struct lr_recorder *lr_sampling_recorder(struct lr_sampling *h);
/* The peer view whose rows are written beside each local tick's (NULL: none); clear it before
 * the peer view is closed. lr_sampling_finish waits (<= 2 s) for its last frame. */
struct lr_peer_rx;
void lr_sampling_set_peer(struct lr_sampling *h, struct lr_peer_rx *peer);
/* Flushes and closes everything. 0, or -errno when a file could not be closed (reported). */
int lr_sampling_close(struct lr_sampling *h);

#endif
