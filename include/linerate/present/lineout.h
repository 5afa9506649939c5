/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iperf3's output decorations as a stdio stream: every line written through it starts with a
 * timestamp (--timestamps[=FORMAT], strftime, local time) and a title (-T TITLE: "TITLE:  "),
 * and with --forceflush each line is flushed as it ends. [present] */
#ifndef LINERATE_LINEOUT_H
#define LINERATE_LINEOUT_H

#include <stdbool.h>
#include <stdio.h>

struct lr_lineout_opts {
	const char *title;		/* NULL: none */
	const char *timestamp_fmt;	/* NULL: none */
	bool force_flush;
};

/* A stream that decorates and writes to under (which it does not close). NULL on failure. */
FILE *lr_lineout_open(FILE *under, const struct lr_lineout_opts *o);

#endif
