/* SPDX-License-Identifier: GPL-2.0-or-later */
/* --rr in the headless client (src/app/rr_app.c): the host's busy CPU time around the test,
 * for the local service demand, and the report. [main] */
#ifndef LINERATE_RR_APP_H
#define LINERATE_RR_APP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

struct lr_traffic_results;

/* The exit status of a --rr client whose server did not acknowledge the test (documented in
 * the README and the man page). */
#define LR_EXIT_RR_REFUSED 4

/* The whole host's busy CPU time (/proc/stat's "cpu" line: all but idle and iowait) and the
 * wall clock when read; known false when /proc/stat could not be read. */
struct lr_rr_cpu {
	bool known;
	double busy_s;
	uint64_t mono_ns;
};
void lr_rr_cpu_read(struct lr_rr_cpu *m);

/* The report of a --rr test from R (this side's and the server's results) and the CPU
 * readings before and after it: netperf's table on text, or -J's "linerate_rr" into j. */
void lr_rr_app_report(FILE *text, json_t *j, const char *host, const struct lr_traffic_results *R,
		      const struct lr_rr_cpu *before, const struct lr_rr_cpu *after);

#endif
