/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Monotonic and wall clocks in nanoseconds; absolute-deadline sleep. [any] */
#ifndef LINERATE_CLOCK_H
#define LINERATE_CLOCK_H

#include <stdint.h>

uint64_t lr_clock_mono_ns(void);	/* CLOCK_MONOTONIC */
uint64_t lr_clock_real_ns(void);	/* CLOCK_REALTIME, for CSV `time` only */

/* Sleeps until the CLOCK_MONOTONIC deadline (TIMER_ABSTIME: no drift). Returns 0, or
 * -EINTR when a signal interrupted the sleep. */
int lr_clock_sleep_until(uint64_t deadline_ns);

#endif
