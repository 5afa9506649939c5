/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Glue between a traffic client and the rest, so neither traffic/ nor sample/ and present/
 * know each other: the client as the sampler's gen source, and its results as the verdict's
 * input. [main] */
#ifndef LINERATE_TRAFFIC_GLUE_H
#define LINERATE_TRAFFIC_GLUE_H

struct lr_client;
struct lr_gen_source;
struct lr_traffic_results;
struct lr_verdict_traffic;

/* *out reads c's streams; valid until c is closed (clear the sampler's source first). */
void lr_client_gen_source(struct lr_client *c, struct lr_gen_source *out);

/* What the test achieved, for lr_verdict_compute: receiver-side goodput per direction (the
 * sender's count when the test was stopped before results came), retransmits, and UDP loss
 * only where the receiver's count is known. */
void lr_verdict_traffic_from(const struct lr_traffic_results *r, struct lr_verdict_traffic *vt);

#endif
