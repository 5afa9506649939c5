// SPDX-License-Identifier: GPL-2.0-or-later
/* The Prometheus exposition on real captured trees read through the sampler (--procfs), then
 * on a tree the test rewrites between ticks: the values are the kernel files' own numbers,
 * counters never go backwards across resets, wraps and re-created interfaces, counters the
 * source lacks are absent (not 0), and the OpenMetrics variant ends with # EOF. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fakes/fake_driver.h"
#include "linerate/present/prom.h"
#include "linerate/sample/board.h"
#include "linerate/sample/sampler.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL

struct ctx {
	char root[64], proc[96], sys[96];
	struct lr_board *board;
	struct lr_sampler *s;
	struct lr_snapshot snap;
	uint64_t seen, now;
	struct lr_prom *prom;
	struct lr_prom_buf out;
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

static uint64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	snprintf(c->root, sizeof(c->root), "/tmp/lr-prom-XXXXXX");
	assert_non_null(mkdtemp(c->root));
	snprintf(c->proc, sizeof(c->proc), "%s/proc", c->root);
	snprintf(c->sys, sizeof(c->sys), "%s/sys", c->root);
	mkdir(c->sys, 0755);
	lr_snapshot_init(&c->snap);
	assert_int_equal(lr_board_open(&c->board), 0);
	assert_int_equal(lr_prom_open(&c->prom), 0);
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
	lr_prom_close(c->prom);
	lr_prom_buf_free(&c->out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", c->root);
	assert_int_equal(system(cmd), 0);
	free(c);
	return 0;
}

/* A captured tree copied under the temp root (so the test may rewrite it). */
static void copy_fixture(struct ctx *c, const char *tree)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cp -a 'tests/fixtures/%s/proc' '%s/'", tree, c->root);
	assert_int_equal(system(cmd), 0);
}

static void open_sampler(struct ctx *c)
{
	struct lr_sampler_opts o = {
		.interval_ns = SEC / 10,
		.source = LR_SOURCE_PROC,
		.procfs = c->proc,
		.sysfs = c->sys,
	};

	assert_int_equal(lr_sampler_open(&c->s, &o, c->board), 0);
	c->now = mono();
}

/* One tick, fed to the exporter, rendered in format f into c->out (NUL-terminated). */
static const char *tick(struct ctx *c, enum lr_prom_format f)
{
	c->now += SEC / 10;
	assert_int_equal(lr_sampler_tick(c->s, c->now), 0);
	assert_int_equal(lr_board_read(c->board, &c->snap, &c->seen), 1);
	assert_int_equal(lr_prom_update(c->prom, &c->snap), 0);
	c->out.len = 0;
	assert_int_equal(lr_prom_render(c->prom, f, &c->out), 0);
	assert_true(c->out.len < c->out.cap);
	c->out.p[c->out.len] = '\0';
	return c->out.p;
}

/* The value of the one sample line "name{labels} value" (exact match of name{labels}). */
static const char *value_of(const char *text, const char *series)
{
	size_t n = strlen(series);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, series, n) && l[n] == ' ')
			return l + n + 1;
	return NULL;
}

static unsigned long long u64_of(const char *text, const char *series)
{
	const char *v = value_of(text, series);

	if (!v)
		fail_msg("no sample %s in:\n%s", series, text);
	return strtoull(v, NULL, 10);
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static const char *render_snap(struct ctx *c, struct lr_snapshot *s, uint64_t mono_ns)
{
	s->mono_ns = mono_ns;
	assert_int_equal(lr_prom_update(c->prom, s), 0);
	c->out.len = 0;
	assert_int_equal(lr_prom_render(c->prom, LR_PROM_TEXT, &c->out), 0);
	c->out.p[c->out.len] = '\0';
	return c->out.p;
}

#define Q_RXB(q) "linerate_queue_rx_bytes_total{iface=\"eth9\",queue=\"" #q "\"}"

/* Per-queue counters (issue 16): the sums since linerate first read each queue; only queues
 * of this snapshot; a queue that goes and comes back, and an interface re-created (its sums
 * restart at 0), never make a series go backwards; a field never known is absent. */
static void test_queues(void **state)
{
	struct ctx *c = *state;
	struct lr_iface_snap f;
	struct lr_queue_snap q[2];
	struct lr_snapshot s;
	const char *t;

	lr_snapshot_init(&s);
	memset(&f, 0, sizeof(f));
	memset(q, 0, sizeof(q));
	snprintf(f.name, sizeof(f.name), "eth9");
	f.ifindex = 3;
	f.mtu = f.speed_mbps = -1;
	q[0] = (struct lr_queue_snap){.queue = 0, .valid = LR_QV_RX_BYTES | LR_QV_RX_PACKETS,
				      .cum = {10, 1000}};
	q[1] = (struct lr_queue_snap){.queue = 3, .valid = LR_QV_RX_BYTES, .cum = {0, 500}};
	f.queues = q;
	f.n_queues = 2;
	s.ifaces = &f;
	s.n_ifaces = 1;
	t = render_snap(c, &s, SEC);
	assert_int_equal(u64_of(t, Q_RXB(0)), 1000);
	assert_int_equal(u64_of(t, Q_RXB(3)), 500);
	assert_int_equal(u64_of(t, "linerate_queue_rx_packets_total{iface=\"eth9\",queue=\"0\"}"), 10);
	assert_null(strstr(t, "linerate_queue_rx_packets_total{iface=\"eth9\",queue=\"3\"}"));
	assert_null(strstr(t, "linerate_queue_tx_bytes_total"));	/* never known: absent */
	assert_int_equal(count(t, "# TYPE linerate_queue_rx_bytes_total counter"), 1);

	/* queue 3 gone this tick: not rendered */
	q[0].cum[1] = 1500;
	f.n_queues = 1;
	t = render_snap(c, &s, 2 * SEC);
	assert_int_equal(u64_of(t, Q_RXB(0)), 1500);
	assert_null(strstr(t, "queue=\"3\""));

	/* back, its sum grown meanwhile: the growth counts */
	q[1].cum[1] = 800;
	f.n_queues = 2;
	t = render_snap(c, &s, 3 * SEC);
	assert_int_equal(u64_of(t, Q_RXB(3)), 800);

	/* eth9 re-created (new ifindex): the sampler's sums restart at 0; ours add from there */
	f.ifindex = 9;
	f.generation = 1;
	q[0].cum[1] = 200;
	q[1].cum[1] = 0;
	t = render_snap(c, &s, 4 * SEC);
	assert_int_equal(u64_of(t, Q_RXB(0)), 1700);
	assert_int_equal(u64_of(t, Q_RXB(3)), 800);
	q[0].cum[1] = 300;
	t = render_snap(c, &s, 5 * SEC);
	assert_int_equal(u64_of(t, Q_RXB(0)), 1800);
	s.ifaces = NULL;
	s.n_ifaces = 0;
}

#define QD_DROPS(h, p) "linerate_qdisc_drops_total{iface=\"eth9\",qdisc=\"tbf\",handle=\"" h \
			"\",parent=\"" p "\"}"

/* Qdisc series (issue 27): a counter starts at the kernel's own value (tc -s's) and then adds
 * what the sampler's sums grew by, so a qdisc that restarted under the same handle (its raw
 * count back near 0, the sampler's interval dropped) never makes it go backwards; mq's
 * children, all handle 0:, are told apart by parent; unknown figures are absent. */
static void test_qdiscs(void **state)
{
	struct ctx *c = *state;
	struct lr_iface_snap f;
	struct lr_qdisc_snap q[3];
	struct lr_snapshot s;
	const char *t;

	lr_snapshot_init(&s);
	memset(&f, 0, sizeof(f));
	memset(q, 0, sizeof(q));
	snprintf(f.name, sizeof(f.name), "eth9");
	f.ifindex = 3;
	f.mtu = f.speed_mbps = -1;
	q[0] = (struct lr_qdisc_snap){.handle = 0x10000, .parent = 0xffffffff, .kind = "tbf",
				      .raw_valid = 0x1f, .raw = {143924, 7, 0, 5000, 10}};
	q[0].f.base_ns = SEC;
	q[0].f.valid = LR_QDV_BACKLOG_BYTES | LR_QDV_BACKLOG_PACKETS;
	q[0].f.backlog_bytes = 15000;
	q[0].f.backlog_packets = 10;
	q[1] = (struct lr_qdisc_snap){.handle = 0, .parent = 0x10001, .kind = "tbf",
				      .raw_valid = LR_QDV_BIT(LR_QDC_DROPS), .raw = {3}};
	q[2] = (struct lr_qdisc_snap){.handle = 0, .parent = 0x10002, .kind = "tbf"};
	f.qdiscs = q;
	f.n_qdiscs = 3;
	s.ifaces = &f;
	s.n_ifaces = 1;
	t = render_snap(c, &s, SEC);
	assert_int_equal(u64_of(t, QD_DROPS("1:", "root")), 143924);
	assert_int_equal(u64_of(t, "linerate_qdisc_overlimits_total{iface=\"eth9\",qdisc=\"tbf\","
				   "handle=\"1:\",parent=\"root\"}"), 7);
	assert_int_equal(u64_of(t, QD_DROPS("0:", "1:1")), 3);
	assert_null(strstr(t, "parent=\"1:2\"}"));	/* nothing known of it: absent */
	assert_null(strstr(t, "linerate_qdisc_requeues_total{iface=\"eth9\",qdisc=\"tbf\",handle="
			      "\"0:\""));
	assert_int_equal(u64_of(t, "linerate_qdisc_backlog_bytes{iface=\"eth9\",qdisc=\"tbf\","
				   "handle=\"1:\",parent=\"root\"}"), 15000);
	assert_int_equal(count(t, "# TYPE linerate_qdisc_drops_total counter"), 1);
	assert_int_equal(count(t, "# TYPE linerate_qdisc_backlog_packets gauge"), 1);

	/* 100 more drops counted by the sampler */
	q[0].raw[LR_QDC_DROPS] = 144024;
	q[0].f.cum[LR_QDC_DROPS] = 100;
	q[0].f.cum_valid = LR_QDV_BIT(LR_QDC_DROPS);
	t = render_snap(c, &s, 2 * SEC);
	assert_int_equal(u64_of(t, QD_DROPS("1:", "root")), 144024);
	/* deleted and added back under 1:: the raw count restarts, the sampler drops that
	 * interval (its sums unchanged), the series stays; then 6 more */
	q[0].raw[LR_QDC_DROPS] = 40;
	t = render_snap(c, &s, 3 * SEC);
	assert_int_equal(u64_of(t, QD_DROPS("1:", "root")), 144024);
	q[0].raw[LR_QDC_DROPS] = 46;
	q[0].f.cum[LR_QDC_DROPS] = 106;
	t = render_snap(c, &s, 4 * SEC);
	assert_int_equal(u64_of(t, QD_DROPS("1:", "root")), 144030);
	/* the sampler lost it and found it again (a new reading, new sums): all it counted */
	q[0].f.base_ns = 5 * SEC;
	q[0].f.cum[LR_QDC_DROPS] = 0;
	q[0].raw[LR_QDC_DROPS] = 50;
	t = render_snap(c, &s, 5 * SEC);
	assert_int_equal(u64_of(t, QD_DROPS("1:", "root")), 144080);
	/* a qdisc gone from the snapshot is not rendered; gone for LR_PROM_FORGET_NS, it is
	 * forgotten: back, it starts again from the kernel's count (20), not from its old
	 * series (3 + the sampler's 7) */
	f.n_qdiscs = 1;
	t = render_snap(c, &s, 6 * SEC);
	assert_null(strstr(t, "parent=\"1:1\""));
	t = render_snap(c, &s, 7 * SEC + LR_PROM_FORGET_NS);
	q[1].raw[LR_QDC_DROPS] = 20;
	q[1].f.cum[LR_QDC_DROPS] = 7;
	q[1].f.cum_valid = LR_QDV_BIT(LR_QDC_DROPS);
	f.n_qdiscs = 2;
	t = render_snap(c, &s, 8 * SEC + LR_PROM_FORGET_NS);
	assert_int_equal(u64_of(t, QD_DROPS("0:", "1:1")), 20);
	s.ifaces = NULL;
	s.n_ifaces = 0;
}

/* The driver's counters by category, linerate_iface_nic_{fifo,drop,error,pause}_total (issue 29:
 * the four families were once removed from the page and no check saw it). Each real driver's
 * counter list of tests/fixtures/ethtool/ answers under the real interface table; between two
 * dumps every device-level counter (a name without a queue, priority or port number) of the
 * fixture's fifo, drop, error and pause rows moves by an amount of its own. Each family's value
 * is the sum of the amounts of the rows the fixture's category column puts in it (a person's
 * reading of the driver's source, not linerate's rules); a category the driver has no counter
 * of is absent, never 0. */
static void test_driver_families(void **state)
{
	static const char *const drivers[][2] = {
		{"be2net", "be2net"}, {"i40e", "i40e"}, {"igb", "igb"},	{"ixgbe", "ixgbe"},
		{"mlx5", "mlx5_core"}, {"veth", "veth"}, {"virtio_net", "virtio_net"},
	};
	static const char *const fam[] = {"fifo", "drop", "error", "pause"};
	struct ctx *c = *state;
	size_t movers = 0;

	for (size_t k = 0; k < sizeof(drivers) / sizeof(drivers[0]); k++) {
		struct drv_run *r = drv_run_open(drivers[k][0], drivers[k][1], drivers[k][0]);
		unsigned long long want[4] = {0};
		bool has[4] = {false};
		int moved = 0;
		const char *t;

		drv_run_tick(r, SEC);
		for (uint32_t i = 0; i < r->drv.n; i++) {
			for (int f = 0; f < 4; f++) {
				if (strcmp(r->drv.cat[i], fam[f]))
					continue;
				has[f] = true;
				if (strpbrk(r->drv.names[i], "0123456789"))
					break;
				r->drv.vals[i] += 1000 + 37 * i;
				want[f] += 1000 + 37 * i;
				moved++;
			}
		}
		movers += moved > 0;
		drv_run_tick(r, SEC);
		t = render_snap(c, &r->snap, (uint64_t)(k + 1) * SEC);
		for (int f = 0; f < 4; f++) {
			char series[96];

			snprintf(series, sizeof(series), "linerate_iface_nic_%s_total"
				 "{iface=\"%s\"}", fam[f], drivers[k][0]);
			if (!has[f]) {
				assert_null(value_of(t, series));
				continue;
			}
			if (u64_of(t, series) != want[f])
				fail_msg("%s: %s is %llu, the fixture's %s rows moved %llu",
					 drivers[k][0], series, u64_of(t, series), fam[f], want[f]);
		}
		drv_run_close(r);
	}
	assert_int_equal(movers, 6);	/* veth's such rows are all per queue: its sums stay 0 */
}

/* sysstat's capture: every number below is the file's own. */
static void test_captured_tree_values(void **state)
{
	struct ctx *c = *state;
	const char *t;

	copy_fixture(c, "sysstat-root1");
	open_sampler(c);
	t = tick(c, LR_PROM_TEXT);
	/* /proc/net/dev: enp6s0 rx 205916976 bytes 167307 packets, tx 10811120 / 54567 */
	assert_int_equal(u64_of(t, "linerate_iface_rx_bytes_total{iface=\"enp6s0\"}"), 205916976);
	assert_int_equal(u64_of(t, "linerate_iface_rx_packets_total{iface=\"enp6s0\"}"), 167307);
	assert_int_equal(u64_of(t, "linerate_iface_tx_bytes_total{iface=\"enp6s0\"}"), 10811120);
	assert_int_equal(u64_of(t, "linerate_iface_tx_packets_total{iface=\"enp6s0\"}"), 54567);
	/* wlp5s0 drop column 848; virbr0 fifo 0 is a real 0 the file has */
	assert_int_equal(u64_of(t, "linerate_iface_rx_dropped_total{iface=\"wlp5s0\"}"), 848);
	assert_non_null(value_of(t, "linerate_iface_rx_fifo_total{iface=\"virbr0\"}"));
	/* /proc/net/dev has no rx_missed/rx_over column and --procfs reads no driver: absent */
	assert_null(strstr(t, "linerate_iface_rx_missed"));
	assert_null(strstr(t, "linerate_iface_rx_over"));
	assert_null(strstr(t, "linerate_iface_nic_"));
	/* no sysfs in this capture: speed, MTU and state unknown, so absent */
	assert_null(strstr(t, "linerate_iface_mtu_bytes"));
	assert_null(strstr(t, "linerate_iface_link_speed_bps"));
	/* /proc/stat cpu0: user 10600 nice 331675 ... softirq 9600 ticks of 1/100 s */
	assert_non_null(strstr(t, "linerate_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 106.00\n"));
	assert_non_null(strstr(t, "linerate_cpu_seconds_total{cpu=\"0\",mode=\"nice\"} 3316.75\n"));
	assert_non_null(strstr(t, "linerate_cpu_seconds_total{cpu=\"1\",mode=\"softirq\"} 46.68\n"));
	/* /proc/softirqs: NET_RX on CPU3 52549, NET_TX on CPU3 687 */
	assert_int_equal(u64_of(t, "linerate_softirqs_total{cpu=\"3\",type=\"NET_RX\"}"), 52549);
	assert_int_equal(u64_of(t, "linerate_softirqs_total{cpu=\"3\",type=\"NET_TX\"}"), 687);
	/* softnet_stat row 0: processed 0x2ec8 */
	assert_int_equal(u64_of(t, "linerate_softnet_processed_total{cpu=\"0\"}"), 0x2ec8);
	assert_int_equal(u64_of(t, "linerate_softnet_dropped_total{cpu=\"0\"}"), 0);
	/* one HELP and TYPE per family, before its samples */
	assert_non_null(strstr(t, "# HELP linerate_iface_rx_bytes_total "));
	assert_non_null(strstr(t, "# TYPE linerate_iface_rx_bytes_total counter\n"
				  "linerate_iface_rx_bytes_total{iface="));
	assert_non_null(strstr(t, "# TYPE linerate_softirqs_total counter\n"));
	assert_int_equal(count(t, "# TYPE linerate_softirqs_total "), 1);
	assert_int_equal(count(t, "# HELP linerate_softirqs_total "), 1);
	assert_int_equal(count(t, "# TYPE "), count(t, "# HELP "));
	assert_null(strstr(t, "# EOF"));
	assert_null(strstr(t, "node=\""));	/* no NUMA topology in this capture: no label */
}

/* The hand-made two-node tree (issue 19): CPU series carry the node of the capture's own
 * nodeN/cpulist (node0 0,2,4,6; node1 1,3,5,7). */
static void test_numa_node_label(void **state)
{
	struct ctx *c = *state;
	char cmd[512];
	const char *t;

	copy_fixture(c, "handmade-numa/numa2");
	snprintf(cmd, sizeof(cmd), "cp -a 'tests/fixtures/handmade-numa/numa2/sys' '%s/'", c->root);
	assert_int_equal(system(cmd), 0);
	open_sampler(c);
	tick(c, LR_PROM_TEXT);
	t = tick(c, LR_PROM_TEXT);
	assert_non_null(strstr(t, "linerate_cpu_seconds_total{cpu=\"3\",node=\"1\",mode=\"user\"} "));
	assert_non_null(strstr(t, "linerate_cpu_seconds_total{cpu=\"6\",node=\"0\",mode=\"idle\"} "));
	assert_non_null(strstr(t, "linerate_softirqs_total{cpu=\"2\",node=\"0\",type=\"NET_RX\"} "));
	assert_non_null(strstr(t, "linerate_softnet_processed_total{cpu=\"7\",node=\"1\"} "));
	assert_int_equal(count(t, "{cpu=\""), count(t, ",node=\""));	/* every CPU series */
}

/* The same tree in OpenMetrics: counter families named without _total, # EOF last. */
static void test_openmetrics_variant(void **state)
{
	struct ctx *c = *state;
	const char *t;

	copy_fixture(c, "sysstat-root1");
	open_sampler(c);
	t = tick(c, LR_PROM_OPENMETRICS);
	assert_non_null(strstr(t, "# TYPE linerate_iface_rx_bytes counter\n"));
	assert_non_null(strstr(t, "# HELP linerate_iface_rx_bytes "));
	assert_null(strstr(t, "# TYPE linerate_iface_rx_bytes_total"));
	assert_non_null(strstr(t, "# TYPE linerate_cpu_seconds counter\n"));
	assert_non_null(strstr(t, "\nlinerate_iface_rx_bytes_total{iface=\"enp6s0\"} 205916976\n"));
	assert_non_null(strstr(t, "# TYPE linerate_sample_interval_seconds gauge\n"));
	assert_int_equal(strcmp(t + strlen(t) - 6, "# EOF\n"), 0);
	assert_ptr_equal(strstr(t, "# EOF"), t + strlen(t) - 6);
}

/* A rewritten tree: a reset, an interface deleted and re-created, 32-bit wraps. */
static void test_never_backwards(void **state)
{
	struct ctx *c = *state;
	const char *t;

	put_dev(c, "  eth9: 5000 50 0 1 0 0 0 0 7000 70 0 0 0 0 0 0\n"
		   "a\"b\\c: 1 1 0 0 0 0 0 0 2 2 0 0 0 0 0 0\n");
	put(c, "sys/class/net/eth9/ifindex", "3\n");
	put(c, "sys/class/net/eth9/mtu", "9000\n");
	put(c, "sys/class/net/eth9/operstate", "up\n");
	put(c, "sys/class/net/eth9/speed", "10000\n");
	put(c, "proc/softirqs", "                    CPU0\n      NET_TX:          5\n"
				"      NET_RX: 4294967290\n");
	put(c, "proc/net/softnet_stat", "fffffff0 00000001 00000002\n");
	put(c, "proc/stat", "cpu  10 0 0 90 7 0 0\ncpu0 10 0 0 90 7 0 0\n");
	open_sampler(c);
	t = tick(c, LR_PROM_TEXT);
	assert_int_equal(u64_of(t, "linerate_iface_rx_bytes_total{iface=\"eth9\"}"), 5000);
	assert_int_equal(u64_of(t, "linerate_iface_mtu_bytes{iface=\"eth9\"}"), 9000);
	assert_int_equal(u64_of(t, "linerate_iface_link_speed_bps{iface=\"eth9\"}"), 10000000000ULL);
	assert_int_equal(u64_of(t, "linerate_iface_up{iface=\"eth9\"}"), 1);
	/* a name with a quote and a backslash, escaped */
	assert_int_equal(u64_of(t, "linerate_iface_tx_bytes_total{iface=\"a\\\"b\\\\c\"}"), 2);
	/* ... which has no operstate in the tree: its up is unknown, so no series (never 0) */
	assert_null(strstr(t, "linerate_iface_up{iface=\"a\\\"b"));
	/* the interval the sampler was opened with (-i 0.1), in seconds */
	assert_non_null(strstr(t, "\nlinerate_sample_interval_seconds 0.100\n"));
	assert_int_equal(u64_of(t, "linerate_softirqs_total{cpu=\"0\",type=\"NET_RX\"}"),
			 4294967290ULL);
	/* /proc/stat with 7 columns (pre-2.6.11): no steal series */
	assert_null(strstr(t, "mode=\"steal\""));
	assert_non_null(strstr(t, "linerate_cpu_seconds_total{cpu=\"0\",mode=\"iowait\"} 0.07\n"));

	/* rx went back (a driver reset): the counter holds, then grows by what follows */
	put_dev(c, "  eth9: 100 1 0 1 0 0 0 0 7100 71 0 0 0 0 0 0\n");
	put(c, "proc/softirqs", "                    CPU0\n      NET_TX:          5\n"
				"      NET_RX:          4\n");	/* wrapped: +10 */
	put(c, "proc/net/softnet_stat", "00000010 00000001 00000002\n");	/* wrapped: +32 */
	put(c, "proc/stat", "cpu  12 0 0 95 3 0 0\ncpu0 12 0 0 95 3 0 0\n");	/* iowait back */
	t = tick(c, LR_PROM_TEXT);
	assert_int_equal(u64_of(t, "linerate_iface_rx_bytes_total{iface=\"eth9\"}"), 5000);
	assert_int_equal(u64_of(t, "linerate_iface_tx_bytes_total{iface=\"eth9\"}"), 7100);
	/* the odd name left the file: its series is gone from the page */
	assert_null(strstr(t, "a\\\"b"));
	assert_int_equal(u64_of(t, "linerate_softirqs_total{cpu=\"0\",type=\"NET_RX\"}"),
			 4294967300ULL);
	assert_int_equal(u64_of(t, "linerate_softnet_processed_total{cpu=\"0\"}"),
			 0xfffffff0ULL + 32);
	assert_non_null(strstr(t, "linerate_cpu_seconds_total{cpu=\"0\",mode=\"iowait\"} 0.07\n"));
	assert_non_null(strstr(t, "linerate_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 0.12\n"));
	put_dev(c, "  eth9: 600 6 0 1 0 0 0 0 7100 71 0 0 0 0 0 0\n");
	t = tick(c, LR_PROM_TEXT);
	assert_int_equal(u64_of(t, "linerate_iface_rx_bytes_total{iface=\"eth9\"}"), 5500);

	/* eth9 deleted and re-created between two reads (new ifindex, counters from 0): the
	 * series goes on from 5500 and adds what the new device counted */
	put(c, "sys/class/net/eth9/ifindex", "7\n");
	put(c, "sys/class/net/eth9/operstate", "down\n");
	put_dev(c, "  eth9: 40 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
	c->now += 6 * SEC;	/* past the sampler's 5 s gauge refresh, which reads the ifindex */
	t = tick(c, LR_PROM_TEXT);
	assert_int_equal(u64_of(t, "linerate_iface_rx_bytes_total{iface=\"eth9\"}"), 5540);
	assert_int_equal(u64_of(t, "linerate_iface_tx_bytes_total{iface=\"eth9\"}"), 7100);
	assert_int_equal(u64_of(t, "linerate_iface_up{iface=\"eth9\"}"), 0);
	/* a veth whose peer is down says lowerlayerdown: not up either (only "up" is 1) */
	put(c, "sys/class/net/eth9/operstate", "lowerlayerdown\n");
	c->now += 6 * SEC;	/* the next gauge refresh */
	t = tick(c, LR_PROM_TEXT);
	assert_int_equal(u64_of(t, "linerate_iface_up{iface=\"eth9\"}"), 0);
	put(c, "sys/class/net/eth9/operstate", "up\n");
	c->now += 6 * SEC;
	t = tick(c, LR_PROM_TEXT);
	assert_int_equal(u64_of(t, "linerate_iface_up{iface=\"eth9\"}"), 1);
	put_dev(c, "  eth9: 90 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
	t = tick(c, LR_PROM_TEXT);
	assert_int_equal(u64_of(t, "linerate_iface_rx_bytes_total{iface=\"eth9\"}"), 5590);
}

static void test_negotiation(void **state)
{
	(void)state;
	/* what Prometheus 2.42 sends */
	assert_int_equal(lr_prom_negotiate("application/openmetrics-text;version=1.0.0,application/"
					   "openmetrics-text;version=0.0.1;q=0.75,text/plain;"
					   "version=0.0.4;q=0.5,*/*;q=0.1"),
			 LR_PROM_OPENMETRICS);
	assert_int_equal(lr_prom_negotiate(NULL), LR_PROM_TEXT);
	assert_int_equal(lr_prom_negotiate("*/*"), LR_PROM_TEXT);	/* curl */
	assert_int_equal(lr_prom_negotiate("text/plain;version=0.0.4"), LR_PROM_TEXT);
	assert_int_equal(lr_prom_negotiate("application/openmetrics-text; q=0"), LR_PROM_TEXT);
	assert_int_equal(lr_prom_negotiate("text/plain;q=0.9, application/openmetrics-text;q=0.5"),
			 LR_PROM_TEXT);
	assert_int_equal(lr_prom_negotiate("Application/OpenMetrics-Text"), LR_PROM_OPENMETRICS);
	assert_string_equal(lr_prom_content_type(LR_PROM_TEXT),
			    "text/plain; version=0.0.4; charset=utf-8");
	assert_string_equal(lr_prom_content_type(LR_PROM_OPENMETRICS),
			    "application/openmetrics-text; version=1.0.0; charset=utf-8");
}

/* Before the first snapshot: an empty page (OpenMetrics: only # EOF), no made-up series. */
static void test_empty_before_first_snapshot(void **state)
{
	struct ctx *c = *state;

	assert_int_equal(lr_prom_render(c->prom, LR_PROM_TEXT, &c->out), 0);
	assert_int_equal(c->out.len, 0);
	assert_int_equal(lr_prom_render(c->prom, LR_PROM_OPENMETRICS, &c->out), 0);
	assert_int_equal(c->out.len, 6);
	assert_memory_equal(c->out.p, "# EOF\n", 6);
}

/* The running test's streams (this process's own counts, so a built snapshot is the input):
 * a restarted test (new traffic_generation) counts from 0, the series goes on growing. */
static void test_streams(void **state)
{
	struct ctx *c = *state;
	struct lr_stream_snap st[3];
	struct lr_snapshot s;
	const char *t, *v;

	lr_snapshot_init(&s);
	memset(st, 0, sizeof(st));
	st[0] = (struct lr_stream_snap){.id = 5, .sender = true, .total_bytes = 1000,
					.total_retransmits = 3, .rtt_us = 1500, .cwnd_bytes = 65536};
	st[1] = (struct lr_stream_snap){.id = 7, .udp = true, .total_bytes = 4000,
					.total_packets = 4, .total_lost = 1, .total_out_of_order = 2,
					.rtt_us = -1, .cwnd_bytes = -1};
	/* a TCP sender whose TCP_INFO was not read yet: RTT and cwnd unknown */
	st[2] = (struct lr_stream_snap){.id = 9, .sender = true, .total_bytes = 10, .rtt_us = -1,
					.cwnd_bytes = -1};
	s.streams = st;
	s.n_streams = 3;
	s.traffic_generation = 1;
	s.mono_ns = SEC;
	assert_int_equal(lr_prom_update(c->prom, &s), 0);
	assert_int_equal(lr_prom_render(c->prom, LR_PROM_TEXT, &c->out), 0);
	c->out.len = 0;
	assert_int_equal(lr_prom_render(c->prom, LR_PROM_TEXT, &c->out), 0);
	c->out.p[c->out.len] = '\0';
	t = c->out.p;
	assert_int_equal(u64_of(t, "linerate_stream_bytes_total{stream=\"5\",direction=\"send\","
				   "protocol=\"tcp\"}"),
			 1000);
	assert_int_equal(u64_of(t, "linerate_stream_retransmits_total{stream=\"5\",direction=\"send\","
				   "protocol=\"tcp\"}"),
			 3);
	/* tcpi_rtt 1500 us is 1.5 ms, in the family's seconds; cwnd in bytes */
	v = value_of(t, "linerate_stream_rtt_seconds{stream=\"5\",direction=\"send\","
			"protocol=\"tcp\"}");
	assert_non_null(v);
	assert_int_equal(strncmp(v, "0.001500\n", 9), 0);
	assert_int_equal(u64_of(t, "linerate_stream_cwnd_bytes{stream=\"5\",direction=\"send\","
				   "protocol=\"tcp\"}"),
			 65536);
	assert_null(strstr(t, "linerate_stream_rtt_seconds{stream=\"9\""));
	assert_null(strstr(t, "linerate_stream_cwnd_bytes{stream=\"9\""));
	assert_int_equal(u64_of(t, "linerate_stream_lost_total{stream=\"7\",direction=\"recv\","
				   "protocol=\"udp\"}"),
			 1);
	/* meaningless pairs are absent: a TCP stream's packets, a UDP receiver's RTT */
	assert_null(strstr(t, "linerate_stream_packets_total{stream=\"5\""));
	assert_null(strstr(t, "linerate_stream_rtt_seconds{stream=\"7\""));
	assert_null(strstr(t, "linerate_stream_retransmits_total{stream=\"7\""));

	/* the test restarted: its counts begin again at 200 */
	st[0].total_bytes = 200;
	st[0].total_retransmits = 0;
	s.traffic_generation = 2;
	s.n_streams = 1;
	s.mono_ns = 2 * SEC;
	assert_int_equal(lr_prom_update(c->prom, &s), 0);
	c->out.len = 0;
	assert_int_equal(lr_prom_render(c->prom, LR_PROM_TEXT, &c->out), 0);
	c->out.p[c->out.len] = '\0';
	t = c->out.p;
	assert_int_equal(u64_of(t, "linerate_stream_bytes_total{stream=\"5\",direction=\"send\","
				   "protocol=\"tcp\"}"),
			 1200);
	assert_int_equal(u64_of(t, "linerate_stream_retransmits_total{stream=\"5\",direction=\"send\","
				   "protocol=\"tcp\"}"),
			 3);
	assert_null(strstr(t, "stream=\"7\""));	/* gone with the old test */
	st[0].total_bytes = 700;
	s.mono_ns = 3 * SEC;
	assert_int_equal(lr_prom_update(c->prom, &s), 0);
	c->out.len = 0;
	assert_int_equal(lr_prom_render(c->prom, LR_PROM_TEXT, &c->out), 0);
	c->out.p[c->out.len] = '\0';
	assert_int_equal(u64_of(c->out.p, "linerate_stream_bytes_total{stream=\"5\",direction=\"send\","
					  "protocol=\"tcp\"}"),
			 1700);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_captured_tree_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_driver_families, setup, teardown),
		cmocka_unit_test_setup_teardown(test_numa_node_label, setup, teardown),
		cmocka_unit_test_setup_teardown(test_openmetrics_variant, setup, teardown),
		cmocka_unit_test_setup_teardown(test_never_backwards, setup, teardown),
		cmocka_unit_test(test_negotiation),
		cmocka_unit_test_setup_teardown(test_streams, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queues, setup, teardown),
		cmocka_unit_test_setup_teardown(test_qdiscs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_before_first_snapshot, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
