/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sysctls the seeds tuned (net.core.rmem_max/wmem_max/netdev_max_backlog,
 * net.ipv4.tcp_rmem/tcp_wmem/tcp_window_scaling/tcp_timestamps/tcp_sack,
 * tcp_congestion_control), read from /proc/sys once at start and again on request (not per
 * tick). [sampler] */
#ifndef LINERATE_TUNING_H
#define LINERATE_TUNING_H

#include <stddef.h>

#include "linerate/core/common.h"
#include "linerate/sample/snapshot.h" /* struct lr_tuning_snap */
#include "linerate/core/sysio.h"

/* Fills *out completely: a sysctl that is missing or unreadable (container, old kernel) is -1
 * or "". Returns the number of sysctls read (0..9); never fails otherwise. Allocates nothing. */
int lr_tuning_read(const struct lr_sysio *io, struct lr_tuning_snap *out);

/* Pure helpers, exposed for tests and fuzzing. Both take len bytes (NUL not needed).
 * "4096\t131072\t6291456\n" -> out[0..n): up to n blank-separated signed numbers; returns how
 * many were read, -EINVAL when a token is not a number or more than n are present. */
int lr_tuning_parse_ints(const char *buf, size_t len, int64_t *out, size_t n);
/* A one-word value ("cubic\n") into out (truncated to size - 1); -EINVAL when empty or more
 * than one word. */
int lr_tuning_parse_word(const char *buf, size_t len, char *out, size_t size);

#endif
