// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `linerate --headless` without traffic: CSV rows for every snapshot until -t runs out or a
 * signal arrives. On a signal the snapshot in flight is written and the files are closed; a
 * write error is one line and exit 1. [app]
 */
#include <errno.h>

#include "linerate/app/config.h"
#include "linerate/app/sampling.h"
#include "linerate/core/log.h"
#include "linerate/app/run.h"
#include "linerate/sample/snapshot.h"

int lr_run_headless(const struct lr_config *cfg)
{
	struct lr_sampling *h;
	int rc = 0;

	lr_log_set_echo(LR_LOG_WARN);	/* no status line here: warnings go to stderr */
	/* a metrics endpoint is the output: CSV to stdout only when asked (--csv -) */
	int err = lr_sampling_open(&h, cfg, !cfg->listen);

	if (err)	/* -I naming no interface at all is bad usage */
		return err == -ENODEV && cfg->ifaces ? 2 : 1;
	if (lr_sampling_start(h)) {
		lr_sampling_close(h);
		return 1;
	}
	while (!lr_stop_signal) {
		const struct lr_snapshot *last;
		int got = lr_sampling_pump(h, 100 * LR_NSEC_PER_MSEC);

		if (got < 0) {
			rc = 1;
			break;
		}
		last = lr_sampling_last(h);
		/* -t: stop with the tick that reaches it (half an interval of tolerance) */
		if (got && cfg->duration_ns &&
		    last->elapsed_ns + last->target_interval_ns / 2 >= cfg->duration_ns)
			break;
	}
	/* a signal: the row that was in flight is part of the run */
	if (rc == 0 && lr_sampling_finish(h, false))
		rc = 1;
	if (lr_sampling_close(h))
		rc = 1;
	return rc;
}
