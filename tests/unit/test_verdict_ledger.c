// SPDX-License-Identifier: GPL-2.0-or-later
/* The verdict's loss ledger over both ends (issue 27), fed as the session feeds it: this host's
 * ticks (its snapshots), the engine's counts, the peer's summary. Figures of real runs: a tbf on
 * the sender's veth, the peer's RcvbufErrors, a -R test's sender qdisc from the peer, TCP's
 * transport stage at both ends, --bidir's two ledgers. (The verdict's other rules:
 * test_verdict.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes/verdict_run.h"
#include "linerate/collect/qdisc.h"
#include "linerate/diagnose/latency.h"
#include "linerate/diagnose/ledger.h"
#include "linerate/diagnose/peer_loss.h"
#include "linerate/sample/ifrate.h"
#include "linerate/sample/snapshot.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/present/verdict_out.h"
#include "linerate/run/session.h"

/* The verdict concludes from the ledger over both ends (issue 27), fed as the session feeds it:
 * this host's ticks (its snapshots), the engine's counts, the peer's summary. */
static const struct lr_ledger_row *ledger_row(const struct lr_ledger *l, enum lr_ledger_stage st)
{
	for (unsigned i = 0; i < l->n_rows; i++)
		if (l->rows[i].stage == st)
			return &l->rows[i];
	return NULL;
}

/* A peer that read every counter of its veth and its UDP stack, rx_packets received. */
static void quiet_peer(struct lr_peer_summary *ps, uint64_t rx_packets)
{
	memset(ps, 0, sizeof(*ps));
	strcpy(ps->host, "peerhost");
	ps->n_ifaces = 1;
	strcpy(ps->ifaces[0].name, "veth1");
	ps->ifaces[0].known = 1u << LR_PC_RX_PACKETS | 1u << LR_PC_TX_PACKETS |
			      1u << LR_PC_RX_DROPPED | 1u << LR_PC_RX_MISSED;
	ps->ifaces[0].c[LR_PC_RX_PACKETS] = rx_packets;
	ps->ifaces[0].c[LR_PC_RX_BYTES] = rx_packets * 1442;
	ps->stack_known = 1u << LR_PS_UDP_RCVBUF_ERRORS | 1u << LR_PS_UDP_IN_ERRORS |
			  1u << LR_PS_UDP_SNDBUF_ERRORS;
	ps->softnet_known = true;
}

/* r's interface with a tbf root qdisc of that handle (root: the caller's, as long as r). */
static void tbf_root(struct run *r, struct lr_qdisc_snap *root, uint32_t handle)
{
	memset(root, 0, sizeof(*root));
	strcpy(root->kind, "tbf");
	root->handle = handle;
	root->parent = LR_QDISC_PARENT_ROOT;
	r->i.qdiscs = root;
	r->i.n_qdiscs = 1;
}

/* 4 s of 1 Gbit/s on a veth, nothing dropped on this host. */
static void veth_run(struct run *r, const struct lr_verdict_traffic *t, struct lr_verdict_acc *a,
		     struct lr_verdict *v)
{
	make_run(r, -1, 1500, 125000000, 0, -1, -1, 20);
	strcpy(r->i.kind, "veth");
	judge(r, 4, t, a, v);
}

/* The wave's first story: a tbf on the sender's veth dropped 80 % of a UDP test and the verdict
 * said "read the receiver's counters". Figures of a real run (-u -b 1G -l 1400 --no-gso -t 2
 * through `tbf rate 200mbit burst 20k limit 30k`): the receiver lost 143,910 of 178,643, tc -s
 * said dropped 143,924 over 4 ticks. The qdisc's drops over the test's window are tc's, from
 * its never-reset sums, and the verdict names the sender's qdisc. */
static void test_ledger_names_the_senders_qdisc(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	static struct lr_ledger l;
	static struct lr_peer_summary ps;
	struct lr_qdisc_snap root;
	const struct lr_ledger_row *q;
	const uint64_t tc_dropped = 143924, ticks = 4;
	struct lr_verdict_traffic t = {.ran = true, .udp = true, .parallel = 1,
				       .bitrate_bps = 1e9, .up_bps = 2e8, .down_bps = -1,
				       .sent_up_bps = 1e9, .sent_down_bps = -1, .retransmits = -1,
				       .udp_lost = 143910, .udp_packets = 178643};

	(void)state;
	make_run(&r, -1, 1500, 25000000, 0, -1, -1, 20);
	strcpy(r.i.kind, "veth");
	r.i.ifindex = 7;
	r.i.cum_valid = 1;
	tbf_root(&r, &root, 0x80010000u);
	lr_verdict_init(&a, "eth1");
	for (uint64_t k = 1; k <= ticks; k++) {
		uint64_t upto = tc_dropped * k / ticks;	/* tc's running count at this tick */

		r.i.qdisc.valid = LR_QDV_BIT(LR_QDC_DROPS);
		r.i.qdisc.cum_valid = LR_QDV_BIT(LR_QDC_DROPS);
		r.i.qdisc.delta[LR_QDC_DROPS] = upto - tc_dropped * (k - 1) / ticks;
		r.i.qdisc.cum[LR_QDC_DROPS] = upto;
		r.s.mono_ns = 100 * SEC + k * SEC;
		lr_verdict_add(&a, &r.s);
	}
	lr_verdict_compute(&a, &t, &v);
	quiet_peer(&ps, 178643 - 143924);
	assert_true(lr_verdict_ledger(&a, &t, &ps, "thishost", &l));
	lr_verdict_conclude(&v, &l);
	q = ledger_row(&l, LR_LS_QDISC);
	assert_non_null(q);
	assert_true(q->known && q->sender && !q->peer);
	assert_int_equal(q->count, tc_dropped);
	assert_ptr_equal(l.largest, q);
	assert_string_equal(l.snd_host, "thishost");
	assert_string_equal(l.rcv_host, "peerhost");
	assert_non_null(strstr(v.loss_where, "sender's qdisc"));
	assert_non_null(strstr(v.loss_where, "tbf 8001:"));
	assert_null(strstr(v.loss_where, "receiver's counters"));
	assert_null(strstr(v.next_step, "receiver's counters"));
}

/* Latency under load (docs/design.md §16): the verdict's books keep the root qdisc's backlog at
 * its fullest read inside the window (the gauge tc -s prints: 180000, 2095868, 950000, 0 bytes,
 * as a 2 MB tbf filled and drained), and the latency line names that qdisc with that peak when
 * p99 under load rose (0.15 ms idle, 855 ms loaded: latency_probes.sh's figures); with no
 * backlog read it names no qdisc. */
static void test_latency_names_the_qdisc_backlog(void **state)
{
	static const uint64_t gauge[] = {180000, 2095868, 950000, 0};
	static struct lr_latency lat;
	static struct lr_probe_stats ps;
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_qdisc_snap root;
	struct lr_verdict_traffic t = {.ran = true, .udp = true, .parallel = 1,
				       .bitrate_bps = 4e7, .up_bps = 2e7, .down_bps = -1,
				       .sent_up_bps = 4e7, .sent_down_bps = -1, .retransmits = -1,
				       .udp_lost = 0, .udp_packets = 7000};

	(void)state;
	ps.state = LR_PROBE_DONE;
	for (unsigned i = 0; i < 20; i++) {
		lr_lathist_add(&ps.idle, 150000);
		lr_lathist_add(&ps.load, 855000000);
	}
	lr_latency_init(&lat, false);
	lr_latency_update(&lat, &ps);
	make_run(&r, -1, 1500, 2500000, 0, -1, -1, 20);
	strcpy(r.i.kind, "veth");
	tbf_root(&r, &root, 0x10000u);
	lr_verdict_init(&a, "eth1");
	for (unsigned k = 0; k < 4; k++) {
		r.i.qdisc.valid = LR_QDV_BACKLOG_BYTES | LR_QDV_BACKLOG_PACKETS;
		r.i.qdisc.backlog_bytes = gauge[k];
		r.i.qdisc.backlog_packets = gauge[k] / 1442;
		r.s.mono_ns = 100 * SEC + (k + 1) * SEC;
		lr_verdict_add(&a, &r.s);
	}
	lr_verdict_compute(&a, &t, &v);
	lr_verdict_latency(&a, &t, &lat, &v);
	assert_int_equal(v.latency_judgement, LR_LATJ_ROSE);
	assert_string_equal(v.latency, "latency under load rose from 0.15 ms to 855 ms at p99: the "
				       "sender's qdisc backlog (tbf 1: on eth1) held 2.1 MB");
	/* no backlog read (an older kernel's dump, a replay): no qdisc named */
	lr_verdict_init(&a, "eth1");
	for (unsigned k = 0; k < 4; k++) {
		r.i.qdisc.valid = 0;
		r.s.mono_ns = 200 * SEC + (k + 1) * SEC;
		lr_verdict_add(&a, &r.s);
	}
	lr_verdict_compute(&a, &t, &v);
	lr_verdict_latency(&a, &t, &lat, &v);
	assert_int_equal(v.latency_judgement, LR_LATJ_ROSE);
	assert_null(strstr(v.latency, "qdisc"));
}

/* The wave's second story: the receiver's RcvbufErrors explained every lost datagram, on screen,
 * and the verdict did not say so. This host sent; the peer received and its UDP receive
 * buffer overflowed 5,000 times (--no-gso: one datagram an skb) of 5,000 lost. */
static void test_ledger_names_the_peers_rcvbuf(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	static struct lr_ledger l;
	static struct lr_peer_summary ps;
	const struct lr_ledger_row *tr;
	struct lr_verdict_traffic t = {.ran = true, .udp = true, .parallel = 1,
				       .bitrate_bps = 1e9, .up_bps = 9.5e8, .down_bps = -1,
				       .sent_up_bps = 1e9, .sent_down_bps = -1, .retransmits = -1,
				       .udp_lost = 5000, .udp_packets = 100000};

	(void)state;
	veth_run(&r, &t, &a, &v);
	quiet_peer(&ps, 100000);
	ps.stack[LR_PS_UDP_RCVBUF_ERRORS] = ps.stack[LR_PS_UDP_IN_ERRORS] = 5000;
	assert_true(lr_verdict_ledger(&a, &t, &ps, "thishost", &l));
	lr_verdict_conclude(&v, &l);
	tr = ledger_row(&l, LR_LS_TRANSPORT);
	assert_non_null(tr);
	assert_true(tr->known && tr->peer && !tr->sender);
	assert_string_equal(tr->counter, "UDP RcvbufErrors");	/* named, not InErrors */
	assert_int_equal(tr->count, 5000);
	assert_ptr_equal(l.largest, tr);
	assert_non_null(strstr(v.loss_where, "receiver's transport"));
	assert_non_null(strstr(v.loss_where, "peerhost"));
	assert_null(strstr(v.next_step, "receiver's counters"));
}

/* The wire stage takes the session's one-link decision: absent without it, with it this host's
 * tx packets over the test's window (4 ticks of 25,000) minus the peer's rx from its frames. */
static void test_ledger_wire_when_one_link(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	static struct lr_ledger l;
	static struct lr_peer_summary ps;
	const struct lr_ledger_row *w;
	struct lr_verdict_traffic t = {.ran = true, .udp = true, .parallel = 1,
				       .bitrate_bps = 1e9, .up_bps = 9.5e8, .down_bps = -1,
				       .sent_up_bps = 1e9, .sent_down_bps = -1, .retransmits = -1,
				       .udp_lost = 0, .udp_packets = 100000};

	(void)state;
	make_run(&r, -1, 1500, 125000000, 0, -1, -1, 20);
	strcpy(r.i.kind, "veth");
	r.i.delta[LR_M_TX_PACKETS] = 25000;	/* a tick: 100,000 over the 4 */
	judge(&r, 4, &t, &a, &v);
	quiet_peer(&ps, 99000);
	assert_true(lr_verdict_ledger(&a, &t, &ps, "thishost", &l));
	assert_null(ledger_row(&l, LR_LS_WIRE));
	t.one_link = true;
	assert_true(lr_verdict_ledger(&a, &t, &ps, "thishost", &l));
	w = ledger_row(&l, LR_LS_WIRE);
	assert_non_null(w);
	assert_true(w->known);
	assert_int_equal(w->count, 1000);
}

/* -R through a tbf on the peer's veth: the peer sent, its qdisc dropped 4,000 of the 4,000
 * lost; the peer view carries its root qdisc's drops and name, so the sender qdisc stage is
 * the peer's and the verdict names it on the peer's host. An older linerate peer sends no
 * qdisc: that stage is unknown, never 0. */
static void test_ledger_reverse_senders_qdisc_from_peer(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	static struct lr_ledger l;
	static struct lr_peer_summary ps;
	const struct lr_ledger_row *q;
	struct lr_verdict_traffic t = {.ran = true, .udp = true, .reverse = true, .parallel = 1,
				       .bitrate_bps = 1e9, .up_bps = -1, .down_bps = 9.6e8,
				       .sent_up_bps = -1, .sent_down_bps = 1e9, .retransmits = -1,
				       .udp_lost = 4000, .udp_packets = 100000};

	(void)state;
	veth_run(&r, &t, &a, &v);
	quiet_peer(&ps, 0);
	ps.ifaces[0].c[LR_PC_TX_PACKETS] = 96000;
	ps.ifaces[0].qdisc_drops = 4000;
	strcpy(ps.ifaces[0].qdisc, "tbf 8001:");
	assert_true(lr_verdict_ledger(&a, &t, &ps, "thishost", &l));
	lr_verdict_conclude(&v, &l);
	q = ledger_row(&l, LR_LS_QDISC);
	assert_true(q->known && q->peer && q->sender);
	assert_int_equal(q->count, 4000);
	assert_ptr_equal(l.largest, q);
	assert_non_null(strstr(v.loss_where, "at the sender's qdisc: tbf 8001: on peerhost veth1"));
	ps.ifaces[0].qdisc_drops = -1;
	ps.ifaces[0].qdisc[0] = '\0';
	assert_true(lr_verdict_ledger(&a, &t, &ps, "thishost", &l));
	assert_false(ledger_row(&l, LR_LS_QDISC)->known);
}

/* TCP both ways: the receiver's TcpExt drops are its transport stage, from the peer view when
 * the peer received, from this host's own books (-R) when it did; the ip stage likewise. */
static void test_ledger_tcp_transport_both_ends(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	static struct lr_ledger l;
	static struct lr_peer_summary ps;
	const struct lr_ledger_row *tr;
	struct lr_verdict_traffic t = {.ran = true, .udp = false, .parallel = 1, .up_bps = 9e8,
				       .down_bps = -1, .retransmits = 400};

	(void)state;
	make_run(&r, -1, 1500, 125000000, 0, -1, -1, 20);
	strcpy(r.i.kind, "veth");
	/* this host's own drops: the sender's, no stage of this direction */
	r.s.stack.valid = LR_STACKV_DROP(LR_SD_TCP_OFO_DROP) | LR_STACKV_IP_DROPS;
	r.s.stack.drop_per_s[LR_SD_TCP_OFO_DROP] = 50;
	r.s.stack.drop_per_s[LR_SD_IP_IN_DISCARDS] = 2;
	judge(&r, 4, &t, &a, &v);
	quiet_peer(&ps, 100000);
	ps.stack_known |= 1u << LR_PS_TCP_RCVQ_DROP | 1u << LR_PS_TCP_OFO_DROP |
			  1u << LR_PS_IP_IN_DISCARDS;
	ps.stack[LR_PS_TCP_RCVQ_DROP] = 300;
	ps.stack[LR_PS_TCP_OFO_DROP] = 20;
	assert_true(lr_verdict_ledger(&a, &t, &ps, "thishost", &l));
	lr_verdict_conclude(&v, &l);
	tr = ledger_row(&l, LR_LS_TRANSPORT);
	assert_true(tr->known && tr->peer && !tr->sender);
	assert_int_equal(tr->count, 320);
	assert_string_equal(tr->counter, "TcpExt TCPRcvQDrop");
	assert_true(ledger_row(&l, LR_LS_IP)->known && ledger_row(&l, LR_LS_IP)->peer);
	assert_int_equal(ledger_row(&l, LR_LS_IP)->count, 0);
	assert_non_null(strstr(v.loss_where, "receiver's transport: TcpExt TCPRcvQDrop on peerhost"));
	/* -R: this host received; its own books over the window (4 ticks of 1 s) */
	t.reverse = true;
	t.up_bps = -1;
	t.down_bps = 9e8;
	assert_true(lr_verdict_ledger(&a, &t, &ps, "thishost", &l));
	tr = ledger_row(&l, LR_LS_TRANSPORT);
	assert_true(tr->known && !tr->peer);
	assert_int_equal(tr->count, 200);
	assert_string_equal(tr->counter, "TcpExt TCPOFODrop");
	assert_int_equal(ledger_row(&l, LR_LS_IP)->count, 8);
	/* a peer without the witnesses (an older linerate) in the forward test: unknown */
	t.reverse = false;
	ps.stack_known &= ~(1u << LR_PS_TCP_RCVQ_DROP | 1u << LR_PS_TCP_OFO_DROP |
			    1u << LR_PS_IP_IN_DISCARDS);
	assert_true(lr_verdict_ledger(&a, &t, &ps, "thishost", &l));
	assert_false(ledger_row(&l, LR_LS_TRANSPORT)->known);
	assert_false(ledger_row(&l, LR_LS_IP)->known);
}

/* TCP: the segments the ledger weighs D-SACK's rest against are each direction's senders' bytes
 * (the engines' results, as the session hands them to the verdict) at the MSS of the test
 * interface's MTU (less IP and TCP with timestamps), under --bidir each direction its own; UDP
 * and a direction whose bytes are unknown have none. */
static void test_ledger_tcp_segments_from_bytes(void **state)
{
	static struct lr_traffic_results res;
	struct lr_verdict_traffic from;

	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_ledger_input in;
	struct lr_verdict_traffic t = {.ran = true, .udp = false, .parallel = 1, .up_bps = 9e8,
				       .down_bps = -1, .retransmits = 400,
				       .dir_retransmits = {400, -1},
				       .dir_sent_bytes = {144800000, -1}};

	(void)state;
	res.n_streams = 2;
	res.bidir = true;
	res.sum_up = (struct lr_traffic_sum){.n_streams = 1, .sent_bytes = 144800000};
	res.sum_down = (struct lr_traffic_sum){.n_streams = 1, .sent_bytes = 17896000};
	lr_verdict_traffic_from(&res, &from);
	assert_int_equal(from.dir_sent_bytes[LR_LDIR_UP], 144800000);
	assert_int_equal(from.dir_sent_bytes[LR_LDIR_DOWN], 17896000);
	res.sum_down.n_streams = 0;
	lr_verdict_traffic_from(&res, &from);
	assert_int_equal(from.dir_sent_bytes[LR_LDIR_DOWN], -1);
	make_run(&r, -1, 1500, 125000000, 0, -1, -1, 20);
	judge(&r, 4, &t, &a, &v);
	assert_true(lr_verdict_ledger_input(&a, &t, NULL, "thishost", LR_LDIR_UP, &in));
	assert_int_equal(in.tcp_segments, 100000);	/* 144.8 MB at 1448 */
	make_run(&r, -1, 9000, 125000000, 0, -1, -1, 20);
	judge(&r, 4, &t, &a, &v);
	t.dir_sent_bytes[LR_LDIR_UP] = 89480000;
	assert_true(lr_verdict_ledger_input(&a, &t, NULL, "thishost", LR_LDIR_UP, &in));
	assert_int_equal(in.tcp_segments, 10000);	/* at 8948 */
	t.bidir = true;
	t.dir_sent_bytes[LR_LDIR_DOWN] = 17896000;
	t.dir_retransmits[LR_LDIR_DOWN] = 3;
	assert_true(lr_verdict_ledger_input(&a, &t, NULL, "thishost", LR_LDIR_DOWN, &in));
	assert_int_equal(in.tcp_segments, 2000);
	t.dir_sent_bytes[LR_LDIR_DOWN] = -1;
	assert_true(lr_verdict_ledger_input(&a, &t, NULL, "thishost", LR_LDIR_DOWN, &in));
	assert_int_equal(in.tcp_segments, -1);
	t.udp = true;
	assert_true(lr_verdict_ledger_input(&a, &t, NULL, "thishost", LR_LDIR_UP, &in));
	assert_int_equal(in.tcp_segments, -1);
}

/* --bidir, UDP, 100,000 datagrams each way over 4 s. Each host receives one direction's data
 * only, so its receive-side drops are that direction's: this host's (the client's) UDP
 * RcvbufErrors moved rcv_local times, the peer's rcv_peer; -w small on one end. The books and
 * the peer's summary as the session has them at the end. */
static void bidir_run(struct lr_verdict_acc *a, struct lr_peer_summary *ps,
		      struct lr_verdict_traffic *t, uint64_t rcv_local, uint64_t rcv_peer)
{
	struct run r;
	struct lr_verdict v;

	*t = (struct lr_verdict_traffic){.ran = true, .udp = true, .bidir = true, .parallel = 1,
					 .bitrate_bps = 1e9, .up_bps = 9e8, .down_bps = 9e8,
					 .sent_up_bps = 1e9, .sent_down_bps = 1e9,
					 .retransmits = -1, .dir_retransmits = {-1, -1},
					 .udp_lost = (int64_t)(rcv_local + rcv_peer),
					 .udp_packets = 200000,
					 .dir_udp_lost = {(int64_t)rcv_peer, (int64_t)rcv_local},
					 .dir_udp_packets = {100000, 100000}};
	make_run(&r, -1, 1500, 125000000, 0, -1, -1, 20);
	strcpy(r.i.kind, "veth");
	/* every datagram of both directions crossed both veths (--no-gso: an skb each); the
	 * socket buffer dropped them after the interface counted them */
	r.i.delta[LR_M_RX_PACKETS] = r.i.delta[LR_M_TX_PACKETS] = 100000 / 4;
	r.s.stack.valid = LR_STACKV_UDP_RCVBUF | LR_STACKV_UDP_IN_ERRORS | LR_STACKV_UDP_SNDBUF;
	r.s.stack.udp_rcvbuf_errors_per_s = r.s.stack.udp_in_errors_per_s = (double)rcv_local / 4;
	judge(&r, 4, t, a, &v);
	quiet_peer(ps, 100000);
	ps->ifaces[0].c[LR_PC_TX_PACKETS] = 100000;
	ps->stack[LR_PS_UDP_RCVBUF_ERRORS] = ps->stack[LR_PS_UDP_IN_ERRORS] = rcv_peer;
}

/* A direction's ledger that lost nothing: its receiver's transport stage read 0 on that end. */
static void no_loss(const struct lr_ledger *l, bool peer_receives)
{
	const struct lr_ledger_row *tr = ledger_row(l, LR_LS_TRANSPORT);

	assert_int_equal(l->lost, 0);
	assert_int_equal(l->sent, 100000);
	assert_true(tr->known && tr->peer == peer_receives && !tr->sender);
	assert_int_equal(tr->count, 0);
	assert_null(l->largest);
	assert_non_null(strstr(l->conclusion, "no loss"));
}

/* A direction's ledger that lost 5,000 of 100,000, all at its receiver's socket buffer: that
 * end's UDP RcvbufErrors is the transport stage and the cause; the conclusion says want. */
static void lost_at_rcvbuf(const struct lr_ledger *l, bool peer_receives, const char *want)
{
	const struct lr_ledger_row *tr = ledger_row(l, LR_LS_TRANSPORT);

	assert_int_equal(l->lost, 5000);
	assert_int_equal(l->sent, 100000);
	assert_true(tr->known && tr->peer == peer_receives && !tr->sender);
	assert_string_equal(tr->counter, "UDP RcvbufErrors");
	assert_int_equal(tr->count, 5000);
	assert_ptr_equal(l->largest, tr);
	assert_non_null(strstr(l->conclusion, want));
}

/* Both directions' ledgers of t. */
static void both_ledgers(const struct lr_verdict_acc *a, const struct lr_verdict_traffic *t,
			 const struct lr_peer_summary *ps, struct lr_ledger *up,
			 struct lr_ledger *down)
{
	assert_true(lr_verdict_ledger_dir(a, t, ps, "thishost", LR_LDIR_UP, up));
	assert_true(lr_verdict_ledger_dir(a, t, ps, "thishost", LR_LDIR_DOWN, down));
}

/* Only the down direction (server -> client) lost: 5,000 datagrams at the client's own socket
 * buffer (this host's RcvbufErrors). The up ledger shows no loss (the peer received it and
 * its counters saw none); the down one names this host's UDP RcvbufErrors; the verdict
 * concludes from the down one and names the direction. */
static void test_ledger_bidir_down_lost_at_client(void **state)
{
	struct lr_verdict_acc a;
	struct lr_verdict v;
	static struct lr_ledger up, down;
	static struct lr_peer_summary ps;
	struct lr_verdict_traffic t;
	const struct lr_ledger *both[2] = {&up, &down};

	(void)state;
	bidir_run(&a, &ps, &t, 5000, 0);
	both_ledgers(&a, &t, &ps, &up, &down);
	no_loss(&up, true);
	assert_string_equal(up.snd_host, "thishost");
	assert_string_equal(down.snd_host, "peerhost");
	assert_string_equal(down.rcv_host, "thishost");
	lost_at_rcvbuf(&down, false, "down (server -> client): 5000 of 5000 lost datagrams at the "
		       "receiver's transport: UDP RcvbufErrors on thishost");
	lr_verdict_compute(&a, &t, &v);
	assert_ptr_equal(lr_verdict_worst(both, 2), &down);
	lr_verdict_conclude(&v, lr_verdict_worst(both, 2));
	assert_non_null(strstr(v.loss_where, "down (server -> client)"));
	assert_true(!strncmp(v.next_step, "down: ", 6));
}

/* The reverse: only up (client -> server) lost, 5,000 at the server's socket buffer (the
 * peer's RcvbufErrors); the down ledger shows no loss, this host's counters saw none. TCP
 * likewise: each direction's loss is its own senders' retransmits. */
static void test_ledger_bidir_up_lost_at_server(void **state)
{
	struct lr_verdict_acc a;
	static struct lr_ledger up, down;
	static struct lr_peer_summary ps;
	struct lr_verdict_traffic t;
	const struct lr_ledger *both[2] = {&up, &down};

	(void)state;
	bidir_run(&a, &ps, &t, 0, 5000);
	both_ledgers(&a, &t, &ps, &up, &down);
	no_loss(&down, false);
	lost_at_rcvbuf(&up, true, "up (client -> server): 5000 of 5000 lost datagrams at the "
		       "receiver's transport: UDP RcvbufErrors on peerhost");
	assert_ptr_equal(lr_verdict_worst(both, 2), &up);
	t.udp = false;
	t.dir_retransmits[LR_LDIR_UP] = 0;
	t.dir_retransmits[LR_LDIR_DOWN] = 700;
	t.retransmits = 700;
	both_ledgers(&a, &t, &ps, &up, &down);
	assert_int_equal(up.lost, 0);
	assert_int_equal(down.lost, 700);
	assert_ptr_equal(lr_verdict_worst(both, 2), &down);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ledger_names_the_senders_qdisc),
		cmocka_unit_test(test_latency_names_the_qdisc_backlog),
		cmocka_unit_test(test_ledger_wire_when_one_link),
		cmocka_unit_test(test_ledger_names_the_peers_rcvbuf),
		cmocka_unit_test(test_ledger_reverse_senders_qdisc_from_peer),
		cmocka_unit_test(test_ledger_tcp_transport_both_ends),
		cmocka_unit_test(test_ledger_tcp_segments_from_bytes),
		cmocka_unit_test(test_ledger_bidir_down_lost_at_client),
		cmocka_unit_test(test_ledger_bidir_up_lost_at_server),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
