// SPDX-License-Identifier: GPL-2.0-or-later
/* Questions every run mode asks of the command line's configuration. */
#include <string.h>

#include "linerate/app/config.h"
#include "linerate/present/view.h"

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
