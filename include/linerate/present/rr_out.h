/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --rr's report (DESIGN section 16): netperf's request/response table on text, and -J's
 * "linerate_rr" object (docs/wire.md part 4 names its members). [any] */
#ifndef LINERATE_RR_OUT_H
#define LINERATE_RR_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "linerate/diagnose/rr_sum.h"
#include "linerate/traffic/rr.h"

/* The table, the latency line and the histogram by octaves, to f. host names the server. */
void lr_rr_print(FILE *f, const char *host, const struct lr_rr_result *r,
		 const struct lr_rr_sum *s);
/* -J's object (a new reference, NULL on no memory): unknown figures are null. */
json_t *lr_rr_json(const struct lr_rr_result *r, const struct lr_rr_sum *s);

#endif
