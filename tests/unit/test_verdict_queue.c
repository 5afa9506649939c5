// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict's RSS rule on the synthetic per-queue snapshots (fakes/hotqueue.c): queue 3
 * takes 920k of 1M rx packets/s on cpu3 at 100 % softirq while the other queues' CPUs idle ->
 * the RSS next step naming the queue, its share, its CPU and the hash command; the same
 * packets spread evenly with every CPU at 25 % -> no RSS verdict; a hot queue whose CPU is
 * unknown -> none either (evidence only).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/hotqueue.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/sample/snapshot.h"

/* Ten 1 s ticks of the snapshot into a fresh accumulator, then the verdict of a 4-stream UDP
 * test (sampling only: no streams in the snapshot, every tick counts). */
static void judge(bool hot, int hot_cpu, struct lr_verdict *v, struct lr_verdict_acc *a)
{
	struct lr_verdict_traffic t = {.ran = true,
				       .udp = true,
				       .parallel = 4,
				       .bitrate_bps = 0,
				       .up_bps = 11e9,
				       .down_bps = -1,
				       .sent_up_bps = -1,
				       .sent_down_bps = -1,
				       .retransmits = -1,
				       .udp_lost = 0,
				       .udp_packets = 1000};
	struct lr_snapshot s;

	hotqueue_build(&s, hot);
	s.ifaces[0].queues[3].cpu = hot_cpu;
	lr_verdict_init(a, "eth1");
	for (int i = 0; i < 10; i++) {
		s.seq++;
		s.mono_ns += LR_NSEC_PER_SEC;
		s.elapsed_ns += LR_NSEC_PER_SEC;
		lr_verdict_add(a, &s);
	}
	lr_verdict_compute(a, &t, v);
	lr_snapshot_free(&s);
}

static void test_hot_queue(void **state)
{
	struct lr_verdict_acc *a = calloc(1, sizeof(*a));
	struct lr_verdict v;

	(void)state;
	assert_non_null(a);
	judge(true, 3, &v, a);
	assert_non_null(v.iface);
	assert_string_equal(v.iface->name, "eth1");
	assert_string_equal(v.next_step,
			    "RSS: queue 3 took 92 % of rx packets on cpu3 (100 % softirq); more "
			    "flows (-P), or check the hash: ethtool -n eth1 rx-flow-hash udp4");
	free(a);
}

static void test_balanced_no_verdict(void **state)
{
	struct lr_verdict_acc *a = calloc(1, sizeof(*a));
	struct lr_verdict v;

	(void)state;
	assert_non_null(a);
	judge(false, 3, &v, a);
	assert_non_null(v.iface);
	assert_null(strstr(v.next_step, "RSS"));
	assert_true(v.next_step[0] != '\0');
	free(a);
}

static void test_hot_queue_cpu_unknown(void **state)
{
	struct lr_verdict_acc *a = calloc(1, sizeof(*a));
	struct lr_verdict v;

	(void)state;
	assert_non_null(a);
	judge(true, -1, &v, a);
	assert_null(strstr(v.next_step, "RSS"));
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hot_queue),
		cmocka_unit_test(test_balanced_no_verdict),
		cmocka_unit_test(test_hot_queue_cpu_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
