/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -A node:N: the CPUs of NUMA node N on this machine (live /sys, whatever --sysfs says: the
 * threads run here), as the CPU set the stream threads are pinned to. [main] */
#ifndef LINERATE_AFFINITY_H
#define LINERATE_AFFINITY_H

#include <sched.h>

#include "linerate/core/common.h"

/* Fills *out with node's CPUs below CPU_SETSIZE. A kernel without NUMA has no node directory:
 * node 0 is then every online CPU. Returns the number of CPUs, -ENOENT (no such node),
 * -ENODEV (a node without CPUs, such as memory-only), -errno. */
int lr_affinity_node_cpus(int node, cpu_set_t *out) LR_MUST_CHECK;

#endif
