// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * linerate's entry point: argv -> struct lr_config, signal handlers, dispatch to the run_*
 * entry point of the mode. The only place that calls exit(). Signal handlers only record
 * the signal; the run loops poll lr_stop_signal and shut down in order.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linerate/app/cli.h"
#include "linerate/app/config.h"
#include "linerate/app/run.h"
#include "linerate/core/log.h"

volatile sig_atomic_t lr_stop_signal;

static void on_stop(int sig)
{
	lr_stop_signal = sig;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocking read returns EINTR and the loop sees the flag */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);	/* an SSH drop: finish the CSV and leave cleanly */
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe is a write error (EPIPE), not a death */
}

/* iperf3's --pidfile (its -I): the process ID, removed again at exit. */
static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fprintf(f, "%ld\n", (long)getpid()) > 0;

	if (f && fclose(f))
		ok = false;
	if (!ok)
		fprintf(stderr, "linerate: --pidfile %s: %s\n", path, strerror(errno));
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct lr_config cfg;
	char err[256];
	int rc;

	if (lr_cli_parse(argc, argv, isatty(STDIN_FILENO) && isatty(STDOUT_FILENO), &cfg, err,
			 sizeof(err))) {
		fprintf(stderr, "linerate: %s (see linerate --help)\n", err);
		exit(2);
	}
	lr_log_set_debug(cfg.debug);
	install_signals();
	if (cfg.daemon && daemon(1, 0)) {	/* keeps the directory: relative paths still work */
		fprintf(stderr, "linerate: -D: %s\n", strerror(errno));
		exit(1);
	}
	if (cfg.pidfile && write_pidfile(cfg.pidfile))
		exit(1);
	switch (cfg.mode) {
	case LR_MODE_HELP:
		fputs(lr_cli_usage(), stdout);
		rc = lr_output_flush_stdout() ? 1 : 0;
		break;
	case LR_MODE_VERSION:
		printf("linerate %s\n", lr_version());
		rc = lr_output_flush_stdout() ? 1 : 0;
		break;
	case LR_MODE_EXPLAIN:
		rc = lr_run_explain(&cfg);
		break;
	case LR_MODE_REPORT:
		rc = lr_run_report(&cfg);
		break;
	case LR_MODE_REPLAY:
		rc = lr_run_replay(&cfg);
		break;
	case LR_MODE_SERVER:
		rc = lr_run_server(&cfg);
		break;
	case LR_MODE_HEADLESS:
		rc = cfg.matrix ? lr_run_matrix(&cfg) : cfg.traffic.host ? lr_run_client(&cfg) : lr_run_headless(&cfg);
		break;
	case LR_MODE_DASHBOARD:
	default:
		rc = lr_run_dashboard(&cfg);
		break;
	}
	if (cfg.pidfile)
		unlink(cfg.pidfile);
	exit(rc);
}
