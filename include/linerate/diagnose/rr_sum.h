/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --rr's figures (DESIGN section 16): transactions per second, the round trip's quantiles and
 * netperf's service demand at both ends, from what the test counted (traffic/rr.h) and the
 * CPU time each end spent. Pure. [any] */
#ifndef LINERATE_RR_SUM_H
#define LINERATE_RR_SUM_H

#include "linerate/traffic/rr.h"

/* Every figure is -1 when unknown (no transaction, no CPU reading): never 0. */
struct lr_rr_sum {
	double seconds; /* the test's measured length */
	double tps; /* transactions per second over it */
	double min_us, p50_us, p90_us, p99_us, p999_us, max_us, mean_us;
	/* netperf's: µs of CPU per transaction. Local: the whole host's busy CPU time (all CPUs,
	 * not idle; /proc/stat) over the test. Peer: the server's own process CPU time (its
	 * results' cpu_util_total, % of one CPU over its test), docs/wire.md part 4 */
	double local_sd_us, peer_sd_us;
};

/* From the results: seconds the test ran; local_busy_cpu_s the host's busy CPU-seconds over a
 * window of local_wall_s around it (< 0 unknown); peer_cpu_pct the server's cpu_util_total
 * (< 0 unknown). The window's mean busy CPUs are charged to the test's seconds, as the
 * matrix's service demand does. */
void lr_rr_sum_fill(struct lr_rr_sum *s, const struct lr_rr_result *r, double seconds,
		    double local_busy_cpu_s, double local_wall_s, double peer_cpu_pct);

#endif
