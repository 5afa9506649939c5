// SPDX-License-Identifier: GPL-2.0-or-later
/* Questions every run mode asks of the command line's configuration. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "linerate/app/config.h"
#include "linerate/core/exporter.h"
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
