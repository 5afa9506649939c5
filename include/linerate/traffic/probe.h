/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Latency under load (DESIGN section 16, docs/wire.md part 3): while a test runs against a
 * linerate server, the client sends small UDP request/response probes to a port the server
 * offered for the test, authenticated by the test's cookie, and keeps their round trips: an
 * idle baseline before the load starts, then every round trip under load. A plain iperf3 at
 * either end never sees a probe. This is what the client's engine hands up; [any] thread. */
#ifndef LINERATE_PROBE_H
#define LINERATE_PROBE_H

#include <stdint.h>

#include "linerate/core/lathist.h"

enum lr_probe_state {
	LR_PROBE_OFF,		/* not asked (--no-latency, --no-peer-stats) */
	LR_PROBE_ASKED,		/* asked; the server has not answered yet */
	LR_PROBE_UNOFFERED,	/* the server offers none: a plain iperf3, an older linerate,
				 * or one run with --no-peer-stats */
	LR_PROBE_IDLE,		/* measuring the idle baseline, before the load starts */
	LR_PROBE_LOAD,		/* the test's load runs */
	LR_PROBE_DONE,		/* the test ended; the counts are final */
};

/* Cumulative since the test began: take two copies and subtract (lr_lathist_sub) for one
 * interval. A probe counts once: answered (its round trip is in idle or load, by when it was
 * sent), lost (no answer within timeout_ns: never a latency), or still in flight. */
struct lr_probe_stats {
	enum lr_probe_state state;
	uint64_t every_ns;	/* time between two probes */
	uint64_t timeout_ns;	/* a probe not answered within this is lost */
	uint64_t size_bytes;	/* UDP payload of a probe and of its answer */
	uint64_t sent, answered, lost;	/* all probes; sent = answered + lost + in flight */
	uint64_t load_sent, load_answered, load_lost;	/* those sent once the load ran */
	uint64_t refused;	/* datagrams on the probe socket taken for no probe: another
				 * sender, a wrong cookie, an unknown or repeated sequence */
	struct lr_lathist idle;	/* round trips of probes sent before the load started */
	struct lr_lathist load;	/* ... of probes sent since */
};

#endif
