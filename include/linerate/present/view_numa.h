/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NUMA locality on screen (issue 19): the NIC's node on the detail view's link line, each CPU's
 * node in the CPU pane (local to the shown interface or not), and the overview's flag on an
 * interface whose serving CPUs (IRQ affinity, RPS) are mostly on another node. Everything here
 * draws nothing unless the snapshot has CPUs on two or more nodes: a machine without NUMA
 * shows nothing new. Pure; main thread. [present] */
#ifndef LINERATE_VIEW_NUMA_H
#define LINERATE_VIEW_NUMA_H

#include <stdbool.h>
#include <stddef.h>

#include "linerate/present/frame.h"

struct lr_snapshot;
struct lr_iface_snap;
struct lr_cpu_snap;

/* Where an interface's serving CPUs sit against its device's node. */
struct lr_numa_serving {
	int nic_node;	   /* -1 unknown */
	unsigned known;	   /* serving CPUs whose node is known */
	unsigned remote;   /* of those, on another node than nic_node */
	int remote_node;   /* the node most of the remote ones are on, -1 none */
	bool mostly_remote; /* NUMA shown, nic_node known, and remote > known / 2 */
};

/* NUMA worth showing: CPUs on two or more nodes. */
bool lr_numa_shown(const struct lr_snapshot *s);
/* A CPU's node from the snapshot (binary search; cpus are sorted), -1 unknown. */
int lr_numa_snap_cpu_node(const struct lr_snapshot *s, int cpu);
/* Fills *out; false (out zeroed, nodes -1) when NUMA is not shown or ifs is NULL. */
bool lr_numa_serving(const struct lr_snapshot *s, const struct lr_iface_snap *ifs,
		     struct lr_numa_serving *out);

/* The link line's text: "node 1", "node 1, IRQs on node 0" (*remote true); false when there
 * is nothing to show. */
bool lr_view_numa_link_text(const struct lr_snapshot *s, const struct lr_iface_snap *ifs,
			    char *buf, size_t len, bool *remote);
/* The CPU pane's per-row tag width: 0 (nothing shown) or LR_VIEW_NUMA_TAG_W. */
#define LR_VIEW_NUMA_TAG_W 4
int lr_view_numa_tag_w(const struct lr_snapshot *s);
/* " n1" at x (LR_VIEW_NUMA_TAG_W columns): the OK role when the CPU is on ifs's node. */
void lr_view_numa_cpu_tag(struct lr_frame *f, int x, int y, const struct lr_snapshot *s,
			  const struct lr_iface_snap *ifs, const struct lr_cpu_snap *c);
/* The overview's flag: '!' (warn role) right after the name, within w columns from x, when
 * the interface's serving CPUs are mostly on another node. */
void lr_view_numa_flag(struct lr_frame *f, int x, int y, int w, const struct lr_snapshot *s,
		       const struct lr_iface_snap *ifs);

/* The Streams pane's extra column, NUMA shown and wide panes only (it ends at column
 * LR_VIEW_NUMA_STREAM_END, past the 80-column row): the CPU the stream thread last ran on and
 * its node (warn role when not the node of iface, the interface the test runs over). */
struct lr_stream_snap;
#define LR_VIEW_NUMA_STREAM_END 90
void lr_view_numa_stream_header(struct lr_frame *f, int x0, int y, int w,
				const struct lr_snapshot *s);
void lr_view_numa_stream_cpu(struct lr_frame *f, int x0, int y, int w, const struct lr_snapshot *s,
			     const char *iface, const struct lr_stream_snap *st);

#endif
