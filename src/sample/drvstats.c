// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Driver counters of one interface, on the sampler thread. Wraps the ethtool collector:
 * keeps the previous GSTATS values, takes reset-safe deltas per counter, sums them by
 * category and lists the fifo/drop/error/pause counters that moved. Buffers are sized when
 * the driver's names are (re)loaded, so a steady tick does not allocate.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/drvstats.h"
#include "linerate/collect/ethtool.h"
#include "linerate/collect/queue_names.h"
#include "linerate/sample/queuetab.h"
#include "linerate/core/log.h"
#include "linerate/sample/rate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"

struct lr_drvstats {
	char ifname[LR_IFNAMSIZ];
	struct lr_ethtool *et;	/* NULL when ethtool is unavailable for this interface */
	int open_err;
	uint32_t n;		/* counters the buffers below are sized for */
	uint64_t *prev;
	uint64_t *total;	/* since start or reset */
	uint64_t *delta;	/* this tick */
	bool have_prev;
	bool tick_valid;	/* delta[] is meaningful this tick */
	struct lr_drv_counter *moved;	/* capacity n */
	size_t n_moved;
	bool has_cat[LR_CAT__COUNT];	/* the driver exports this category at all */
	bool has_total[LR_CAT__COUNT];	/* ... and a non-per-queue counter of it */
	const struct lr_queue_names *qn;	/* the shared rules, held once names needed them */
	struct qmap *qmap;	/* per-queue counters of the queue table (docs/design.md §12) */
	uint32_t n_qmap;
	struct lr_queuetab *queues;
};

struct qmap {	/* counter `stat` adds to field `bit` (LR_QV_*) of queue `queue` */
	uint32_t stat;
	unsigned queue;
	uint32_t bit;
};

/* One compiled set of queue-name rules for every interface of the process: compiling them
 * (regcomp) per interface cost thousands of allocations at start with many interfaces. The
 * rules are read-only once open, so any sampler thread parses with them; the last holder
 * closes them. */
static pthread_mutex_t qn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lr_queue_names *qn_shared;
static unsigned qn_refs;

static const struct lr_queue_names *qn_hold(void)
{
	const struct lr_queue_names *qn;

	pthread_mutex_lock(&qn_lock);
	if (!qn_shared && lr_queue_names_open(&qn_shared))
		qn_shared = NULL;
	if (qn_shared)
		qn_refs++;
	qn = qn_shared;
	pthread_mutex_unlock(&qn_lock);
	return qn;
}

static void qn_release(void)
{
	pthread_mutex_lock(&qn_lock);
	if (qn_refs && !--qn_refs) {
		lr_queue_names_close(qn_shared);
		qn_shared = NULL;
	}
	pthread_mutex_unlock(&qn_lock);
}

static const enum lr_metric cat_metric[LR_CAT__COUNT] = {
	[LR_CAT_FIFO] = LR_M_NIC_FIFO,
	[LR_CAT_DROP] = LR_M_NIC_DROP,
	[LR_CAT_ERROR] = LR_M_NIC_ERROR,
	[LR_CAT_PAUSE] = LR_M_NIC_PAUSE,
	[LR_CAT_TRAFFIC] = LR_M__COUNT,
	[LR_CAT_OTHER] = LR_M__COUNT,
};

static void free_bufs(struct lr_drvstats *d)
{
	free(d->prev);
	free(d->total);
	free(d->delta);
	free(d->moved);
	free(d->qmap);
	d->prev = d->total = d->delta = NULL;
	d->moved = NULL;
	d->qmap = NULL;
	d->n = 0;
	d->n_moved = 0;
	d->n_qmap = 0;
}

static uint32_t queue_bit(enum lr_queue_dir dir, enum lr_queue_metric m)
{
	bool rx = dir == LR_QDIR_RX;

	switch (m) {
	case LR_QM_PACKETS: return rx ? LR_QV_RX_PACKETS : LR_QV_TX_PACKETS;
	case LR_QM_BYTES: return rx ? LR_QV_RX_BYTES : LR_QV_TX_BYTES;
	case LR_QM_DROPS: return rx ? LR_QV_RX_DROPS : LR_QV_TX_DROPS;
	default: return 0;
	}
}

/* whether qmap[0..upto) already feeds that field of that queue */
static bool mapped(const struct lr_drvstats *d, uint32_t upto, unsigned queue, uint32_t bit)
{
	for (uint32_t k = 0; k < upto; k++)
		if (d->qmap[k].queue == queue && d->qmap[k].bit == bit)
			return true;
	return false;
}

/* Which counters feed the queue table: plain totals first ("rx3_packets"), then the
 * unicast/multicast/broadcast parts of a queue that has no plain total (bnxt). Names are
 * parsed here, each once, once per counter-set change, never per tick. */
static int map_queues(struct lr_drvstats *d)
{
	struct cand {
		struct qmap q;
		bool cast;
	} *c;
	uint32_t n_c = 0;
	struct lr_queue_name q;

	d->n_qmap = 0;
	if (!d->qn)
		d->qn = qn_hold();
	if (!d->qn)
		return -ENOMEM;
	d->qmap = calloc(d->n, sizeof(*d->qmap));
	c = calloc(d->n, sizeof(*c));
	if (!d->qmap || !c) {
		free(c);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < d->n; i++) {
		bool cast;
		uint32_t bit;

		if (!lr_queue_name_parse(d->qn, lr_ethtool_stat_name(d->et, i), &q) ||
		    q.dir == LR_QDIR_NONE)
			continue;
		bit = queue_bit(q.dir, lr_queue_metric_of(q.metric, &cast));
		if (bit)
			c[n_c++] = (struct cand){{.stat = i, .queue = q.queue, .bit = bit}, cast};
	}
	for (int pass = 0; pass < 2; pass++) {
		uint32_t n_plain = d->n_qmap;

		for (uint32_t k = 0; k < n_c; k++) {
			if (c[k].cast != (pass == 1))
				continue;
			/* pass 1: a part, only where no plain total was mapped; pass 0: two
			 * spellings of one total count once */
			if (mapped(d, pass == 1 ? n_plain : d->n_qmap, c[k].q.queue, c[k].q.bit))
				continue;
			d->qmap[d->n_qmap++] = c[k].q;
		}
	}
	free(c);
	if (d->n_qmap && !d->queues)
		d->queues = lr_queuetab_new();
	return d->n_qmap && !d->queues ? -ENOMEM : 0;
}

/* (Re)sizes the buffers for the driver's current names; totals restart. */
static int load_names(struct lr_drvstats *d)
{
	uint32_t n = lr_ethtool_n_stats(d->et);

	free_bufs(d);
	memset(d->has_cat, 0, sizeof(d->has_cat));
	memset(d->has_total, 0, sizeof(d->has_total));
	d->have_prev = false;
	if (!n)
		return 0;
	d->prev = calloc(n, sizeof(*d->prev));
	d->total = calloc(n, sizeof(*d->total));
	d->delta = calloc(n, sizeof(*d->delta));
	d->moved = calloc(n, sizeof(*d->moved));
	if (!d->prev || !d->total || !d->delta || !d->moved) {
		free_bufs(d);
		return -ENOMEM;
	}
	d->n = n;
	for (uint32_t i = 0; i < n; i++) {
		struct lr_counter_class c = lr_ethtool_stat_class(d->et, i);

		d->has_cat[c.cat] = true;
		if (!c.per_queue)
			d->has_total[c.cat] = true;
	}
	return map_queues(d);
}

struct lr_drvstats *lr_drvstats_open(const char *ifname, const struct lr_sysio *io)
{
	struct lr_drvstats *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	lr_strlcpy(d->ifname, ifname, sizeof(d->ifname));
	d->open_err = lr_ethtool_open(&d->et, ifname, io);
	if (d->open_err) {
		d->et = NULL;
		lr_log(LR_LOG_INFO, "%s: no driver statistics (%s)", ifname, strerror(-d->open_err));
		return d;
	}
	if (load_names(d))
		lr_log(LR_LOG_WARN, "%s: out of memory for driver counters", ifname);
	return d;
}

void lr_drvstats_close(struct lr_drvstats *d)
{
	if (!d)
		return;
	lr_ethtool_close(d->et);
	free_bufs(d);
	lr_queuetab_free(d->queues);
	if (d->qn)
		qn_release();
	free(d);
}

void lr_drvstats_info(struct lr_drvstats *d, struct lr_iface_snap *s)
{
	struct lr_ethtool_info info;

	if (!d->et) {
		s->ethtool_err = d->open_err;
		return;
	}
	if (lr_ethtool_read_info(d->et, &info))
		return;
	s->speed_mbps = info.speed_mbps;
	s->duplex = info.duplex;
	lr_strlcpy(s->driver, info.driver, sizeof(s->driver));
	lr_strlcpy(s->driver_version, info.version, sizeof(s->driver_version));
	lr_strlcpy(s->fw_version, info.fw_version, sizeof(s->fw_version));
	lr_strlcpy(s->bus_info, info.bus_info, sizeof(s->bus_info));
	s->ring_rx = info.ring_rx;
	s->ring_rx_max = info.ring_rx_max;
	s->ring_tx = info.ring_tx;
	s->ring_tx_max = info.ring_tx_max;
	s->features = info.features;
	s->features_known = info.features_known;
}

static void list_moved(struct lr_drvstats *d, uint64_t dt_ns)
{
	d->n_moved = 0;
	for (uint32_t i = 0; i < d->n; i++) {
		struct lr_counter_class c = lr_ethtool_stat_class(d->et, i);
		struct lr_drv_counter *m;

		if (c.cat == LR_CAT_TRAFFIC || c.cat == LR_CAT_OTHER || !d->total[i])
			continue;
		m = &d->moved[d->n_moved++];
		lr_strlcpy(m->name, lr_ethtool_stat_name(d->et, i), sizeof(m->name));
		m->cat = c.cat;
		m->per_queue = c.per_queue;
		m->delta = d->tick_valid ? d->delta[i] : 0;
		m->total = d->total[i];
		m->per_s = lr_rate_per_sec(m->delta, dt_ns);
	}
}

static void publish_queues(struct lr_drvstats *d, uint64_t now_ns, uint64_t dt_ns,
			   struct lr_iface_snap *s)
{
	s->queue_source = LR_QSRC_NONE;
	s->n_queues = 0;
	if (!d->n_qmap || !d->queues || !d->tick_valid)
		return;
	lr_queuetab_begin(d->queues);
	for (uint32_t k = 0; k < d->n_qmap; k++)
		if (lr_queuetab_add(d->queues, d->qmap[k].queue, d->qmap[k].bit,
				    d->delta[d->qmap[k].stat]))
			return;	/* out of memory: no queue view this tick */
	lr_queuetab_publish(d->queues, now_ns, dt_ns, s);
	s->queue_source = LR_QSRC_ETHTOOL;
}

void lr_drvstats_read(struct lr_drvstats *d, bool have_prev, uint64_t now_ns, uint64_t dt_ns,
		      struct lr_iface_snap *s)
{
	const uint64_t *v;
	bool changed = false;
	int err;

	d->tick_valid = false;
	if (!d->et) {
		s->ethtool_err = d->open_err;
		return;
	}
	err = lr_ethtool_read_stats(d->et, &changed);
	s->ethtool_err = err;
	if (err) {
		d->have_prev = false;
		return;
	}
	if (changed || lr_ethtool_n_stats(d->et) != d->n) {
		lr_log(LR_LOG_INFO, "%s: driver counter set changed (%u counters)", d->ifname,
		       lr_ethtool_n_stats(d->et));
		if (load_names(d))
			return;
	}
	v = lr_ethtool_stat_values(d->et);
	if (d->have_prev && have_prev) {
		for (uint32_t i = 0; i < d->n; i++) {
			uint64_t delta = 0;

			/* a counter that went back was reset: drop its interval */
			if (!lr_rate_delta(d->prev[i], v[i], 64, &delta))
				delta = 0;
			d->delta[i] = delta;
			d->total[i] += delta;
		}
		d->tick_valid = true;
	}
	if (d->n)	/* memcpy(NULL, ..., 0) is undefined: prev is NULL with no counters */
		memcpy(d->prev, v, d->n * sizeof(*v));
	d->have_prev = true;
	list_moved(d, dt_ns);
	s->moved = d->moved;
	s->n_moved = d->n_moved;
	publish_queues(d, now_ns, dt_ns, s);
}

uint64_t lr_drvstats_sums(const struct lr_drvstats *d, uint64_t *delta)
{
	uint64_t valid = 0;

	if (!d->et || !d->tick_valid)
		return 0;
	for (unsigned c = 0; c < LR_CAT__COUNT; c++)
		if (cat_metric[c] < LR_M__COUNT && d->has_cat[c]) {
			delta[cat_metric[c]] = 0;
			valid |= LR_M_BIT(cat_metric[c]);
		}
	for (uint32_t i = 0; i < d->n; i++) {
		struct lr_counter_class c = lr_ethtool_stat_class(d->et, i);
		enum lr_metric m = cat_metric[c.cat];

		/* breakdowns of a total the driver also exports would count twice */
		if (m == LR_M__COUNT || (c.per_queue && d->has_total[c.cat]))
			continue;
		delta[m] += d->delta[i];
	}
	return valid;
}

void lr_drvstats_reset(struct lr_drvstats *d, struct lr_iface_snap *s)
{
	if (d->total)
		memset(d->total, 0, d->n * sizeof(*d->total));
	d->n_moved = 0;
	s->n_moved = 0;
}
