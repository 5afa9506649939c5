/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the report's sections share (report_html.c writes the document, report_matrix.c the
 * matrix's cases). Main thread. */
#ifndef LINERATE_REPORT_PRIV_H
#define LINERATE_REPORT_PRIV_H

#include <stdbool.h>
#include <stdio.h>

#include "linerate/sample/report_read.h"

/* A summary <td>: readable text, the exact value in data-v, its key in data-k; v < 0 or not
 * finite is "unknown". unit: "count", "%", or an SI unit ("bit/s"). alarm: red when > 0. */
void lr_rep_cell(FILE *f, const char *key, double v, const char *unit, bool alarm);
/* "host", "this host" or "host (peer)". */
void lr_rep_who(FILE *f, const char *side, const char *host);

/* The matrix's "Traffic" fact: how many cases, of which protocols. */
void lr_rep_matrix_traffic(FILE *f, const struct lr_report *r);
/* The Matrix section: one row per case (its settings in words, rates with units) and, when
 * the matrix CSV has the cases' times and an interface CSV covers them, one small bitrate
 * chart per case. 0 or -EIO. */
int lr_rep_matrix_section(FILE *f, const struct lr_report *r);
/* The Loss ledger section of a --ledger-csv: one table per direction. */
void lr_rep_ledger_section(FILE *f, const struct lr_report *r);

#endif
