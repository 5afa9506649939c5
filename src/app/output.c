// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The traffic modes' output stream: iperf3's --logfile, -T, --timestamps and --forceflush in one
 * place, so the code that prints iperf3's lines writes to a FILE and knows none of them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "linerate/app/config.h"
#include "linerate/app/output.h"
#include "linerate/present/lineout.h"

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
	int err = 0;

	if (o->text && o->text != o->json && fclose(o->text))
		err = -errno;
	/* a log file is closed; stdout (or stderr) stays open and is only flushed */
	if ((o->file ? fclose(o->file) : fflush(o->json)) && !err)
		err = -errno;
	if (err)
		fprintf(stderr, "linerate: writing %s: %s\n", cfg->logfile ? cfg->logfile : "stdout",
			strerror(-err));
	o->text = o->json = NULL;
	o->file = NULL;
	return err;
}
