// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict's NUMA rule (issue 19), evidence only: when the CPU that ran the NIC's softirq
 * saturated sits on another NUMA node than the NIC, every packet crossed the interconnect, and
 * the next step names the NIC's own node's CPUs to move the IRQs and the streams to. The books
 * (each CPU's node, each interface's node) come from the snapshots; a machine without NUMA
 * (fewer than two nodes with CPUs, or a device that gives no node) never triggers it. [main]
 */
#include <stdio.h>
#include <string.h>

#include "linerate/diagnose/verdict.h"
#include "linerate/sample/snapshot.h"
#include "verdict_priv.h"

/* Idle share of node's CPUs this tick (their mean idle %), -1 when none is known. */
static double node_idle(const struct lr_snapshot *s, int node)
{
	double sum = 0;
	unsigned n = 0;

	for (size_t i = 0; i < s->n_cpus; i++) {
		const struct lr_cpu_snap *c = &s->cpus[i];

		if ((c->valid & LR_CPUV_NODE) && (c->valid & LR_CPUV_TIMES) && c->node == node) {
			sum += c->idle_pct;
			n++;
		}
	}
	return n ? sum / n : -1;
}

/* Where this tick's stream threads ran against f's node: they moved data, their node is
 * known, and most were elsewhere. */
static void stream_tick(struct lr_verdict_iface *f, const struct lr_snapshot *s)
{
	int nic = f->numa_node1 - 1;
	unsigned known = 0, remote = 0;
	const struct lr_stream_snap *last = NULL;
	double idle;

	if (nic < 0)
		return;
	for (size_t k = 0; k < s->n_streams; k++) {
		const struct lr_stream_snap *st = &s->streams[k];

		if (!st->valid || !st->bytes || st->cpu < 0 || st->node < 0)
			continue;
		known++;
		if (st->node != nic) {
			remote++;
			last = st;
		}
	}
	if (!known)
		return;
	f->numa_stream_ticks++;
	if (remote * 2 <= known)
		return;
	f->numa_remote_ticks++;
	f->numa_stream_node1 = last->node + 1;
	f->numa_stream_cpu1 = last->cpu + 1;
	idle = node_idle(s, nic);
	if (idle >= 50)	/* the NIC's own node had room for them */
		f->numa_remote_idle_ticks++;
}

void lr_verdict_numa_tick(struct lr_verdict_acc *a, const struct lr_snapshot *s, bool take)
{
	a->numa_nodes = s->numa_nodes;
	for (size_t i = 0; i < s->n_cpus; i++) {
		const struct lr_cpu_snap *c = &s->cpus[i];

		if (c->cpu >= 0 && c->cpu < LR_VERDICT_CPUS)
			a->cpu_node1[c->cpu] =
				(c->valid & LR_CPUV_NODE) && c->node >= 0 && c->node < UINT16_MAX
					? (uint16_t)(c->node + 1)
					: 0;
	}
	for (size_t k = 0; k < s->n_ifaces; k++)
		for (unsigned i = 0; i < a->n_ifs; i++)
			if (!strcmp(a->ifs[i].name, s->ifaces[k].name)) {
				a->ifs[i].numa_node1 =
					s->ifaces[k].numa_known ? s->ifaces[k].numa_node + 1 : 0;
				if (take && s->numa_nodes >= 2)
					stream_tick(&a->ifs[i], s);
				break;
			}
}

/* node's CPUs as a kernel-style list ("0,2,4,6", "8-11"); "" when none is known. */
static void node_cpulist(const struct lr_verdict_acc *a, int node, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int c = 0; c < LR_VERDICT_CPUS && o + 16 < len; c++) {
		int e = c;

		if (a->cpu_node1[c] != node + 1)
			continue;
		while (e + 1 < LR_VERDICT_CPUS && a->cpu_node1[e + 1] == node + 1)
			e++;
		o += (size_t)snprintf(buf + o, len - o, e > c ? "%s%d-%d" : "%s%d", o ? "," : "",
				      c, e);
		c = e;
	}
}

bool lr_verdict_numa_step(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			  const struct lr_verdict *v, char *buf, size_t len)
{
	const struct lr_verdict_iface *f = v->iface;
	int nic, hot;
	char cpus[96];

	if (!f || a->numa_nodes < 2 || !f->numa_node1 || v->hot_cpu < 0 ||
	    v->hot_cpu >= LR_VERDICT_CPUS || !a->cpu_node1[v->hot_cpu])
		return false;
	nic = f->numa_node1 - 1;
	hot = a->cpu_node1[v->hot_cpu] - 1;
	if (hot == nic)
		return false;
	node_cpulist(a, nic, cpus, sizeof(cpus));
	if (!cpus[0])
		return false;
	if (strlen(cpus) > 40)	/* the file below says it in full */
		snprintf(cpus, sizeof(cpus), "%s", "listed in its cpulist");
	snprintf(buf, len,
		 "cpu%d ran %.0f%% softirq for %s on NUMA node %d, but the NIC is on node %d: "
		 "move the IRQs to node %d's CPUs (%s): for each IRQ N of %s in "
		 "/proc/interrupts, cat /sys/devices/system/node/node%d/cpulist > "
		 "/proc/irq/N/smp_affinity_list%s",
		 v->hot_cpu, v->hot_pct, f->name, hot, nic, nic, cpus, f->name, nic,
		 t->ran ? "; and run the streams there (-A node:" : "");
	if (t->ran) {
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, "%d)", nic);
	}
	return true;
}

bool lr_verdict_numa_streams_step(const struct lr_verdict_acc *a,
				  const struct lr_verdict_traffic *t, const struct lr_verdict *v,
				  char *buf, size_t len)
{
	const struct lr_verdict_iface *f = v->iface;
	int nic;
	char cpus[96];

	if (!f || !t->ran || a->numa_nodes < 2 || !f->numa_node1 || f->numa_stream_ticks < 2 ||
	    f->numa_remote_idle_ticks * 2 < f->numa_stream_ticks || !f->numa_stream_node1)
		return false;
	nic = f->numa_node1 - 1;
	node_cpulist(a, nic, cpus, sizeof(cpus));
	if (!cpus[0])
		return false;
	if (strlen(cpus) > 40)
		snprintf(cpus, sizeof(cpus), "%s", "in its cpulist");
	snprintf(buf, len,
		 "the stream threads ran on NUMA node %d (cpu%d; in %u of %u samples) while "
		 "node %d, %s's own, sat mostly idle: run them there with -A node:%d (CPUs %s)",
		 f->numa_stream_node1 - 1, f->numa_stream_cpu1 - 1, f->numa_remote_idle_ticks,
		 f->numa_stream_ticks, nic, f->name, nic, cpus);
	return true;
}
