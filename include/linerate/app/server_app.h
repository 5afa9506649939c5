/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `linerate -s` without a dashboard: the server on its own thread while the main thread
 * prints iperf3's server lines for each test (server_text.h) and records the CSVs the command
 * line names (--csv, --cpu-csv, --streams-csv: the incoming tests' streams). [main] */
#ifndef LINERATE_SERVER_APP_H
#define LINERATE_SERVER_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "linerate/core/common.h"

struct lr_config;
struct lr_server;
struct lr_server_app; /* opaque */
struct lr_server_test_hooks;

/* `linerate -s` is the dashboard: a terminal, no --headless (nor -D, --logfile, -J). */
bool lr_server_app_dashboard(const struct lr_config *cfg);
/* An option the chosen -s mode would drop (the dashboard's look without it, sampling without
 * a CSV): its name, with a one-line reason in why; NULL when all are used. */
const char *lr_server_app_unused(const struct lr_config *cfg, bool dash, char *why, size_t len);
/* Opens the watch and, with record and a CSV asked for, the sampler and the files (their
 * errors on stderr; the dashboard records itself). 0 or -errno. */
int lr_server_app_open(struct lr_server_app **out, const struct lr_config *cfg,
		       bool record) LR_MUST_CHECK;
/* For lr_server_opts.watch. */
const struct lr_server_test_hooks *lr_server_app_hooks(struct lr_server_app *a);
/* Runs s on a thread until it returns (a signal, -1), printing each test on text (NULL:
 * nothing). lr_server_run's result, or -EIO when a CSV could not be written (reported). */
int lr_server_app_run(struct lr_server_app *a, struct lr_server *s, FILE *text) LR_MUST_CHECK;
/* The server on its own thread (signals blocked there). 0 or -errno. */
int lr_server_app_start(struct lr_server_app *a, struct lr_server *s) LR_MUST_CHECK;
/* The server thread has returned (a fatal error, -1), or never started. */
bool lr_server_app_done(struct lr_server_app *a);
/* Stops the server (SERVER_TERMINATE to a client mid-test) and joins its thread: its
 * lr_server_run result. */
int lr_server_app_stop(struct lr_server_app *a);
struct lr_server_watch *lr_server_app_watch(struct lr_server_app *a);
/* Closes the files (0, or -errno: reported). NULL-safe. After the server is closed. */
int lr_server_app_close(struct lr_server_app *a);

#endif
