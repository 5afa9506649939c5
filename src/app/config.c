// SPDX-License-Identifier: GPL-2.0-or-later
/* Questions every run mode asks of the command line's configuration, the engines' own options
 * taken from it, and the output stream of the traffic modes. [main] */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linerate/app/config.h"
#include "linerate/core/exporter.h"
#include "linerate/present/lineout.h"
#include "linerate/present/prom.h"
#include "linerate/present/view.h"
#include "linerate/run/metrics_http.h"
#include "linerate/run/recorder.h"
#include "linerate/run/sampling.h"
#include "linerate/sample/sampler.h"

static bool is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

bool lr_config_csv_named(const struct lr_config *cfg)
{
	return cfg->csv || cfg->cpu_csv || cfg->streams_csv || cfg->queues_csv;
}

bool lr_config_csv_stdout(const struct lr_config *cfg)
{
	return is_stdout(cfg->csv) || is_stdout(cfg->cpu_csv) || is_stdout(cfg->streams_csv) ||
	       is_stdout(cfg->queues_csv);
}

int lr_config_graph(const struct lr_config *cfg)
{
	/* braille by default; --graph block keeps block glyphs, --graph ascii ASCII graphs */
	return cfg->graph == LR_CFG_GRAPH_BLOCK	  ? LR_GRAPH_BLOCK
	       : cfg->graph == LR_CFG_GRAPH_ASCII ? LR_GRAPH_ASCII
						  : LR_GRAPH_BRAILLE;
}

void lr_config_sampler(const struct lr_config *cfg, struct lr_sampler_opts *o)
{
	*o = (struct lr_sampler_opts){
		.interval_ns = cfg->interval_ns,
		.ifaces = cfg->ifaces,
		.source = cfg->source,
		.procfs = cfg->procfs,
		.sysfs = cfg->sysfs,
		.history = cfg->mode == LR_MODE_DASHBOARD,
	};
	/* Watching headless, the rows are all there is: no verdict, peer or pane reads the stack's
	 * counters (neither CSV nor the endpoint has them), and per-queue ones only a file or
	 * the endpoint does. Each costs a read every tick (bench/RESULTS.md); so does handing
	 * each tick from a sampler thread to the writer. */
	if (cfg->mode == LR_MODE_HEADLESS && !cfg->traffic.host && !cfg->traffic.demo) {
		o->skip_stack = true;
		o->skip_queues = !cfg->listen && !cfg->queues_csv;
		o->inline_ticks = true;	/* the rows' writer is the one reader */
	}
}

void lr_config_files(const struct lr_config *cfg, struct lr_recorder_files *f)
{
	*f = (struct lr_recorder_files){cfg->csv, cfg->cpu_csv, cfg->streams_csv, cfg->queues_csv};
}

int lr_config_sampling_open(struct lr_sampling **out, const struct lr_config *cfg,
			    bool stdout_default)
{
	struct lr_sampling_opts o = {.stdout_default = stdout_default, .listen = cfg->listen};

	lr_config_sampler(cfg, &o.sampler);
	lr_config_files(cfg, &o.files);
	if (cfg->listen && lr_prom_exporter(&o.exporter)) {
		fprintf(stderr, "linerate: --listen %s: out of memory\n", cfg->listen);
		return -ENOMEM;
	}
	return lr_sampling_open(out, &o);
}

int lr_config_sampling_traffic(struct lr_sampling **out, const struct lr_config *cfg)
{
	bool needed = lr_config_csv_named(cfg) || cfg->listen || cfg->ledger_csv;
	int err;

	*out = NULL;
	err = lr_config_sampling_open(out, cfg, false);
	if (!err) {
		err = lr_sampling_start(*out);
		if (err)
			lr_sampling_close(*out);
	}
	if (err)
		*out = NULL;
	return needed ? err : 0;
}

int lr_config_sampling_status(const struct lr_config *cfg, int err)
{
	if (err == -ENODEV && cfg->ifaces)	/* -I naming no interface */
		return 2;
	if ((err == -ENOENT || err == -EACCES) && cfg->procfs)	/* a tree without net/dev */
		return 2;
	return 1;
}

int lr_config_metrics_open(struct lr_metrics_http **out, const struct lr_config *cfg, char *err,
			   size_t errlen)
{
	struct lr_exporter exp;

	if (lr_prom_exporter(&exp)) {
		snprintf(err, errlen, "--listen %s: out of memory", cfg->listen);
		return -ENOMEM;
	}
	return lr_metrics_http_open(out, cfg->listen, &exp, err, errlen);
}

/* Where iperf3's text goes in the traffic modes (--logfile, -T, --timestamps, --forceflush):
 * the code that prints iperf3's lines writes to a FILE and knows none of them. */
int lr_output_open(struct lr_output *o, const struct lr_config *cfg)
{
	struct lr_lineout_opts lo = {
		.title = cfg->title,
		.timestamp_fmt = cfg->timestamps,
		.force_flush = cfg->forceflush,
	};

	bool csv_on_stdout = lr_config_csv_stdout(cfg);

	o->file = NULL;
	/* stdout carries CSV rows: the human summary must not land between them */
	o->text = o->json = csv_on_stdout ? stderr : stdout;
	if (cfg->logfile) {
		o->file = fopen(cfg->logfile, "a");	/* iperf3 appends */
		if (!o->file) {
			int err = errno;

			fprintf(stderr, "linerate: --logfile %s: %s\n", cfg->logfile, strerror(err));
			return -err;
		}
		o->text = o->json = o->file;
	}
	if (cfg->title || cfg->timestamps || cfg->forceflush) {
		o->text = lr_lineout_open(o->json, &lo);
		if (!o->text) {
			o->text = o->json;
			fprintf(stderr, "linerate: cannot decorate the output: %s\n", strerror(errno));
			lr_output_close(o, cfg);
			return -ENOMEM;
		}
	}
	return 0;
}

int lr_output_close(struct lr_output *o, const struct lr_config *cfg)
{
	bool std = !o->file && o->json == stdout;
	int err = 0;

	if (o->text && o->text != o->json && fclose(o->text))
		err = -errno;
	/* a log file is closed; stdout (or stderr) stays open and is only flushed */
	if ((o->file ? fclose(o->file) : fflush(o->json)) && !err)
		err = -errno;
	if (!err && !o->file && ferror(o->json))	/* a write that failed earlier */
		err = -EIO;
	if (err && std && lr_output_stdout_gone())
		err = 0;
	if (err)
		fprintf(stderr, "linerate: writing %s: %s\n", cfg->logfile ? cfg->logfile : "stdout",
			strerror(-err));
	o->text = o->json = NULL;
	o->file = NULL;
	return err;
}

bool lr_output_stdout_gone(void)
{
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};

	/* a pipe's writer polls POLLERR once no reader is left, a socket POLLHUP: SIGPIPE is
	 * ignored (main.c), so the write itself only failed with EPIPE */
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

int lr_output_flush_stdout(void)
{
	int err = 0;

	if (fflush(stdout))
		err = -errno;
	else if (ferror(stdout))
		err = -EIO;
	if (!err || lr_output_stdout_gone())
		return 0;
	fprintf(stderr, "linerate: writing stdout: %s\n", strerror(-err));
	return err;
}
