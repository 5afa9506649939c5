/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cycles' ledger (diagnose/cycles.h) written out: each end's busiest CPUs and the
 * conclusion after a headless test's verdict, and -J's "linerate_cycles" (docs/design.md §14).
 * An end that shared no CPU times is "unknown" in the text and null in JSON. [main] */
#ifndef LINERATE_CYCLES_OUT_H
#define LINERATE_CYCLES_OUT_H

#include <stdio.h>

struct json_t;
struct lr_cycles;

void lr_cycles_print(FILE *f, const struct lr_cycles *c);
/* caller owns the reference; NULL on -ENOMEM */
struct json_t *lr_cycles_json(const struct lr_cycles *c);

#endif
