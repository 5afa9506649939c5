/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The matrix's rows as a person or a script sees them (docs/design.md §10): the Markdown
 * table in the shape of the seeds' tables, `--matrix-csv` with its fixed header, and the
 * `linerate_matrix` JSON array. Unknown numbers (negative here) are empty fields, "-" in the
 * table and null in JSON. Pure formatting. [present] */
#ifndef LINERATE_MATRIX_OUT_H
#define LINERATE_MATRIX_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_t;
#include "linerate/diagnose/matrix_row.h"

/* The header of --matrix-csv, without the newline. */
const char *lr_matrix_csv_header(void);
/* One CSV row (RFC 4180 quoting), with the newline. 0 or -EIO (ferror). */
int lr_matrix_csv_row(FILE *f, const struct lr_matrix_row *r);
/* The Markdown table: a column per SPEC key in `keys` (letters of "PluRbwMC", in SPEC order),
 * then the results. 0 or -EIO. */
int lr_matrix_markdown(FILE *f, const char *keys, const struct lr_matrix_row *rows, unsigned n);
/* One row as a JSON object with the CSV's names, then time_start and time_end (caller owns
 * it; NULL on -ENOMEM). */
struct json_t *lr_matrix_json_row(const struct lr_matrix_row *r);
/* The grid's result as the run ends: -J's {"linerate_matrix": [...]}, or the Markdown table
 * under a line naming the host, the cases run of n_cases and their seconds. 0 or -errno. */
int lr_matrix_report(FILE *f, bool json, const char *host, const char *keys,
		     const struct lr_matrix_row *rows, unsigned n_rows, unsigned n_cases,
		     double case_s, double omit_s);

#endif
