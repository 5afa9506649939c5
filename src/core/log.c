// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The log ring. Any thread may log; the main thread reads (status line, or stderr in
 * headless mode). A fixed ring under one mutex: logging never allocates and never blocks
 * for long. The mutable globals of linerate are this ring, the stop flag main.c's signal
 * handlers set, and the terminal state tui_curses.c keeps to restore it on any exit.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "linerate/core/clock.h"
#include "linerate/core/log.h"

#define LOG_RING 64

static struct {
	pthread_mutex_t lock;
	struct lr_log_entry ring[LOG_RING];
	uint64_t next_seq;	/* seq of the next entry; entries 1..next_seq-1 exist */
	int echo_level;
	unsigned errors_echoed;
	int debug_level;	/* -d: set once by main before any thread */
} lr_log_ring = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.next_seq = 1,
	.echo_level = LR_LOG_ERR + 1,
	.debug_level = LR_DEBUG_OFF,
};

const char *lr_log_level_name(enum lr_log_level level)
{
	static const char *const names[] = {"debug", "info", "warning", "error"};

	return (unsigned)level < LR_ARRAY_SIZE(names) ? names[level] : "?";
}

void lr_log(enum lr_log_level level, const char *fmt, ...)
{
	struct lr_log_entry *e;
	va_list ap;

	pthread_mutex_lock(&lr_log_ring.lock);
	e = &lr_log_ring.ring[lr_log_ring.next_seq % LOG_RING];
	e->seq = lr_log_ring.next_seq++;
	e->mono_ns = lr_clock_mono_ns();
	e->level = level;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	if ((int)level >= lr_log_ring.echo_level && level == LR_LOG_ERR)
		lr_log_ring.errors_echoed++;
	if ((int)level >= lr_log_ring.echo_level)
		fprintf(stderr, "linerate: %s%s%s\n", level >= LR_LOG_WARN ? lr_log_level_name(level) : "",
			level >= LR_LOG_WARN ? ": " : "", e->msg);
	pthread_mutex_unlock(&lr_log_ring.lock);
}

size_t lr_log_read(uint64_t *seen, struct lr_log_entry *out, size_t max)
{
	size_t n = 0;
	uint64_t seq;

	pthread_mutex_lock(&lr_log_ring.lock);
	seq = *seen + 1;
	if (lr_log_ring.next_seq > LOG_RING && seq < lr_log_ring.next_seq - LOG_RING)
		seq = lr_log_ring.next_seq - LOG_RING;	/* overwritten: skip */
	for (; seq < lr_log_ring.next_seq && n < max; seq++)
		out[n++] = lr_log_ring.ring[seq % LOG_RING];
	if (n)
		*seen = out[n - 1].seq;
	pthread_mutex_unlock(&lr_log_ring.lock);
	return n;
}

void lr_log_set_echo(int min_level)
{
	pthread_mutex_lock(&lr_log_ring.lock);
	lr_log_ring.echo_level = min_level;
	pthread_mutex_unlock(&lr_log_ring.lock);
}

unsigned lr_log_errors_echoed(void)
{
	unsigned n;

	pthread_mutex_lock(&lr_log_ring.lock);
	n = lr_log_ring.errors_echoed;
	pthread_mutex_unlock(&lr_log_ring.lock);
	return n;
}

void lr_log_set_debug(int level)
{
	pthread_mutex_lock(&lr_log_ring.lock);
	lr_log_ring.debug_level = level;
	pthread_mutex_unlock(&lr_log_ring.lock);
}

int lr_log_debug_level(void)
{
	int level;

	pthread_mutex_lock(&lr_log_ring.lock);
	level = lr_log_ring.debug_level;
	pthread_mutex_unlock(&lr_log_ring.lock);
	return level;
}

void lr_debug(int level, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&lr_log_ring.lock);	/* one line at a time from any thread */
	if (lr_log_ring.debug_level != LR_DEBUG_OFF && lr_log_ring.debug_level >= level) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	pthread_mutex_unlock(&lr_log_ring.lock);
}
