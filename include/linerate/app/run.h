/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run_* entry points main.c dispatches to, one per mode. Each returns the process exit
 * code (0 ok, 1 runtime error, 2 bad usage) and restores everything it changed (terminal,
 * traffic) before returning; only main.c calls exit(). [main] */
#ifndef LINERATE_RUN_H
#define LINERATE_RUN_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

struct lr_config;

/* Set by main.c's SIGINT/SIGTERM/SIGHUP handlers (the signal number); run loops poll it. */
extern volatile sig_atomic_t lr_stop_signal;

int lr_run_headless(const struct lr_config *cfg);	/* src/app/mode_headless.c */
int lr_run_dashboard(const struct lr_config *cfg);		/* src/app/mode_dashboard.c (also -c, --demo) */
int lr_run_server(const struct lr_config *cfg);		/* src/app/mode_server.c (-s) */
/* -s on a terminal: the dashboard, srv (opened with sapp's hooks) on a thread of its own. */
struct lr_server;
struct lr_server_app;
int lr_run_dashboard_server(const struct lr_config *cfg, struct lr_server_app *sapp,
			    struct lr_server *srv);	/* src/app/mode_dashboard.c */
int lr_run_client(const struct lr_config *cfg);		/* src/app/mode_client.c (-c --headless) */
int lr_run_explain(const struct lr_config *cfg);	/* src/app/mode_explain.c (--explain) */
int lr_run_matrix(const struct lr_config *cfg);		/* src/app/mode_matrix.c (-c --matrix) */
int lr_run_report(const struct lr_config *cfg);	/* src/app/mode_report.c (--report) */
int lr_run_replay(const struct lr_config *cfg);	/* src/app/mode_replay.c (--replay) */

/* mode_matrix.c, shared with the dashboard's Matrix pane: the runner for cfg (its options
 * checked), --matrix-csv opened with its header and each row written as it finishes; at the
 * end the table (or -J) on f. open: 0, 2 (bad usage) or 1, with one line in err; a must stay
 * where it is while open (the runner's rows reach it). report: the exit code. close: 0, or 1
 * when the CSV did not close. */
struct lr_matrix_run;
struct lr_snapsrc;
struct lr_matrix_app {
	const struct lr_config *cfg;
	struct lr_matrix_run *run;
	FILE *csv;
	struct lr_recorder *rec;	/* --csv and co.: the peer's rows go there too; NULL none */
};
int lr_matrix_app_open(struct lr_matrix_app *a, const struct lr_config *cfg,
		       struct lr_snapsrc *src, struct lr_recorder *rec, char *err, size_t len);
int lr_matrix_app_report(struct lr_matrix_app *a, FILE *f);
int lr_matrix_app_close(struct lr_matrix_app *a);

#endif
