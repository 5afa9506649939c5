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

#include "linerate/core/clock.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cumulative_and_reset),
		cmocka_unit_test(test_deltas_and_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
