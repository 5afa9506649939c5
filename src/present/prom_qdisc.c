// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The qdisc series of the exposition (issue 27, docs/design.md §13):
 * linerate_qdisc_{drops,overlimits,requeues}_total and linerate_qdisc_backlog_{bytes,packets},
 * labelled iface, qdisc (its kind), handle and parent (mq's children all have handle 0: and
 * differ only by parent). A counter starts at the kernel's own value when its qdisc is first
 * seen, then adds what the sampler's sums (lr_qdisc_snap.f.cum[]) grew by: those skip an
 * interval in which the qdisc restarted (deleted and added back under the same handle), so a
 * series never goes backwards while linerate runs, as the interface counters do. A qdisc
 * replaced by another kind or handle is another series. Only qdiscs of the last snapshot are
 * rendered; a series absent for LR_PROM_FORGET_NS is forgotten.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/qdisc.h"
#include "linerate/core/array.h"
#include "linerate/core/strutil.h"
#include "prom_priv.h"

#define N_COUNTERS 3	/* drops, overlimits, requeues: enum lr_qdisc_counter's first three */

struct qdser {
	char iface[LR_IFNAMSIZ];
	char kind[16];
	uint32_t parent, handle;
	int ifindex;
	uint32_t generation;
	uint64_t base_ns;	/* the sampler's first reading of this qdisc: another is a new one */
	bool present;		/* in the last snapshot fed */
	uint64_t seen_ns;
	uint32_t have;		/* LR_QDV_BIT(c): last[c] is a sum of this qdisc's */
	uint32_t known;		/* LR_QDV_BIT(c): acc[c] is rendered */
	uint64_t last[N_COUNTERS], acc[N_COUNTERS];
	uint32_t gauges;	/* LR_QDV_BACKLOG_*: known in the last snapshot */
	uint64_t backlog_bytes, backlog_packets;
};

struct prom_qdiscs {
	struct qdser *q;	/* sorted by iface, parent, handle, kind */
	size_t n, cap;
};

struct qdkey {
	const char *iface, *kind;
	uint32_t parent, handle;
};

static int cmp_u32(uint32_t a, uint32_t b)
{
	return (a > b) - (a < b);
}

static int cmp_qdser(const void *entry, const void *key)
{
	const struct qdser *e = entry;
	const struct qdkey *k = key;
	int c = strcmp(e->iface, k->iface);

	if (!c)
		c = cmp_u32(e->parent, k->parent);
	if (!c)
		c = cmp_u32(e->handle, k->handle);
	return c ? c : strcmp(e->kind, k->kind);
}

static struct qdser *qdser_get(struct prom_qdiscs *t, const char *iface,
			       const struct lr_qdisc_snap *k)
{
	const struct qdkey key = {iface, k->kind, k->parent, k->handle};
	bool added;
	struct qdser *e =
		lr_array_sorted_get(&t->q, &t->n, &t->cap, sizeof(*e), &key, cmp_qdser, &added);

	if (e && added) {
		lr_strlcpy(e->iface, iface, sizeof(e->iface));
		lr_strlcpy(e->kind, k->kind, sizeof(e->kind));
		e->parent = k->parent;
		e->handle = k->handle;
		e->ifindex = -1;
	}
	return e;
}

static void qdser_update(struct qdser *e, const struct lr_iface_snap *f,
			 const struct lr_qdisc_snap *k)
{
	/* another device under this name, or another qdisc under this key: start again from
	 * the kernel's count */
	if (e->ifindex != f->ifindex || e->generation != f->generation ||
	    e->base_ns != k->f.base_ns)
		e->have = 0;
	for (unsigned c = 0; c < N_COUNTERS; c++) {
		uint32_t bit = LR_QDV_BIT(c);

		if (!(e->have & bit)) {
			if (!(k->raw_valid & bit))
				continue;
			e->acc[c] += k->raw[c];	/* first seen: all it counted so far */
			e->last[c] = k->f.cum[c];
			e->have |= bit;
			e->known |= bit;
		} else if (k->f.cum_valid & bit) {
			e->acc[c] += k->f.cum[c] - e->last[c];	/* cum[] never goes back */
			e->last[c] = k->f.cum[c];
		}
	}
	e->ifindex = f->ifindex;
	e->generation = f->generation;
	e->base_ns = k->f.base_ns;
	e->gauges = k->f.valid & (LR_QDV_BACKLOG_BYTES | LR_QDV_BACKLOG_PACKETS);
	e->backlog_bytes = k->f.backlog_bytes;
	e->backlog_packets = k->f.backlog_packets;
}

int lr_prom_qdiscs_update(struct prom_qdiscs **tp, const struct lr_snapshot *s)
{
	struct prom_qdiscs *t = *tp;

	if (!t) {
		bool any = false;

		for (size_t i = 0; i < s->n_ifaces && !any; i++)
			any = s->ifaces[i].n_qdiscs > 0;
		if (!any)
			return 0;
		t = *tp = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
	}
	LR_PROM_ALL_ABSENT(t->q, t->n);
	for (size_t i = 0; i < s->n_ifaces; i++) {
		const struct lr_iface_snap *f = &s->ifaces[i];

		for (size_t j = 0; j < f->n_qdiscs; j++) {
			struct qdser *e = qdser_get(t, f->name, &f->qdiscs[j]);

			if (!e)
				return -ENOMEM;
			qdser_update(e, f, &f->qdiscs[j]);
			e->present = true;
			e->seen_ns = s->mono_ns;
		}
	}
	LR_PROM_FORGET(t->q, t->n, s->mono_ns);
	return 0;
}

static const struct prom_fam counters[N_COUNTERS] = {
	[LR_QDC_DROPS] = {"linerate_qdisc_drops", true,
			  "Packets the qdisc dropped (tc -s: dropped); a root's count includes "
			  "every qdisc under it, so do not add them up."},
	[LR_QDC_OVERLIMITS] = {"linerate_qdisc_overlimits", true,
			       "Times the qdisc itself throttled: a shaper over its rate (tc -s: "
			       "overlimits)."},
	[LR_QDC_REQUEUES] = {"linerate_qdisc_requeues", true,
			     "Packets the driver handed back to the qdisc (tc -s: requeues)."},
};

static const struct prom_fam gauges[] = {
	{"linerate_qdisc_backlog_bytes", false, "Bytes queued in the qdisc when last sampled."},
	{"linerate_qdisc_backlog_packets", false, "Packets queued in the qdisc when last sampled."},
};

static void labels(struct lr_prom_buf *b, const struct qdser *e)
{
	char h[16], p[16];

	lr_prom_put(b, "{iface=\"");
	lr_prom_put_label(b, e->iface);
	lr_prom_put(b, "\",qdisc=\"");
	lr_prom_put_label(b, e->kind);
	lr_prom_put(b, "\",handle=\"%s\",parent=\"%s\"}",
		    lr_qdisc_handle_str(e->handle, h, sizeof(h)),
		    lr_qdisc_handle_str(e->parent, p, sizeof(p)));
}

void lr_prom_qdiscs_render(const struct prom_qdiscs *t, enum lr_prom_format f,
			   struct lr_prom_buf *b)
{
	if (!t)
		return;
	for (unsigned k = 0; k < N_COUNTERS; k++) {
		bool head = false;

		for (size_t i = 0; i < t->n; i++) {
			const struct qdser *e = &t->q[i];

			if (!e->present || !(e->known & LR_QDV_BIT(k)))
				continue;
			if (!head)
				lr_prom_header(b, f, &counters[k]);
			head = true;
			lr_prom_sample_name(b, &counters[k]);
			labels(b, e);
			lr_prom_put(b, " %llu\n", (unsigned long long)e->acc[k]);
		}
	}
	for (unsigned g = 0; g < LR_ARRAY_SIZE(gauges); g++) {
		uint32_t bit = g ? LR_QDV_BACKLOG_PACKETS : LR_QDV_BACKLOG_BYTES;
		bool head = false;

		for (size_t i = 0; i < t->n; i++) {
			const struct qdser *e = &t->q[i];

			if (!e->present || !(e->gauges & bit))
				continue;
			if (!head)
				lr_prom_header(b, f, &gauges[g]);
			head = true;
			lr_prom_put(b, "%s", gauges[g].name);
			labels(b, e);
			lr_prom_put(b, " %llu\n",
				    (unsigned long long)(g ? e->backlog_packets : e->backlog_bytes));
		}
	}
}

void lr_prom_qdiscs_free(struct prom_qdiscs *t)
{
	if (!t)
		return;
	free(t->q);
	free(t);
}
