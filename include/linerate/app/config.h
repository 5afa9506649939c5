/* SPDX-License-Identifier: GPL-2.0-or-later */
/* struct lr_config: the parsed command line (docs/design.md §1), filled by cli.c and read by
 * the run_* entry points. Plain data. [main] */
#ifndef LINERATE_CONFIG_H
#define LINERATE_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "linerate/core/common.h"
#include "linerate/diagnose/expect.h"
#include "linerate/sample/snapshot.h"	/* enum lr_source */
#include "linerate/traffic/traffic.h"	/* struct lr_traffic_config */

enum lr_mode {
	LR_MODE_DASHBOARD,	/* default; with -c also drives traffic */
	LR_MODE_HEADLESS,	/* --headless */
	LR_MODE_SERVER,		/* -s */
	LR_MODE_EXPLAIN,	/* --explain DUMP [DUMP2] */
	LR_MODE_REPORT,		/* --report OUT.html FILE... */
	LR_MODE_REPLAY,		/* --replay FILE... */
	LR_MODE_HELP,
	LR_MODE_VERSION,
};

enum { LR_CFG_GRAPH_BRAILLE = 1, LR_CFG_GRAPH_BLOCK, LR_CFG_GRAPH_ASCII };

struct lr_config {
	enum lr_mode mode;
	bool headless;		/* --headless given (with -s: iperf3's lines, no dashboard) */
	uint64_t interval_ns;	/* -i, 0.01..60 s, default 0.5 s */
	bool interval_set;	/* -i given: also the traffic report interval (else 1 s) */
	uint64_t duration_ns;	/* -t, 0 = until stopped (headless/dashboard); traffic: 10 s */
	bool duration_set;
	const char *ifaces;	/* -I comma list, NULL = all */
	const char *theme;	/* --theme NAME|PATH */
	const char *title;	/* -T: iperf3's title, "TITLE:  " before every output line */
	const char *timestamps;	/* --timestamps[=FORMAT]: strftime format, NULL = none */
	const char *logfile;	/* --logfile: iperf3's output goes there instead of stdout */
	bool forceflush;	/* --forceflush: flush every output line */
	char format;		/* -f: iperf3's bitrate unit, 'a' adaptive bits (default) */
	bool verbose;		/* -V: iperf3's more detailed output */
	const char *pidfile;	/* --pidfile (iperf3's -I): our PID, removed at exit */
	bool daemon;		/* -D: server in the background */
	bool ascii;		/* --ascii */
	int graph;		/* --graph: 0 not given (braille where UTF-8), else LR_CFG_GRAPH_* */
	enum lr_source source;	/* --source netlink|proc */
	const char *procfs;	/* --procfs DIR */
	const char *sysfs;	/* --sysfs DIR */
	const char *csv;	/* --csv FILE, "-" = stdout */
	const char *cpu_csv;	/* --cpu-csv FILE */
	const char *streams_csv;	/* --streams-csv FILE */
	const char *queues_csv;		/* --queues-csv FILE (docs/design.md §12) */
	const char *ledger_csv;		/* --ledger-csv FILE (docs/csv.md §8) */
	const char *listen;	/* --listen [ADDR:]PORT: Prometheus metrics (checked by cli.c) */
	bool json;		/* -J */
	bool rr;		/* --rr: netperf's request/response test (traffic.rr_*_bytes) */
	bool json_stream;	/* --json-stream: -J as one JSON object per line, as it happens */
	bool json_stream_full;	/* --json-stream-full-output: -J's object too, after the events */
	int debug;		/* -d[LEVEL]: iperf3's debug level; LR_DEBUG_OFF (-1) without -d */
	const char *explain[2];	/* --explain DUMP [DUMP2] */
	const char *report_out;	/* --report OUT.html */
	char *const *report_files;	/* its (or --replay's) CSVs (argv after the options) */
	int n_report_files;
	struct lr_traffic_config traffic;
	char host_part[256];	/* -c HOST%DEV: HOST (traffic.host points here) */
	char bind_part[256];	/* -B ADDR%DEV: ADDR (traffic.bind points here) */
	const char *matrix;	/* --matrix SPEC (section 10), NULL = a single test */
	const char *matrix_csv;	/* --matrix-csv FILE */
	uint64_t omit_ns;	/* -O: seconds each matrix case runs before it is measured */
	struct lr_expect expect;	/* --expect COND[,COND]: n 0 when not given */
};

/* Whether any sample CSV (--csv, --cpu-csv, --streams-csv, --queues-csv) is named, and
 * whether one of them goes to stdout ("-"). */
bool lr_config_csv_named(const struct lr_config *cfg);
bool lr_config_csv_stdout(const struct lr_config *cfg);
/* The views' graph style (enum lr_graph_style, present/view.h) that --graph asks for. */
int lr_config_graph(const struct lr_config *cfg);

/* The engines' own options, taken from the command line (they never see struct lr_config). */
struct lr_sampler_opts;
struct lr_recorder_files;
struct lr_sampling;
struct lr_metrics_http;
void lr_config_sampler(const struct lr_config *cfg, struct lr_sampler_opts *o);
void lr_config_files(const struct lr_config *cfg, struct lr_recorder_files *f);
/* lr_sampling_open with cfg's sampler, files and --listen (served as Prometheus text). */
int lr_config_sampling_open(struct lr_sampling **out, const struct lr_config *cfg,
			    bool stdout_default) LR_MUST_CHECK;
/* A traffic run's sampling, opened and started (no CSV on stdout by default). Without CSV files
 * or --listen it is a bonus: 0 with *out NULL when it cannot run; else -errno (reported). */
int lr_config_sampling_traffic(struct lr_sampling **out, const struct lr_config *cfg) LR_MUST_CHECK;
/* The exit status of a run whose sampling did not open with err: 2 when the command line named
 * what is not there (-I naming no interface, a --procfs tree without its files), else 1. */
int lr_config_sampling_status(const struct lr_config *cfg, int err);
/* lr_metrics_http_open on cfg->listen, serving Prometheus text. */
int lr_config_metrics_open(struct lr_metrics_http **out, const struct lr_config *cfg, char *err,
			   size_t errlen) LR_MUST_CHECK;

/* Where iperf3's text goes in the traffic modes: stdout (stderr when stdout carries CSV) or
 * --logfile, decorated with -T and --timestamps, flushed per line with --forceflush; and the
 * plain stream for -J, which iperf3 leaves undecorated. */
struct lr_output {
	FILE *text;	/* decorated lines */
	FILE *json;	/* -J documents: the same file, undecorated */
	FILE *file;	/* --logfile, NULL for stdout */
};

/* 0, or -errno with "--logfile F: why" printed on stderr. */
int lr_output_open(struct lr_output *o, const struct lr_config *cfg);
/* Flushes and closes what was opened (stdout stays open). 0 or -errno (printed); stdout's
 * reader gone is 0 (lr_output_stdout_gone). */
int lr_output_close(struct lr_output *o, const struct lr_config *cfg);
/* Whether stdout's reader has gone: a pipe or socket closed at its other end, as `| head`
 * does once it has read enough. A normal end of the output, never an error, said nothing of. */
bool lr_output_stdout_gone(void);
/* Flushes stdout. 0 when it is all written or its reader has gone; else -errno with
 * "linerate: writing stdout: why" on stderr. */
int lr_output_flush_stdout(void);

#endif
