/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NUMA topology: which node each CPU belongs to (/sys/devices/system/node/nodeN/cpulist, the
 * kernel's "%*pbl" list, Documentation/ABI/stable/sysfs-devices-node) and which node a network
 * device is attached to (/sys/class/net/IF/device/numa_node, "%d\n", -1 when the platform
 * does not say; Documentation/ABI/testing/sysfs-bus-pci). A kernel built without NUMA has no
 * node directory: every node is then unknown, never 0. Read at start and every few seconds,
 * not every tick. Pure parsers are exposed for tests and fuzzing. [sampler] */
#ifndef LINERATE_NUMA_H
#define LINERATE_NUMA_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "linerate/core/common.h"
#include "linerate/collect/irqmap.h" /* struct lr_cpuset */
#include "linerate/core/sysio.h"

/* Node numbers at or above this are malformed input (MAX_NUMNODES is 1 << NODES_SHIFT, at
 * most 1024 in the kernel's Kconfig). */
#define LR_NUMA_MAX_NODES 1024

/* CPU -> node. Zero-init (or lr_numa_init) is "no topology known"; lr_numa_free releases. */
struct lr_numa {
	int *cpu_node;	   /* cpu_node[cpu]: its node, -1 unknown; n_cpu entries */
	size_t n_cpu, cap_cpu;
	unsigned n_nodes;  /* nodes that have at least one CPU */
	int max_node;	   /* highest node number read (with or without CPUs), -1 none */
	struct lr_cpuset scratch; /* owned by lr_numa_*: reused between reads */
	char *buf;
	size_t buf_cap;
};

void lr_numa_init(struct lr_numa *t);
void lr_numa_free(struct lr_numa *t); /* NULL-safe; leaves an empty topology */
void lr_numa_clear(struct lr_numa *t); /* forget every node, keep the memory */

/* "node12" -> 12; anything else ("node", "node1a", "online", "node01", "node1024") -> -1. */
int lr_numa_node_dirname(const char *name);
/* A numa_node file ("1\n", "-1\n"; len bytes, NUL not needed) into *node: >= 0, or -1 for
 * "the platform does not say". 0, or -EINVAL (not a number, below -1, >= LR_NUMA_MAX_NODES). */
int lr_numa_parse_node_id(const char *buf, size_t len, int *node) LR_MUST_CHECK;
/* Records that the CPUs of a node's cpulist (len bytes, "" = a memory-only node) belong to
 * node. Returns the number of CPUs, -EINVAL (bad list or node), -ERANGE, -ENOMEM. A CPU named
 * by two nodes keeps the first. */
int lr_numa_add_node(struct lr_numa *t, int node, const char *buf, size_t len) LR_MUST_CHECK;

/* Re-reads every /sys/devices/system/node/nodeN/cpulist into t (cleared first). Returns the
 * number of nodes read, 0 when the directory is missing (no NUMA: nothing known), -ENOMEM. */
int lr_numa_read(const struct lr_sysio *io, struct lr_numa *t) LR_MUST_CHECK;

int lr_numa_cpu_node(const struct lr_numa *t, int cpu); /* -1 unknown */
/* The CPUs of node (added to out, sorted). Returns their number, -ENOMEM. */
int lr_numa_node_cpus(const struct lr_numa *t, int node, struct lr_cpuset *out) LR_MUST_CHECK;

/* The node of ifname's device: >= 0, or -1 when unknown (no device link, as for lo, veth or
 * a virtual device; -1 in the file; no NUMA). A virtio device's numa_node is its PCI
 * parent's, so the parent is asked when the device itself has no file. */
int lr_numa_iface_node(const struct lr_sysio *io, const char *ifname);

/* One node's cpulist, read from sysfs and added to out (for -A node:N): the number
 * of CPUs (0 for a memory-only node), -ENOENT when there is no such node, -errno. */
int lr_numa_read_node_cpus(const struct lr_sysio *io, int node, struct lr_cpuset *out)
	LR_MUST_CHECK;

/* -A node:N: node's CPUs below CPU_SETSIZE as the set the stream threads are pinned to. A
 * kernel without NUMA has no node directory: node 0 is then every online CPU. The number of
 * CPUs, -ENOENT (no such node), -ENODEV (a node without CPUs, such as memory-only), -errno. */
int lr_numa_node_cpuset(const struct lr_sysio *io, int node, cpu_set_t *out) LR_MUST_CHECK;

#endif
