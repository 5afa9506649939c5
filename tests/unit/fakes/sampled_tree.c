// SPDX-License-Identifier: GPL-2.0-or-later
/* A snapshot the real sampler takes of a captured tree (see sampled_tree.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <cmocka.h>

#include "fakes/fake_sysio.h"
#include "fakes/sampled_tree.h"
#include "linerate/sample/board.h"
#include "linerate/sample/sampler.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL

uint64_t sampled_tree_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

void sampled_tree(const char *tree, int ticks, struct lr_snapshot *snap)
{
	char proc[128], sys[128];
	struct lr_sampler_opts o = {0};
	struct lr_board *b;
	struct lr_sampler *s;
	uint64_t seen = 0, now;

	snprintf(proc, sizeof(proc), FIXTURES "/%s/proc", tree);
	snprintf(sys, sizeof(sys), FIXTURES "/%s/sys", tree);
	o.source = LR_SOURCE_PROC;
	o.procfs = proc;
	o.sysfs = sys;
	o.interval_ns = SEC / 10;
	assert_int_equal(lr_board_open(&b), 0);
	assert_int_equal(lr_sampler_open(&s, &o, b), 0);
	now = sampled_tree_now();
	for (int i = 1; i <= ticks; i++)
		assert_int_equal(lr_sampler_tick(s, now + (uint64_t)i * SEC / 10), 0);
	assert_int_equal(lr_board_read(b, snap, &seen), 1);
	lr_sampler_close(s);
	lr_board_close(b);
}
