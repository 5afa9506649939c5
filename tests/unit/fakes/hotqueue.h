/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A synthetic snapshot for the per-queue tests (views, verdict): eth1, a 40G i40e with 8
 * queues over a 1 s interval on a 4-CPU host. hot: queue 3 carries 920k of 1M rx packets/s
 * on cpu3 at 100 % softirq while the other CPUs idle; else the 1M spread evenly (125k per
 * queue) with every CPU at 25 %. Queue 7's CPU is unknown in both. */
#ifndef LINERATE_HOTQUEUE_H
#define LINERATE_HOTQUEUE_H

#include <stdbool.h>

struct lr_snapshot;

void hotqueue_build(struct lr_snapshot *s, bool hot); /* lr_snapshot_free releases it */

#endif
