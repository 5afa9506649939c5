/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The log ring: library code never prints, it calls lr_log(). The TUI shows the newest
 * message in its status line; headless mode drains the ring to stderr. The ring is the
 * only mutable global in linerate. [any] */
#ifndef LINERATE_LOG_H
#define LINERATE_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

enum lr_log_level { LR_LOG_DEBUG, LR_LOG_INFO, LR_LOG_WARN, LR_LOG_ERR };

#define LR_LOG_MSG_MAX 256	/* longer messages are truncated */

struct lr_log_entry {
	uint64_t seq;		/* 1, 2, ... never reused */
	uint64_t mono_ns;	/* CLOCK_MONOTONIC when logged */
	enum lr_log_level level;
	char msg[LR_LOG_MSG_MAX];
};

void lr_log(enum lr_log_level level, const char *fmt, ...) LR_PRINTF(2, 3);

/* Copies entries newer than *seen (oldest first) into out[0..max), advances *seen.
 * Returns the number copied. Entries overwritten before being read are skipped. */
size_t lr_log_read(uint64_t *seen, struct lr_log_entry *out, size_t max);

/* Entries at or above min_level are also written to stderr as they are logged
 * (headless mode); LR_LOG_ERR + 1 switches echoing off (the default). */
void lr_log_set_echo(int min_level);
/* How many LR_LOG_ERR entries were echoed to stderr so far: a caller about to print its own
 * one-line error for the same failure prints nothing when the cause already went out. */
unsigned lr_log_errors_echoed(void);

const char *lr_log_level_name(enum lr_log_level level);

#endif
