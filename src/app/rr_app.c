// SPDX-License-Identifier: GPL-2.0-or-later
/* --rr in the headless client: the host's CPU around the test and the report (rr_app.h). The
 * figures are diagnose/rr_sum's, the layout present/rr_out's. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "linerate/app/rr_app.h"
#include "linerate/collect/cpu.h"
#include "linerate/core/clock.h"
#include "linerate/diagnose/rr_sum.h"
#include "linerate/present/rr_out.h"
#include "linerate/traffic/traffic.h"

void lr_rr_cpu_read(struct lr_rr_cpu *m)
{
	struct lr_cpu_table t;
	char line[512];
	FILE *f = fopen("/proc/stat", "re");
	long hz = sysconf(_SC_CLK_TCK);
	const uint64_t *v;

	memset(m, 0, sizeof(*m));
	m->mono_ns = lr_clock_mono_ns();
	if (!f)
		return;
	/* the first line is the "cpu" total of every CPU */
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return;
	}
	fclose(f);
	lr_cpu_table_init(&t);
	if (lr_cpu_parse_stat(line, strlen(line), &t) == 0 && (t.all.valid & LR_CPUV_TIMES)) {
		uint64_t busy = 0;

		v = t.all.time;
		/* guest time is inside user and nice already */
		for (unsigned i = 0; i < LR_CT_GUEST; i++)
			if (i != LR_CT_IDLE && i != LR_CT_IOWAIT)
				busy += v[i];
		m->busy_s = (double)busy / (double)(hz > 0 ? hz : 100);
		m->known = true;
	}
	lr_cpu_table_free(&t);
}

void lr_rr_app_report(FILE *text, json_t *j, const char *host, const struct lr_traffic_results *R,
		      const struct lr_rr_cpu *before, const struct lr_rr_cpu *after)
{
	struct lr_rr_sum s;
	bool cpu = before->known && after->known && after->busy_s >= before->busy_s;

	lr_rr_sum_fill(&s, &R->rr, (double)R->duration_ns / 1e9,
		       cpu ? after->busy_s - before->busy_s : -1,
		       (double)(after->mono_ns - before->mono_ns) / 1e9,
		       R->complete ? R->remote_cpu_total : -1);
	if (j)
		json_object_set_new(j, "linerate_rr", lr_rr_json(&R->rr, &s));
	else if (text)
		lr_rr_print(text, host, &R->rr, &s);
}
