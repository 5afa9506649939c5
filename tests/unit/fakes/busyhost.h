/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A synthetic busy host for the width-sweep view tests: eno1 1G, ens1f0np0 a 40G i40e at
 * 38.4 Gbit/s with 8 queues, five driver counters moving and long numbers everywhere, lo
 * (operstate unknown), a 10G veth named after tag; n_cpus CPUs (cpu2 at 99 % softirq), TCP
 * retransmits and UDP buffer errors rising, n_streams TCP sender streams near 4 Gbit/s. */
#ifndef LINERATE_BUSYHOST_H
#define LINERATE_BUSYHOST_H

#include <stddef.h>

struct lr_snapshot;

/* lr_snapshot_free releases it. n_cpus >= 4. */
void busyhost_build(struct lr_snapshot *s, size_t n_cpus, size_t n_streams, const char *tag);

#endif
