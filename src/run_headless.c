// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate --headless` without traffic: CSV rows for every snapshot until -t runs out or a
 * signal arrives. On a signal the snapshot in flight is written and the files are closed; a
 * write error is one line and exit 1. [main]
 */
#include <errno.h>

#include "linerate/app/config.h"
#include "linerate/headless.h"
#include "linerate/core/log.h"
#include "linerate/app/run.h"
#include "linerate/sample/snapshot.h"

int lr_run_headless(const struct lr_config *cfg)
{
	struct lr_headless *h;
	int rc = 0;

	lr_log_set_echo(LR_LOG_WARN);	/* no status line here: warnings go to stderr */
	int err = lr_headless_open(&h, cfg, true);

	if (err)	/* -I naming no interface at all is bad usage */
		return err == -ENODEV && cfg->ifaces ? 2 : 1;
	if (lr_headless_start(h)) {
		lr_headless_close(h);
		return 1;
	}
	while (!lr_stop_signal) {
		const struct lr_snapshot *last;
		int got = lr_headless_pump(h, 100 * LR_NSEC_PER_MSEC);

		if (got < 0) {
			rc = 1;
			break;
		}
		last = lr_headless_last(h);
		/* -t: stop with the tick that reaches it (half an interval of tolerance) */
		if (got && cfg->duration_ns &&
		    last->elapsed_ns + last->target_interval_ns / 2 >= cfg->duration_ns)
			break;
	}
	/* a signal: the row that was in flight is part of the run */
	if (rc == 0 && lr_headless_finish(h, false))
		rc = 1;
	if (lr_headless_close(h))
		rc = 1;
	return rc;
}
