// SPDX-License-Identifier: GPL-2.0-or-later
/* The per-queue table: cumulative readings (qstats) become interval deltas, a counter that
 * went back is a reset (that interval dropped, never a huge delta), queues grow on demand,
 * the running sums survive ticks, and the published view lists only queues known this tick. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fakes/fake_sysio.h"

#include "linerate/core/clock.h"
#include "linerate/collect/irqmap.h"
#include "linerate/sample/queuecpu.h"
#include "linerate/sample/queuetab.h"
#include "linerate/sample/snapshot.h"

static void test_cumulative_and_reset(void **state)
{
	struct lr_queuetab *q = lr_queuetab_new();
	struct lr_iface_snap s = {0};
	const uint64_t tick = LR_NSEC_PER_SEC / 2;

	(void)state;
	assert_non_null(q);
	/* tick 0: bases only, nothing to publish */
	lr_queuetab_begin(q);
	assert_int_equal(lr_queuetab_add_cumulative(q, 0, LR_QV_RX_PACKETS, 1000), 0);
	assert_int_equal(lr_queuetab_add_cumulative(q, 3, LR_QV_RX_PACKETS, 50), 0);
	lr_queuetab_publish(q, tick, tick, &s);
	assert_int_equal(s.n_queues, 0);
	/* tick 1: +500 on queue 0, +10 on queue 3 */
	lr_queuetab_begin(q);
	assert_int_equal(lr_queuetab_add_cumulative(q, 0, LR_QV_RX_PACKETS, 1500), 0);
	assert_int_equal(lr_queuetab_add_cumulative(q, 3, LR_QV_RX_PACKETS, 60), 0);
	lr_queuetab_publish(q, 2 * tick, tick, &s);
	assert_int_equal(s.n_queues, 2);
	assert_int_equal(s.queues[0].queue, 0);
	assert_int_equal(s.queues[0].rx_packets, 500);
	assert_true(s.queues[0].rx_pps > 999.9 && s.queues[0].rx_pps < 1000.1);
	assert_true(s.queues[0].tx_pps < 0);	/* unknown, not 0 */
	assert_int_equal(s.queues[1].queue, 3);
	assert_int_equal(s.queues[1].rx_packets, 10);
	assert_int_equal(s.queues[1].base_ns, tick);
	/* tick 2: queue 0 reset (went back to 20): that interval is dropped; queue 3 +5 */
	lr_queuetab_begin(q);
	assert_int_equal(lr_queuetab_add_cumulative(q, 0, LR_QV_RX_PACKETS, 20), 0);
	assert_int_equal(lr_queuetab_add_cumulative(q, 3, LR_QV_RX_PACKETS, 65), 0);
	lr_queuetab_publish(q, 3 * tick, tick, &s);
	assert_int_equal(s.n_queues, 1);
	assert_int_equal(s.queues[0].queue, 3);
	assert_int_equal(s.queues[0].cum[0], 15);
	/* tick 3: from the new base */
	lr_queuetab_begin(q);
	assert_int_equal(lr_queuetab_add_cumulative(q, 0, LR_QV_RX_PACKETS, 25), 0);
	lr_queuetab_publish(q, 4 * tick, tick, &s);
	assert_int_equal(s.n_queues, 1);
	assert_int_equal(s.queues[0].rx_packets, 5);
	assert_int_equal(s.queues[0].cum[0], 505);
	lr_queuetab_free(q);
}

static void test_deltas_and_limits(void **state)
{
	struct lr_queuetab *q = lr_queuetab_new();
	struct lr_iface_snap s = {0};

	(void)state;
	lr_queuetab_begin(q);
	assert_int_equal(lr_queuetab_add(q, 40, LR_QV_TX_BYTES, 7), 0);	/* grows to 40 */
	assert_int_equal(lr_queuetab_add(q, 40, LR_QV_TX_BYTES, 8), 0);	/* parts add up */
	assert_int_equal(lr_queuetab_add(q, 65536, LR_QV_TX_BYTES, 1), -ERANGE);
	assert_int_equal(lr_queuetab_add(q, 1, 1u << 20, 1), -EINVAL);
	lr_queuetab_publish(q, LR_NSEC_PER_SEC, LR_NSEC_PER_SEC, &s);
	assert_int_equal(s.n_queues, 1);
	assert_int_equal(s.queues[0].queue, 40);
	assert_int_equal(s.queues[0].tx_bytes, 15);
	assert_int_equal(s.queues[0].valid, LR_QV_TX_BYTES);
	assert_int_equal(s.queues[0].cpu, -1);
	lr_queuetab_free(q);
	lr_queuetab_free(NULL);
}

/* Each queue gets its own IRQ's CPU from the 72-CPU tree's map (queue q on CPU 4+q) and that
 * CPU's softirq %; a queue the IRQ names do not number stays unknown while several CPUs
 * serve; with one serving CPU and no map, that CPU serves every queue. */
static void test_queue_cpus_from_irqmap(void **state)
{
	struct lr_queuetab *q = lr_queuetab_new();
	struct lr_queuecpus *qc = lr_queuecpus_new();
	struct lr_cpu_snap cpus[3] = {
		{.cpu = 4, .valid = LR_CPUV_TIMES, .softirq_pct = 12.5},
		{.cpu = 7, .valid = LR_CPUV_TIMES, .softirq_pct = 99.0},
		{.cpu = 8, .valid = 0},
	};
	struct lr_snapshot snap = {.cpus = cpus, .n_cpus = 3};
	struct lr_iface_snap s = {0};
	int serving[2] = {4, 7};
	struct lr_irqmap m;
	struct fake_sysio f;
	const int *map;
	size_t n;

	(void)state;
	assert_non_null(q);
	assert_non_null(qc);
	lr_irqmap_init(&m);
	fake_sysio_init(&f, FIXTURES "/handmade-72cpu");
	assert_int_equal(lr_irqmap_build(&f.io, "eth2", &m), 0);
	assert_int_equal(lr_queuecpus_set(qc, "eth2", &m), 0);
	map = lr_queuecpus_get(qc, "eth2", &n);
	assert_int_equal(n, 16);
	assert_null(lr_queuecpus_get(qc, "eth20", &n));
	assert_int_equal(n, 0);

	lr_queuetab_begin(q);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(lr_queuetab_add(q, i * 4, LR_QV_RX_PACKETS, 10), 0);
	lr_queuetab_publish(q, 2, 1, &s);
	assert_int_equal(s.n_queues, 5);	/* queues 0, 4, 8, 12, 16 */
	s.serving_cpus = serving;
	s.n_serving_cpus = 2;
	map = lr_queuecpus_get(qc, "eth2", &n);
	lr_queuetab_cpus(&s, &snap, map, n);
	assert_int_equal(s.queues[0].cpu, 4);
	assert_true(s.queues[0].cpu_softirq_pct == 12.5);
	assert_int_equal(s.queues[1].cpu, 8);
	assert_true(s.queues[1].cpu_softirq_pct < 0);	/* CPU 8's times unknown */
	assert_int_equal(s.queues[2].cpu, 12);
	assert_true(s.queues[2].cpu_softirq_pct < 0);	/* not in the snapshot */
	assert_int_equal(s.queues[4].cpu, -1);		/* queue 16: no IRQ names it */
	/* one serving CPU, no map: it serves every queue */
	s.serving_cpus = &serving[1];
	s.n_serving_cpus = 1;
	lr_queuetab_cpus(&s, &snap, NULL, 0);
	assert_int_equal(s.queues[4].cpu, 7);
	assert_true(s.queues[4].cpu_softirq_pct == 99.0);
	/* pruned after a round without it */
	lr_queuecpus_prune(qc);
	assert_non_null(lr_queuecpus_get(qc, "eth2", &n));
	lr_queuecpus_prune(qc);
	assert_null(lr_queuecpus_get(qc, "eth2", &n));
	lr_irqmap_free(&m);
	lr_queuecpus_free(qc);
	lr_queuetab_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cumulative_and_reset),
		cmocka_unit_test(test_deltas_and_limits),
		cmocka_unit_test(test_queue_cpus_from_irqmap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
