// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Snapshot lifetime and deep copy. A copy reuses the destination's arrays and grows them
 * only when the source is bigger, so steady-state publishing and reading never allocate. [any]
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/collect/qdisc.h"
#include "linerate/core/array.h"

void lr_snapshot_init(struct lr_snapshot *s)
{
	memset(s, 0, sizeof(*s));
}

void lr_iface_snap_assign(struct lr_iface_snap *dst, const struct lr_iface_snap *src)
{
	bool hist = src->hist[0].len || dst->hist[0].len;

	memcpy(dst, src, offsetof(struct lr_iface_snap, hist));
	if (hist)
		memcpy(dst->hist, src->hist, sizeof(dst->hist));
	dst->cap_serving = src->cap_serving;
	dst->cap_moved = src->cap_moved;
	dst->cap_queues = src->cap_queues;
	dst->cap_qdiscs = src->cap_qdiscs;
}

static void iface_free(struct lr_iface_snap *i)
{
	free(i->serving_cpus);
	free(i->moved);
	free(i->queues);
	free(i->qdiscs);
	i->serving_cpus = NULL;
	i->moved = NULL;
	i->queues = NULL;
	i->qdiscs = NULL;
	i->cap_serving = i->cap_moved = i->cap_queues = i->cap_qdiscs = 0;
}

void lr_snapshot_free(struct lr_snapshot *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->cap_ifaces; i++)
		iface_free(&s->ifaces[i]);
	free(s->ifaces);
	free(s->cpus);
	free(s->streams);
	lr_snapshot_init(s);
}

static int iface_copy(struct lr_iface_snap *dst, const struct lr_iface_snap *src)
{
	int *serving = dst->serving_cpus;
	struct lr_drv_counter *moved = dst->moved;
	struct lr_queue_snap *queues = dst->queues;
	struct lr_qdisc_snap *qdiscs = dst->qdiscs;
	size_t cap_serving = dst->cap_serving, cap_moved = dst->cap_moved;
	size_t cap_queues = dst->cap_queues, cap_qdiscs = dst->cap_qdiscs;
	int rc = 0;

	if (lr_array_grow_zero(&serving, &cap_serving, src->n_serving_cpus, sizeof(*serving)) ||
	    lr_array_grow_zero(&moved, &cap_moved, src->n_moved, sizeof(*moved)) ||
	    lr_array_grow_zero(&queues, &cap_queues, src->n_queues, sizeof(*queues)) ||
	    lr_array_grow_zero(&qdiscs, &cap_qdiscs, src->n_qdiscs, sizeof(*qdiscs)))
		rc = -ENOMEM;
	else
		lr_iface_snap_assign(dst, src);
	/* whatever grew stays owned by dst, also on failure, so nothing leaks */
	dst->serving_cpus = serving;
	dst->cap_serving = cap_serving;
	dst->moved = moved;
	dst->cap_moved = cap_moved;
	dst->queues = queues;
	dst->cap_queues = cap_queues;
	dst->qdiscs = qdiscs;
	dst->cap_qdiscs = cap_qdiscs;
	if (rc)
		return rc;
	if (src->n_queues)
		memcpy(queues, src->queues, src->n_queues * sizeof(*queues));
	if (src->n_qdiscs)
		memcpy(qdiscs, src->qdiscs, src->n_qdiscs * sizeof(*qdiscs));
	if (src->n_serving_cpus)
		memcpy(serving, src->serving_cpus, src->n_serving_cpus * sizeof(*serving));
	if (src->n_moved)
		memcpy(moved, src->moved, src->n_moved * sizeof(*moved));
	return 0;
}

int lr_snapshot_copy(struct lr_snapshot *dst, const struct lr_snapshot *src)
{
	struct lr_iface_snap *ifaces = dst->ifaces;
	struct lr_cpu_snap *cpus = dst->cpus;
	struct lr_stream_snap *streams = dst->streams;
	size_t cap_ifaces = dst->cap_ifaces, cap_cpus = dst->cap_cpus, cap_streams = dst->cap_streams;
	int err = 0;

	if (dst == src)
		return 0;
	err = lr_array_grow_zero(&ifaces, &cap_ifaces, src->n_ifaces, sizeof(*ifaces));
	dst->ifaces = ifaces;
	dst->cap_ifaces = cap_ifaces;
	if (err)
		return err;
	err = lr_array_grow_zero(&cpus, &cap_cpus, src->n_cpus, sizeof(*cpus));
	dst->cpus = cpus;
	dst->cap_cpus = cap_cpus;
	if (err)
		return err;
	err = lr_array_grow_zero(&streams, &cap_streams, src->n_streams, sizeof(*streams));
	dst->streams = streams;
	dst->cap_streams = cap_streams;
	if (err)
		return err;
	for (size_t i = 0; i < src->n_ifaces; i++) {
		err = iface_copy(&ifaces[i], &src->ifaces[i]);
		if (err)
			return err;
	}
	if (src->n_cpus)
		memcpy(cpus, src->cpus, src->n_cpus * sizeof(*cpus));
	if (src->n_streams)
		memcpy(streams, src->streams, src->n_streams * sizeof(*streams));
	dst->n_streams = src->n_streams;
	dst->traffic_generation = src->traffic_generation;
	dst->numa_nodes = src->numa_nodes;
	dst->seq = src->seq;
	dst->mono_ns = src->mono_ns;
	dst->real_ns = src->real_ns;
	dst->elapsed_ns = src->elapsed_ns;
	dst->interval_ns = src->interval_ns;
	dst->target_interval_ns = src->target_interval_ns;
	dst->late_ns = src->late_ns;
	dst->source = src->source;
	dst->n_ifaces = src->n_ifaces;
	dst->n_cpus = src->n_cpus;
	dst->cpu_all = src->cpu_all;
	dst->stack = src->stack;
	dst->tuning = src->tuning;
	return 0;
}

bool lr_snapshot_root_qdisc(const struct lr_iface_snap *i, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t k = 0; k < i->n_qdiscs; k++)
		if (i->qdiscs[k].parent == LR_QDISC_PARENT_ROOT) {
			snprintf(buf, len, "%s %x:", i->qdiscs[k].kind, i->qdiscs[k].handle >> 16);
			return true;
		}
	return false;
}

const struct lr_iface_snap *lr_snapshot_iface(const struct lr_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->n_ifaces; i++)
		if (!strcmp(s->ifaces[i].name, name))
			return &s->ifaces[i];
	return NULL;
}

float lr_series_get(const struct lr_series *s, uint32_t i)
{
	if (i >= s->len)
		return NAN;
	return s->v[(s->head + LR_HIST_LEN - 1 - i) % LR_HIST_LEN];
}

const struct lr_cpu_snap *lr_snapshot_cpu(const struct lr_snapshot *s, int cpu)
{
	size_t lo = 0, hi = s->n_cpus;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n_cpus && s->cpus[lo].cpu == cpu ? &s->cpus[lo] : NULL;
}

void lr_series_push(struct lr_series *s, double v)
{
	s->v[s->head] = (float)v;
	s->head = (s->head + 1) % LR_HIST_LEN;
	if (s->len < LR_HIST_LEN)
		s->len++;
}

void lr_peak_add(struct lr_peak *p, double v)
{
	if (v < 0 || isnan(v))
		return;
	if (!p->n || v < p->min)
		p->min = v;
	if (!p->n || v > p->max)
		p->max = v;
	p->sum += v;
	p->n++;
}
