/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The seam between the metrics endpoint (run/metrics_http.h: an HTTP daemon, connection
 * limits, locking) and the format it serves (present/prom.h: the Prometheus exposition). The
 * endpoint feeds snapshots in and asks for a body per request without knowing the format;
 * the exporter never sees a socket. Calls come under the endpoint's lock: an exporter need
 * not be thread-safe. [any] */
#ifndef LINERATE_EXPORTER_H
#define LINERATE_EXPORTER_H

#include <stddef.h>

struct lr_snapshot;

/* One response: p is malloc'd and the caller's (NULL: an empty body); content_type static. */
struct lr_exporter_body {
	char *p;
	size_t len;
	const char *content_type;
};

struct lr_exporter_ops {
	/* every snapshot read, in order; 0 or -ENOMEM */
	int (*update)(void *ctx, const struct lr_snapshot *s);
	/* the peer view's newest snapshot and host, after the local one it came with */
	int (*update_peer)(void *ctx, const struct lr_snapshot *peer, const char *host);
	/* the body for a request whose Accept header is accept (NULL none); 0 or -ENOMEM */
	int (*render)(void *ctx, const char *accept, struct lr_exporter_body *out);
	void (*close)(void *ctx);
};

struct lr_exporter {
	const struct lr_exporter_ops *ops;
	void *ctx;
};

#endif
