/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A snapshot the real sampler takes of a captured tree (tests/fixtures/TREE/proc and /sys, read
 * as through --procfs/--sysfs): what the NUMA tests of the verdict and the views start from. */
#ifndef LINERATE_SAMPLED_TREE_H
#define LINERATE_SAMPLED_TREE_H

#include <stdint.h>

struct lr_snapshot;

/* CLOCK_MONOTONIC in ns: the sampler's ticks are stamped from it. */
uint64_t sampled_tree_now(void);
/* Runs the sampler over tests/fixtures/TREE for TICKS ticks 0.1 s apart (each interface's IRQ
 * map and node are read in turn) and reads the board into snap; fails the cmocka test on error. */
void sampled_tree(const char *tree, int ticks, struct lr_snapshot *snap);

#endif
