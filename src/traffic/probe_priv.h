/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency probes' two threads (docs/wire.md, part 3), as the client and the server
 * sessions drive them; not part of any API. */
#ifndef LINERATE_PROBE_PRIV_H
#define LINERATE_PROBE_PRIV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "linerate/traffic/probe.h"

/* ---- client: probe_client.c ---- */
struct lr_probe_client;

/* [control] Starts the prober on fd (a UDP socket bound to the control connection's local
 * address; taken over, closed by _free) towards to, the server's probe port: idle baseline
 * first (state IDLE). 0 or -errno (fd closed). */
int lr_probe_client_start(struct lr_probe_client **out, int fd, const struct sockaddr *to,
			  socklen_t to_len, const char *cookie) LR_MUST_CHECK;
/* [control] Waits until the idle baseline has LR_PROBE_BASELINE answers, LR_PROBE_BASELINE_NS
 * passed or *stop is set. */
void lr_probe_client_baseline(struct lr_probe_client *p, const atomic_bool *stop);
/* [control] TEST_RUNNING: the probes sent from now on are under load (state LOAD). */
void lr_probe_client_load(struct lr_probe_client *p);
/* [control] TEST_END: no more probes (those in flight are still taken). NULL-safe. */
void lr_probe_client_quiet(struct lr_probe_client *p);
/* [control] The test ends: no more probes, waits (at most 100 ms) for those in flight, joins
 * the thread (state DONE). Idempotent; NULL-safe. */
void lr_probe_client_stop(struct lr_probe_client *p);
/* [any] A copy of the counts. */
void lr_probe_client_stats(struct lr_probe_client *p, struct lr_probe_stats *out);
/* [any] The probe socket's own address (where the server's answers go), or with server the
 * server's it sends to. 0 or -errno. */
int lr_probe_client_addr(struct lr_probe_client *p, bool server, struct sockaddr_storage *ss,
			 socklen_t *len);
void lr_probe_client_free(struct lr_probe_client *p); /* stops first; NULL-safe */
/* [any] *out for a test without a prober: counts 0, the constants filled. */
void lr_probe_stats_empty(struct lr_probe_stats *out, enum lr_probe_state st);

/* ---- server: probe_server.c ---- */
struct lr_probe_server;

/* [session] Answers requests on fd (a bound UDP socket; taken over) from the control
 * connection's peer address only (peer: its port is ignored), carrying cookie, at most
 * LR_PROBE_REPLY_RATE a second. answered / refused are the server's totals, bumped per
 * datagram. 0 or -errno (fd closed). */
int lr_probe_server_start(struct lr_probe_server **out, int fd, const struct sockaddr *peer,
			  const char *cookie, _Atomic uint64_t *answered,
			  _Atomic uint64_t *refused) LR_MUST_CHECK;
/* [session] Joins the responder (within 200 ms: it polls with a 50 ms timeout) and frees it;
 * NULL-safe. Logs what it answered and refused. */
void lr_probe_server_stop(struct lr_probe_server *r, const char *who);

#endif
