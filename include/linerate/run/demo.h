/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --demo: an in-process iperf3-compatible server on 127.0.0.1 (the first free port of
 * 5201..5299) running on its own thread, and the traffic options a dashboard client uses
 * against it (TCP, 2 streams, 2 Gbit/s each unless the command line says otherwise), so a
 * newcomer sees live traffic on lo without root or a peer. [main] */
#ifndef LINERATE_DEMO_H
#define LINERATE_DEMO_H

#include <stdint.h>

#include "linerate/core/common.h"

struct lr_demo; /* opaque: the server and its thread */
struct lr_server_watch;
struct lr_traffic_config;

#define LR_DEMO_HOST	    "127.0.0.1"
#define LR_DEMO_IFACE	    "lo"
#define LR_DEMO_PORT_FIRST  5201
#define LR_DEMO_PORT_LAST   5299
#define LR_DEMO_PARALLEL    2
#define LR_DEMO_BITRATE_BPS 2000000000ULL /* per stream: a laptop is not pinned at 100 % */

/* Binds the server on LR_DEMO_HOST (trying each port until one binds) and starts its thread
 * (signals blocked in it). 0 or -errno (-EADDRINUSE: every port taken). */
int lr_demo_open(struct lr_demo **out) LR_MUST_CHECK;
uint16_t lr_demo_port(const struct lr_demo *d);
/* The demo server's test watch: the receiving side's live counters. NULL for NULL. */
struct lr_server_watch *lr_demo_watch(const struct lr_demo *d);
/* Stops the server (a connected client is told), joins the thread, frees. NULL-safe. */
void lr_demo_close(struct lr_demo *d);

/* The client options for the demo: user's (-u, -P, -b, -l, -R ... as given) with the host and
 * port of d, and the demo's defaults for what the user left unset. *out borrows user's
 * strings. */
void lr_demo_traffic(const struct lr_demo *d, const struct lr_traffic_config *user,
		     struct lr_traffic_config *out);

#endif
