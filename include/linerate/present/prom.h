/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Prometheus exposition (docs/design.md §13): snapshots in, the text format or
 * OpenMetrics out. The exporter keeps one 64-bit counter per series that starts from the
 * kernel's cumulative value when first seen and then only grows by what the kernel counted:
 * a kernel reset, a 32-bit wrap, an interface deleted and re-created under the same name, a
 * restarted traffic test or a missed snapshot never makes a `_total` go backwards between two
 * scrapes. A counter the source lacks is left out, never written as 0. Not thread-safe: the
 * caller locks. [any] */
#ifndef LINERATE_PROM_H
#define LINERATE_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

struct lr_snapshot;
struct lr_prom;	/* opaque: the series and their counters */

enum lr_prom_format {
	LR_PROM_TEXT,		/* text/plain; version=0.0.4 */
	LR_PROM_OPENMETRICS,	/* application/openmetrics-text; version=1.0.0 */
};

/* A growing output buffer; oom set once a write could not grow it (the text is then cut). */
struct lr_prom_buf {
	char *p;
	size_t len, cap;
	bool oom;
};

int lr_prom_open(struct lr_prom **out) LR_MUST_CHECK;
void lr_prom_close(struct lr_prom *p);	/* NULL-safe */

/* Feeds one snapshot; pass every one read, in order (one missed is not lost: the counters
 * come from cumulative values). Interfaces absent from it are not rendered; their counters
 * are kept for LR_PROM_FORGET_NS in case the name comes back. 0 or -ENOMEM. */
#define LR_PROM_FORGET_NS (15 * 60 * LR_NSEC_PER_SEC)
int lr_prom_update(struct lr_prom *p, const struct lr_snapshot *s) LR_MUST_CHECK;

/* Feeds the peer view's newest snapshot (lr_peer_rx_snapshot: the peer's interfaces' sums,
 * its CPUs' rates) and its host name, after the local snapshot it came with. Its series are
 * rendered beside ours, labelled side="peer" and host, while it keeps coming. 0 or -ENOMEM. */
int lr_prom_update_peer(struct lr_prom *p, const struct lr_snapshot *peer, const char *host)
	LR_MUST_CHECK;

/* Renders every series of the last snapshot fed, appending to *b. 0 or -ENOMEM. */
int lr_prom_render(const struct lr_prom *p, enum lr_prom_format f, struct lr_prom_buf *b)
	LR_MUST_CHECK;

/* The format an HTTP Accept header asks for (NULL: text); the Content-Type to answer with. */
enum lr_prom_format lr_prom_negotiate(const char *accept);
const char *lr_prom_content_type(enum lr_prom_format f);

void lr_prom_buf_free(struct lr_prom_buf *b);	/* leaves an empty buffer */

/* A new exposition as the metrics endpoint's exporter (core/exporter.h): it negotiates the
 * format per request. 0 or -ENOMEM; the endpoint closes it. */
struct lr_exporter;
int lr_prom_exporter(struct lr_exporter *out) LR_MUST_CHECK;

#endif
