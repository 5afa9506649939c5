/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency under load (diagnose/latency.h) as a script reads it: -J's "linerate_latency"
 * object. Pure formatting; an unknown figure is null, never 0. [main] */
#ifndef LINERATE_LATENCY_OUT_H
#define LINERATE_LATENCY_OUT_H

struct json_t;
struct lr_latency;

/* {"state", "idle": {count, p50_us, p99_us}, "intervals": [{start, end, sent, answered, lost,
 * p50_us, p90_us, p99_us, max_us}], "load": {count, p50_us, p90_us, p99_us, max_us, sent,
 * lost}, "probes": {sent, answered, lost, refused}}; caller owns it, NULL on -ENOMEM. */
struct json_t *lr_latency_json(const struct lr_latency *l);

#endif
