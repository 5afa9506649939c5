/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The log ring: library code never prints, it calls lr_log(). The TUI shows the newest
 * message in its status line; headless mode drains the ring to stderr. Besides this ring the
 * only mutable globals are main.c's stop flag and tui_curses.c's saved terminal state. [any] */
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

/* iperf3's -d: its debug output, on stderr (never stdout, so -J stays one JSON document) and
 * outside the ring (a parameters object is longer than an entry). Levels as iperf3's: any -d
 * prints the JSON exchanged (level 0 up), 3 (INFO) the control states, 4 everything. */
enum { LR_DEBUG_OFF = -1, LR_DEBUG_INFO = 3, LR_DEBUG_MAX = 4 };
void lr_log_set_debug(int level);
int lr_log_debug_level(void);
/* Writes the line to stderr when the debug level is at least level. */
void lr_debug(int level, const char *fmt, ...) LR_PRINTF(2, 3);

#endif
