// SPDX-License-Identifier: GPL-2.0-or-later
/* The loss ledger's receiver stages below the socket on recorded driver snapshots (a veth has
 * no NIC), through the live path: a real driver's counter list under the sampler's interface
 * table (fakes/fake_driver.c, the drivers' `ethtool -S` names in tests/fixtures/ethtool/ with
 * the category a person gave each) and a real /proc/net/softnet_stat through the CPU window,
 * each snapshot into the verdict's books (lr_verdict_add), the ledger built from their deltas
 * (lr_verdict_ledger). The witness is the counter delta the test moved in the snapshots; the
 * stories are the seeds' (an Intel X710, i40e, whose rx_missed_errors rose 294 while iperf3 lost
 * packets; the fix was `ethtool -G ens2 rx 4096`), an mlx5 rx_out_of_buffer and a softnet
 * backlog drop (node_exporter's recorded softnet_stat: 41 drops on CPU 1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes/fake_driver.h"
#include "fakes/slurp.h"
#include "linerate/diagnose/ledger.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/sample/cpuwin.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL

static const struct lr_ledger_row *row(const struct lr_ledger *l, enum lr_ledger_stage st)
{
	for (unsigned i = 0; i < l->n_rows; i++)
		if (l->rows[i].stage == st)
			return &l->rows[i];
	return NULL;
}

/* A -R test (this host receives) of `ticks` seconds: each tick the interface takes `rx` packets
 * and the driver's counter `ctr` rises by `step`. The ledger of that window, the peer sharing
 * nothing (a plain iperf3 sender). */
static void receive(struct drv_run *r, const char *ctr, uint64_t step, uint64_t rx, int ticks,
		    const struct lr_verdict_traffic *t, struct lr_ledger *l)
{
	uint32_t k = fake_driver_find(&r->drv, ctr);
	struct lr_verdict_acc *a = malloc(sizeof(*a));

	assert_non_null(a);
	assert_string_equal(r->drv.cat[k], "fifo");	/* the fixture's: the NIC had no room */
	lr_verdict_init(a, r->drv.ifname);
	drv_run_tick(r, SEC);	/* the base */
	for (int i = 0; i < ticks; i++) {
		r->drv.vals[k] += step;
		r->rx_packets += rx;
		r->rx_bytes += rx * 1428;
		lr_verdict_add(a, drv_run_tick(r, SEC));
	}
	assert_true(lr_verdict_ledger(a, t, NULL, "rx-host", l));
	free(a);
}

/* The seed's X710: rx_missed_errors 294 in the window, the datagrams iperf3 lost. */
static void test_x710_rx_missed(void **state)
{
	struct drv_run *r = drv_run_open("i40e", "i40e", "ens2");
	struct lr_verdict_traffic t = {.ran = true, .udp = true, .reverse = true, .parallel = 1,
				       .up_bps = -1, .down_bps = 9e9, .retransmits = -1,
				       .udp_packets = 200000, .udp_lost = 294};
	const struct lr_ledger_row *n;
	struct lr_ledger l;

	(void)state;
	receive(r, "rx_missed_errors", 147, 100000 - 147, 2, &t, &l);
	n = row(&l, LR_LS_NIC_RX);
	assert_non_null(n);
	assert_true(n->known);
	assert_false(n->peer);
	assert_int_equal(n->count, 294);	/* the snapshots' delta */
	assert_true(n->datagrams > 293.5 && n->datagrams < 294.5);	/* 1 datagram an skb here */
	assert_ptr_equal(l.largest, n);
	assert_non_null(strstr(l.conclusion, "294 of 294 lost datagrams at the receiver's nic rx: "));
	assert_non_null(strstr(l.conclusion, " on rx-host ens2 294 skbs"));
	assert_non_null(strstr(l.advice, "ethtool -G ens2 rx N"));	/* the seed's fix */
	/* the stages above it saw nothing, the sender's are unknown (it shared none) */
	assert_false(row(&l, LR_LS_BACKLOG)->known);	/* no softnet_stat in these snapshots */
	assert_false(row(&l, LR_LS_QDISC)->known);
	assert_true(l.unaccounted > -0.5 && l.unaccounted < 0.5);
	drv_run_close(r);
}

/* mlx5's rx_out_of_buffer (no WQE posted) under a TCP -R test: the retransmitted segments are
 * the loss; the stage is in skbs, read as segments one to one and marked a conversion. */
static void test_mlx5_out_of_buffer_tcp(void **state)
{
	struct drv_run *r = drv_run_open("mlx5", "mlx5_core", "enp1s0f0");
	struct lr_verdict_traffic t = {.ran = true, .reverse = true, .parallel = 1, .up_bps = -1,
				       .down_bps = 20e9, .retransmits = 1350, .udp_lost = -1,
				       .udp_packets = -1};
	const struct lr_ledger_row *n;
	struct lr_ledger l;

	(void)state;
	receive(r, "rx_out_of_buffer", 400, 600000, 3, &t, &l);
	n = row(&l, LR_LS_NIC_RX);
	assert_non_null(n);
	assert_int_equal(n->count, 1200);
	assert_true(n->approx);
	assert_ptr_equal(l.largest, n);
	assert_non_null(strstr(l.conclusion, "1200 of 1350 lost segments at the receiver's nic rx"));
	assert_non_null(strstr(l.conclusion, "enp1s0f0 1200 skbs (converted)"));
	/* TCP's transport stage is not sampled: unknown, never 0 */
	assert_false(row(&l, LR_LS_TRANSPORT)->known);
	drv_run_close(r);
}

/* A real softnet_stat read as one window since boot (a zero reading before): its dropped
 * column says 41 on CPU 1. */
static void softnet_window(struct lr_snapshot *s)
{
	char *buf = malloc(64 * 1024);
	struct lr_cpuwin w;
	size_t n;

	assert_non_null(buf);
	n = slurp(FIXTURES "/nodeexp-fixtures/proc/net/softnet_stat", buf, 64 * 1024);
	lr_cpuwin_init(&w);
	lr_snapshot_init(s);
	for (int k = 0; k < 2; k++) {
		struct lr_cpu_table *t = lr_cpuwin_slot(&w);

		assert_int_equal(lr_cpu_parse_softnet(buf, n, t), 4);
		for (size_t c = 0; !k && c < t->n; c++)
			t->cpu[c].softnet_processed = t->cpu[c].softnet_dropped =
				t->cpu[c].softnet_squeezed = 0;
		lr_cpuwin_push(&w, (1000 + (uint64_t)k) * SEC);
	}
	assert_int_equal(lr_cpuwin_build(&w, s, SEC), 0);
	lr_cpuwin_free(&w);
	free(buf);
}

static void test_softnet_backlog_drop(void **state)
{
	struct drv_run *r = drv_run_open("veth", "veth", "veth1");
	struct lr_verdict_traffic t = {.ran = true, .udp = true, .reverse = true, .parallel = 1,
				       .up_bps = -1, .down_bps = 1e9, .retransmits = -1,
				       .udp_packets = 90000, .udp_lost = 41};
	struct lr_verdict_acc *a = malloc(sizeof(*a));
	struct lr_snapshot cpus;
	const struct lr_ledger_row *b;
	struct lr_ledger l;

	(void)state;
	assert_non_null(a);
	softnet_window(&cpus);
	lr_verdict_init(a, "veth1");
	drv_run_tick(r, SEC);
	r->rx_packets += 90000 - 41;
	r->rx_bytes += (90000 - 41) * 1428ULL;
	drv_run_tick(r, SEC);
	r->snap.cpus = cpus.cpus;	/* this tick's CPUs: the capture's window */
	r->snap.n_cpus = cpus.n_cpus;
	lr_verdict_add(a, &r->snap);
	r->snap.cpus = NULL;
	r->snap.n_cpus = 0;
	assert_true(lr_verdict_ledger(a, &t, NULL, "rx-host", &l));
	b = row(&l, LR_LS_BACKLOG);
	assert_non_null(b);
	assert_true(b->known);
	assert_int_equal(b->count, 41);
	assert_ptr_equal(l.largest, b);
	assert_non_null(strstr(l.conclusion, "41 of 41 lost datagrams at the receiver's backlog: "
					     "softnet dropped on rx-host veth1 41 skbs"));
	assert_non_null(strstr(l.advice, "netdev_max_backlog"));
	lr_snapshot_free(&cpus);
	free(a);
	drv_run_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x710_rx_missed),
		cmocka_unit_test(test_mlx5_out_of_buffer_tcp),
		cmocka_unit_test(test_softnet_backlog_drop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
