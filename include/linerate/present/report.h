/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `linerate --report`: the summary of recorded CSVs (sample/report_read.h) as one
 * self-contained HTML file: inline SVG and CSS, no script, printable. [main] */
#ifndef LINERATE_REPORT_H
#define LINERATE_REPORT_H

#include <stdio.h>

#include "linerate/core/common.h"
#include "linerate/sample/report_read.h"

/* Writes the whole HTML document to out. 0 or -errno of the first failed write. */
int lr_report_write_html(const struct lr_report *r, FILE *out) LR_MUST_CHECK;

#endif
