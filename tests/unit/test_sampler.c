// SPDX-License-Identifier: GPL-2.0-or-later
/* The sampler end to end on a --procfs/--sysfs tree the test rewrites between ticks: exact
 * deltas, rates over the measured interval, resets dropped, interfaces coming and going,
 * the -I filter, per-CPU and stack rates. Ticks are driven by hand (lr_sampler_tick). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "linerate/sample/board.h"
#include "linerate/sample/sampler.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL

struct ctx {
	char root[64], proc[96], sys[96];
	struct lr_sampler_opts cfg;
	struct lr_board *board;
	struct lr_sampler *s;
	struct lr_snapshot snap;
	uint64_t seen;
};

static void put(const struct ctx *c, const char *rel, const char *text)
{
	char path[256], dir[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", c->root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = strchr(dir + strlen(c->root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");	/* same inode: the sampler's open fd sees the new text */
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_dev(const struct ctx *c, const char *rows)
{
	char buf[4096];

	snprintf(buf, sizeof(buf),
		 "Inter-|   Receive                                                |  Transmit\n"
		 " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
		 "packets errs drop fifo colls carrier compressed\n%s",
		 rows);
	put(c, "proc/net/dev", buf);
}

static void put_cpu(const struct ctx *c, unsigned long long si0, unsigned long long total0,
		    unsigned long long netrx)
{
	char buf[1024];

	/* cpu0: softirq si0 of total0 ticks; cpu1 idle */
	snprintf(buf, sizeof(buf),
		 "cpu  0 0 0 %llu 0 0 %llu 0 0 0\ncpu0 0 0 0 %llu 0 0 %llu 0 0 0\n"
		 "cpu1 0 0 0 %llu 0 0 0 0 0 0\nintr 0\n",
		 total0 * 2 - si0, si0, total0 - si0, si0, total0);
	put(c, "proc/stat", buf);
	snprintf(buf, sizeof(buf),
		 "                    CPU0       CPU1\n          HI:          0          0\n"
		 "      NET_TX:          5          0\n      NET_RX:   %8llu          0\n",
		 netrx);
	put(c, "proc/softirqs", buf);
}

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	snprintf(c->root, sizeof(c->root), "/tmp/lr-sampler-XXXXXX");
	assert_non_null(mkdtemp(c->root));
	snprintf(c->proc, sizeof(c->proc), "%s/proc", c->root);
	snprintf(c->sys, sizeof(c->sys), "%s/sys", c->root);
	put_dev(c, "    lo: 1000 10 0 0 0 0 0 0 1000 10 0 0 0 0 0 0\n"
		   "  eth9: 5000 50 0 1 0 0 0 0 7000 70 0 0 0 0 0 0\n");
	put_cpu(c, 100, 1000, 10);
	put(c, "proc/net/snmp", "Tcp: RtoAlgorithm RetransSegs\nTcp: 1 40\n"
			       "Udp: InDatagrams InErrors RcvbufErrors SndbufErrors\nUdp: 1 2 3 4\n");
	put(c, "proc/net/netstat", "TcpExt: TCPOFOQueue TCPOFODrop\nTcpExt: 5 6\n");
	put(c, "sys/class/net/eth9/ifindex", "3\n");
	put(c, "sys/class/net/eth9/mtu", "9000\n");
	put(c, "sys/class/net/eth9/operstate", "up\n");
	put(c, "sys/class/net/eth9/speed", "10000\n");
	put(c, "sys/class/net/lo/ifindex", "1\n");
	put(c, "sys/class/net/lo/mtu", "65536\n");
	memset(&c->cfg, 0, sizeof(c->cfg));
	c->cfg.source = LR_SOURCE_NETLINK;
	c->cfg.history = true;	/* as the dashboard */
	c->cfg.procfs = c->proc;
	c->cfg.sysfs = c->sys;
	c->cfg.interval_ns = SEC / 10;
	lr_snapshot_init(&c->snap);
	assert_int_equal(lr_board_open(&c->board), 0);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	char cmd[128];

	lr_sampler_close(c->s);
	lr_board_close(c->board);
	lr_snapshot_free(&c->snap);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", c->root);
	assert_int_equal(system(cmd), 0);
	free(c);
	return 0;
}

static const struct lr_iface_snap *tick(struct ctx *c, uint64_t now, const char *name)
{
	assert_int_equal(lr_sampler_tick(c->s, now), 0);
	assert_int_equal(lr_board_read(c->board, &c->snap, &c->seen), 1);
	return lr_snapshot_iface(&c->snap, name);
}

/* lr_sampler_open took the baseline at the real clock; ticks use times after it. */
static uint64_t t0(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

static void test_exact_deltas_and_measured_rate(void **state)
{
	struct ctx *c = *state;
	const struct lr_iface_snap *e;
	uint64_t now;

	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	now = t0() + SEC / 4;	/* a "late" 250 ms tick against the 100 ms target */
	put_dev(c, "    lo: 1000 10 0 0 0 0 0 0 1000 10 0 0 0 0 0 0\n"
		   "  eth9: 130000 150 0 4 0 0 0 0 7000 70 0 0 0 0 0 0\n");
	e = tick(c, now, "eth9");
	assert_non_null(e);
	assert_int_equal(e->delta[LR_M_RX_BYTES], 125000);
	assert_int_equal(e->delta[LR_M_RX_PACKETS], 100);
	assert_int_equal(e->delta[LR_M_RX_DROPPED], 3);
	assert_int_equal(e->delta[LR_M_TX_BYTES], 0);
	assert_true(e->valid & LR_M_BIT(LR_M_RX_BYTES));
	/* proc source: no rx_missed column in /proc/net/dev -> unknown, not 0 */
	assert_false(e->valid & LR_M_BIT(LR_M_RX_MISSED_ERRORS));
	/* the rate divides by the measured interval (about 250 ms, not the 100 ms asked) */
	assert_true(fabs(e->per_s[LR_M_RX_BYTES] -
			 125000.0 * 1e9 / (double)c->snap.interval_ns) < 1e-6);
	assert_true(c->snap.interval_ns >= SEC / 4);
	assert_int_equal(e->mtu, 9000);
	assert_int_equal(e->speed_mbps, 10000);
	assert_int_equal(e->operstate, 6);
	assert_int_equal(e->cum[LR_M_RX_BYTES], 125000);
}

static void test_reset_is_dropped_not_a_spike(void **state)
{
	struct ctx *c = *state;
	const struct lr_iface_snap *e;
	uint64_t now;

	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	now = t0();
	put_dev(c, "  eth9: 100 1 0 0 0 0 0 0 7100 71 0 0 0 0 0 0\n");	/* rx went back */
	e = tick(c, now + SEC / 10, "eth9");
	assert_false(e->valid & LR_M_BIT(LR_M_RX_BYTES));
	assert_true(e->valid & LR_M_BIT(LR_M_TX_BYTES));
	assert_int_equal(e->delta[LR_M_TX_BYTES], 100);
	assert_int_equal(e->total[LR_M_RX_BYTES], 0);
	put_dev(c, "  eth9: 600 6 0 0 0 0 0 0 7100 71 0 0 0 0 0 0\n");
	e = tick(c, now + 2 * SEC / 10, "eth9");
	assert_int_equal(e->delta[LR_M_RX_BYTES], 500);	/* counts again from the reset */
	assert_null(lr_snapshot_iface(&c->snap, "lo"));	/* lo left the file: gone */
}

static void test_interface_recreated_new_generation(void **state)
{
	struct ctx *c = *state;
	const struct lr_iface_snap *e;
	uint64_t now;

	c->cfg.source = LR_SOURCE_PROC;
	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	now = t0();
	/* deleted and re-created with the same name between reads; its counters restart but
	 * happen to be higher than before: only the ifindex tells */
	put(c, "sys/class/net/eth9/ifindex", "17\n");
	put_dev(c, "  eth9: 90000 900 0 0 0 0 0 0 70000 700 0 0 0 0 0 0\n");
	e = tick(c, now + 6 * SEC, "eth9");	/* past the 5 s sysfs refresh */
	assert_int_equal(e->ifindex, 17);
	assert_int_equal(e->generation, 1);
	assert_int_equal(e->valid & LR_M_STATS64_MASK, 0);	/* no delta across generations */
	put_dev(c, "  eth9: 91000 910 0 0 0 0 0 0 70000 700 0 0 0 0 0 0\n");
	e = tick(c, now + 7 * SEC, "eth9");
	assert_int_equal(e->delta[LR_M_RX_BYTES], 1000);
	assert_int_equal(e->cum[LR_M_RX_BYTES], 1000);
}

static void test_iface_filter(void **state)
{
	struct ctx *c = *state;

	c->cfg.ifaces = "eth9,nosuch";
	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	assert_non_null(tick(c, t0() + SEC / 10, "eth9"));
	assert_int_equal(c->snap.n_ifaces, 1);
}

static void test_cpu_and_stack_rates(void **state)
{
	struct ctx *c = *state;
	const struct lr_cpu_snap *k;

	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	put_cpu(c, 100 + 99, 1000 + 100, 10 + 5000);	/* cpu0: 99 of 100 ticks softirq */
	put(c, "proc/net/snmp", "Tcp: RtoAlgorithm RetransSegs\nTcp: 1 140\n"
			       "Udp: InDatagrams InErrors RcvbufErrors SndbufErrors\nUdp: 1 2 53 4\n");
	put(c, "proc/net/netstat", "TcpExt: TCPOFOQueue TCPOFODrop\nTcpExt: 5 27\n");
	tick(c, t0() + SEC / 2, "eth9");
	assert_int_equal(c->snap.n_cpus, 2);
	k = &c->snap.cpus[0];
	assert_int_equal(k->cpu, 0);
	assert_true(k->valid & LR_CPUV_TIMES);
	assert_true(fabs(k->softirq_pct - 99.0) < 1e-9);
	assert_true(fabs(k->net_rx_per_s - 5000 * 1e9 / (double)c->snap.interval_ns) < 1e-6);
	assert_true(c->snap.cpus[1].idle_pct > 99.9);
	assert_true(c->snap.stack.valid & LR_STACKV_TCP_RETRANS);
	assert_int_equal(c->snap.stack.tcp_retrans_total, 100);
	assert_int_equal(c->snap.stack.udp_rcvbuf_errors_total, 50);
	/* netstat's TcpExt beside snmp's, as a delta like them; a column not there unknown */
	assert_true(c->snap.stack.valid & LR_STACKV_DROP(LR_SD_TCP_OFO_DROP));
	assert_int_equal(c->snap.stack.drop_total[LR_SD_TCP_OFO_DROP], 21);
	assert_false(c->snap.stack.valid & LR_STACKV_DROP(LR_SD_TCP_BACKLOG_DROP));
	/* no IRQ map in this tree: the hottest of all CPUs */
	assert_int_equal(lr_snapshot_iface(&c->snap, "eth9")->softirq_cpu, 0);
	assert_true(lr_snapshot_iface(&c->snap, "eth9")->softirq_max_pct > 98.9);
}

/* A stop tick 0.5 ms after a full one (rx 1000 bytes in it: 16 Mbit/s of noise against the
 * run's 80 kbit/s) is no peak of its own: its bytes join the next full tick's rate and the
 * totals, and the peak stays within the full ticks' rates plus those bytes over a full tick. */
static void test_sliver_tick_is_no_peak(void **state)
{
	struct ctx *c = *state;
	const struct lr_iface_snap *e;
	uint64_t now;

	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	now = t0();
	put_dev(c, "  eth9: 6000 60 0 1 0 0 0 0 7000 70 0 0 0 0 0 0\n");
	tick(c, now + SEC / 10, "eth9");
	put_dev(c, "  eth9: 7000 70 0 1 0 0 0 0 7000 70 0 0 0 0 0 0\n");
	e = tick(c, now + 2 * SEC / 10, "eth9");
	assert_int_equal(e->peak_rx_bps.n, 2);
	put_dev(c, "  eth9: 8000 71 0 1 0 0 0 0 7000 70 0 0 0 0 0 0\n");
	e = tick(c, now + 2 * SEC / 10 + SEC / 2000, "eth9");
	assert_true(e->per_s[LR_M_RX_BYTES] * 8 > 1e7);	/* the sliver's own rate: noise */
	assert_int_equal(e->peak_rx_bps.n, 2);	/* not a peak point */
	assert_true(e->peak_rx_bps.max < 1e6);
	put_dev(c, "  eth9: 9000 81 0 1 0 0 0 0 7000 70 0 0 0 0 0 0\n");
	e = tick(c, now + 3 * SEC / 10 + SEC / 2000, "eth9");
	assert_int_equal(e->peak_rx_bps.n, 3);
	/* full ticks: 1000 bytes per 0.1 s = 80 kbit/s; the folded one 2000 bytes in 0.1005 s */
	assert_true(e->peak_rx_bps.max <= 80000.0 + 1000 * 8 / 0.1 + 1);
	assert_true(e->peak_rx_bps.max > 80000.0);
	assert_int_equal(e->total[LR_M_RX_BYTES], 4000);	/* every byte counted */
}

static void test_reset_totals_key(void **state)
{
	struct ctx *c = *state;
	const struct lr_iface_snap *e;
	uint64_t now;

	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	now = t0();
	put_dev(c, "  eth9: 6000 60 0 1 0 0 0 0 7000 70 0 0 0 0 0 0\n");
	e = tick(c, now + SEC / 10, "eth9");
	assert_int_equal(e->total[LR_M_RX_BYTES], 1000);
	lr_sampler_reset_totals(c->s);
	put_dev(c, "  eth9: 6500 65 0 1 0 0 0 0 7000 70 0 0 0 0 0 0\n");
	e = tick(c, now + 2 * SEC / 10, "eth9");
	assert_int_equal(e->total[LR_M_RX_BYTES], 500);
	assert_int_equal(e->cum[LR_M_RX_BYTES], 1500);	/* never reset: the CSV relies on it */
	assert_int_equal(e->peak_rx_bps.n, 1);
}

static void test_missing_procfs_fails_cleanly(void **state)
{
	struct ctx *c = *state;

	c->cfg.procfs = "/nonexistent/proc";
	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), -2 /* -ENOENT */);
	assert_null(c->s);
}

/* NUMA topology through --procfs/--sysfs: the hand-made two-node tree (eth1 on node 1, CPUs
 * interleaved), and this test's own tree, which has no node directory (no NUMA: all unknown). */
static void test_numa_nodes(void **state)
{
	struct ctx *c = *state;
	const struct lr_iface_snap *e0, *e1;
	uint64_t now;

	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	now = t0();
	for (int i = 1; i <= 3; i++)
		tick(c, now + (uint64_t)i * SEC / 10, "eth9");
	assert_int_equal(c->snap.numa_nodes, 0);
	assert_int_equal(c->snap.n_cpus, 2);
	assert_false(c->snap.cpus[0].valid & LR_CPUV_NODE);
	assert_false(lr_snapshot_iface(&c->snap, "eth9")->numa_known);
	lr_sampler_close(c->s);
	c->s = NULL;

	c->cfg.procfs = "tests/fixtures/handmade-numa/numa2/proc";
	c->cfg.sysfs = "tests/fixtures/handmade-numa/numa2/sys";
	c->cfg.source = LR_SOURCE_PROC;
	c->seen = 0;
	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	now = t0();
	for (int i = 1; i <= 3; i++)	/* one interface's IRQ map and node per tick */
		tick(c, now + (uint64_t)i * SEC / 10, "eth0");
	assert_int_equal(c->snap.numa_nodes, 2);
	assert_int_equal(c->snap.n_cpus, 8);
	for (size_t k = 0; k < c->snap.n_cpus; k++) {
		assert_true(c->snap.cpus[k].valid & LR_CPUV_NODE);
		assert_int_equal(c->snap.cpus[k].node, c->snap.cpus[k].cpu % 2);
	}
	e0 = lr_snapshot_iface(&c->snap, "eth0");
	e1 = lr_snapshot_iface(&c->snap, "eth1");
	assert_non_null(e0);
	assert_non_null(e1);
	assert_true(e0->numa_known && e1->numa_known);
	assert_int_equal(e0->numa_node, 0);
	assert_int_equal(e1->numa_node, 1);
	assert_false(lr_snapshot_iface(&c->snap, "lo")->numa_known);
	/* eth1's IRQs are on node 0's CPUs (the fixture's remote case) */
	assert_int_equal(e1->n_serving_cpus, 4);
	assert_int_equal(e1->serving_cpus[3], 6);
}

/* The real thread: publishes on its own, takes live controls, stops promptly (TSan runs this). */
static void test_thread_publishes_and_stops(void **state)
{
	struct ctx *c = *state;
	uint64_t seq0, start;
	int got = 0;

	c->cfg.interval_ns = SEC / 100;
	assert_int_equal(lr_sampler_open(&c->s, &c->cfg, c->board), 0);
	assert_int_equal(lr_sampler_start(c->s), 0);
	for (int i = 0; i < 200 && got < 5; i++)
		if (lr_board_wait(c->board, c->seen, SEC / 2))
			got += lr_board_read(c->board, &c->snap, &c->seen) == 1;
	assert_int_equal(got, 5);
	seq0 = c->seen;
	lr_sampler_set_interval(c->s, 20 * SEC);	/* the thread must not be stuck in a sleep */
	assert_int_equal(lr_sampler_interval(c->s), 20 * SEC);
	lr_sampler_set_interval(c->s, 1);		/* clamped to 10 ms */
	assert_int_equal(lr_sampler_interval(c->s), LR_INTERVAL_MIN_NS);
	lr_sampler_reset_totals(c->s);
	assert_true(lr_board_wait(c->board, seq0, SEC));
	/* asleep for 20 s: a stop must wake it, not wait the interval out (a bound that only
	 * catches a wedge; this is not a timing measurement) */
	lr_sampler_set_interval(c->s, 20 * SEC);
	start = t0();
	lr_sampler_close(c->s);
	c->s = NULL;
	assert_true(t0() - start < 5 * SEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exact_deltas_and_measured_rate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_is_dropped_not_a_spike, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interface_recreated_new_generation, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_iface_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_and_stack_rates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_totals_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sliver_tick_is_no_peak, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_procfs_fails_cleanly, setup, teardown),
		cmocka_unit_test_setup_teardown(test_numa_nodes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_publishes_and_stops, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
