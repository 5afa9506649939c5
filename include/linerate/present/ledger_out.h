/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The loss ledger (diagnose/ledger.h) as a person or a script reads it: the table after a
 * headless test's verdict, and the "linerate_ledger" object of -J (docs/design.md §14).
 * Unknown counts are "unknown" in the text and null in JSON, never 0. Pure formatting. [main] */
#ifndef LINERATE_LEDGER_OUT_H
#define LINERATE_LEDGER_OUT_H

#include <stdio.h>

struct json_t;
struct lr_ledger;

void lr_ledger_print(FILE *f, const struct lr_ledger *l);
/* caller owns the reference; NULL on -ENOMEM */
struct json_t *lr_ledger_json(const struct lr_ledger *l);

#endif
