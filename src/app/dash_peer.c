// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The peer view as the dashboard shows it (docs/peer-stats.md): the peer's newest snapshot
 * with what the detail view's panes draw from and the wire does not carry — graph history,
 * peaks and totals per interface since the test began — kept here from the peer's own rows,
 * so its detail view is ours in the same panes and units. A new test starts afresh; the
 * display's pause freezes it as it freezes ours. Main thread.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/run/peer.h"
#include "linerate/sample/snapshot.h"

#include "dashboard_priv.h"

#define PEER_VIEW_IFACES 8

struct peer_iface_hist {
	char name[LR_IFNAMSIZ];
	uint32_t generation;
	struct lr_series hist[LR_SER__COUNT];
	struct lr_peak peak_rx_bps, peak_tx_bps, peak_rx_pps, peak_tx_pps;
	uint64_t total[LR_M__COUNT];
	uint64_t total_valid;
};

struct lr_dash_peer {
	const struct lr_peer_rx *rx; /* whose rows these are: another test starts afresh */
	uint64_t seq; /* the peer's snapshot last taken in */
	bool have;
	struct lr_snapshot snap; /* its newest, with the history below filled in */
	struct peer_iface_hist ifs[PEER_VIEW_IFACES];
	size_t n_ifs;
};

static struct peer_iface_hist *hist_of(struct lr_dash_peer *dp, const struct lr_iface_snap *is)
{
	for (size_t i = 0; i < dp->n_ifs; i++)
		if (!strcmp(dp->ifs[i].name, is->name) && dp->ifs[i].generation == is->generation)
			return &dp->ifs[i];
	if (dp->n_ifs == PEER_VIEW_IFACES)
		return NULL;
	memset(&dp->ifs[dp->n_ifs], 0, sizeof(dp->ifs[0]));
	memcpy(dp->ifs[dp->n_ifs].name, is->name, sizeof(is->name));
	dp->ifs[dp->n_ifs].generation = is->generation;
	return &dp->ifs[dp->n_ifs++];
}

static double rate(const struct lr_iface_snap *is, enum lr_metric m, double mul)
{
	return (is->valid & LR_M_BIT(m)) ? is->per_s[m] * mul : NAN;
}

/* One new peer row: history, peaks and totals, then copied into the row for the panes. */
static void take_in(struct lr_dash_peer *dp, struct lr_iface_snap *is)
{
	struct peer_iface_hist *h = hist_of(dp, is);
	double rx_bps = rate(is, LR_M_RX_BYTES, 8), tx_bps = rate(is, LR_M_TX_BYTES, 8);
	double rx_pps = rate(is, LR_M_RX_PACKETS, 1), tx_pps = rate(is, LR_M_TX_PACKETS, 1);

	if (!h)
		return;
	lr_series_push(&h->hist[LR_SER_RX_BPS], rx_bps);
	lr_series_push(&h->hist[LR_SER_TX_BPS], tx_bps);
	lr_series_push(&h->hist[LR_SER_RX_PPS], rx_pps);
	lr_series_push(&h->hist[LR_SER_TX_PPS], tx_pps);
	lr_peak_add(&h->peak_rx_bps, rx_bps);
	lr_peak_add(&h->peak_tx_bps, tx_bps);
	lr_peak_add(&h->peak_rx_pps, rx_pps);
	lr_peak_add(&h->peak_tx_pps, tx_pps);
	for (unsigned m = 0; m < LR_M__COUNT; m++)
		if (is->valid & LR_M_BIT(m)) {
			h->total[m] += is->delta[m];
			h->total_valid |= LR_M_BIT(m);
		}
	memcpy(is->hist, h->hist, sizeof(is->hist));
	is->peak_rx_bps = h->peak_rx_bps;
	is->peak_tx_bps = h->peak_tx_bps;
	is->peak_rx_pps = h->peak_rx_pps;
	is->peak_tx_pps = h->peak_tx_pps;
	memcpy(is->total, h->total, sizeof(is->total));
	is->total_valid = h->total_valid;
}

const struct lr_snapshot *lr_dash_peer_view(struct dash *d, const char **host)
{
	struct lr_dash_peer *dp = d->peer;
	const struct lr_peer_rx *rx = d->tr.ses.peer;
	const struct lr_snapshot *s = lr_peer_rx_snapshot(rx, host);

	if (!s)
		return NULL; /* no test, a plain iperf3, or nothing from the peer yet */
	if (!dp && !(dp = d->peer = calloc(1, sizeof(*dp))))
		return s; /* no memory: the panes without history */
	if (dp->rx != rx || s->seq < dp->seq) { /* another test: its own history */
		dp->rx = rx;
		dp->seq = 0;
		dp->n_ifs = 0;
		dp->have = false;
	}
	if (s->seq != dp->seq && !(d->app.paused && dp->have)) {
		if (lr_snapshot_copy(&dp->snap, s))
			return dp->have ? &dp->snap : s;
		dp->seq = s->seq;
		dp->have = true;
		for (size_t i = 0; i < dp->snap.n_ifaces; i++)
			take_in(dp, &dp->snap.ifaces[i]);
	}
	return dp->have ? &dp->snap : s;
}

void lr_dash_peer_free(struct dash *d)
{
	if (!d->peer)
		return;
	lr_snapshot_free(&d->peer->snap);
	free(d->peer);
	d->peer = NULL;
}
