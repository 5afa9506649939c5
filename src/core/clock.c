// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Clocks in nanoseconds. Rates everywhere use CLOCK_MONOTONIC; CLOCK_REALTIME is only for
 * the `time` column people correlate with other logs. [any]
 */
#include <errno.h>
#include <time.h>

#include "linerate/core/clock.h"
#include "linerate/core/common.h"

static uint64_t ts_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * LR_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

uint64_t lr_clock_mono_ns(void)
{
	return ts_ns(CLOCK_MONOTONIC);
}

uint64_t lr_clock_real_ns(void)
{
	return ts_ns(CLOCK_REALTIME);
}

int lr_clock_sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / LR_NSEC_PER_SEC),
		.tv_nsec = (long)(deadline_ns % LR_NSEC_PER_SEC),
	};
	int rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);

	return rc ? -rc : 0;
}
