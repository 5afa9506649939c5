/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `linerate --explain`: what a saved `ethtool -S` dump says. One dump: the non-zero counters
 * grouped by category (fifo, drop, error, pause, other, traffic last and summarised), a
 * one-line meaning per category and a hint where the evidence is clear. Two dumps taken
 * some seconds apart: what moved between them, per category, with deltas; counters that
 * went backwards are flagged as resets. Or the same rows as CSV. [main] */
#ifndef LINERATE_EXPLAIN_H
#define LINERATE_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "linerate/core/common.h"

struct lr_ethdump;

struct lr_explain_opts {
	const char *label1; /* names shown in the title (file names); NULL: "dump 1" */
	const char *label2;
	const char *driver; /* GDRVINFO driver for classification; NULL: from names only */
	bool csv;	    /* "counter,category,value,delta" + one row per listed counter */
};

/* Writes the explanation of d1 alone (d2 NULL) or of d1 -> d2 to out. CSV: value is the
 * latest value; delta is empty with one dump, for counters new in d2 and for counters that
 * went backwards. 0, -ENOMEM, or -EIO when out reports a write error. */
int lr_explain_write(FILE *out, const struct lr_ethdump *d1, const struct lr_ethdump *d2,
		     const struct lr_explain_opts *opts) LR_MUST_CHECK;

#endif
