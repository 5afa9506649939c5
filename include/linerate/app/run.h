/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run_* entry points main.c dispatches to, one per mode. Each returns the process exit
 * code (0 ok, 1 runtime error, 2 bad usage) and restores everything it changed (terminal,
 * traffic) before returning; only main.c calls exit(). [main] */
#ifndef LINERATE_RUN_H
#define LINERATE_RUN_H

#include <signal.h>
#include <stdatomic.h>

struct lr_config;

/* Set by main.c's SIGINT/SIGTERM/SIGHUP handlers (the signal number); run loops poll it. */
extern volatile sig_atomic_t lr_stop_signal;

int lr_run_headless(const struct lr_config *cfg);	/* src/run_headless.c */
int lr_run_tui(const struct lr_config *cfg);		/* src/run_tui.c (dashboard, also with -c) */
int lr_run_server(const struct lr_config *cfg);		/* src/run_traffic.c (-s) */
int lr_run_client(const struct lr_config *cfg);		/* src/run_traffic.c (-c --headless) */
int lr_run_explain(const struct lr_config *cfg);	/* src/run_explain.c (--explain) */

#endif
