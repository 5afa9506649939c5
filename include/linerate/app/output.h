/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where iperf3's text goes in the traffic modes: stdout or --logfile, decorated with -T and
 * --timestamps, flushed per line with --forceflush; and the plain stream for -J, which iperf3
 * leaves undecorated. [app] */
#ifndef LINERATE_OUTPUT_H
#define LINERATE_OUTPUT_H

#include <stdio.h>

struct lr_config;

struct lr_output {
	FILE *text;	/* decorated lines */
	FILE *json;	/* -J documents: the same file, undecorated */
	FILE *file;	/* --logfile, NULL for stdout */
};

/* 0, or -errno with "--logfile F: why" printed on stderr. */
int lr_output_open(struct lr_output *o, const struct lr_config *cfg);
/* Flushes and closes what was opened (stdout stays open). 0 or -errno (printed). */
int lr_output_close(struct lr_output *o, const struct lr_config *cfg);

#endif
