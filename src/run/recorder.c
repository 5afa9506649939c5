// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every CSV sink of a run in one place: the dashboard, headless sampling and headless
 * traffic runs open, feed and close the same files the same way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/csv.h"
#include "linerate/run/recorder.h"

enum { SINK_IFACES, SINK_CPUS, SINK_STREAMS, SINK_QUEUES, SINK__COUNT };

struct lr_recorder {
	struct lr_csv *sink[SINK__COUNT];
	bool failed;	/* an error was reported: do not report the same file again at close */
	bool stdout_gone;	/* stdout's reader has gone: the run ends, no error */
};

static bool is_stdout(const struct lr_csv *c)
{
	return !strcmp(lr_csv_path(c), "-");
}

static const char *shown(const struct lr_csv *c)
{
	return is_stdout(c) ? "stdout" : lr_csv_path(c);
}

/* A sink's write error in err, after which nothing more is written. EPIPE on stdout is its
 * reader gone (`| head` has read enough): the end of the rows, not an error, and no words. */
static int write_failed(struct lr_recorder *r, const struct lr_csv *c, int e, char *err,
			size_t errlen)
{
	r->failed = true;
	if (e == -EPIPE && is_stdout(c)) {
		r->stdout_gone = true;
		if (errlen)
			err[0] = '\0';
		return e;
	}
	snprintf(err, errlen, "writing %s: %s", shown(c), strerror(-e));
	return e;
}

/* A write after the error: said already. */
static int write_refused(const struct lr_recorder *r, char *err, size_t errlen)
{
	if (errlen)
		err[0] = '\0';
	return r->stdout_gone ? -EPIPE : -EIO;
}

static int open_sink(struct lr_recorder *r, int i, const char *opt, const char *path,
		     enum lr_csv_kind kind, char *err, size_t errlen)
{
	int e;

	if (!path)
		return 0;
	e = lr_csv_open(&r->sink[i], path, kind);
	if (e)
		snprintf(err, errlen, "%s %s: %s", opt, path, strerror(-e));
	return e;
}

int lr_recorder_open(struct lr_recorder **out, const struct lr_recorder_files *files,
		     bool stdout_default, char *err, size_t errlen)
{
	struct lr_recorder *r = calloc(1, sizeof(*r));
	const char *ifpath = files->csv;
	int e;

	*out = NULL;
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (!ifpath && !files->cpu_csv && !files->streams_csv && !files->queues_csv && stdout_default)
		ifpath = "-";
	e = open_sink(r, SINK_IFACES, "--csv", ifpath, LR_CSV_IFACES, err, errlen);
	if (!e)
		e = open_sink(r, SINK_CPUS, "--cpu-csv", files->cpu_csv, LR_CSV_CPUS, err, errlen);
	if (!e)
		e = open_sink(r, SINK_STREAMS, "--streams-csv", files->streams_csv, LR_CSV_STREAMS,
			      err, errlen);
	if (!e)
		e = open_sink(r, SINK_QUEUES, "--queues-csv", files->queues_csv, LR_CSV_QUEUES,
			      err, errlen);
	if (e) {
		r->failed = true;
		lr_recorder_close(r, NULL, 0);
		return e;
	}
	*out = r;
	return 0;
}

int lr_recorder_write(struct lr_recorder *r, const struct lr_snapshot *s, char *err,
		      size_t errlen)
{
	if (!r)
		return 0;
	if (r->failed)
		return write_refused(r, err, errlen);
	for (int i = 0; i < SINK__COUNT; i++) {
		int e;

		if (!r->sink[i])
			continue;
		e = lr_csv_write(r->sink[i], s);
		if (e)
			return write_failed(r, r->sink[i], e, err, errlen);
	}
	return 0;
}

int lr_recorder_write_peer(struct lr_recorder *r, const struct lr_snapshot *s, const char *host,
			   char *err, size_t errlen)
{
	if (!r)
		return 0;
	if (r->failed)
		return write_refused(r, err, errlen);
	for (int i = 0; i < SINK__COUNT; i++) {
		int e;

		if (!r->sink[i] || i == SINK_STREAMS)
			continue;
		e = lr_csv_write_peer(r->sink[i], s, host);
		if (e)
			return write_failed(r, r->sink[i], e, err, errlen);
	}
	return 0;
}

int lr_recorder_write_latency(struct lr_recorder *r, const struct lr_snapshot *s,
			      const struct lr_csv_latency *l, char *err, size_t errlen)
{
	int e;

	if (!r || !r->sink[SINK_STREAMS])
		return 0;
	if (r->failed)
		return write_refused(r, err, errlen);
	e = lr_csv_write_latency(r->sink[SINK_STREAMS], s, l);
	return e ? write_failed(r, r->sink[SINK_STREAMS], e, err, errlen) : 0;
}

int lr_recorder_close(struct lr_recorder *r, char *err, size_t errlen)
{
	int ret = 0;

	if (err && errlen)
		err[0] = '\0';
	if (!r)
		return 0;
	for (int i = 0; i < SINK__COUNT; i++) {
		char name[256];
		bool out;
		int e;

		if (!r->sink[i])
			continue;
		out = is_stdout(r->sink[i]);
		snprintf(name, sizeof(name), "%s", shown(r->sink[i]));
		e = lr_csv_close(r->sink[i]);
		if (e == -EPIPE && out)	/* its reader left: the end, not an error */
			e = 0;
		if (e && !r->failed && !ret && err)
			snprintf(err, errlen, "closing %s: %s", name, strerror(-e));
		if (e && !ret)
			ret = e;
	}
	free(r);
	return ret;
}
