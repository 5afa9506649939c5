// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Qdisc figures on the sampler tick. Per interface (by ifindex) a list of slots, one per qdisc
 * (by parent and handle), kept in the order of the latest dump, so that a steady tick finds
 * each qdisc where it was and allocates nothing. A slot turns cumulative readings into deltas;
 * the interface's total follows its root slot (snapshot.h says why the root alone) and sums
 * what it counted into its own cum[], which never goes back when the root is replaced.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/nllink.h"
#include "linerate/collect/qdisc.h"
#include "linerate/core/array.h"
#include "linerate/core/log.h"
#include "linerate/sample/qdiscsrc.h"
#include "linerate/sample/rate.h"
#include "linerate/sample/snapshot.h"

struct slot {
	struct lr_qdisc_snap snap;	/* raw[] is the last reading, the base of the next delta */
	uint64_t last_ns;		/* when raw[] was read */
};

struct dev {
	int ifindex;
	bool bad;		/* a reply about it did not parse: unknown for the rest of the run
				 * (by ifindex: a device re-created under its name starts afresh) */
	bool seen;		/* in this tick's dump */
	size_t pos;		/* slots placed so far in this tick's dump order */
	struct slot *slot;
	size_t n_slot, cap_slot;
	struct lr_qdisc_snap *out;	/* the published view of the slots */
	size_t cap_out;
	struct lr_qdisc_figures total;
};

struct lr_qdiscsrc {
	struct lr_qdisc_stats *buf;	/* one dump's replies */
	size_t cap;
	struct dev *dev;	/* sorted by ifindex */
	size_t n_dev, cap_dev;
	bool all_bad;		/* a reply that named no interface did not parse */
};

/* collect/qdisc.h's fields -> snapshot.h's counters */
static const enum lr_qdisc_field counter_field[LR_QDC__COUNT] = {
	[LR_QDC_DROPS] = LR_QD_DROPS,	  [LR_QDC_OVERLIMITS] = LR_QD_OVERLIMITS,
	[LR_QDC_REQUEUES] = LR_QD_REQUEUES, [LR_QDC_BYTES] = LR_QD_BYTES,
	[LR_QDC_PACKETS] = LR_QD_PACKETS,
};

int lr_qdiscsrc_open(struct lr_qdiscsrc **out)
{
	struct lr_qdiscsrc *q = calloc(1, sizeof(*q));

	*out = NULL;
	if (!q)
		return -ENOMEM;
	q->cap = 64;
	q->buf = calloc(q->cap, sizeof(*q->buf));
	if (!q->buf) {
		free(q);
		return -ENOMEM;
	}
	*out = q;
	return 0;
}

static void dev_free(struct dev *d)
{
	free(d->slot);
	free(d->out);
}

void lr_qdiscsrc_close(struct lr_qdiscsrc *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->n_dev; i++)
		dev_free(&q->dev[i]);
	free(q->dev);
	free(q->buf);
	free(q);
}

static int cmp_dev(const void *entry, const void *key)
{
	int a = ((const struct dev *)entry)->ifindex, b = *(const int *)key;

	return (a > b) - (a < b);
}

static struct dev *dev_find(struct lr_qdiscsrc *q, int ifindex)
{
	bool found;
	size_t i = lr_array_find(q->dev, q->n_dev, sizeof(*q->dev), &ifindex, cmp_dev, &found);

	return found ? &q->dev[i] : NULL;
}

static struct dev *dev_get(struct lr_qdiscsrc *q, int ifindex)
{
	bool added;
	struct dev *d = lr_array_sorted_get(&q->dev, &q->n_dev, &q->cap_dev, sizeof(*q->dev),
					    &ifindex, cmp_dev, &added);

	if (d && added)
		d->ifindex = ifindex;
	return d;
}

/* The interface's name in w for the log, "?" when w does not have it. */
static const char *name_of(const struct lr_snapshot *w, int ifindex)
{
	for (size_t i = 0; i < w->n_ifaces; i++)
		if (w->ifaces[i].ifindex == ifindex)
			return w->ifaces[i].name;
	return "?";
}

/* Slot of (parent, handle) moved to index d->pos, where this tick's dump order puts it; a new
 * zeroed slot when the qdisc is new. NULL on -ENOMEM. */
static struct slot *slot_place(struct dev *d, uint32_t parent, uint32_t handle)
{
	size_t j;
	struct slot tmp;

	for (j = d->pos; j < d->n_slot; j++)	/* a steady tick: found at once, at d->pos */
		if (d->slot[j].snap.parent == parent && d->slot[j].snap.handle == handle)
			break;
	if (j == d->n_slot) {
		if (lr_array_grow(&d->slot, &d->cap_slot, d->n_slot + 1, sizeof(*d->slot)))
			return NULL;
		memset(&d->slot[j], 0, sizeof(d->slot[j]));
		d->slot[j].snap.parent = parent;
		d->slot[j].snap.handle = handle;
		d->n_slot++;
	}
	if (j != d->pos) {
		tmp = d->slot[d->pos];
		d->slot[d->pos] = d->slot[j];
		d->slot[j] = tmp;
	}
	return &d->slot[d->pos++];
}

/* A 64-bit counter that went back was restarted. A 32-bit one (drops, overlimits, requeues)
 * that went back wrapped only if that makes a delta below 2^31: a counter in its top half
 * passing 2^32 within one interval; anything else is a restart too. */
static bool counter_delta(enum lr_qdisc_counter c, uint64_t prev, uint64_t cur, uint64_t *d)
{
	bool narrow = c == LR_QDC_DROPS || c == LR_QDC_OVERLIMITS || c == LR_QDC_REQUEUES;

	if (!lr_rate_delta(prev, cur, narrow ? 32 : 64, d))
		return false;
	return !narrow || cur >= prev || *d < (UINT64_C(1) << 31);
}

/* One reading of a qdisc into its slot: deltas against the previous reading unless the qdisc
 * restarted (another kind in its place, or a counter gone back): then the interval is dropped
 * and this reading is only the next base. */
static void slot_read(struct slot *sl, const struct lr_qdisc_stats *e, uint64_t now_ns)
{
	struct lr_qdisc_snap *s = &sl->snap;
	struct lr_qdisc_figures *f = &s->f;
	uint64_t d[LR_QDC__COUNT] = {0};
	uint32_t have = 0, both;
	bool restart = strcmp(s->kind, e->kind) != 0;

	for (unsigned c = 0; c < LR_QDC__COUNT; c++)
		if (e->valid & LR_QD_BIT(counter_field[c]))
			have |= LR_QDV_BIT(c);
	both = have & s->raw_valid;
	for (unsigned c = 0; c < LR_QDC__COUNT && !restart; c++)
		if ((both & LR_QDV_BIT(c)) &&
		    !counter_delta(c, s->raw[c], e->v[counter_field[c]], &d[c]))
			restart = true;
	f->valid = 0;
	f->interval_ns = sl->last_ns ? now_ns - sl->last_ns : 0;
	if (!restart && f->interval_ns) {
		for (unsigned c = 0; c < LR_QDC__COUNT; c++) {
			if (!(both & LR_QDV_BIT(c)))
				continue;
			f->delta[c] = d[c];
			f->cum[c] += d[c];
			f->valid |= LR_QDV_BIT(c);
		}
		f->cum_valid |= f->valid;
	}
	f->drops_per_s = (f->valid & LR_QDV_BIT(LR_QDC_DROPS))
				 ? lr_rate_per_sec(f->delta[LR_QDC_DROPS], f->interval_ns)
				 : 0;
	f->backlog_bytes = e->v[LR_QD_BACKLOG_BYTES];
	f->backlog_packets = e->v[LR_QD_QLEN];
	if (e->valid & LR_QD_BIT(LR_QD_BACKLOG_BYTES))
		f->valid |= LR_QDV_BACKLOG_BYTES;
	if (e->valid & LR_QD_BIT(LR_QD_QLEN))
		f->valid |= LR_QDV_BACKLOG_PACKETS;
	if (!f->base_ns)
		f->base_ns = now_ns;
	memcpy(s->kind, e->kind, sizeof(s->kind));
	for (unsigned c = 0; c < LR_QDC__COUNT; c++)
		s->raw[c] = e->v[counter_field[c]];
	s->raw_valid = have;
	sl->last_ns = now_ns;
}

/* The interface's total: its root's figures this tick, summed into the total's own cum[]. */
static void dev_total(struct dev *d, uint64_t now_ns)
{
	struct lr_qdisc_figures *t = &d->total;
	const struct lr_qdisc_figures *r = NULL;

	t->valid = 0;
	for (size_t i = 0; i < d->n_slot && !r; i++)
		if (d->slot[i].snap.parent == LR_QDISC_PARENT_ROOT)
			r = &d->slot[i].snap.f;
	if (!r)
		return;	/* no root (a device that is down): unknown */
	if (!t->base_ns)
		t->base_ns = now_ns;
	t->valid = r->valid;
	t->interval_ns = r->interval_ns;
	for (unsigned c = 0; c < LR_QDC__COUNT; c++) {
		t->delta[c] = r->delta[c];
		if (r->valid & LR_QDV_BIT(c))
			t->cum[c] += r->delta[c];
	}
	t->cum_valid |= r->valid & (LR_QDV_BIT(LR_QDC__COUNT) - 1);
	t->drops_per_s = r->drops_per_s;
	t->backlog_bytes = r->backlog_bytes;
	t->backlog_packets = r->backlog_packets;
}

static void mark_bad(struct lr_qdiscsrc *q, const struct lr_qdisc_stats *e,
		     const struct lr_snapshot *w)
{
	struct dev *d;

	if (e->ifindex <= 0) {
		if (!q->all_bad)
			lr_log(LR_LOG_WARN, "qdisc: a kernel reply that names no interface does "
			       "not parse: every qdisc figure is unknown for the rest of the run");
		q->all_bad = true;
		return;
	}
	d = dev_get(q, e->ifindex);
	if (d && !d->bad)
		lr_log(LR_LOG_WARN, "qdisc: a kernel reply about %s (ifindex %d) does not parse: "
		       "its qdisc figures are unknown for the rest of the run",
		       name_of(w, e->ifindex), e->ifindex);
	if (d)
		d->bad = d->seen = true;	/* seen: kept, bad flag and all, while it is dumped */
}

/* Interfaces neither in the dump nor in the snapshot are forgotten; one in the snapshot keeps
 * its total's sums (a CSV diffs them) even while it has no qdisc. */
static void prune(struct lr_qdiscsrc *q, const struct lr_snapshot *w)
{
	size_t kept = 0;

	for (size_t i = 0; i < q->n_dev; i++) {
		struct dev *d = &q->dev[i];
		bool keep = d->seen;

		for (size_t k = 0; k < w->n_ifaces && !keep; k++)
			keep = w->ifaces[k].ifindex == d->ifindex;
		if (keep)
			q->dev[kept++] = *d;
		else
			dev_free(d);
	}
	q->n_dev = kept;
}

static int feed_dump(struct lr_qdiscsrc *q, const struct lr_qdisc_stats *qd, size_t n,
		     uint64_t now_ns, const struct lr_snapshot *w)
{
	int rc = 0;

	for (size_t i = 0; i < q->n_dev; i++)
		q->dev[i].seen = false, q->dev[i].pos = 0;
	for (size_t i = 0; i < n; i++) {
		const struct lr_qdisc_stats *e = &qd[i];
		struct dev *d;
		struct slot *sl;

		if (e->bad) {
			mark_bad(q, e, w);
			continue;
		}
		d = dev_get(q, e->ifindex);
		if (!d) {
			rc = -ENOMEM;
			continue;
		}
		d->seen = true;
		if (d->bad)
			continue;
		sl = slot_place(d, e->parent, e->handle);
		if (!sl) {
			rc = -ENOMEM;
			continue;
		}
		slot_read(sl, e, now_ns);
	}
	for (size_t i = 0; i < q->n_dev; i++) {
		struct dev *d = &q->dev[i];

		d->n_slot = d->pos;	/* qdiscs gone from the dump: their bases go with them */
		dev_total(d, now_ns);
		if (lr_array_grow(&d->out, &d->cap_out, d->n_slot, sizeof(*d->out)))
			rc = -ENOMEM;
	}
	prune(q, w);
	return rc;
}

static void publish(struct lr_qdiscsrc *q, bool dump_ok, struct lr_snapshot *w)
{
	for (size_t i = 0; i < w->n_ifaces; i++) {
		struct lr_iface_snap *f = &w->ifaces[i];
		struct dev *d = dev_find(q, f->ifindex);

		memset(&f->qdisc, 0, sizeof(f->qdisc));
		f->qdiscs = NULL;
		f->n_qdiscs = 0;
		if (!d || d->bad || q->all_bad)
			continue;
		f->qdisc = d->total;
		if (!dump_ok) {
			f->qdisc.valid = 0;	/* this tick is unknown; the sums wait */
			continue;
		}
		if (d->cap_out < d->n_slot)
			continue;	/* out of memory for the list: it is unknown */
		for (size_t k = 0; k < d->n_slot; k++)
			d->out[k] = d->slot[k].snap;
		f->qdiscs = d->out;
		f->n_qdiscs = d->n_slot;
	}
}

int lr_qdiscsrc_feed(struct lr_qdiscsrc *q, const struct lr_qdisc_stats *qd, size_t n, int err,
		     uint64_t now_ns, bool first, struct lr_snapshot *w)
{
	int rc = 0;

	if (!err)
		rc = feed_dump(q, qd, n, now_ns, w);
	if (!first)
		publish(q, !err, w);
	return rc;
}

void lr_qdiscsrc_tick(struct lr_qdiscsrc *q, struct lr_nllink *nl, uint64_t now_ns, bool first,
		      struct lr_snapshot *w)
{
	size_t n = 0;
	int err;

	if (!q)
		return;
	err = lr_qdisc_read(nl, q->buf, q->cap, &n);
	if (!err && n > q->cap) {	/* more qdiscs than room: grow once, read again */
		if (lr_array_grow(&q->buf, &q->cap, n * 2, sizeof(*q->buf)))
			err = -ENOMEM;
		else
			err = lr_qdisc_read(nl, q->buf, q->cap, &n);
		if (!err && n > q->cap)
			err = -EAGAIN;	/* grew again meanwhile: next tick */
	}
	if (err)
		lr_log(LR_LOG_DEBUG, "qdisc dump: %s", strerror(-err));
	if (lr_qdiscsrc_feed(q, q->buf, n, err, now_ns, first, w))
		lr_log(LR_LOG_WARN, "qdisc: out of memory: some qdisc figures are unknown");
}
