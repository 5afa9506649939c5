/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The peer view's two ends in the app (docs/wire.md (part 2), docs/design.md §10): the server streams
 * its own sampler's snapshots as frames through the traffic layer's generic hooks; the client
 * reads them on a thread of its own and turns the newest into peer rows on the local clock.
 * The glue between traffic/ (negotiation, codec) and sample/ (the sampler). [main] */
#ifndef LINERATE_PEER_H
#define LINERATE_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "linerate/collect/metrics.h"
#include "linerate/core/common.h"
#include "linerate/traffic/peer_wire.h"
#include "linerate/traffic/traffic.h"

struct lr_snapshot;

/* ---- server: `linerate -s` ---- */

struct lr_peer_server; /* opaque: one sampler + one sender thread per offered test */

/* 0 or -ENOMEM. The hooks stay valid until close; close after lr_server_close. */
int lr_peer_server_open(struct lr_peer_server **out) LR_MUST_CHECK;
const struct lr_server_peer_hooks *lr_peer_server_hooks(struct lr_peer_server *ps);
void lr_peer_server_close(struct lr_peer_server *ps); /* NULL-safe; ends a test's sampling */

/* ---- client ---- */

struct lr_peer_rx; /* opaque: the channel, its reader thread, the newest frame */

/* [main] Connects to the offered channel on a thread of its own (returns at once). 0 or -errno. */
int lr_peer_rx_open(struct lr_peer_rx **out, const struct lr_client_peer *offer) LR_MUST_CHECK;
/* [main] Builds the peer's snapshot from the newest frame not yet used, for the rows of the
 * local snapshot `local` (its time and elapsed); interface sums and CPU percentages run from
 * the previous frame used, so a late or lost frame is folded in. 1 built (host filled), 0
 * nothing new, -ENOMEM. *out is caller-owned (lr_snapshot_init/free). */
int lr_peer_rx_build(struct lr_peer_rx *rx, const struct lr_snapshot *local,
		     struct lr_snapshot *out, char *host, size_t hostlen) LR_MUST_CHECK;
/* [main] lr_peer_rx_build into rx's own snapshot and, when there was a new frame, its rows
 * into rec (side=peer; rec NULL: no rows). 0 (also for rx NULL), or -errno with err set. */
struct lr_recorder;
int lr_peer_rx_record(struct lr_peer_rx *rx, struct lr_recorder *rec,
		      const struct lr_snapshot *local, char *err, size_t errlen) LR_MUST_CHECK;
/* [main] Waits up to timeout_ns for the server's last frame (or the channel's end). true
 * when the channel has ended. */
bool lr_peer_rx_wait_end(struct lr_peer_rx *rx, uint64_t timeout_ns);
/* [any] How long no frame has come (ns) once that is past the stale bound (3 of the peer's
 * intervals, at least 2 s), else 0; 0 also after the server's last frame. */
uint64_t lr_peer_rx_stale_ns(struct lr_peer_rx *rx, uint64_t now_ns);
/* [any] Frames accepted so far; the reason the channel ended ("" while it runs / ended well). */
uint64_t lr_peer_rx_frames(struct lr_peer_rx *rx);
void lr_peer_rx_close(struct lr_peer_rx *rx); /* NULL-safe; joins the thread (< 200 ms) */

struct lr_peer_summary;
/* [main] 0, or -ENODATA before the first frame. */
int lr_peer_rx_summary(struct lr_peer_rx *rx, struct lr_peer_summary *out) LR_MUST_CHECK;
/* [main] The peer's newest snapshot built by lr_peer_rx_record (rates over its own interval,
 * for the views), NULL before the first; *host its name. Valid until the next record/close. */
const struct lr_snapshot *lr_peer_rx_snapshot(const struct lr_peer_rx *rx, const char **host);

/* The sampler metric a wire counter carries. */
enum lr_metric lr_peer_ctr_metric(enum lr_peer_ctr c);

#endif
