// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Views rendered from fixture snapshots built here (a 40G i40e at 38.4 Gbit/s with
 * rx_missed_errors rising, a 1G eth0, lo with unknown speed, a 64-CPU host with one CPU at 99%
 * softirq) and compared with golden frames in tests/fixtures/frames/ at 80x24 and 132x43.
 * LR_UPDATE_GOLDEN=1 rewrites the goldens (then read them: they are the spec).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "linerate/present/ui.h"
#include "linerate/collect/ethtool.h"
#include "fakes/golden.h"
#include "linerate/present/frame.h"
#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "linerate/diagnose/hints.h"
#include "linerate/present/view.h"

#define T0_REAL_NS (1795960931ULL * LR_NSEC_PER_SEC)	/* 2026-11-30 14:02:11 UTC */

static void set_rate(struct lr_iface_snap *i, enum lr_metric m, double per_s, double dt)
{
	i->valid |= LR_M_BIT(m);
	i->per_s[m] = per_s;
	i->delta[m] = (uint64_t)llround(per_s * dt);
	i->total_valid |= LR_M_BIT(m);
	i->total[m] = (uint64_t)llround(per_s * 600);	/* ten minutes of it */
}

/* A series ramping up to v over the first 20 points and holding there, with a dip. */
static void fill_series(struct lr_series *s, double v, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		double f = k < 20 ? (double)k / 20 : 1.0;

		if (k >= 60 && k < 64)
			f = 0.5;
		s->v[k % LR_HIST_LEN] = (float)(v * f);
	}
	s->head = n % LR_HIST_LEN;
	s->len = n < LR_HIST_LEN ? n : LR_HIST_LEN;
}

static void fill_peak(struct lr_peak *p, double min, double max, double avg)
{
	p->min = min;
	p->max = max;
	p->n = 1200;
	p->sum = avg * 1200;
}

static void base_iface(struct lr_iface_snap *i, const char *name, int ifindex)
{
	memset(i, 0, sizeof(*i));
	lr_strlcpy(i->name, name, sizeof(i->name));
	i->ifindex = ifindex;
	i->operstate = 6;
	i->mtu = 1500;
	i->speed_mbps = -1;
	i->duplex = -1;
	i->ring_rx = i->ring_rx_max = i->ring_tx = i->ring_tx_max = -1;
	i->interval_ns = 500 * LR_NSEC_PER_MSEC;
	i->softirq_max_pct = -1;
	i->softirq_cpu = -1;
}

static void add_moved(struct lr_iface_snap *i, const char *name, enum lr_counter_cat cat,
		      bool per_queue, double per_s, uint64_t total)
{
	struct lr_drv_counter *c = &i->moved[i->n_moved++];

	lr_strlcpy(c->name, name, sizeof(c->name));
	c->cat = cat;
	c->per_queue = per_queue;
	c->per_s = per_s;
	c->delta = (uint64_t)llround(per_s * 0.5);
	c->total = total;
}

/* The fixture host: eth0 1G, eth1 40G i40e at 38.4 Gbit/s with rx_missed rising, lo. */
static void build_snapshot(struct lr_snapshot *s, size_t n_cpus)
{
	const double dt = 0.5;
	struct lr_iface_snap *e0, *e1, *lo;

	lr_snapshot_init(s);
	s->seq = 1200;
	s->real_ns = T0_REAL_NS;
	s->mono_ns = 1000 * LR_NSEC_PER_SEC;
	s->elapsed_ns = 600 * LR_NSEC_PER_SEC;
	s->interval_ns = s->target_interval_ns = 500 * LR_NSEC_PER_MSEC;
	s->source = LR_SOURCE_NETLINK;
	s->ifaces = calloc(3, sizeof(*s->ifaces));
	s->n_ifaces = s->cap_ifaces = 3;
	e0 = &s->ifaces[0];
	e1 = &s->ifaces[1];
	lo = &s->ifaces[2];

	base_iface(e0, "eth0", 2);
	e0->speed_mbps = 1000;
	e0->duplex = 1;
	lr_strlcpy(e0->driver, "e1000e", sizeof(e0->driver));
	lr_strlcpy(e0->driver_version, "6.1.0", sizeof(e0->driver_version));
	lr_strlcpy(e0->fw_version, "0.13-4", sizeof(e0->fw_version));
	e0->ring_rx = e0->ring_tx = 256;
	e0->ring_rx_max = e0->ring_tx_max = 4096;
	e0->features_known = 0x7f;
	e0->features = LR_FEAT_SG | LR_FEAT_TSO | LR_FEAT_GSO | LR_FEAT_GRO;
	set_rate(e0, LR_M_RX_BYTES, 1.2e6 / 8, dt);
	set_rate(e0, LR_M_TX_BYTES, 3.4e6 / 8, dt);
	set_rate(e0, LR_M_RX_PACKETS, 210, dt);
	set_rate(e0, LR_M_TX_PACKETS, 340, dt);
	for (int m = LR_M_RX_ERRORS; m < LR_M_NIC_FIFO; m++)
		set_rate(e0, m, 0, dt);
	e0->softirq_max_pct = 2;
	e0->softirq_cpu = 0;
	fill_series(&e0->hist[LR_SER_RX_BPS], 1.2e6, 300);
	fill_series(&e0->hist[LR_SER_TX_BPS], 3.4e6, 300);
	fill_series(&e0->hist[LR_SER_RX_PPS], 210, 300);
	fill_series(&e0->hist[LR_SER_TX_PPS], 340, 300);

	base_iface(e1, "eth1", 3);
	e1->mtu = 9000;
	e1->speed_mbps = 40000;
	e1->duplex = 1;
	lr_strlcpy(e1->driver, "i40e", sizeof(e1->driver));
	lr_strlcpy(e1->driver_version, "2.8.20", sizeof(e1->driver_version));
	lr_strlcpy(e1->fw_version, "6.01 0x800034a4 1.1747.0", sizeof(e1->fw_version));
	lr_strlcpy(e1->bus_info, "0000:3b:00.0", sizeof(e1->bus_info));
	e1->ring_rx = e1->ring_tx = 512;
	e1->ring_rx_max = e1->ring_tx_max = 4096;
	e1->features_known = 0x7f;
	e1->features = LR_FEAT_SG | LR_FEAT_TSO | LR_FEAT_GSO | LR_FEAT_GRO | LR_FEAT_RX_CSUM;
	set_rate(e1, LR_M_RX_BYTES, 38.41e9 / 8, dt);
	set_rate(e1, LR_M_TX_BYTES, 0.21e9 / 8, dt);
	set_rate(e1, LR_M_RX_PACKETS, 531200, dt);
	set_rate(e1, LR_M_TX_PACKETS, 12400, dt);
	for (int m = LR_M_RX_ERRORS; m < LR_M_NIC_FIFO; m++)
		set_rate(e1, m, 0, dt);
	set_rate(e1, LR_M_RX_MISSED_ERRORS, 1200, dt);
	set_rate(e1, LR_M_NIC_FIFO, 1510, dt);
	set_rate(e1, LR_M_NIC_DROP, 0, dt);
	e1->total[LR_M_RX_DROPPED] = 17;	/* dropped earlier, quiet now */
	e1->moved = calloc(4, sizeof(*e1->moved));
	e1->cap_moved = 4;
	add_moved(e1, "rx_missed_errors", LR_CAT_FIFO, false, 1200, 483000);
	add_moved(e1, "port.rx_discards", LR_CAT_FIFO, false, 310, 124000);
	add_moved(e1, "rx_queue_3_drops", LR_CAT_DROP, true, 0, 12);
	add_moved(e1, "port.rx_dropped", LR_CAT_DROP, false, 0, 17);
	e1->serving_cpus = calloc(4, sizeof(int));
	e1->cap_serving = 4;
	e1->n_serving_cpus = 4;
	for (int k = 0; k < 4; k++)
		e1->serving_cpus[k] = k;
	e1->softirq_max_pct = 99;
	e1->softirq_cpu = 2;
	fill_series(&e1->hist[LR_SER_RX_BPS], 38.41e9, 300);
	fill_series(&e1->hist[LR_SER_TX_BPS], 0.21e9, 300);
	fill_series(&e1->hist[LR_SER_RX_PPS], 531200, 300);
	fill_series(&e1->hist[LR_SER_TX_PPS], 12400, 300);
	fill_peak(&e1->peak_rx_bps, 0, 38.6e9, 37.9e9);
	fill_peak(&e1->peak_tx_bps, 0, 0.25e9, 0.2e9);
	fill_peak(&e1->peak_rx_pps, 0, 540000, 524000);
	fill_peak(&e1->peak_tx_pps, 0, 13100, 12000);

	base_iface(lo, "lo", 1);
	lo->mtu = 65536;
	lr_strlcpy(lo->kind, "loopback", sizeof(lo->kind));
	lo->ethtool_err = -EOPNOTSUPP;
	set_rate(lo, LR_M_RX_BYTES, 0, dt);
	set_rate(lo, LR_M_TX_BYTES, 0, dt);
	set_rate(lo, LR_M_RX_PACKETS, 0, dt);
	set_rate(lo, LR_M_TX_PACKETS, 0, dt);
	/* lo: no drop/fifo counters known at all: must show "-", not 0 */

	s->cpus = calloc(n_cpus, sizeof(*s->cpus));
	s->n_cpus = s->cap_cpus = n_cpus;
	for (size_t k = 0; k < n_cpus; k++) {
		struct lr_cpu_snap *c = &s->cpus[k];

		c->cpu = (int)k;
		c->valid = LR_CPUV_TIMES | LR_CPUV_SOFTIRQS | LR_CPUV_SOFTNET;
		c->user_pct = (double)(k % 5);
		c->system_pct = (double)(k % 3);
		c->idle_pct = 100 - c->user_pct - c->system_pct;
		c->net_rx_per_s = k < 4 ? 100 : 0;
	}
	if (n_cpus > 2) {
		struct lr_cpu_snap *hot = &s->cpus[2];

		hot->softirq_pct = 99;
		hot->user_pct = hot->system_pct = 0;
		hot->irq_pct = 1;
		hot->idle_pct = 0;
		hot->net_rx_per_s = 48200;
		hot->softnet_squeezed_per_s = 310;
		hot->softnet_processed_per_s = 531000;
		s->cpus[0].softirq_pct = 12;
		s->cpus[0].idle_pct -= 12;
		s->cpus[0].net_rx_per_s = 2100;
	}
	s->cpu_all.valid = LR_CPUV_TIMES;
	s->stack.valid = LR_STACKV_TCP_RETRANS | LR_STACKV_UDP_IN_ERRORS | LR_STACKV_UDP_RCVBUF |
			 LR_STACKV_UDP_SNDBUF;
	s->tuning.rmem_max = s->tuning.wmem_max = 212992;
	s->tuning.netdev_max_backlog = 1000;
	s->tuning.tcp_rmem[0] = 4096;
	s->tuning.tcp_rmem[1] = 131072;
	s->tuning.tcp_rmem[2] = 6291456;
	s->tuning.tcp_wmem[0] = 4096;
	s->tuning.tcp_wmem[1] = 16384;
	s->tuning.tcp_wmem[2] = 4194304;
	s->tuning.tcp_window_scaling = 1;
	s->tuning.tcp_timestamps = 1;
	s->tuning.tcp_sack = 1;
	lr_strlcpy(s->tuning.tcp_congestion, "cubic", sizeof(s->tuning.tcp_congestion));
}

struct fixture {
	struct lr_snapshot snap;
	struct lr_ui app;
	struct lr_frame frame;
	struct lr_view_ctx ctx;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	setenv("TZ", "UTC", 1);
	tzset();
	build_snapshot(&fx->snap, 64);
	lr_ui_init(&fx->app, 500 * LR_NSEC_PER_MSEC, 5, NULL);
	lr_ui_sync(&fx->app, &fx->snap);
	lr_frame_init(&fx->frame);
	fx->ctx.snap = &fx->snap;
	fx->ctx.app = &fx->app;
	fx->ctx.host = "host-a";
	fx->ctx.theme_name = "default";
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	lr_snapshot_free(&fx->snap);
	lr_frame_free(&fx->frame);
	free(fx);
	return 0;
}

/* Renders ctx at w x h and compares with GOLDEN_DIR/name.txt. */
static void check_golden(struct fixture *fx, const char *name, int w, int h)
{
	assert_int_equal(lr_frame_resize(&fx->frame, w, h), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	golden_check(&fx->frame, name);
}

static void test_overview_80x24(void **state)
{
	check_golden(*state, "overview_80x24", 80, 24);
}

static void test_overview_132x43(void **state)
{
	check_golden(*state, "overview_132x43", 132, 43);
}

static void test_detail_eth1_80x24(void **state)
{
	struct fixture *fx = *state;
	int col, y;

	fx->app.view = LR_VIEW_DETAIL;
	fx->app.sel = 1;
	fx->app.sel_name[0] = '\0';
	lr_ui_sync(&fx->app, &fx->snap);
	check_golden(fx, "detail_eth1_80x24", 80, 24);
	/* rx_missed_errors is rising: alert role, and the hint names the ring fix */
	y = golden_find(&fx->frame, "rx_missed_errors", &col);
	assert_true(y > 0);
	assert_int_equal(lr_frame_at(&fx->frame, col, y)->role, LR_ROLE_ALERT);
	assert_true(golden_find(&fx->frame, "rx ring 512 of 4096: ethtool -G eth1 rx 4096", &col) > 0);
}

static void test_detail_eth1_132x43(void **state)
{
	struct fixture *fx = *state;
	int col;

	fx->app.view = LR_VIEW_DETAIL;
	fx->app.sel = 1;
	fx->app.sel_name[0] = '\0';
	lr_ui_sync(&fx->app, &fx->snap);
	check_golden(fx, "detail_eth1_132x43", 132, 43);
	assert_true(golden_find(&fx->frame, "cpu2 99% softirq, others idle", &col) > 0);
}

/* 10G at MTU 1500 running 9.41 Gbit/s: the TCP goodput ceiling, not a fault; jumbo hint. */
static void test_detail_10g_at_ceiling(void **state)
{
	struct fixture *fx = *state;
	struct lr_iface_snap *e1 = &fx->snap.ifaces[1];
	int col, y;

	e1->speed_mbps = 10000;
	e1->mtu = 1500;
	lr_strlcpy(e1->driver, "ixgbe", sizeof(e1->driver));
	lr_strlcpy(e1->driver_version, "5.1.0-k", sizeof(e1->driver_version));
	e1->fw_version[0] = '\0';
	set_rate(e1, LR_M_RX_BYTES, 9.41e9 / 8, 0.5);
	set_rate(e1, LR_M_RX_PACKETS, 812700, 0.5);
	set_rate(e1, LR_M_RX_MISSED_ERRORS, 0, 0.5);
	set_rate(e1, LR_M_NIC_FIFO, 0, 0.5);
	e1->n_moved = 0;
	fill_series(&e1->hist[LR_SER_RX_BPS], 9.41e9, 300);
	fill_series(&e1->hist[LR_SER_RX_PPS], 812700, 300);
	fill_peak(&e1->peak_rx_bps, 0, 9.44e9, 9.2e9);
	fill_peak(&e1->peak_rx_pps, 0, 815000, 794000);
	fx->snap.cpus[2].softirq_pct = 40;	/* no lone hot CPU */
	fx->app.view = LR_VIEW_DETAIL;
	fx->app.sel = 1;
	fx->app.sel_name[0] = '\0';
	lr_ui_sync(&fx->app, &fx->snap);
	check_golden(fx, "detail_10g_mtu1500_80x24", 80, 24);
	assert_true(golden_find(&fx->frame,
			      "hint  MTU 1500 caps TCP at 9.41Gb/s: jumbo frames (MTU 9000) end to end",
			      &col) > 0);
	/* the ceiling is drawn in the ok role: at the ceiling is as good as it gets */
	y = golden_find(&fx->frame, "ceil tcp 9.41G", &col);
	assert_true(y > 0);
	assert_int_equal(lr_frame_at(&fx->frame, col + 9, y)->role, LR_ROLE_OK);
}

static void test_detail_eth1_ascii_bytes_log(void **state)
{
	struct fixture *fx = *state;

	fx->app.view = LR_VIEW_DETAIL;
	fx->app.sel = 1;
	fx->app.sel_name[0] = '\0';
	fx->app.bytes = true;
	fx->app.scale = LR_SCALE_LOG;
	fx->ctx.ascii = true;
	lr_ui_sync(&fx->app, &fx->snap);
	check_golden(fx, "detail_eth1_ascii_80x24", 80, 24);
	for (int i = 0; i < fx->frame.w * fx->frame.h; i++)
		assert_true(fx->frame.cells[i].cp < 0x80);
}

static void test_detail_lo_unknowns(void **state)
{
	struct fixture *fx = *state;
	int col, y;

	fx->app.view = LR_VIEW_DETAIL;
	fx->app.sel = 2;
	fx->app.sel_name[0] = '\0';
	lr_ui_sync(&fx->app, &fx->snap);
	check_golden(fx, "detail_lo_80x24", 80, 24);
	/* unknown stats64 counters on lo are "-", never 0; so are its speed and line % */
	y = golden_find(&fx->frame, "rx_missed_errors", &col);
	assert_true(y > 0);
	assert_int_equal(golden_find(&fx->frame, "rx_missed_errors       -       -", &col), y);
	assert_true(golden_find(&fx->frame, "lo  speed -  MTU 65536", &col) == 0);
	assert_true(golden_find(&fx->frame, "rx 0 b/s           - link", &col) > 0);
}

static void test_help_overlay(void **state)
{
	struct fixture *fx = *state;
	static const char *const keys[] = {"quit", "Tab", "Enter", "overview / detail",
					   "next theme", "faster", "pause", "reset",
					   "bits / bytes", "graph scale", "start / stop",
					   "x2", "streams +1", "TCP / UDP", "reverse"};
	int col;

	fx->app.help = true;
	check_golden(fx, "help_80x24", 80, 24);
	for (size_t i = 0; i < LR_ARRAY_SIZE(keys); i++)
		assert_true(golden_find(&fx->frame, keys[i], &col) >= 0);
}

static void test_too_small(void **state)
{
	struct fixture *fx = *state;
	int col;

	check_golden(fx, "too_small_60x15", 60, 15);
	assert_true(golden_find(&fx->frame, "terminal too small (need 70x20)", &col) >= 0);
	assert_int_equal(lr_frame_resize(&fx->frame, 69, 24), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "terminal too small", &col) >= 0);
	assert_int_equal(lr_frame_resize(&fx->frame, 80, 19), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "terminal too small", &col) >= 0);
	/* 80x23 (a tmux status line) and 70x20 get the reduced layout */
	assert_int_equal(lr_frame_resize(&fx->frame, 80, 23), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_int_equal(golden_find(&fx->frame, "terminal too small", &col), -1);
	assert_int_equal(lr_frame_resize(&fx->frame, 70, 20), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_int_equal(golden_find(&fx->frame, "terminal too small", &col), -1);
}

static void test_waiting_for_first_sample(void **state)
{
	struct fixture *fx = *state;
	int col;

	fx->ctx.snap = NULL;
	assert_int_equal(lr_frame_resize(&fx->frame, 80, 24), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "waiting for the first sample", &col) > 0);
}

/* Many CPUs: the CPU pane shows the busiest that fit, and the hot one is among them. */
static void test_cpu_pane_picks_busiest(void **state)
{
	struct fixture *fx = *state;
	struct lr_rect r = {0, 0, 60, 8};
	int col;

	assert_int_equal(lr_frame_resize(&fx->frame, 60, 8), 0);
	lr_view_cpu(&fx->frame, r, &fx->ctx, &fx->snap.ifaces[1]);
	assert_true(golden_find(&fx->frame, "busiest 5 of 64", &col) == 0);
	assert_true(golden_find(&fx->frame, "    2*", &col) > 0);
	assert_true(golden_find(&fx->frame, "+59 more CPUs", &col) == 7);
}

/* Issue 20: on a VM a CPU row read user 0 + sys 4.55 + idle 90.91 = 95.46 %: the host's
 * steal was nowhere. Where it is non-zero it is a bar segment with a legend entry. */
static void test_cpu_pane_shows_steal(void **state)
{
	struct fixture *fx = *state;
	struct lr_rect r = {0, 0, 60, 8};
	struct lr_cpu_snap *c = &fx->snap.cpus[1];
	int col, y;
	bool seen = false;

	assert_int_equal(lr_frame_resize(&fx->frame, 60, 8), 0);
	lr_view_cpu(&fx->frame, r, &fx->ctx, &fx->snap.ifaces[1]);
	assert_true(golden_find(&fx->frame, "steal", &col) < 0);	/* none: not shown */
	c->user_pct = 0;
	c->system_pct = 40;	/* busy enough to be among the rows shown */
	c->idle_pct = 10;
	c->steal_pct = 50;
	lr_frame_clear(&fx->frame);
	lr_view_cpu(&fx->frame, r, &fx->ctx, &fx->snap.ifaces[1]);
	assert_true(golden_find(&fx->frame, "steal", &col) == 1);
	y = golden_find(&fx->frame, "    1*", &col);
	assert_true(y > 1);
	for (int x = 6; x < fx->frame.w; x++)
		seen |= lr_frame_at(&fx->frame, x, y)->cp == 0x2571;
	assert_true(seen);
}

/* Issue 20: the overview's "hottest softirq" named an idle eth0 (whose IRQ is on the hot CPU)
 * while lo carried 4 Gbit/s. The CPU is chosen among interfaces that carry traffic. */
static void test_overview_hottest_names_a_carrier(void **state)
{
	struct fixture *fx = *state;
	struct lr_iface_snap *e0 = &fx->snap.ifaces[0], *e1 = &fx->snap.ifaces[1];
	struct lr_iface_snap *lo = &fx->snap.ifaces[2];
	int col;

	e0->per_s[LR_M_RX_BYTES] = e0->per_s[LR_M_TX_BYTES] = 0;
	e1->per_s[LR_M_RX_BYTES] = e1->per_s[LR_M_TX_BYTES] = 0;
	e0->serving_cpus = calloc(1, sizeof(int));
	e0->cap_serving = e0->n_serving_cpus = 1;
	e0->serving_cpus[0] = 2;	/* eth0's IRQ sits on the CPU lo keeps busy */
	e0->softirq_max_pct = 99;
	e0->softirq_cpu = 2;
	lo->per_s[LR_M_RX_BYTES] = lo->per_s[LR_M_TX_BYTES] = 4e9 / 8;
	lo->softirq_max_pct = 99;	/* no serving CPUs known: the busiest of all */
	lo->softirq_cpu = 2;
	assert_int_equal(lr_frame_resize(&fx->frame, 80, 24), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "hottest softirq cpu2 99% (lo)", &col) > 0);
	assert_true(golden_find(&fx->frame, "(eth0)", &col) < 0);
	/* nothing carries traffic: the CPU, named after no interface */
	lo->per_s[LR_M_RX_BYTES] = lo->per_s[LR_M_TX_BYTES] = 0;
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, "hottest softirq cpu2 99%   ", &col) > 0);
}

/* 40 interfaces at 80x24: the table scrolls to keep the selection visible and says how many
 * are out of view; nothing spills into the status line. */
static void test_overview_scrolls(void **state)
{
	struct fixture *fx = *state;
	struct lr_snapshot *s = &fx->snap;
	int col, y;

	lr_snapshot_free(s);
	build_snapshot(s, 4);
	s->ifaces = realloc(s->ifaces, 40 * sizeof(*s->ifaces));
	for (size_t i = 3; i < 40; i++) {
		char name[16];

		snprintf(name, sizeof(name), "veth%02zu", i);
		base_iface(&s->ifaces[i], name, (int)i + 10);
	}
	s->n_ifaces = s->cap_ifaces = 40;
	fx->app.sel = 30;
	fx->app.sel_name[0] = '\0';
	lr_ui_sync(&fx->app, s);
	assert_string_equal(fx->app.sel_name, "veth30");
	check_golden(fx, "overview_scrolled_80x24", 80, 24);
	y = golden_find(&fx->frame, ">veth30", &col);
	assert_true(y >= 2 && y < 22);
	assert_true(golden_find(&fx->frame, "more above", &col) > 0);
	assert_true(golden_find(&fx->frame, "? help  q quit", &col) == 23);
}

/* 4096 CPUs, all serving the interface, all idle but one: the pane still finds the hot CPU.
 * (Its cost is measured by the benches, never asserted here: rates under load are noise.) */
static void test_cpu_pane_thousands(void **state)
{
	struct fixture *fx = *state;
	struct lr_snapshot *s = &fx->snap;
	struct lr_iface_snap *e1;
	int col;

	lr_snapshot_free(s);
	build_snapshot(s, 4096);
	e1 = &s->ifaces[1];
	e1->serving_cpus = realloc(e1->serving_cpus, 4096 * sizeof(int));
	for (int k = 0; k < 4096; k++) {
		e1->serving_cpus[k] = 4095 - k;
		s->cpus[k].user_pct = s->cpus[k].system_pct = 0;
		s->cpus[k].idle_pct = 100;
	}
	e1->n_serving_cpus = e1->cap_serving = 4096;
	s->cpus[3001].softirq_pct = 99;
	s->cpus[3001].idle_pct = 1;
	fx->app.view = LR_VIEW_DETAIL;
	fx->app.sel = 1;
	fx->app.sel_name[0] = '\0';
	lr_ui_sync(&fx->app, s);
	assert_int_equal(lr_frame_resize(&fx->frame, 132, 43), 0);
	lr_view_render(&fx->frame, &fx->ctx);
	assert_true(golden_find(&fx->frame, " 3001*", &col) > 0);
	assert_true(golden_find(&fx->frame, "busiest 16 of 4096", &col) > 0);
}

static void test_derived(void **state)
{
	struct fixture *fx = *state;
	const struct lr_iface_snap *e1 = &fx->snap.ifaces[1], *lo = &fx->snap.ifaces[2];

	/* MTU 1500 on 10G: 9.41 Gbit/s TCP goodput is the ceiling */
	assert_true(fabs(lr_ifrate_ceiling_bps(10000, 1500, false) - 9.4148e9) < 1e6);
	assert_true(fabs(lr_ifrate_ceiling_bps(10000, 1500, true) - 9.5709e9) < 1e6);
	assert_true(lr_ifrate_ceiling_bps(-1, 1500, false) < 0);
	assert_true(fabs(lr_ifrate_line_pct(e1) - 96.025) < 0.01);
	/* (bytes + 24 * packets) * 8 / speed */
	assert_true(fabs(lr_ifrate_wire_pct(e1, false) -
			 (38.41e9 / 8 + 24 * 531200) * 8 * 100 / 40e9) < 1e-6);
	assert_true(lr_ifrate_line_pct(lo) < 0);
	assert_true(lr_ifrate_per_s(lo, LR_M_RX_MISSED_ERRORS) < 0);
}

static void test_hints_need_evidence(void **state)
{
	struct fixture *fx = *state;
	char hints[4][LR_HINT_MAX];
	struct lr_iface_snap *e1 = &fx->snap.ifaces[1];

	/* ring at max: no ring hint */
	e1->ring_rx = 4096;
	assert_int_equal(lr_hints_live(&fx->snap, e1, hints, 4), 1);
	assert_non_null(strstr(hints[0], "softirq"));
	/* the README's "one CPU over 95 % softirq": 90 % is not, 96 % is */
	fx->snap.cpus[2].softirq_pct = 90;
	assert_int_equal(lr_hints_live(&fx->snap, e1, hints, 4), 0);
	fx->snap.cpus[2].softirq_pct = 96;
	assert_int_equal(lr_hints_live(&fx->snap, e1, hints, 4), 1);
	assert_non_null(strstr(hints[0], "cpu2 96% softirq, others idle"));
	fx->snap.cpus[2].softirq_pct = 99;
	/* the others busy: no spread hint either */
	for (size_t k = 0; k < fx->snap.n_cpus; k++)
		if (k != 2)
			fx->snap.cpus[k].idle_pct = 40;
	assert_int_equal(lr_hints_live(&fx->snap, e1, hints, 4), 0);
	/* UDP rcvbuf errors rising */
	fx->snap.stack.udp_rcvbuf_errors_per_s = 120;
	assert_int_equal(lr_hints_live(&fx->snap, e1, hints, 4), 1);
	assert_string_equal(hints[0],
			    "UDP rcvbuf errors 120/s: raise net.core.rmem_max (212992) and "
			    "SO_RCVBUF");
	fx->snap.stack.udp_rcvbuf_errors_per_s = 0;
	/* MTU 1500 on 10G at 9.41 Gbit/s: jumbo frames */
	e1->speed_mbps = 10000;
	e1->mtu = 1500;
	set_rate(e1, LR_M_RX_BYTES, 9.41e9 / 8, 0.5);
	assert_int_equal(lr_hints_live(&fx->snap, e1, hints, 4), 1);
	assert_string_equal(hints[0], "MTU 1500 caps TCP at 9.41Gb/s: jumbo frames (MTU 9000) end to "
				      "end");
	/* at 5 Gbit/s it is not the MTU */
	set_rate(e1, LR_M_RX_BYTES, 5e9 / 8, 0.5);
	assert_int_equal(lr_hints_live(&fx->snap, e1, hints, 4), 0);
}

/* The largest "N%" (a number right before a percent sign) in the rendered frame, -1 none. */
static double frame_max_pct(const struct lr_frame *f)
{
	char *t = lr_frame_to_text(f);
	double max = -1;

	assert_non_null(t);
	for (char *p = strchr(t, '%'); p; p = strchr(p + 1, '%')) {
		char *b = p;

		while (b > t && (isdigit((unsigned char)b[-1]) || b[-1] == '.'))
			b--;
		if (b < p && strtod(b, NULL) > max)
			max = strtod(b, NULL);
	}
	free(t);
	return max;
}

/* Issue 28: the live figures follow the verdict's rule. A veth says 10000 Mbit/s and carried
 * 11.87 Gbit/s; lo (given a speed here: its name alone decides); an ixgbe at 10G is a line
 * rate. Only the ixgbe gets a % of link, a wire %, a goodput ceiling and the jumbo hint. */
static void test_nominal_links(void **state)
{
	static const struct {
		const char *name, *kind, *driver;
		bool line;
	} links[] = {
		{"veth0", "veth", "veth", false},
		{"lo", "", "", false},
		{"ens3", "", "virtio_net", false},
		{"eth1", "", "ixgbe", true},
	};
	struct fixture *fx = *state;
	struct lr_iface_snap *e1 = &fx->snap.ifaces[1];
	char hints[4][LR_HINT_MAX];
	int col;

	fx->snap.cpus[2].softirq_pct = 40;	/* no lone hot CPU: the MTU hint alone */
	set_rate(e1, LR_M_RX_MISSED_ERRORS, 0, 0.5);
	set_rate(e1, LR_M_NIC_FIFO, 0, 0.5);
	e1->n_moved = 0;
	e1->speed_mbps = 10000;
	e1->mtu = 1500;
	set_rate(e1, LR_M_RX_BYTES, 0.21e9 / 8, 0.5);	/* the acks */
	set_rate(e1, LR_M_TX_PACKETS, 1.02e6, 0.5);
	fill_series(&e1->hist[LR_SER_RX_BPS], 0.21e9, 300);
	fill_series(&e1->hist[LR_SER_TX_BPS], 11.87e9, 300);
	fx->app.view = LR_VIEW_DETAIL;
	fx->app.sel = 1;
	for (size_t i = 0; i < LR_ARRAY_SIZE(links); i++) {
		size_t nh;

		lr_strlcpy(e1->name, links[i].name, sizeof(e1->name));
		lr_strlcpy(e1->kind, links[i].kind, sizeof(e1->kind));
		lr_strlcpy(e1->driver, links[i].driver, sizeof(e1->driver));
		/* a line rate carries no more than its speed: the ixgbe at its TCP ceiling */
		set_rate(e1, LR_M_TX_BYTES, (links[i].line ? 9.41e9 : 11.87e9) / 8, 0.5);
		nh = lr_hints_live(&fx->snap, e1, hints, 4);
		if (links[i].line) {
			assert_int_equal(nh, 1);
			assert_non_null(strstr(hints[0], "jumbo frames"));
			assert_true(fabs(lr_ifrate_line_pct(e1) - 94.1) < 0.01);
			assert_true(lr_ifrate_wire_pct(e1, true) > 94.1);
			assert_null(lr_ifrate_nominal_why(e1->name, e1->kind, e1->driver));
			assert_int_equal(lr_ifrate_line_mbps(e1), 10000);
			continue;
		}
		assert_int_equal(nh, 0);
		assert_true(lr_ifrate_line_pct(e1) < 0);
		assert_true(lr_ifrate_wire_pct(e1, true) < 0);
		assert_true(lr_ifrate_wire_pct(e1, false) < 0);
		for (int big = 0; big < 2; big++) {	/* 80x24, 132x43 */
			fx->app.sel_name[0] = '\0';
			lr_ui_sync(&fx->app, &fx->snap);
			assert_int_equal(lr_frame_resize(&fx->frame, big ? 132 : 80, big ? 43 : 24), 0);
			lr_view_render(&fx->frame, &fx->ctx);
			assert_int_equal(golden_find(&fx->frame, "jumbo", &col), -1);
			assert_int_equal(golden_find(&fx->frame, "ceil tcp", &col), -1);
			assert_int_equal(golden_find(&fx->frame, "10G nominal", &col), 0);
			assert_true(frame_max_pct(&fx->frame) <= 100);
			if (big)	/* room to say why */
				assert_true(golden_find(&fx->frame, "ceiling -  nominal: ", &col) > 0);
		}
		assert_int_equal(lr_ifrate_line_mbps(e1), -1);
	}
}

/* Text that does not fit is left out a whole word at a time and marked, never cut inside a word
 * or a number. */
static void test_text_words(void **state)
{
	static const char hint[] = "rx ring 512 of 4096: ethtool -G eth1 rx 4096";
	struct lr_frame f;

	(void)state;
	lr_frame_init(&f);
	for (int w = 4; w <= 50; w++) {
		char *text, *line;

		assert_int_equal(lr_frame_resize(&f, 60, 1), 0);
		lr_frame_clear(&f);
		lr_view_text_words(&f, 0, 0, w, LR_ROLE_VALUE, hint, true);
		text = lr_frame_to_text(&f);
		assert_non_null(text);
		line = strtok(text, "\n");
		if (line) {	/* trailing blanks are not part of the text */
			for (size_t n = strlen(line); n && line[n - 1] == ' '; n--)
				line[n - 1] = '\0';
			if (w >= (int)strlen(hint)) {
				assert_string_equal(line, hint);
			} else if (line[0]) {
				size_t n = strlen(line);

				assert_true((int)n <= w);
				assert_int_equal(line[n - 1], '~');
				line[n - 1] = '\0';
				/* what is left is the hint's own words, up to a word's end */
				assert_memory_equal(line, hint, n - 1);
				assert_true(hint[n - 1] == ' ' || hint[n - 1] == ':' ||
					    hint[n - 1] == '\0');
			}
		}
		free(text);
	}
	lr_frame_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_overview_80x24, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overview_132x43, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_eth1_80x24, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_eth1_132x43, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_10g_at_ceiling, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_eth1_ascii_bytes_log, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_lo_unknowns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_overlay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_small, setup, teardown),
		cmocka_unit_test_setup_teardown(test_waiting_for_first_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_pane_picks_busiest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overview_scrolls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_pane_shows_steal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overview_hottest_names_a_carrier, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cpu_pane_thousands, setup, teardown),
		cmocka_unit_test(test_text_words),
		cmocka_unit_test_setup_teardown(test_derived, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hints_need_evidence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nominal_links, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
