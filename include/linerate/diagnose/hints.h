/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Live hints: one-line advice for an interface, only where the evidence in the newest snapshot
 * is clear (hints.c says which rules). Pure. [any] */
#ifndef LINERATE_HINTS_H
#define LINERATE_HINTS_H

#include <stddef.h>

#define LR_HINT_MAX 128

struct lr_iface_snap;
struct lr_ledger;
struct lr_snapshot;

/* Fills out[0..max) with the hints for ifs in s; returns how many. */
size_t lr_hints_live(const struct lr_snapshot *s, const struct lr_iface_snap *ifs,
		     char (*out)[LR_HINT_MAX], size_t max);
/* The running test's newest interval of the loss ledger (ledger_live.h), secs long: one hint
 * naming the stage that lost most in it, with its rate, side, host and counter, the same words
 * the verdict's conclusion uses; 0 when no stage counted a loss (or max is 0). */
size_t lr_hints_ledger(const struct lr_ledger *interval, double secs, char (*out)[LR_HINT_MAX],
		       size_t max);

#endif
