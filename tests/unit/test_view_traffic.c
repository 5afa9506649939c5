// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The traffic views: the Streams pane in the detail view (TCP senders with cwnd/RTT, UDP
 * receivers with loss and jitter, more streams than rows, an error) and the verdict panel
 * over a finished test on a 10G link, compared with golden frames in tests/fixtures/frames/
 * (LR_UPDATE_GOLDEN=1 rewrites them; read them after: they are the spec).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "linerate/present/ui.h"
#include "fakes/golden.h"
#include "linerate/present/frame.h"
#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/present/view.h"

#define DT 0.5

struct fixture {
	struct lr_snapshot snap;
	struct lr_ui app;
	struct lr_frame frame;
	struct lr_view_ctx ctx;
	struct lr_view_traffic tv;
};

static void set_rate(struct lr_iface_snap *i, enum lr_metric m, double per_s)
{
	i->valid |= LR_M_BIT(m);
	i->per_s[m] = per_s;
	i->delta[m] = (uint64_t)llround(per_s * DT);
	i->total_valid |= LR_M_BIT(m);
	i->total[m] = (uint64_t)llround(per_s * 10);
}

static void tcp_stream(struct lr_stream_snap *s, int id, double bps, int64_t cwnd, int64_t rtt)
{
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->sender = true;
	s->valid = true;
	s->bps = bps;
	s->bytes = (uint64_t)(bps / 8 * DT);
	s->pps = bps / 8 / 131072;
	s->retransmits = id == 3 ? 2 : 0;
	s->total_retransmits = id == 3 ? 14 : 0;
	s->jitter_ms = -1;
	s->cwnd_bytes = cwnd;
	s->rtt_us = rtt;
	s->total_bytes = s->bytes * 20;
}

/* A 10G ixgbe at MTU 1500 carrying 3 TCP streams of ~3.1 Gbit/s, 4 CPUs, cpu1 at 97 %. */
static void build(struct lr_snapshot *s)
{
	struct lr_iface_snap *e;

	lr_snapshot_init(s);
	s->seq = 20;
	s->mono_ns = 100 * LR_NSEC_PER_SEC;
	s->elapsed_ns = 10 * LR_NSEC_PER_SEC;
	s->interval_ns = s->target_interval_ns = 500 * LR_NSEC_PER_MSEC;
	s->ifaces = calloc(1, sizeof(*s->ifaces));
	s->n_ifaces = s->cap_ifaces = 1;
	e = &s->ifaces[0];
	lr_strlcpy(e->name, "eth1", sizeof(e->name));
	e->ifindex = 3;
	e->operstate = 6;
	e->mtu = 1500;
	e->speed_mbps = 10000;
	e->duplex = 1;
	lr_strlcpy(e->driver, "ixgbe", sizeof(e->driver));
	e->ring_rx = e->ring_tx = 512;
	e->ring_rx_max = e->ring_tx_max = 4096;
	e->interval_ns = s->interval_ns;
	e->softirq_max_pct = 97;
	e->softirq_cpu = 1;
	set_rate(e, LR_M_TX_BYTES, 9.38e9 / 8);
	set_rate(e, LR_M_RX_BYTES, 0.2e9 / 8);
	set_rate(e, LR_M_TX_PACKETS, 812000);
	set_rate(e, LR_M_RX_PACKETS, 400000);
	for (int m = LR_M_RX_ERRORS; m < LR_M_NIC_FIFO; m++)
		set_rate(e, m, 0);
	e->serving_cpus = calloc(1, sizeof(int));
	e->serving_cpus[0] = 1;
	e->n_serving_cpus = e->cap_serving = 1;
	s->cpus = calloc(4, sizeof(*s->cpus));
	s->n_cpus = s->cap_cpus = 4;
	for (int k = 0; k < 4; k++) {
		s->cpus[k].cpu = k;
		s->cpus[k].valid = LR_CPUV_TIMES | LR_CPUV_SOFTIRQS | LR_CPUV_SOFTNET;
		s->cpus[k].idle_pct = k == 1 ? 2 : 90;
		s->cpus[k].softirq_pct = k == 1 ? 97 : 1;
		s->cpus[k].system_pct = k == 1 ? 1 : 9;
	}
	s->stack.valid = LR_STACKV_TCP_RETRANS;
	s->stack.tcp_retrans_per_s = 4;
	s->tuning.rmem_max = 212992;
	s->tuning.tcp_window_scaling = 1;
	s->streams = calloc(8, sizeof(*s->streams));
	s->cap_streams = 8;
	s->n_streams = 3;
	tcp_stream(&s->streams[0], 1, 3.13e9, 1048576, 180);
	tcp_stream(&s->streams[1], 3, 3.12e9, 786432, 240);
	tcp_stream(&s->streams[2], 4, 3.10e9, 917504, 210);
	s->traffic_generation = 1;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	build(&fx->snap);
	lr_ui_init(&fx->app, 500 * LR_NSEC_PER_MSEC, 1, "eth1");
	fx->app.traffic = true;
	lr_ui_sync(&fx->app, &fx->snap);
	lr_frame_init(&fx->frame);
	fx->tv.state = LR_VTS_RUNNING;
	fx->tv.host = "10.0.0.2";
	fx->tv.port = 5201;
	fx->tv.iface = "eth1";
	fx->tv.knobs.parallel = 3;
	fx->tv.knobs.rate_bps = 0;
	fx->tv.elapsed_s = 10.0;
	fx->tv.duration_s = 30;
	fx->ctx.snap = &fx->snap;
	fx->ctx.app = &fx->app;
	fx->ctx.host = "host-a";
	fx->ctx.theme_name = "default";
	fx->ctx.streams_pane = lr_view_streams;
	fx->ctx.streams_arg = &fx->tv;
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

static void render(struct fixture *fx, int w, int h)
{
	assert_int_equal(lr_frame_resize(&fx->frame, w, h), 0);
	lr_view_render(&fx->frame, &fx->ctx);
}

static void test_streams_tcp_80x32(void **state)
{
	struct fixture *fx = *state;
	int col, y;

	render(fx, 80, 32);
	golden_check(&fx->frame, "streams_tcp_80x32");
	y = golden_find(&fx->frame, " Streams  running  TCP x3 -> 10.0.0.2:5201 via eth1  10.0 of 30 s",
		      &col);
	assert_true(y > 0);
	assert_int_equal(lr_frame_at(&fx->frame, col + 10, y)->role, LR_ROLE_OK);
	/* sum of the three achieved rates; retransmits of the one stream that had them */
	assert_true(golden_find(&fx->frame, " sum                  9.35 Gb/s   8.92k    14", &col) > y);
	y = golden_find(&fx->frame, " 3   tx", &col);
	assert_true(y > 0);
	assert_true(golden_find(&fx->frame, "14", &col) >= 0);
	/* below 31 rows (a 30-row body) the band shrinks to title, header, two rows and the
	 * sum row: the first stream and how many more are hidden (issue 21) */
	render(fx, 80, 30);
	y = golden_find(&fx->frame, " Streams ", &col);
	assert_true(y > 0);
	assert_int_equal(golden_find(&fx->frame, " 1   tx", &col), y + 2);
	assert_int_equal(golden_find(&fx->frame, " +2 more streams", &col), y + 3);
	assert_int_equal(golden_find(&fx->frame, " sum                  9.35 Gb/s   8.92k    14", &col),
			 y + 4);
	assert_int_equal(golden_find(&fx->frame, " 3   tx", &col), -1);
	/* `r`: retransmits count from the reset on, per stream and in the sum; a later test
	 * (another generation) is not affected */
	render(fx, 80, 32);
	assert_true(golden_find(&fx->frame, " sum                  9.35 Gb/s   8.92k    14", &col) > 0);
	lr_view_streams_reset(&fx->tv, &fx->snap);
	fx->snap.streams[1].total_retransmits += 3;
	render(fx, 80, 32);
	assert_true(golden_find(&fx->frame, " sum                  9.35 Gb/s   8.92k     3", &col) > 0);
	fx->snap.traffic_generation++;
	render(fx, 80, 32);
	assert_true(golden_find(&fx->frame, " sum                  9.35 Gb/s   8.92k    17", &col) > 0);
	fx->snap.streams[1].total_retransmits -= 3;
	fx->snap.traffic_generation--;
	/* two streams at 80x24 fit whole: no "+N more" */
	fx->snap.n_streams = 2;
	render(fx, 80, 24);
	y = golden_find(&fx->frame, " Streams ", &col);
	assert_int_equal(golden_find(&fx->frame, " 1   tx", &col), y + 2);
	assert_int_equal(golden_find(&fx->frame, " 3   tx", &col), y + 3);
	assert_int_equal(golden_find(&fx->frame, "more streams", &col), -1);
}

static void test_streams_udp_rx_132x43(void **state)
{
	struct fixture *fx = *state;
	struct lr_snapshot *s = &fx->snap;
	int col;

	fx->tv.knobs.udp = true;
	fx->tv.knobs.reverse = true;
	fx->tv.knobs.rate_bps = 1000000000;
	fx->tv.knobs.parallel = 7;
	fx->tv.duration_s = 0;	/* until stopped */
	s->n_streams = 7;
	for (size_t i = 0; i < 7; i++) {
		struct lr_stream_snap *st = &s->streams[i];

		memset(st, 0, sizeof(*st));
		st->id = i ? (int)i + 2 : 1;
		st->udp = true;
		st->valid = true;
		st->bps = 0.98e9;
		st->pps = 0.98e9 / 8 / 1448;
		st->lost = i == 2 ? 40 : 0;
		st->total_lost = i == 2 ? 1200 : 0;
		st->jitter_ms = 0.012 * (double)(i + 1);
		st->cwnd_bytes = st->rtt_us = -1;
	}
	render(fx, 132, 43);
	golden_check(&fx->frame, "streams_udp_rx_132x43");
	assert_true(golden_find(&fx->frame, "UDP x7 <- 10.0.0.2:5201 via eth1  10.0 s ", &col) > 0);
	assert_true(golden_find(&fx->frame, "+3 more streams", &col) > 0);
	assert_true(golden_find(&fx->frame, " sum      7.00 Gb/s   6.86 Gb/s    592k     -  1.20k", &col) > 0);
	assert_true(golden_find(&fx->frame, "1.20k", &col) > 0);	/* total loss of stream 4 */
}

static void test_streams_states(void **state)
{
	struct fixture *fx = *state;
	int col, y;

	fx->snap.n_streams = 0;
	fx->tv.state = LR_VTS_IDLE;
	fx->tv.elapsed_s = -1;
	render(fx, 80, 32);
	assert_true(golden_find(&fx->frame, "no test running: s starts one", &col) > 0);
	assert_true(golden_find(&fx->frame, " Streams  idle  TCP x3", &col) > 0);
	fx->tv.state = LR_VTS_ERROR;
	fx->tv.error = "connecting to 10.0.0.2:5201: Connection refused";
	render(fx, 80, 32);
	y = golden_find(&fx->frame, "Connection refused", &col);
	assert_true(y > 0);
	assert_int_equal(lr_frame_at(&fx->frame, col, y)->role, LR_ROLE_ALERT);
	/* ASCII: no box drawing in the pane */
	fx->ctx.ascii = true;
	fx->tv.state = LR_VTS_STOPPED;
	render(fx, 80, 32);
	y = golden_find(&fx->frame, " Streams  stopped", &col);
	assert_true(y > 0);
	for (int x = 0; x < fx->frame.w; x++)
		assert_true(lr_frame_at(&fx->frame, x, y)->cp < 0x80);
	/* `linerate -s` before a client: `s` starts nothing there, the port is what matters */
	fx->tv.server = true;
	fx->tv.state = LR_VTS_IDLE;
	fx->tv.host = NULL;
	fx->tv.port = 5299;
	render(fx, 80, 24);
	assert_true(golden_find(&fx->frame, " Streams  idle  server on port 5299", &col) > 0);
	assert_true(golden_find(&fx->frame, "waiting for a client on port 5299", &col) > 0);
	assert_int_equal(golden_find(&fx->frame, "s starts one", &col), -1);
}

/* The latency line (docs/design.md §16) at 80x24: the pane's last row under the sum, the
 * newest interval's p99 beside the idle baseline, p50 and the probes lost, then a sparkline of
 * each interval's p99 (a tall bar where the queue filled); a plain iperf3 peer said in words;
 * the stream rows and the sum keep their rows. */
static void test_streams_latency_80x24(void **state)
{
	struct fixture *fx = *state;
	struct lr_view_latency *l = &fx->tv.lat;
	int col, y, ys, n = 0;

	fx->snap.n_streams = 1;
	l->state = LR_VLAT_ON;
	l->p99_ms = 0.11;
	l->p50_ms = 0.05;
	l->idle_p99_ms = 0.04;
	l->lost = 3;
	for (int i = 0; i < 20; i++)
		lr_series_push(&l->p99, i == 15 ? 11 : 0.1);
	fx->ctx.streams_extra_rows = 1;
	render(fx, 80, 24);
	golden_check(&fx->frame, "streams_latency_80x24");
	ys = golden_find(&fx->frame, " Streams ", &col);
	assert_true(ys > 0);
	assert_int_equal(golden_find(&fx->frame, " 1   tx", &col), ys + 2);
	assert_int_equal(golden_find(&fx->frame, " sum ", &col), ys + 3);
	y = golden_find(&fx->frame, " rtt p99 0.11 ms (idle 0.04) p50 0.05 lost 3", &col);
	assert_int_equal(y, ys + 4);
	/* the sparkline: drawn cells right of the text, and the 11 ms interval the tallest */
	for (int x = col + 46; x < 79; x++)
		n += lr_frame_at(&fx->frame, x, y)->cp != ' ';
	assert_true(n >= 5);
	assert_true(y < fx->frame.h - 1);	/* the status line stays below */
	l->state = LR_VLAT_PLAIN;
	render(fx, 80, 24);
	assert_int_equal(golden_find(&fx->frame, " rtt: no probes, the peer is a plain iperf3", &col),
			 ys + 4);
	/* without the line (a server, no test) the pane is as before */
	l->state = LR_VLAT_NONE;
	fx->ctx.streams_extra_rows = 0;
	render(fx, 80, 24);
	assert_int_equal(golden_find(&fx->frame, "rtt", &col) >= 0 &&
				 golden_find(&fx->frame, "rtt:", &col) >= 0,
			 0);
}

/* --demo is both ends: a UDP sender's lost column is the receiver's live count (issue 17);
 * a stream the receiver does not know stays "-". */
static void test_streams_udp_lost_from_receiver(void **state)
{
	struct fixture *fx = *state;
	struct lr_view_stream_base recv[] = {{.id = 1, .lost = 42}, {.id = 3, .lost = 0}};
	int col, y;

	fx->tv.knobs.udp = true;
	for (size_t i = 0; i < 3; i++) {
		fx->snap.streams[i].udp = true;
		fx->snap.streams[i].cwnd_bytes = fx->snap.streams[i].rtt_us = -1;
	}
	render(fx, 80, 32);
	assert_true(golden_find(&fx->frame, " 1   tx", &col) > 0);
	y = golden_find(&fx->frame, " sum ", &col);
	assert_true(y > 0);
	assert_true(golden_find(&fx->frame, "lost", &col) >= 0);
	/* the lost column ends at 51: "-" for a sender without the receiver's count */
	assert_int_equal(lr_frame_at(&fx->frame, 51, golden_find(&fx->frame, " 1   tx", &col))->cp,
			 '-');
	fx->tv.recv = recv;
	fx->tv.n_recv = 2;
	render(fx, 80, 32);
	/* id 1: 42 lost in the alert role; id 3: 0; id 4: unknown to the receiver */
	y = golden_find(&fx->frame, " 1   tx", &col);
	assert_int_equal(lr_frame_at(&fx->frame, 51, y)->cp, '2');
	assert_int_equal(lr_frame_at(&fx->frame, 50, y)->cp, '4');
	assert_int_equal(lr_frame_at(&fx->frame, 51, y)->role, LR_ROLE_ALERT);
	y = golden_find(&fx->frame, " 3   tx", &col);
	assert_int_equal(lr_frame_at(&fx->frame, 51, y)->cp, '0');
	y = golden_find(&fx->frame, " 4   tx", &col);
	assert_int_equal(lr_frame_at(&fx->frame, 51, y)->cp, '-');
	y = golden_find(&fx->frame, " sum ", &col);
	assert_int_equal(lr_frame_at(&fx->frame, 51, y)->cp, '2');
}

/* A finished 30 s test at the MTU 1500 ceiling of a 10G link, cpu1 saturated: the panel
 * shows the rate per direction, % of link and ceiling, the hot CPU, retransmits, next step. */
static void test_verdict_panel_80x24(void **state)
{
	struct fixture *fx = *state;
	struct lr_verdict_acc *acc = calloc(1, sizeof(*acc));
	struct lr_verdict v;
	struct lr_verdict_traffic t = {
		.ran = true, .udp = false, .parallel = 3, .up_bps = 9.35e9, .down_bps = -1,
		.retransmits = 14, .udp_lost = -1, .udp_packets = -1,
	};
	struct lr_view_verdict vv = {.v = &v, .acc = acc, .t = &t,
				     .test = "TCP x3 -> 10.0.0.2, 30.0 s, done"};
	int col, y;

	lr_verdict_init(acc, "eth1");
	for (int i = 0; i < 60; i++) {
		lr_verdict_add(acc, &fx->snap);
		fx->snap.mono_ns += fx->snap.interval_ns;
	}
	lr_verdict_compute(acc, &t, &v);
	fx->app.verdict = true;
	render(fx, 80, 24);
	lr_view_verdict(&fx->frame, &fx->ctx, &vv);
	golden_check(&fx->frame, "verdict_10g_80x24");
	assert_true(golden_find(&fx->frame, "Verdict: TCP x3 -> 10.0.0.2, 30.0 s, done", &col) >= 0);
	assert_true(golden_find(&fx->frame, "up 9.35 Gb/s   down -", &col) > 0);
	assert_true(golden_find(&fx->frame, "of the 10G link", &col) > 0);
	y = golden_find(&fx->frame, "hottest CPU", &col);
	assert_true(y > 0);
	assert_true(golden_find(&fx->frame, "cpu1, 97% softirq at peak (saturated)", &col) == y);
	assert_true(golden_find(&fx->frame, "14 in the test", &col) > 0);
	assert_true(golden_find(&fx->frame, "next step", &col) > 0);
	/* issue 28: "TCP retr 14133 in the test, 6017 host-wide" under --bidir: the test's figure
	 * sums both ends' senders, the host-wide one is this host's own TCP; each says so */
	t.bidir = true;
	acc->stack_valid |= LR_STACKV_TCP_RETRANS;
	acc->tcp_retrans = 6;
	render(fx, 80, 24);
	lr_view_verdict(&fx->frame, &fx->ctx, &vv);
	assert_true(golden_find(&fx->frame, "14 in the test (both ends), 6 this host's TCP", &col) > 0);
	t.bidir = false;
	t.reverse = true;
	render(fx, 80, 24);
	lr_view_verdict(&fx->frame, &fx->ctx, &vv);
	assert_true(golden_find(&fx->frame, "14 in the test (the peer's), 6 this host's TCP", &col) > 0);
	t.reverse = false;
	acc->stack_valid &= ~LR_STACKV_TCP_RETRANS;
	assert_true(golden_find(&fx->frame, "Esc/Enter closes", &col) > 0);
	/* the cycles' ledger speaks here too, under the softirq peak, warned when it bound */
	vv.cycles = "the sender's cpu1 on vm bound the rate: 100% busy over 30.0 s (softirq 12%, "
		    "irq 0%, sys 55%, usr 33%, steal 0%)";
	vv.cycles_bound = true;
	render(fx, 80, 24);
	lr_view_verdict(&fx->frame, &fx->ctx, &vv);
	y = golden_find(&fx->frame, "hottest CPU", &col);
	assert_int_equal(golden_find(&fx->frame, "cycles      the sender's cpu1 on vm bound", &col),
			 y + 1);
	assert_int_equal(lr_frame_at(&fx->frame, col + 12, y + 1)->role, LR_ROLE_WARN);
	assert_true(golden_find(&fx->frame, "next step", &col) > y + 1);
	assert_true(golden_find(&fx->frame, "Esc/Enter closes", &col) > y + 1);
	vv.cycles = NULL;
	/* nothing sampled: the panel says so instead of inventing numbers */
	lr_verdict_init(acc, "eth1");
	lr_verdict_compute(acc, &t, &v);
	render(fx, 80, 24);
	lr_view_verdict(&fx->frame, &fx->ctx, &vv);
	assert_true(golden_find(&fx->frame, "nothing was sampled", &col) > 0);
	free(acc);
}

/* The peer's snapshot: the same 10G receiver seen from the other end, renamed, with drops
 * and FIFO misses rising and its cpu1 saturated; a second, idle interface. */
static void build_peer(struct lr_snapshot *p)
{
	struct lr_iface_snap *e;

	build(p);
	e = &p->ifaces[0];
	lr_strlcpy(e->name, "ens1f0", sizeof(e->name));
	set_rate(e, LR_M_RX_BYTES, 9.38e9 / 8);
	set_rate(e, LR_M_TX_BYTES, 12e6 / 8);
	set_rate(e, LR_M_RX_DROPPED, 12);
	set_rate(e, LR_M_RX_MISSED_ERRORS, 1200);
	e->ring_rx = e->ring_rx_max = -1;	/* an older peer: no rings, no sysctls */
	p->tuning = (struct lr_tuning_snap){.rmem_max = -1, .wmem_max = -1, .netdev_max_backlog = -1,
					    .tcp_rmem = {-1, -1, -1}, .tcp_wmem = {-1, -1, -1},
					    .tcp_window_scaling = -1, .tcp_timestamps = -1,
					    .tcp_sack = -1};
	p->ifaces = realloc(p->ifaces, 2 * sizeof(*p->ifaces));
	memset(&p->ifaces[1], 0, sizeof(p->ifaces[1]));
	lr_strlcpy(p->ifaces[1].name, "lo", sizeof(p->ifaces[1].name));
	p->ifaces[1].softirq_cpu = -1;
	p->ifaces[1].softirq_max_pct = -1;
	p->n_ifaces = p->cap_ifaces = 2;
	p->n_streams = 0;
}

/* Our detail view at 80x24 while a test runs: the peer's line (host:interface, rx/tx, drops,
 * FIFO, hottest softirq CPU) is there without a key; P opens the peer's detail (its host in
 * the link line, its rates in the panes, its hints "on peerhost: ..."), Tab its next
 * interface, and the Streams pane stays this process's test. */
static void test_peer_views_80x24(void **state)
{
	struct fixture *fx = *state;
	struct lr_snapshot peer;
	int col, y;

	build_peer(&peer);
	fx->ctx.peer = &peer;
	fx->ctx.peer_host = "peerhost";
	fx->app.view = LR_VIEW_DETAIL;
	render(fx, 80, 24);
	y = golden_find(&fx->frame, " peerhost:ens1f0 rx 9.38G tx 12.0M bit/s", &col);
	assert_int_equal(col, 0);
	assert_true(y > 2);
	assert_int_equal(golden_find(&fx->frame, "drop 12 fifo 1.20k /s", &col), y);
	assert_int_equal(golden_find(&fx->frame, "softirq 97% c1", &col), y);
	assert_true(golden_find(&fx->frame, " eth1  10G full", &col) == 0);	/* still ours */
	fx->ctx.peer_host = "a-very-long-peer-host-name.example.org";	/* the interface stays */
	render(fx, 80, 24);
	assert_int_equal(golden_find(&fx->frame, " a-very-long-pe~:ens1f0 rx 9.38G", &col), y);
	fx->ctx.peer_host = "peerhost";

	assert_true(lr_ui_handle(&fx->app, LR_ACT_PEER));
	render(fx, 80, 24);
	assert_int_equal(golden_find(&fx->frame, " on peerhost  ens1f0  10G full", &col), 0);
	assert_int_equal(golden_find(&fx->frame, " peer's stack  tcp retrans 4/s", &col), 1);
	assert_true(golden_find(&fx->frame, " rx 9.38 Gb/s", &col) > 2);
	assert_true(golden_find(&fx->frame, "on peerhost: cpu1 97% softirq", &col) > 2);
	assert_true(golden_find(&fx->frame, " sum                  9.35 Gb/s", &col) > 2);
	assert_true(golden_find(&fx->frame, "peerhost:ens1f0 rx", &col) < 0);	/* no self-line */
	lr_ui_handle(&fx->app, LR_ACT_NEXT_IFACE);
	render(fx, 80, 24);
	assert_int_equal(golden_find(&fx->frame, " on peerhost  lo ", &col), 0);
	lr_ui_handle(&fx->app, LR_ACT_NEXT_IFACE);
	render(fx, 80, 24);
	assert_int_equal(golden_find(&fx->frame, " on peerhost  ens1f0", &col), 0);

	assert_true(lr_ui_handle(&fx->app, LR_ACT_PEER));	/* ours again */
	render(fx, 80, 24);
	assert_int_equal(golden_find(&fx->frame, " eth1  10G full", &col), 0);
	/* the peer gone (a plain iperf3, or the test closed): P shows ours, no peer line */
	fx->ctx.peer = NULL;
	lr_ui_handle(&fx->app, LR_ACT_PEER);
	render(fx, 80, 24);
	assert_int_equal(golden_find(&fx->frame, " eth1  10G full", &col), 0);
	assert_true(golden_find(&fx->frame, "peerhost", &col) < 0);
	lr_snapshot_free(&peer);
}

/* A peer that shares its state (docs/wire.md §P4.1): the peer's detail view at 80x24 has
 * its rings in the link line, its tuning line where ours is, its stack line under the panes,
 * and the ring hint for its rising FIFO misses, "on peerhost:". */
static void test_peer_state_80x24(void **state)
{
	struct fixture *fx = *state;
	struct lr_snapshot peer;
	int col, y;

	build_peer(&peer);
	peer.ifaces[0].ring_rx = 512;
	peer.ifaces[0].ring_rx_max = 4096;
	peer.tuning.rmem_max = 7340032;
	peer.tuning.tcp_rmem[2] = 6291456;
	snprintf(peer.tuning.tcp_congestion, sizeof(peer.tuning.tcp_congestion), "reno");
	fx->ctx.peer = &peer;
	fx->ctx.peer_host = "peerhost";
	fx->app.view = LR_VIEW_DETAIL;
	assert_true(lr_ui_handle(&fx->app, LR_ACT_PEER));
	render(fx, 80, 24);
	assert_int_equal(golden_find(&fx->frame, " on peerhost  ens1f0  10G full", &col), 0);
	assert_true(golden_find(&fx->frame, "ring rx 512/4096", &col) == 0);
	assert_int_equal(golden_find(&fx->frame, " rmem_max 7M  tcp_rmem 6M", &col), 1);
	assert_true(golden_find(&fx->frame, "reno", &col) == 1);
	y = golden_find(&fx->frame, " peer's stack  tcp retrans 4/s", &col);
	assert_true(y > 2 && y < 23);
	assert_true(golden_find(&fx->frame, "on peerhost: rx ring 512 of 4096: ethtool -G ens1f0 rx 4096",
				&col) > y);
	lr_snapshot_free(&peer);
}

/* A failed test's panel: why, where the data stopped, no advice from the cut-short figures;
 * nothing ran: the failure alone. The peer's own loss line names its host. */
static void test_verdict_failed_and_peer(void **state)
{
	struct fixture *fx = *state;
	struct lr_verdict_acc *acc = calloc(1, sizeof(*acc));
	struct lr_verdict v;
	struct lr_verdict_traffic t = {
		.ran = true, .udp = true, .parallel = 1, .up_bps = -1, .down_bps = 9.9e6,
		.retransmits = -1, .udp_lost = -1, .udp_packets = -1,
	};
	struct lr_view_verdict vv = {
		.v = &v, .acc = acc, .t = &t, .test = "UDP x1 <- 10.0.0.2, 2.8 s, failed",
		.failure = "no data from the server for 1.5 s (--rcv-timeout)",
		.stopped = "data stopped 1.4 s into the test (the last whole interval: 9.93 Mb/s), "
			   "failed at 2.8 s",
		.peer_loss = "on the receiver, peerhost: UDP RcvbufErrors (socket receive buffer "
			     "full) 2412",
		.peer_lost = true,
	};
	int col, y;

	lr_verdict_init(acc, "eth1");
	for (int i = 0; i < 6; i++) {
		lr_verdict_add(acc, &fx->snap);
		fx->snap.mono_ns += fx->snap.interval_ns;
	}
	lr_verdict_compute(acc, &t, &v);
	render(fx, 80, 24);
	lr_view_verdict(&fx->frame, &fx->ctx, &vv);
	y = golden_find(&fx->frame, "FAILED      no data from the server for 1.5 s", &col);
	assert_true(y > 0);
	assert_int_equal(lr_frame_at(&fx->frame, col + 12, y)->role, LR_ROLE_ALERT);
	assert_true(golden_find(&fx->frame, "data        data stopped 1.4 s into the test", &col) > y);
	assert_true(golden_find(&fx->frame, "line rate   eth1", &col) > y);
	y = golden_find(&fx->frame, "peer saw    on the receiver, peerhost: UDP RcvbufErrors", &col);
	assert_true(y > 0);
	assert_int_equal(lr_frame_at(&fx->frame, col + 12, y)->role, LR_ROLE_ALERT);
	assert_true(golden_find(&fx->frame, "2412", &col) == y + 1);
	assert_true(golden_find(&fx->frame, "the test did not end", &col) > y);
	assert_true(golden_find(&fx->frame, "Esc/Enter closes", &col) > 0);
	/* nothing ran (a connect timeout): no verdict, the failure is the panel */
	vv.v = NULL;
	vv.stopped = vv.peer_loss = NULL;
	vv.failure = "cannot connect to 10.0.0.2 port 5201: timed out (--connect-timeout)";
	render(fx, 80, 24);
	lr_view_verdict(&fx->frame, &fx->ctx, &vv);
	assert_true(golden_find(&fx->frame, "FAILED      cannot connect", &col) > 0);
	assert_true(golden_find(&fx->frame, "no data moved before it failed", &col) > 0);
	free(acc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_streams_tcp_80x32, setup, teardown),
		cmocka_unit_test_setup_teardown(test_streams_udp_rx_132x43, setup, teardown),
		cmocka_unit_test_setup_teardown(test_streams_states, setup, teardown),
		cmocka_unit_test_setup_teardown(test_streams_latency_80x24, setup, teardown),
		cmocka_unit_test_setup_teardown(test_streams_udp_lost_from_receiver, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verdict_panel_80x24, setup, teardown),
		cmocka_unit_test_setup_teardown(test_peer_views_80x24, setup, teardown),
		cmocka_unit_test_setup_teardown(test_peer_state_80x24, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verdict_failed_and_peer, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
