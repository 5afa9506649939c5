/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verdict (diagnose/verdict.h) as a person or a script reads it: the text after a headless
 * test's summary and the "linerate_verdict" object of -J. Pure formatting. [main] */
#ifndef LINERATE_VERDICT_OUT_H
#define LINERATE_VERDICT_OUT_H

#include <stdio.h>

struct json_t;
struct lr_verdict;
struct lr_verdict_acc;

void lr_verdict_print(FILE *f, const struct lr_verdict_acc *a, const struct lr_verdict *v);
/* The same as a JSON object (jansson, caller owns the reference; NULL on -ENOMEM); unknown
 * numbers are null. Headless -J adds it to iperf3's JSON as "linerate_verdict". */
struct json_t *lr_verdict_json(const struct lr_verdict_acc *a, const struct lr_verdict *v);

#endif
