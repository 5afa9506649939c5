// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NUMA locality for the views (issue 19): which node the NIC is on, which node each CPU is
 * on, and whether the CPUs serving an interface (its IRQs' affinity and RPS, the sampler's
 * serving list) are mostly on another node — the cross-node memory traffic a tuning guide
 * checks first after the rings. Shown only from two nodes with CPUs on. Main thread; pure.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/present/view_numa.h"
#include "linerate/present/view.h"
#include "linerate/sample/snapshot.h"

bool lr_numa_shown(const struct lr_snapshot *s)
{
	return s && s->numa_nodes >= 2;
}

int lr_numa_snap_cpu_node(const struct lr_snapshot *s, int cpu)
{
	const struct lr_cpu_snap *c = lr_snapshot_cpu(s, cpu);

	return c && (c->valid & LR_CPUV_NODE) ? c->node : -1;
}

bool lr_numa_serving(const struct lr_snapshot *s, const struct lr_iface_snap *ifs,
		     struct lr_numa_serving *out)
{
	/* votes for the remote node: a small table, the common case is 2 to 8 nodes */
	enum { VOTES = 64 };
	unsigned votes[VOTES] = {0};

	memset(out, 0, sizeof(*out));
	out->nic_node = out->remote_node = -1;
	if (!lr_numa_shown(s) || !ifs)
		return false;
	out->nic_node = ifs->numa_known ? ifs->numa_node : -1;
	for (size_t i = 0; i < ifs->n_serving_cpus; i++) {
		int node = lr_numa_snap_cpu_node(s, ifs->serving_cpus[i]);

		if (node < 0)
			continue;
		out->known++;
		if (out->nic_node < 0 || node == out->nic_node)
			continue;
		out->remote++;
		if (node < VOTES && ++votes[node] > (out->remote_node >= 0 ? votes[out->remote_node] : 0))
			out->remote_node = node;
	}
	out->mostly_remote = out->nic_node >= 0 && out->remote * 2 > out->known;
	return true;
}

bool lr_view_numa_link_text(const struct lr_snapshot *s, const struct lr_iface_snap *ifs,
			    char *buf, size_t len, bool *remote)
{
	struct lr_numa_serving sv;

	*remote = false;
	if (!lr_numa_serving(s, ifs, &sv) || sv.nic_node < 0)
		return false;
	*remote = sv.mostly_remote;
	if (sv.mostly_remote && sv.remote_node >= 0)
		snprintf(buf, len, "node %d, IRQs on node %d", sv.nic_node, sv.remote_node);
	else if (sv.mostly_remote)
		snprintf(buf, len, "node %d, IRQs remote", sv.nic_node);
	else
		snprintf(buf, len, "node %d", sv.nic_node);
	return true;
}

int lr_view_numa_tag_w(const struct lr_snapshot *s)
{
	return lr_numa_shown(s) ? LR_VIEW_NUMA_TAG_W : 0;
}

void lr_view_numa_cpu_tag(struct lr_frame *f, int x, int y, const struct lr_snapshot *s,
			  const struct lr_iface_snap *ifs, const struct lr_cpu_snap *c)
{
	bool local;

	if (!lr_numa_shown(s) || !(c->valid & LR_CPUV_NODE))
		return;
	local = ifs && ifs->numa_known && ifs->numa_node == c->node;
	lr_frame_printf(f, x, y, LR_VIEW_NUMA_TAG_W, local ? LR_ROLE_OK : LR_ROLE_LABEL, " n%-2d",
			c->node);
}

void lr_view_numa_flag(struct lr_frame *f, int x, int y, int w, const struct lr_snapshot *s,
		       const struct lr_iface_snap *ifs)
{
	struct lr_numa_serving sv;
	int nw;

	if (!lr_numa_serving(s, ifs, &sv) || !sv.mostly_remote || w < 2)
		return;
	nw = lr_utf8_width(ifs->name);
	lr_frame_put(f, x + (nw < w - 1 ? nw : w - 1), y, '!', LR_ROLE_WARN);
}

void lr_view_numa_stream_header(struct lr_frame *f, int x0, int y, int w,
				const struct lr_snapshot *s)
{
	if (lr_numa_shown(s) && LR_VIEW_NUMA_STREAM_END + 1 < w)
		lr_frame_text_right(f, x0 + LR_VIEW_NUMA_STREAM_END - 9, y, 10, LR_ROLE_LABEL,
				    "cpu");
}

void lr_view_numa_stream_cpu(struct lr_frame *f, int x0, int y, int w, const struct lr_snapshot *s,
			     const char *iface, const struct lr_stream_snap *st)
{
	const struct lr_iface_snap *ifs = iface && iface[0] ? lr_snapshot_iface(s, iface) : NULL;
	bool remote;
	char buf[24];

	if (!lr_numa_shown(s) || LR_VIEW_NUMA_STREAM_END + 1 >= w || st->cpu < 0)
		return;
	if (st->node >= 0) {
		snprintf(buf, sizeof(buf), "c%d n%d", st->cpu, st->node);
		remote = ifs && ifs->numa_known && ifs->numa_node != st->node;
	} else {
		snprintf(buf, sizeof(buf), "c%d", st->cpu);
		remote = false;
	}
	lr_frame_text_right(f, x0 + LR_VIEW_NUMA_STREAM_END - 9, y, 10,
			    remote ? LR_ROLE_WARN : LR_ROLE_VALUE, buf);
}
