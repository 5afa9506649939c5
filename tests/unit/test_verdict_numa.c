// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict's NUMA rule (issue 19) on snapshots the real sampler takes of captured trees
 * (--procfs/--sysfs): the hand-made two-node tree gives the topology (eth1 on node 1, its IRQs
 * on node 0's CPUs 0,2,4,6; eth0 on node 0), the load is synthetic: cpu2 at 99 % softirq for
 * eight seconds while the others idle. Remote: the next step names node 1's CPUs and -A node:1.
 * Local (eth0 on cpu2's node), and this host's one-node capture: no NUMA step, and the verdict
 * is the same as with every NUMA field cleared.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/sampled_tree.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL

/* One stream thread moving 1 GB/s on `cpu` (-1: none), its node the snapshot's own. */
static struct lr_stream_snap one_stream;

static void set_stream(struct lr_snapshot *s, int cpu)
{
	memset(&one_stream, 0, sizeof(one_stream));
	one_stream.id = 1;
	one_stream.valid = true;
	one_stream.bytes = 1000000000;
	one_stream.start_ns = 100 * SEC;	/* the test window: from before the first tick */
	one_stream.cpu = cpu;
	one_stream.node = -1;
	for (size_t c = 0; c < s->n_cpus; c++)
		if (s->cpus[c].cpu == cpu && (s->cpus[c].valid & LR_CPUV_NODE))
			one_stream.node = s->cpus[c].node;
	if (s->streams != &one_stream)
		free(s->streams);	/* the sampler's (empty) array */
	s->cap_streams = 0;
	s->streams = cpu >= 0 ? &one_stream : NULL;
	s->n_streams = cpu >= 0 ? 1 : 0;
}

/* Eight one-second ticks: iface receives 1 GB/s, cpu `hot` runs 99 % softirq (-1: none),
 * `busy` CPUs (a node's, or none when NULL) run 80 % user, the others idle. */
static void judge_load(struct lr_snapshot *s, const char *iface, int hot, const int *busy,
		       struct lr_verdict *v);

static void judge(struct lr_snapshot *s, const char *iface, int hot, struct lr_verdict *v)
{
	judge_load(s, iface, hot, NULL, v);
}

static void judge_load(struct lr_snapshot *s, const char *iface, int hot, const int *busy,
		       struct lr_verdict *v)
{
	static struct lr_verdict_acc a;	/* large */
	struct lr_verdict_traffic t = {.ran = true, .parallel = 1, .reverse = true,
				       .up_bps = -1, .down_bps = 7.9e9};

	for (size_t c = 0; c < s->n_cpus; c++) {
		struct lr_cpu_snap *k = &s->cpus[c];

		k->valid |= LR_CPUV_TIMES;
		k->softirq_pct = k->cpu == hot ? 99 : 1;
		k->user_pct = k->system_pct = k->irq_pct = 0;
		for (const int *b = busy; b && *b >= 0; b++)
			if (*b == k->cpu)
				k->user_pct = 80;
		k->idle_pct = 100 - k->softirq_pct - k->user_pct;
	}
	for (size_t i = 0; i < s->n_ifaces; i++) {
		struct lr_iface_snap *f = &s->ifaces[i];
		bool me = !strcmp(f->name, iface);

		f->cum_valid = 0;
		f->valid = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_RX_PACKETS);
		f->delta[LR_M_RX_BYTES] = me ? 1000000000 : 0;
		f->delta[LR_M_RX_PACKETS] = me ? 1000000000 / 1514 : 0;
		f->speed_mbps = me ? 10000 : -1;
		f->softirq_max_pct = me && hot >= 0 ? 99 : 1;
		f->softirq_cpu = me && hot >= 0 ? hot : -1;
	}
	s->interval_ns = SEC;
	lr_verdict_init(&a, iface);
	for (unsigned k = 1; k <= 8; k++) {
		s->mono_ns = 100 * SEC + k * SEC;
		lr_verdict_add(&a, s);
	}
	lr_verdict_compute(&a, &t, v);
}

static void clear_numa(struct lr_snapshot *s)
{
	s->numa_nodes = 0;
	for (size_t c = 0; c < s->n_cpus; c++)
		s->cpus[c].valid &= ~(uint32_t)LR_CPUV_NODE;
	for (size_t i = 0; i < s->n_ifaces; i++)
		s->ifaces[i].numa_known = false;
}

static void test_remote_node_names_local_cpus(void **state)
{
	struct lr_snapshot s;
	struct lr_verdict v, plain;

	(void)state;
	lr_snapshot_init(&s);
	sampled_tree("handmade-numa/numa2", 4, &s);
	assert_int_equal(s.numa_nodes, 2);
	judge(&s, "eth1", 2, &v);
	assert_int_equal(v.hot_cpu, 2);
	assert_true(v.hot_saturated);
	printf("# %s\n", v.next_step);
	assert_non_null(strstr(v.next_step,
			       "cpu2 ran 99% softirq for eth1 on NUMA node 0, but the NIC is on "
			       "node 1: move the IRQs to node 1's CPUs (1,3,5,7)"));
	assert_non_null(strstr(v.next_step, "/proc/irq/N/smp_affinity_list"));
	assert_non_null(strstr(v.next_step, "-A node:1"));
	/* without the topology the same run gets the plain "spread" step */
	clear_numa(&s);
	judge(&s, "eth1", 2, &plain);
	assert_null(strstr(plain.next_step, "NUMA"));
	assert_non_null(strstr(plain.next_step, "cpu2 ran 99% softirq while other CPUs idled"));
	lr_snapshot_free(&s);
}

/* The stream thread on node 0 (cpu2) while eth1's node 1 idles: -A node:1. Not when it runs
 * on node 1, nor when node 1's CPUs were busy, nor without the topology. */
static void test_streams_off_the_nics_node(void **state)
{
	static const int node1[] = {1, 3, 5, 7, -1};
	struct lr_snapshot s;
	struct lr_verdict v;

	(void)state;
	lr_snapshot_init(&s);
	sampled_tree("handmade-numa/numa2", 4, &s);
	set_stream(&s, 2);
	assert_int_equal(one_stream.node, 0);
	judge(&s, "eth1", -1, &v);
	printf("# %s\n", v.next_step);
	assert_non_null(strstr(v.next_step, "the stream threads ran on NUMA node 0 (cpu2; in 8 of 8 "
					    "samples) while node 1, eth1's own, sat mostly idle: "
					    "run them there with -A node:1 (CPUs 1,3,5,7)"));
	set_stream(&s, 3);	/* on the NIC's node */
	judge(&s, "eth1", -1, &v);
	assert_null(strstr(v.next_step, "NUMA"));
	set_stream(&s, 2);
	judge_load(&s, "eth1", -1, node1, &v);	/* node 1 had no room */
	assert_null(strstr(v.next_step, "NUMA"));
	clear_numa(&s);
	judge(&s, "eth1", -1, &v);
	assert_null(strstr(v.next_step, "NUMA"));
	s.streams = NULL;
	s.n_streams = 0;
	lr_snapshot_free(&s);
}

static void test_local_node_changes_nothing(void **state)
{
	struct lr_snapshot s;
	struct lr_verdict v, plain;

	(void)state;
	lr_snapshot_init(&s);
	sampled_tree("handmade-numa/numa2", 4, &s);
	judge(&s, "eth0", 2, &v);	/* eth0 is on node 0, like cpu2 */
	clear_numa(&s);
	judge(&s, "eth0", 2, &plain);
	assert_string_equal(v.next_step, plain.next_step);
	assert_null(strstr(v.next_step, "NUMA"));
	lr_snapshot_free(&s);
}

static void test_one_node_changes_no_verdict(void **state)
{
	struct lr_snapshot s;
	struct lr_verdict v, plain;

	(void)state;
	lr_snapshot_init(&s);
	sampled_tree("this-host", 4, &s);
	assert_int_equal(s.numa_nodes, 1);
	set_stream(&s, 1);	/* a stream too: the streams rule stays silent as well */
	judge(&s, "eth0", 1, &v);
	clear_numa(&s);
	judge(&s, "eth0", 1, &plain);
	assert_string_equal(v.next_step, plain.next_step);
	assert_string_equal(v.loss_where, plain.loss_where);
	assert_null(strstr(v.next_step, "NUMA"));
	s.streams = NULL;
	s.n_streams = 0;
	lr_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remote_node_names_local_cpus),
		cmocka_unit_test(test_streams_off_the_nics_node),
		cmocka_unit_test(test_local_node_changes_nothing),
		cmocka_unit_test(test_one_node_changes_no_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
