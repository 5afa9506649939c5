// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench helper: the sampler's CPU per tick as the host grows (issue 33). Opens the real sampler
 * on a generated tree (bench/gen_bigtree.py NCPU NIF DIR auto: /proc/net/dev, stat, softirqs,
 * softnet_stat, interrupts with one MSI-X vector per queue per CPU up to 64, their msi_irqs and
 * affinity files) through --procfs/--sysfs and the /proc/net/dev source, then runs TICKS ticks
 * 0.1 s apart on the sampler's clock (lr_sampler_tick, no thread, no sleeping) and times each
 * as CPU time of this thread. The ticks cover whole IRQ-map rounds (one interface per tick,
 * then a 5 s pause) so the mean carries the rebuilds' share. Prints one line:
 * "mean_us<TAB>median_us<TAB>max_us<TAB>ticks". bench/sampler_scale.sh drives it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linerate/core/clock.h"
#include "linerate/sample/board.h"
#include "linerate/sample/sampler.h"

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	char procfs[4096], sysfs[4096];
	struct lr_sampler_opts o = {.interval_ns = 100 * LR_NSEC_PER_MSEC, .source = LR_SOURCE_PROC};
	struct lr_board *board = NULL;
	struct lr_sampler *s = NULL;
	double *t, sum = 0;
	uint64_t now;
	int ticks;

	if (argc != 3 || (ticks = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: sampler_scale TREE TICKS\n");
		return 2;
	}
	snprintf(procfs, sizeof(procfs), "%s/proc", argv[1]);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", argv[1]);
	o.procfs = procfs;
	o.sysfs = sysfs;
	t = calloc((size_t)ticks, sizeof(*t));
	if (!t || lr_board_open(&board) || lr_sampler_open(&s, &o, board)) {
		fprintf(stderr, "sampler_scale: cannot open the sampler on %s\n", argv[1]);
		return 1;
	}
	now = lr_clock_mono_ns();
	for (int i = 0; i < ticks; i++) {
		double t0;

		now += o.interval_ns;
		t0 = cpu_us();
		if (lr_sampler_tick(s, now)) {
			fprintf(stderr, "sampler_scale: tick %d failed\n", i);
			return 1;
		}
		t[i] = cpu_us() - t0;
		sum += t[i];
	}
	qsort(t, (size_t)ticks, sizeof(*t), cmp_double);
	printf("%.1f\t%.1f\t%.1f\t%d\n", sum / ticks, t[ticks / 2], t[ticks - 1], ticks);
	lr_sampler_close(s);
	lr_board_close(board);
	free(t);
	return 0;
}
