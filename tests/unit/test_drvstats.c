// SPDX-License-Identifier: GPL-2.0-or-later
/* Driver statistics (sample/drvstats.c) read through the ethtool collector from a scripted
 * device (fakes/fake_ethtool.c): the queue table from real drivers' counter names, and the
 * device's drop and FIFO sums without a queue's breakdown added to its own total. */
#include <errno.h>
#include <linux/ethtool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fakes/fake_ethtool.h"
#include "linerate/core/clock.h"
#include "linerate/sample/drvstats.h"
#include "linerate/sample/snapshot.h"

static struct fake_eth *const S = &fake_eth;		/* the scripted device */
static struct fake_sysio *const F = &fake_eth_sys;	/* its io */

/* The queue table from the driver's names (drvstats): ixgbe's real names, two dumps a second
 * apart in which queue 0 took 90 % of the rx packets. Each queue's counts are the scripted
 * deltas of its own counters, device-level counters (rx_packets) feed no queue, and a counter
 * that moved only on another queue leaves this one's zero, not unknown. */
static void test_queues_from_names(void **state)
{
	static uint64_t v[FAKE_ETH_MAX_NAMES];
	struct lr_drvstats *d;
	struct lr_iface_snap snap;
	const uint64_t sec = LR_NSEC_PER_SEC;
	int rxp0 = -1, rxb0 = -1, rxp1 = -1, txp1 = -1, dev_rxp = -1;

	(void)state;
	for (uint32_t i = 0; i < S->n; i++) {
		v[i] = 5000 + i;
		if (!strcmp(S->names[i], "rx_queue_0_packets"))
			rxp0 = (int)i;
		else if (!strcmp(S->names[i], "rx_queue_0_bytes"))
			rxb0 = (int)i;
		else if (!strcmp(S->names[i], "rx_queue_1_packets"))
			rxp1 = (int)i;
		else if (!strcmp(S->names[i], "tx_queue_1_packets"))
			txp1 = (int)i;
		else if (!strcmp(S->names[i], "rx_packets"))
			dev_rxp = (int)i;
	}
	assert_true(rxp0 >= 0 && rxb0 >= 0 && rxp1 >= 0 && txp1 >= 0 && dev_rxp >= 0);
	S->vals = v;
	memset(&snap, 0, sizeof(snap));
	d = lr_drvstats_open(FAKE_ETH_IFNAME, &F->io);
	assert_non_null(d);
	lr_drvstats_read(d, false, sec, 0, &snap);	/* the first dump: a base only */
	assert_int_equal(snap.n_queues, 0);
	v[rxp0] += 9000;
	v[rxb0] += 9000 * 1500;
	v[rxp1] += 1000;
	v[txp1] += 7;
	v[dev_rxp] += 10000;
	lr_drvstats_read(d, true, 2 * sec, sec, &snap);
	assert_int_equal(snap.queue_source, LR_QSRC_ETHTOOL);
	assert_int_equal(snap.n_queues, 2);	/* the fixture names queues 0 and 1 */
	assert_int_equal(snap.queues[0].queue, 0);
	assert_int_equal(snap.queues[0].rx_packets, 9000);
	assert_int_equal(snap.queues[0].rx_bytes, 9000 * 1500);
	assert_true(snap.queues[0].rx_pps > 8999.9 && snap.queues[0].rx_pps < 9000.1);
	assert_int_equal(snap.queues[0].tx_packets, 0);
	assert_true(snap.queues[0].valid & LR_QV_TX_PACKETS);	/* known, and zero */
	assert_int_equal(snap.queues[1].rx_packets, 1000);
	assert_int_equal(snap.queues[1].tx_packets, 7);
	/* the queues together: what the device-level counter says, split 90/10 */
	assert_int_equal(snap.queues[0].rx_packets + snap.queues[1].rx_packets, 10000);
	lr_drvstats_close(d);
	S->vals = NULL;
}

/* virtio_net's real names (tests/fixtures/ethtool/virtio_net.txt): rx_drops is the device's
 * total and rx0_drops, rx1_drops its queues. A second in which queue 0 dropped 1000 and queue 1
 * 500 (and the total, as the driver sums them, 1500) is 1500 drops on the device in nic_drop,
 * the CSV column and the overview's DROP/s: the breakdown is not added to its own total. */
static void test_queue_breakdown_not_counted_twice(void **state)
{
	static uint64_t v[FAKE_ETH_MAX_NAMES];
	uint64_t delta[LR_M__COUNT] = {0};
	struct lr_drvstats *d;
	struct lr_iface_snap snap;
	FILE *f = fopen("tests/fixtures/ethtool/virtio_net.txt", "r");
	char line[256];
	int total = -1, q0 = -1, q1 = -1;

	(void)state;
	assert_non_null(f);
	S->n = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] && line[0] != '#')
			fake_eth_add_name(line);
	}
	fclose(f);
	S->driver = "virtio_net";
	for (uint32_t i = 0; i < S->n; i++) {
		v[i] = 100 + i;
		if (!strcmp(S->names[i], "rx_drops"))
			total = (int)i;
		else if (!strcmp(S->names[i], "rx0_drops"))
			q0 = (int)i;
		else if (!strcmp(S->names[i], "rx1_drops"))
			q1 = (int)i;
	}
	assert_true(total >= 0 && q0 >= 0 && q1 >= 0);
	S->vals = v;
	memset(&snap, 0, sizeof(snap));
	d = lr_drvstats_open(FAKE_ETH_IFNAME, &F->io);
	assert_non_null(d);
	lr_drvstats_read(d, false, LR_NSEC_PER_SEC, 0, &snap);	/* the base */
	v[q0] += 1000;
	v[q1] += 500;
	v[total] += 1500;
	lr_drvstats_read(d, true, 2 * LR_NSEC_PER_SEC, LR_NSEC_PER_SEC, &snap);
	assert_true(lr_drvstats_sums(d, delta) & LR_M_BIT(LR_M_NIC_DROP));
	assert_int_equal(delta[LR_M_NIC_DROP], 1500);
	lr_drvstats_close(d);
	S->vals = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_queues_from_names, fake_eth_setup),
		cmocka_unit_test_setup(test_queue_breakdown_not_counted_twice, fake_eth_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
