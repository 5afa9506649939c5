/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --listen [ADDR:]PORT: the Prometheus endpoint (docs/design.md §13). A libmicrohttpd
 * daemon on its own thread serves GET /metrics (and / with a link) from the snapshots the
 * run loop publishes: a scrape reads no kernel file and never waits for the sampler. PORT
 * alone binds 127.0.0.1; ":PORT" or "[::]:PORT" bind every address, IPv4 and IPv6. [main] */
#ifndef LINERATE_METRICS_HTTP_H
#define LINERATE_METRICS_HTTP_H

#include <stddef.h>
#include <sys/socket.h>

#include "linerate/core/common.h"

struct lr_snapshot;
struct lr_metrics_http;	/* opaque: the daemon, the exporter and their lock */

/* Limits against clients that hold connections or send too much. At either connection
 * limit a new connection closes the least recently active one not being answered. */
#define LR_METRICS_MAX_CONNS	 256	/* in all */
#define LR_METRICS_MAX_PER_IP	 64
#define LR_METRICS_FIRST_WAIT_MS 5000	/* a scrape before the first sample waits, then 503 */
#define LR_METRICS_TIMEOUT_S	 10	/* a connection idle this long is closed */
#define LR_METRICS_REQUEST_BYTES 16384	/* request line + headers */

/* Parses a --listen value into *addr (its length in *len). 0, or -EINVAL with one line
 * naming the value in err. Resolves a host name (getaddrinfo). */
int lr_metrics_listen_parse(const char *spec, struct sockaddr_storage *addr, socklen_t *len,
			    char *err, size_t errlen) LR_MUST_CHECK;

/* Binds spec and starts the daemon thread serving what exp renders (taken over: closed with
 * the endpoint, or at once on failure). 0; -EINVAL for a bad value, another -errno when the
 * address cannot be bound (in use, not local): one line in err either way. */
struct lr_exporter;
int lr_metrics_http_open(struct lr_metrics_http **out, const char *spec,
			 const struct lr_exporter *exp, char *err, size_t errlen) LR_MUST_CHECK;
/* [main] Feeds a snapshot to the exporter (every one the run loop reads). Waits at most for
 * a render in progress (about 2 ms at 1152 CPUs), never for a client's network I/O.
 * 0 or -ENOMEM. */
int lr_metrics_http_publish(struct lr_metrics_http *m, const struct lr_snapshot *s)
	LR_MUST_CHECK;
/* [main] The peer view's newest snapshot (lr_peer_rx_snapshot; NULL: nothing) and host, after
 * the local one it came with: served labelled side="peer". The same snapshot again is a
 * no-op. 0 or -ENOMEM. */
int lr_metrics_http_publish_peer(struct lr_metrics_http *m, const struct lr_snapshot *peer,
				 const char *host) LR_MUST_CHECK;
/* Scrapes served so far (200 answers to /metrics). */
unsigned long lr_metrics_http_scrapes(const struct lr_metrics_http *m);
void lr_metrics_http_close(struct lr_metrics_http *m);	/* NULL-safe; joins the thread */

#endif
