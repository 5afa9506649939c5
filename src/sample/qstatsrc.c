// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * qstats-get on the sampler tick: one dump for all devices, then per device a queue table fed
 * with cumulative readings. The reply buffer and the per-device tables grow only when a new
 * device or more queues appear; a device that leaves the dump is dropped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/qstats.h"
#include "linerate/core/array.h"
#include "linerate/core/log.h"
#include "linerate/sample/qstatsrc.h"
#include "linerate/sample/queuetab.h"
#include "linerate/sample/snapshot.h"

struct dev {
	int ifindex;
	bool seen;
	struct lr_queuetab *tab;
};

struct lr_qstatsrc {
	struct lr_qstats *qs;
	struct lr_qstat *buf;
	size_t cap;
	struct dev *dev;
	size_t n_dev, cap_dev;
};

int lr_qstatsrc_open(struct lr_qstatsrc **out)
{
	struct lr_qstatsrc *q = calloc(1, sizeof(*q));
	size_t n;
	int rc;

	*out = NULL;
	if (!q)
		return -ENOMEM;
	rc = lr_qstats_open(&q->qs);
	if (!rc) {	/* a first dump tells whether this kernel has qstats-get at all */
		q->cap = 64;
		q->buf = calloc(q->cap, sizeof(*q->buf));
		rc = q->buf ? lr_qstats_read(q->qs, 0, q->buf, q->cap, &n) : -ENOMEM;
	}
	if (rc) {
		lr_qstatsrc_close(q);
		return rc;
	}
	*out = q;
	return 0;
}

void lr_qstatsrc_close(struct lr_qstatsrc *q)
{
	if (!q)
		return;
	for (size_t i = 0; i < q->n_dev; i++)
		lr_queuetab_free(q->dev[i].tab);
	free(q->dev);
	free(q->buf);
	lr_qstats_close(q->qs);
	free(q);
}

static struct dev *dev_get(struct lr_qstatsrc *q, int ifindex)
{
	for (size_t i = 0; i < q->n_dev; i++)
		if (q->dev[i].ifindex == ifindex)
			return &q->dev[i];
	if (lr_array_grow(&q->dev, &q->cap_dev, q->n_dev + 1, sizeof(*q->dev)))
		return NULL;
	q->dev[q->n_dev] = (struct dev){ .ifindex = ifindex, .tab = lr_queuetab_new() };
	if (!q->dev[q->n_dev].tab)
		return NULL;
	return &q->dev[q->n_dev++];
}

static int feed(struct lr_queuetab *t, const struct lr_qstat *s)
{
	static const uint32_t rx[LR_QS__COUNT] = {
		[LR_QS_PACKETS] = LR_QV_RX_PACKETS, [LR_QS_BYTES] = LR_QV_RX_BYTES,
		[LR_QS_HW_DROPS] = LR_QV_RX_DROPS,
	};
	static const uint32_t tx[LR_QS__COUNT] = {
		[LR_QS_PACKETS] = LR_QV_TX_PACKETS, [LR_QS_BYTES] = LR_QV_TX_BYTES,
		[LR_QS_HW_DROPS] = LR_QV_TX_DROPS,
	};
	const uint32_t *bits = s->dir == LR_QDIR_RX ? rx : tx;
	int rc = 0;

	for (unsigned f = 0; f < LR_QS__COUNT && !rc; f++)
		if (bits[f] && (s->valid & LR_QS_BIT(f)))
			rc = lr_queuetab_add_cumulative(t, s->queue, bits[f], s->v[f]);
	return rc;
}

static int read_all(struct lr_qstatsrc *q, size_t *n)
{
	int rc = lr_qstats_read(q->qs, 0, q->buf, q->cap, n);

	if (!rc && *n > q->cap) {	/* more queues than room: grow once, read again */
		if (lr_array_grow(&q->buf, &q->cap, *n * 2, sizeof(*q->buf)))
			return -ENOMEM;
		rc = lr_qstats_read(q->qs, 0, q->buf, q->cap, n);
		if (*n > q->cap)
			*n = q->cap;
	}
	return rc;
}

void lr_qstatsrc_tick(struct lr_qstatsrc *q, uint64_t now_ns, uint64_t dt_ns, bool first,
		      struct lr_snapshot *w)
{
	size_t n = 0;
	int rc;

	if (!q)
		return;
	rc = read_all(q, &n);
	for (size_t i = 0; i < q->n_dev; i++) {
		q->dev[i].seen = false;
		lr_queuetab_begin(q->dev[i].tab);
		if (rc)
			lr_queuetab_forget(q->dev[i].tab);
	}
	if (rc) {
		lr_log(LR_LOG_DEBUG, "qstats: %s", strerror(-rc));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct dev *d = dev_get(q, q->buf[i].ifindex);

		if (!d || feed(d->tab, &q->buf[i]))
			continue;	/* out of memory: that queue is unknown this tick */
		d->seen = true;
	}
	for (size_t i = 0; i < q->n_dev;) {	/* devices gone from the dump */
		if (q->dev[i].seen) {
			i++;
			continue;
		}
		lr_queuetab_free(q->dev[i].tab);
		q->dev[i] = q->dev[--q->n_dev];
	}
	if (first)
		return;
	for (size_t i = 0; i < w->n_ifaces; i++)
		for (size_t k = 0; k < q->n_dev; k++)
			if (q->dev[k].ifindex == w->ifaces[i].ifindex) {
				lr_queuetab_publish(q->dev[k].tab, now_ns, dt_ns, &w->ifaces[i]);
				w->ifaces[i].queue_source = LR_QSRC_QSTATS;
			}
}
