// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interface table (sampler thread only). Holds, per interface, the previous raw
 * counters and everything derived from them, and turns one tick's raw readings into the
 * snapshot's interfaces: wrap/reset-safe deltas over the measured interval, stale-aware
 * rates, totals, peaks and graph history. Driver counters live in drvstats.c. Entries are
 * heap objects sorted by name; they are created and freed only when interfaces come and go.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/drvstats.h"
#include "linerate/sample/iftable.h"
#include "linerate/core/array.h"
#include "linerate/core/log.h"
#include "linerate/collect/nllink.h"
#include "linerate/sample/rate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "linerate/core/sysio.h"

#define GAUGES_EVERY_NS (5 * LR_NSEC_PER_SEC)	/* speed, rings, IRQ map: slow-changing */
#define MAX_FILTER 64

struct ifent {
	struct lr_iface_snap s;	/* the published part; s.moved/s.serving_cpus owned here */
	uint64_t raw[LR_M__COUNT];
	uint64_t raw_valid;
	bool fresh;		/* counters arrived this tick */
	uint64_t prev[LR_M__COUNT];
	uint64_t prev_valid;
	bool have_prev;
	struct lr_stale stale[LR_M__COUNT];
	bool link_seen;
	uint64_t gauges_due_ns;
	struct lr_drvstats *drv;
	/* peak folding: a tick shorter than SLIVER_FRAC of the last peak's span (a stop tick, an
	 * early wake) has no honest per-second rate; its counts wait for the next tick's peak */
	double pk_carry[LR_SER__COUNT];
	uint64_t pk_carry_ns, pk_ref_ns;
};

#define SLIVER_FRAC 0.25	/* as the report's LR_REP_SLIVER_FRAC */

struct lr_iftable {
	struct lr_iftable_opts o;
	struct ifent **ent;	/* sorted by name */
	size_t n, cap;
	struct lr_iface_snap *out;
	size_t out_cap;
	char only[MAX_FILTER][LR_IFNAMSIZ];
	size_t n_only;
};

static bool wanted(const struct lr_iftable *t, const char *name)
{
	if (!t->n_only)
		return true;
	for (size_t i = 0; i < t->n_only; i++)
		if (!strcmp(t->only[i], name))
			return true;
	return false;
}

int lr_iftable_open(struct lr_iftable **out, const struct lr_iftable_opts *opts)
{
	struct lr_iftable *t = calloc(1, sizeof(*t));
	const char *p;

	if (!t)
		return -ENOMEM;
	t->o = *opts;
	for (p = opts->only; p && *p;) {
		size_t len = strcspn(p, ",");

		if (len && len < LR_IFNAMSIZ && t->n_only < MAX_FILTER) {
			memcpy(t->only[t->n_only], p, len);
			t->only[t->n_only++][len] = '\0';
		}
		p += len + (p[len] == ',');
	}
	t->o.only = NULL;	/* copied above; the caller's string need not outlive us */
	*out = t;
	return 0;
}

static void ent_free(struct ifent *e)
{
	if (!e)
		return;
	lr_drvstats_close(e->drv);
	free(e->s.serving_cpus);
	free(e);
}

void lr_iftable_close(struct lr_iftable *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		ent_free(t->ent[i]);
	free(t->ent);
	free(t->out);
	free(t);
}

static int cmp_ent(const void *e, const void *name)
{
	return strcmp((*(struct ifent *const *)e)->s.name, name);
}

static size_t find_pos(const struct lr_iftable *t, const char *name, bool *found)
{
	return lr_array_find(t->ent, t->n, sizeof(*t->ent), name, cmp_ent, found);
}

static struct ifent *find_ifindex(const struct lr_iftable *t, int ifindex)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->ent[i]->s.ifindex == ifindex)
			return t->ent[i];
	return NULL;
}

static void ent_reset_generation(struct ifent *e, int ifindex)
{
	uint32_t gen = e->s.generation + 1;

	e->s.ifindex = ifindex;
	e->s.generation = gen;
	e->have_prev = false;
	e->prev_valid = 0;
	memset(e->stale, 0, sizeof(e->stale));
	memset(e->s.cum, 0, sizeof(e->s.cum));
	e->s.cum_valid = 0;
	e->s.base_ns = 0;
	lr_drvstats_close(e->drv);	/* another device now: re-open its driver view */
	e->drv = NULL;
	e->gauges_due_ns = 0;
}

static struct ifent *get_or_add(struct lr_iftable *t, const char *name, int ifindex)
{
	struct ifent *e;
	bool found;
	size_t pos = find_pos(t, name, &found);

	if (found) {
		e = t->ent[pos];
		if (ifindex > 0 && e->s.ifindex > 0 && e->s.ifindex != ifindex) {
			lr_log(LR_LOG_INFO, "%s re-created (ifindex %d -> %d)", name, e->s.ifindex,
			       ifindex);
			ent_reset_generation(e, ifindex);
		} else if (ifindex > 0) {
			e->s.ifindex = ifindex;
		}
		return e;
	}
	if (lr_array_grow(&t->ent, &t->cap, t->n + 1, sizeof(*t->ent)))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	lr_strlcpy(e->s.name, name, sizeof(e->s.name));
	e->s.ifindex = ifindex;
	e->s.mtu = e->s.speed_mbps = -1;
	e->s.duplex = -1;
	e->s.ring_rx = e->s.ring_rx_max = e->s.ring_tx = e->s.ring_tx_max = -1;
	e->s.softirq_max_pct = -1;
	e->s.softirq_cpu = -1;
	memmove(&t->ent[pos + 1], &t->ent[pos], (t->n - pos) * sizeof(*t->ent));
	t->ent[pos] = e;
	t->n++;
	return e;
}

static void remove_at(struct lr_iftable *t, size_t i)
{
	lr_log(LR_LOG_INFO, "%s is gone", t->ent[i]->s.name);
	ent_free(t->ent[i]);
	memmove(&t->ent[i], &t->ent[i + 1], (t->n - i - 1) * sizeof(*t->ent));
	t->n--;
}

void lr_iftable_links_begin(struct lr_iftable *t)
{
	for (size_t i = 0; i < t->n; i++)
		t->ent[i]->link_seen = false;
}

int lr_iftable_link(struct lr_iftable *t, const struct lr_link_info *info)
{
	struct ifent *e;

	if (!wanted(t, info->name))
		return 0;
	e = get_or_add(t, info->name, info->ifindex);
	if (!e)
		return -ENOMEM;
	e->link_seen = true;
	lr_strlcpy(e->s.kind, info->kind, sizeof(e->s.kind));
	e->s.master_ifindex = info->master;
	e->s.mtu = info->mtu;
	if (e->s.operstate != info->operstate)
		e->gauges_due_ns = 0;	/* link went up/down: speed may have changed */
	e->s.operstate = info->operstate;
	return 0;
}

void lr_iftable_links_end(struct lr_iftable *t)
{
	for (size_t i = t->n; i-- > 0;)
		if (!t->ent[i]->link_seen)
			remove_at(t, i);
}

static void take_counters(struct ifent *e, const uint64_t *v, uint64_t valid)
{
	memcpy(e->raw, v, sizeof(e->raw));
	e->raw_valid = valid & LR_M_STATS64_MASK;
	e->fresh = true;
}

int lr_iftable_counters_by_ifindex(struct lr_iftable *t, const struct lr_link_counters *c)
{
	struct ifent *e = find_ifindex(t, c->ifindex);

	if (!e)
		return t->n_only ? 0 : -ENOENT;	/* filtered out, or a link we have not seen */
	take_counters(e, c->v, c->valid);
	return 0;
}

int lr_iftable_counters_by_name(struct lr_iftable *t, const char *name, const uint64_t *v,
				uint64_t valid)
{
	struct ifent *e;

	if (!wanted(t, name))
		return 0;
	e = get_or_add(t, name, 0);
	if (!e)
		return -ENOMEM;
	e->link_seen = true;
	take_counters(e, v, valid);
	return 0;
}

void lr_iftable_drop_unseen(struct lr_iftable *t)
{
	for (size_t i = t->n; i-- > 0;)
		if (!t->ent[i]->fresh)
			remove_at(t, i);
}

/* Proc source: what netlink would have told us, from /sys/class/net/IF. */
static void read_sysfs_gauges(const struct lr_iftable *t, struct ifent *e)
{
	static const char *const oper[] = {"unknown", "notpresent", "down", "lowerlayerdown",
					   "testing", "dormant", "up"};
	char path[128], buf[32];
	uint64_t v;

	snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", e->s.name);
	if (!lr_sysio_read_u64(t->o.io, path, &v) && e->s.ifindex > 0 && (int)v != e->s.ifindex)
		ent_reset_generation(e, (int)v);
	else if (!lr_sysio_read_u64(t->o.io, path, &v))
		e->s.ifindex = (int)v;
	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", e->s.name);
	e->s.mtu = lr_sysio_read_u64(t->o.io, path, &v) ? -1 : (int64_t)v;
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", e->s.name);
	if (t->o.io->read_file(t->o.io, path, buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		for (size_t i = 0; i < LR_ARRAY_SIZE(oper); i++)
			if (!strcmp(buf, oper[i]))
				e->s.operstate = (uint8_t)i;
	}
	if (!t->o.ethtool) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/speed", e->s.name);
		/* "-1" (unknown) fails the unsigned parse and stays -1 */
		e->s.speed_mbps = lr_sysio_read_u64(t->o.io, path, &v) || !v ? -1 : (int64_t)v;
		snprintf(path, sizeof(path), "/sys/class/net/%s/duplex", e->s.name);
		if (t->o.io->read_file(t->o.io, path, buf, sizeof(buf)) > 0)
			e->s.duplex = !strncmp(buf, "full", 4) ? 1 : !strncmp(buf, "half", 4) ? 0 : -1;
	}
}

struct lr_iftable_graph lr_iftable_graph(struct lr_iface_snap *s, enum lr_series_id ser)
{
	static const struct {
		enum lr_metric m;
		double mult;
	} map[LR_SER__COUNT] = {
		[LR_SER_RX_BPS] = {LR_M_RX_BYTES, 8},
		[LR_SER_TX_BPS] = {LR_M_TX_BYTES, 8},
		[LR_SER_RX_PPS] = {LR_M_RX_PACKETS, 1},
		[LR_SER_TX_PPS] = {LR_M_TX_PACKETS, 1},
	};
	struct lr_peak *const peaks[LR_SER__COUNT] = {
		[LR_SER_RX_BPS] = &s->peak_rx_bps,
		[LR_SER_TX_BPS] = &s->peak_tx_bps,
		[LR_SER_RX_PPS] = &s->peak_rx_pps,
		[LR_SER_TX_PPS] = &s->peak_tx_pps,
	};

	return (struct lr_iftable_graph){map[ser].m, map[ser].mult, peaks[ser]};
}

void lr_iftable_snap_reset_totals(struct lr_iface_snap *s)
{
	memset(s->total, 0, sizeof(s->total));
	s->total_valid = 0;
	for (unsigned i = 0; i < LR_SER__COUNT; i++)
		memset(lr_iftable_graph(s, (enum lr_series_id)i).peak, 0, sizeof(struct lr_peak));
}

static void update_derived(struct ifent *e, bool history)
{
	struct lr_iface_snap *s = &e->s;
	uint64_t span = e->pk_carry_ns + s->interval_ns;
	bool sliver = (double)span < SLIVER_FRAC * (double)e->pk_ref_ns;

	for (unsigned i = 0; i < LR_SER__COUNT; i++) {
		struct lr_iftable_graph g = lr_iftable_graph(s, (enum lr_series_id)i);
		bool ok = s->valid & LR_M_BIT(g.m);
		double v = s->per_s[g.m] * g.mult;
		double count = (double)s->delta[g.m] * g.mult;

		if (history)
			lr_series_push(&s->hist[i], ok ? (float)v : NAN);
		if (!ok)
			continue;
		if (sliver)
			e->pk_carry[i] += count;
		else if (e->pk_carry_ns && span)
			lr_peak_add(g.peak, (count + e->pk_carry[i]) * 1e9 / (double)span);
		else
			lr_peak_add(g.peak, v);
	}
	if (sliver) {
		e->pk_carry_ns = span;
	} else {
		memset(e->pk_carry, 0, sizeof(e->pk_carry));
		e->pk_carry_ns = 0;
		e->pk_ref_ns = span;
	}
}

/* Deltas of the stats64 counters (and the driver sums) into e->s for this tick. */
static void compute(struct ifent *e, uint64_t now_ns, uint64_t dt_ns, bool history)
{
	struct lr_iface_snap *s = &e->s;
	uint64_t known = 0;

	s->valid = s->stale = 0;
	memset(s->delta, 0, sizeof(s->delta));
	memset(s->per_s, 0, sizeof(s->per_s));
	s->interval_ns = dt_ns;
	if (e->fresh && e->have_prev) {
		for (unsigned m = 0; m < LR_M_NIC_FIFO; m++) {
			uint64_t d;

			if (!(e->raw_valid & e->prev_valid & LR_M_BIT(m)))
				continue;
			/* stats64 are 64-bit: going backwards is a reset, never a wrap */
			if (!lr_rate_delta(e->prev[m], e->raw[m], 64, &d))
				continue;
			s->delta[m] = d;
			known |= LR_M_BIT(m);
		}
	}
	if (e->drv)
		known |= lr_drvstats_sums(e->drv, s->delta);
	for (unsigned m = 0; m < LR_M__COUNT; m++) {
		if (!(known & LR_M_BIT(m)))
			continue;
		if (lr_stale_update(&e->stale[m], s->delta[m], now_ns, dt_ns, &s->per_s[m]))
			s->stale |= LR_M_BIT(m);
		s->total[m] += s->delta[m];
		s->cum[m] += s->delta[m];
	}
	s->valid = known;
	s->total_valid |= known;
	s->cum_valid |= known;
	if (e->fresh) {
		if (!e->have_prev)
			s->base_ns = now_ns;
		memcpy(e->prev, e->raw, sizeof(e->prev));
		e->prev_valid = e->raw_valid;
		e->have_prev = true;
	}
	update_derived(e, history);
}

static int grow_out(struct lr_iftable *t)
{
	return lr_array_grow_zero(&t->out, &t->out_cap, t->n, sizeof(*t->out));
}

int lr_iftable_finish(struct lr_iftable *t, uint64_t now_ns, uint64_t dt_ns, bool first,
		      struct lr_snapshot *snap)
{
	int err = grow_out(t);

	if (err)
		return err;
	for (size_t i = 0; i < t->n; i++) {
		struct ifent *e = t->ent[i];

		if (now_ns >= e->gauges_due_ns) {
			e->gauges_due_ns = now_ns + GAUGES_EVERY_NS;
			if (t->o.sysfs_gauges)
				read_sysfs_gauges(t, e);
			if (t->o.ethtool && !e->drv)
				e->drv = lr_drvstats_open(e->s.name, t->o.io);
			if (e->drv)
				lr_drvstats_info(e->drv, &e->s);
		}
		if (e->drv)
			lr_drvstats_read(e->drv, e->have_prev && !first, now_ns, dt_ns, &e->s);
		if (!first)
			compute(e, now_ns, dt_ns, t->o.history);
		else if (e->fresh) {
			memcpy(e->prev, e->raw, sizeof(e->prev));
			e->prev_valid = e->raw_valid;
			e->have_prev = true;
			e->s.base_ns = now_ns;
		}
		e->fresh = false;
		memcpy(e->s.raw, e->raw, sizeof(e->s.raw));
		e->s.raw_valid = e->raw_valid;
		lr_iface_snap_assign(&t->out[i], &e->s);
	}
	snap->ifaces = t->out;
	snap->n_ifaces = t->n;
	return 0;
}

void lr_iftable_reset_totals(struct lr_iftable *t)
{
	for (size_t i = 0; i < t->n; i++) {
		lr_iftable_snap_reset_totals(&t->ent[i]->s);
		if (t->ent[i]->drv)
			lr_drvstats_reset(t->ent[i]->drv, &t->ent[i]->s);
	}
}

const char *lr_iftable_name(const struct lr_iftable *t, size_t i)
{
	return i < t->n ? t->ent[i]->s.name : NULL;
}

int lr_iftable_set_serving(struct lr_iftable *t, const char *name, const int *cpus, size_t n)
{
	bool found;
	size_t pos = find_pos(t, name, &found);
	struct lr_iface_snap *s;

	if (!found)
		return -ENOENT;
	s = &t->ent[pos]->s;
	if (lr_array_grow(&s->serving_cpus, &s->cap_serving, n, sizeof(*s->serving_cpus)))
		return -ENOMEM;
	if (n)
		memcpy(s->serving_cpus, cpus, n * sizeof(*cpus));
	s->n_serving_cpus = n;
	return 0;
}

int lr_iftable_set_numa_node(struct lr_iftable *t, const char *name, int node)
{
	bool found;
	size_t pos = find_pos(t, name, &found);

	if (!found)
		return -ENOENT;
	t->ent[pos]->s.numa_node = node;
	t->ent[pos]->s.numa_known = node >= 0;
	return 0;
}

size_t lr_iftable_missing(const struct lr_iftable *t, char *first, size_t len)
{
	size_t missing = 0;

	for (size_t i = 0; i < t->n_only; i++) {
		bool found;

		find_pos(t, t->only[i], &found);
		if (found)
			continue;
		if (!missing++)
			lr_strlcpy(first, t->only[i], len);
	}
	return missing;
}
