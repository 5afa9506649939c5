/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The client session's insides, shared by its three files; not part of any API. */
#ifndef LINERATE_CLIENT_PRIV_H
#define LINERATE_CLIENT_PRIV_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "linerate/core/common.h"
#include "linerate/traffic/proto.h"
#include "linerate/traffic/stream.h"
#include "linerate/traffic/traffic.h"

#define CTL_TIMEOUT_NS	   (30 * LR_NSEC_PER_SEC) /* iperf3's overall control read bound */
#define CONNECT_TIMEOUT_NS (10 * LR_NSEC_PER_SEC)
#define RESULTS_TIMEOUT_NS (30 * LR_NSEC_PER_SEC)

struct lr_client {
	struct lr_traffic_config tc;
	char *host, *bind, *congestion;
	uint64_t duration_ns;

	pthread_t thread;
	bool thread_started;
	atomic_bool stop;
	_Atomic int state;

	pthread_mutex_t lock; /* err, streams publication, rate, done */
	pthread_cond_t done_cond;
	char err[256];
	uint64_t rate_bps;

	int ctl_fd;
	char cookie[LR_PROTO_COOKIE_LEN];
	struct lr_proto_params params;
	struct sockaddr_storage peer;
	socklen_t peer_len;

	unsigned n_max;
	_Atomic unsigned n_streams;
	struct lr_stream **streams;
	bool *joined; /* control thread only */

	struct rusage ru0;
	uint64_t t0_ns;
	struct lr_traffic_results *res;
	/* peer view (client_peer.c): set once by the control thread, under lock */
	bool peer_offered;
	unsigned peer_interval_ms;
	uint32_t peer_max_frame;
};

/* Shared by client.c, client_net.c and client_results.c (control thread unless noted). */
void lr_client_set_err(struct lr_client *c, const char *fmt, ...) LR_PRINTF(2, 3);	/* [any] */
struct lr_proto_conn lr_client_ctl_conn(struct lr_client *c);
void lr_client_report_io_err(struct lr_client *c, const char *what, int rc);
unsigned lr_client_nstreams(const struct lr_client *c);	/* [any] */
int lr_client_ctl_connect(struct lr_client *c);
int lr_client_send_params(struct lr_client *c);
int lr_client_create_streams(struct lr_client *c);
void lr_client_fill_addrs(struct lr_client *c);
int lr_client_exchange_results(struct lr_client *c);
void lr_client_partial_results(struct lr_client *c);
/* client_peer.c: reads the offer that followed the state byte LR_PEER_OFFER_STATE. 0 or
 * -errno (error set). */
int lr_client_peer_read_offer(struct lr_client *c);

#endif
