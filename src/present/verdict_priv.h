/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the verdict's files (verdict.c books, verdict_judge.c, verdict_out.c). */
#ifndef LINERATE_VERDICT_PRIV_H
#define LINERATE_VERDICT_PRIV_H

#include <stddef.h>

#define LR_VERDICT_HOT_PCT 95.0

/* "182 Mbit/s", "9.41 Gbit/s", "512 bit/s" */
void lr_verdict_fmt_bps(char *buf, size_t len, double bps);

#endif
