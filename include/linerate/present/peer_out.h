/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The peer's part of a headless report. Pure formatting. [main] */
#ifndef LINERATE_PEER_OUT_H
#define LINERATE_PEER_OUT_H

#include <stdio.h>

struct json_t;
struct lr_peer_summary;
struct lr_traffic_config;

/* The peer's totals and where on it packets were lost, as text after the verdict, or as the
 * -J object "linerate_peer" (NULL on no memory). tc: the test's options (which end
 * received). */
void lr_peer_report_text(FILE *f, const struct lr_peer_summary *ps,
			 const struct lr_traffic_config *tc);
struct json_t *lr_peer_report_json(const struct lr_peer_summary *ps,
				    const struct lr_traffic_config *tc);

#endif
