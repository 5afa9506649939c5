// SPDX-License-Identifier: GPL-2.0-or-later
/* The peer-stats wire codecs (docs/wire.md, part 2): a frame survives encode/decode exactly,
 * every field of every struct it carries compared one by one (and byte for byte, so a field
 * added later and left out of the codec fails too), and so does the offer;
 * the decoder refuses what a hostile server could send (wrong types, out-of-range values,
 * too many entries, duplicates, control characters in the host name); the params key is
 * optional and a malformed one means "not asked", never a refused test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/traffic/peer_wire.h"
#include "linerate/traffic/proto.h"

/* ---- every field, compared one by one: a field the encoder drops or the decoder misreads
 * fails by name ---- */

static void expect_queue_eq(const struct lr_peer_queue *a, const struct lr_peer_queue *b)
{
	assert_int_equal(b->queue, a->queue);
	assert_int_equal(b->known, a->known);
	assert_int_equal(b->base_ns, a->base_ns);
	for (int k = 0; k < 6; k++) /* an unknown one reads 0 */
		assert_int_equal(b->c[k], (a->known & (1u << k)) ? a->c[k] : 0);
	assert_int_equal(b->cpu, a->cpu);
	assert_true(b->cpu_softirq_pct == a->cpu_softirq_pct);
}

static void expect_iface_eq(const struct lr_peer_iface *a, const struct lr_peer_iface *b)
{
	assert_string_equal(b->name, a->name);
	assert_int_equal(b->gen, a->gen);
	assert_int_equal(b->base_ns, a->base_ns);
	assert_int_equal(b->mtu, a->mtu);
	assert_int_equal(b->speed_mbps, a->speed_mbps);
	assert_int_equal(b->duplex, a->duplex);
	assert_int_equal(b->ring_rx, a->ring_rx);
	assert_int_equal(b->ring_rx_max, a->ring_rx_max);
	assert_int_equal(b->ring_tx, a->ring_tx);
	assert_int_equal(b->ring_tx_max, a->ring_tx_max);
	assert_string_equal(b->driver, a->driver);
	assert_int_equal(b->features, a->features);
	assert_int_equal(b->features_known, a->features_known);
	assert_int_equal(b->numa_node, a->numa_node);
	assert_int_equal(b->operstate, a->operstate);
	assert_true(b->softirq_max_pct == a->softirq_max_pct);
	assert_int_equal(b->softirq_cpu, a->softirq_cpu);
	assert_int_equal(b->qdisc_drops, a->qdisc_drops);
	assert_string_equal(b->qdisc, a->qdisc);
	assert_int_equal(b->known, a->known);
	for (int k = 0; k < LR_PC__COUNT; k++) { /* an unknown one reads 0 */
		uint64_t want = (a->known & (1u << k)) ? a->c[k] : 0;

		if (b->c[k] != want)
			fail_msg("%s: counter %s is %llu, sent %llu", a->name, lr_peer_ctr_name(k),
				 (unsigned long long)b->c[k], (unsigned long long)want);
	}
	assert_int_equal(b->queue_source, a->queue_source);
	assert_int_equal(b->q_first, a->q_first);
	assert_int_equal(b->n_q, a->n_q);
	assert_int_equal(b->s_first, a->s_first);
	assert_int_equal(b->n_s, a->n_s);
}

static void expect_cpu_eq(const struct lr_peer_cpu *a, const struct lr_peer_cpu *b)
{
	assert_int_equal(b->cpu, a->cpu);
	assert_int_equal(b->has_t, a->has_t);
	assert_int_equal(b->has_q, a->has_q);
	assert_int_equal(b->has_n, a->has_n);
	for (int k = 0; k < 6; k++)
		assert_true(b->t[k] == a->t[k]);
	for (int k = 0; k < 3; k++)
		assert_true(b->q[k] == a->q[k]);
	for (int k = 0; k < 4; k++)
		assert_true(b->n[k] == a->n[k]);
	assert_int_equal(b->node, a->node);
}

static void expect_tuning_eq(const struct lr_peer_tuning *a, const struct lr_peer_tuning *b)
{
	assert_int_equal(b->rmem_max, a->rmem_max);
	assert_int_equal(b->wmem_max, a->wmem_max);
	assert_int_equal(b->netdev_max_backlog, a->netdev_max_backlog);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(b->tcp_rmem[k], a->tcp_rmem[k]);
		assert_int_equal(b->tcp_wmem[k], a->tcp_wmem[k]);
	}
	assert_int_equal(b->tcp_window_scaling, a->tcp_window_scaling);
	assert_int_equal(b->tcp_timestamps, a->tcp_timestamps);
	assert_int_equal(b->tcp_sack, a->tcp_sack);
	assert_string_equal(b->tcp_congestion, a->tcp_congestion);
}

/* bytes: the sent structs were zeroed whole before they were filled (padding too), as the
 * decoder's are: then each struct must also be equal byte for byte, which no field left out
 * of the comparisons above (one added to the structs later) can pass unless it round-trips */
static void expect_frame_eq(const struct lr_peer_frame *a, const struct lr_peer_frame *b,
			    bool bytes)
{
	assert_int_equal(b->seq, a->seq);
	assert_int_equal(b->mono_ns, a->mono_ns);
	assert_int_equal(b->end, a->end);
	assert_string_equal(b->host, a->host);
	assert_int_equal(b->n_ifaces, a->n_ifaces);
	assert_int_equal(b->n_cpus, a->n_cpus);
	assert_int_equal(b->n_queues, a->n_queues);
	assert_int_equal(b->n_serving, a->n_serving);
	for (size_t i = 0; i < a->n_ifaces; i++)
		expect_iface_eq(&a->ifaces[i], &b->ifaces[i]);
	for (size_t i = 0; i < a->n_cpus; i++)
		expect_cpu_eq(&a->cpus[i], &b->cpus[i]);
	for (size_t i = 0; i < a->n_queues; i++)
		expect_queue_eq(&a->queues[i], &b->queues[i]);
	for (size_t i = 0; i < a->n_serving; i++)
		assert_int_equal(b->serving[i], a->serving[i]);
	assert_int_equal(b->has_tuning, a->has_tuning);
	if (a->has_tuning)
		expect_tuning_eq(&a->tuning, &b->tuning);
	assert_int_equal(b->has_stack, a->has_stack);
	assert_int_equal(b->stack_known, a->stack_known);
	for (int k = 0; k < LR_PS__COUNT; k++) /* an unknown one reads 0, whatever was sent */
		assert_int_equal(b->stack[k], (a->stack_known & (1u << k)) ? a->stack[k] : 0);
	if (!bytes)
		return;
	for (size_t i = 0; i < a->n_ifaces; i++)
		assert_memory_equal(&b->ifaces[i], &a->ifaces[i], sizeof(a->ifaces[i]));
	for (size_t i = 0; i < a->n_cpus; i++)
		assert_memory_equal(&b->cpus[i], &a->cpus[i], sizeof(a->cpus[i]));
	for (size_t i = 0; i < a->n_queues; i++)
		assert_memory_equal(&b->queues[i], &a->queues[i], sizeof(a->queues[i]));
	if (a->has_tuning)
		assert_memory_equal(&b->tuning, &a->tuning, sizeof(a->tuning));
}

static void roundtrip(const struct lr_peer_frame *f, bool bytes)
{
	struct lr_peer_frame g;
	char err[LR_PROTO_ERR_MAX], *buf;
	size_t len;

	assert_int_equal(lr_peer_frame_encode(f, &buf, &len), 0);
	if (lr_peer_frame_decode(buf, len, &g, err) != 0)
		fail_msg("decode: %s: %s", err, buf);
	free(buf);
	expect_frame_eq(f, &g, bytes);
	lr_peer_frame_free(&g);
}

/* Every field of a frame set, each to its own value (64-bit counts above 2^32, known zeros
 * where 0 is a value: half duplex, node 0), beside an interface with every field unknown: all
 * of it comes back as sent. */
static void test_roundtrip_every_field(void **state)
{
	struct lr_peer_iface ifs[3];
	struct lr_peer_queue qs[3];
	struct lr_peer_cpu cpus[3];
	int serving[3] = {4, 0, 9};
	struct lr_peer_frame f;
	const uint64_t big = UINT64_C(1) << 40;

	(void)state;
	memset(ifs, 0, sizeof(ifs));
	memset(qs, 0, sizeof(qs));
	memset(cpus, 0, sizeof(cpus));
	memset(&f, 0, sizeof(f));

	/* eth1: all known, 2 queues, 2 serving CPUs */
	lr_peer_iface_unknown(&ifs[0]);
	snprintf(ifs[0].name, sizeof(ifs[0].name), "eth1");
	ifs[0].gen = 0xfffffff0u;
	ifs[0].base_ns = big * 3 + 1;
	ifs[0].mtu = 9000;
	ifs[0].speed_mbps = 25000;
	ifs[0].duplex = 1;
	ifs[0].ring_rx = 511;
	ifs[0].ring_rx_max = 4095;
	ifs[0].ring_tx = 1023;
	ifs[0].ring_tx_max = 8191;
	snprintf(ifs[0].driver, sizeof(ifs[0].driver), "mlx5_core");
	ifs[0].features = 0x29;
	ifs[0].features_known = 0x2b;
	ifs[0].numa_node = 3;
	ifs[0].operstate = 6;	/* IF_OPER_UP */
	ifs[0].softirq_max_pct = 87.25;
	ifs[0].softirq_cpu = 11;
	ifs[0].qdisc_drops = (int64_t)(big * 5 + 3);	/* a -R test's sender qdisc */
	snprintf(ifs[0].qdisc, sizeof(ifs[0].qdisc), "tbf 8001:");
	ifs[0].known = (1u << LR_PC__COUNT) - 1;
	for (int k = 0; k < LR_PC__COUNT; k++)
		ifs[0].c[k] = big + 1000 * (uint64_t)k + 7;
	ifs[0].queue_source = 2;
	ifs[0].q_first = 0;
	ifs[0].n_q = 2;
	ifs[0].s_first = 0;
	ifs[0].n_s = 2;
	/* veth1: known zeros (half duplex, ring 0, node 0), some counters, 1 queue, 1 CPU */
	lr_peer_iface_unknown(&ifs[1]);
	snprintf(ifs[1].name, sizeof(ifs[1].name), "veth1");
	ifs[1].gen = 1;
	ifs[1].base_ns = 5;
	ifs[1].mtu = 1500;
	ifs[1].speed_mbps = 10000;
	ifs[1].duplex = 0;
	ifs[1].ring_rx = 0;
	ifs[1].numa_node = 0;
	ifs[1].operstate = 0;	/* IF_OPER_UNKNOWN, as lo says: a known 0 */
	ifs[1].softirq_max_pct = 0;
	ifs[1].softirq_cpu = 0;
	ifs[1].qdisc_drops = 0;
	ifs[1].known = (1u << LR_PC_TX_BYTES) | (1u << LR_PC_RX_OVER) | (1u << LR_PC_NIC_FIFO);
	ifs[1].c[LR_PC_TX_BYTES] = big * 5;
	ifs[1].c[LR_PC_RX_OVER] = 0;
	ifs[1].c[LR_PC_NIC_FIFO] = 99;
	ifs[1].queue_source = 1;
	ifs[1].q_first = 2;
	ifs[1].n_q = 1;
	ifs[1].s_first = 2;
	ifs[1].n_s = 1;
	/* lo: everything unknown; its tables begin where the others' end */
	lr_peer_iface_unknown(&ifs[2]);
	snprintf(ifs[2].name, sizeof(ifs[2].name), "lo");
	ifs[2].base_ns = 6;
	ifs[2].s_first = 3;

	/* field by field into the zeroed arrays: a struct literal's padding is unspecified, and
	 * the byte comparison reads it */
	qs[0].queue = 0;
	qs[0].known = 0x3f;
	qs[0].base_ns = big + 10;
	for (int k = 0; k < 6; k++)
		qs[0].c[k] = big + 1 + (uint64_t)k;
	qs[0].cpu = 2;
	qs[0].cpu_softirq_pct = 33.5;
	qs[1].queue = 7;
	qs[1].known = 0x15; /* c[0], c[2], c[4]: the others unknown, 0 on the wire */
	qs[1].base_ns = 11;
	qs[1].c[0] = 21;
	qs[1].c[2] = 23;
	qs[1].c[4] = 25;
	qs[1].cpu = -1;
	qs[1].cpu_softirq_pct = -1;
	qs[2].queue = 65535;
	qs[2].known = 0x2a;
	qs[2].base_ns = 12;
	qs[2].c[1] = 32;
	qs[2].c[3] = 34;
	qs[2].c[5] = 36;
	qs[2].cpu = 0;
	qs[2].cpu_softirq_pct = 0;

	cpus[0].cpu = 0;
	cpus[0].has_t = cpus[0].has_q = cpus[0].has_n = true;
	for (int k = 0; k < 6; k++)
		cpus[0].t[k] = 0.0625 * (k + 1) + k;
	cpus[0].q[0] = 1.5;
	cpus[0].q[1] = 123456;
	cpus[0].q[2] = 789;
	cpus[0].n[0] = 1.5;
	cpus[0].n[1] = 1e12;
	cpus[0].n[2] = 3;
	cpus[0].n[3] = 4;
	cpus[0].node = 1;
	cpus[1].cpu = 3;
	cpus[1].has_t = true;
	for (int k = 0; k < 6; k++)
		cpus[1].t[k] = 0.1 * k;
	cpus[1].node = -1;
	cpus[2].cpu = 7;
	cpus[2].has_n = true;
	cpus[2].n[0] = 2;
	cpus[2].n[3] = 1;
	cpus[2].node = 0;

	f.seq = big * 7 + 3;
	f.mono_ns = big * 11 + 5;
	f.end = true;
	snprintf(f.host, sizeof(f.host), "peer-host.example");
	f.ifaces = ifs;
	f.n_ifaces = 3;
	f.cpus = cpus;
	f.n_cpus = 3;
	f.queues = qs;
	f.n_queues = 3;
	f.serving = serving;
	f.n_serving = 3;
	f.has_tuning = true;
	lr_peer_tuning_unknown(&f.tuning);
	f.tuning.rmem_max = 212993;
	f.tuning.wmem_max = 212994;
	f.tuning.netdev_max_backlog = 1001;
	for (int k = 0; k < 3; k++) {
		f.tuning.tcp_rmem[k] = 4096 + k;
		f.tuning.tcp_wmem[k] = 8192 + k;
	}
	f.tuning.tcp_window_scaling = 1;
	f.tuning.tcp_timestamps = 2;
	f.tuning.tcp_sack = 0;
	snprintf(f.tuning.tcp_congestion, sizeof(f.tuning.tcp_congestion), "cubic");
	f.has_stack = true;
	f.stack_known = (1u << LR_PS__COUNT) - 1;
	for (int k = 0; k < LR_PS__COUNT; k++)
		f.stack[k] = big * 13 + (uint64_t)k;
	roundtrip(&f, true);

	/* the same frame, not the last, with its tuning all unknown and a stack of unknowns */
	f.end = false;
	lr_peer_tuning_unknown(&f.tuning);
	f.stack_known = 0;
	memset(f.stack, 0, sizeof(f.stack));
	roundtrip(&f, true);

	/* no tuning, no stack at all: both stay absent */
	f.has_tuning = false;
	memset(&f.tuning, 0, sizeof(f.tuning));
	f.has_stack = false;
	roundtrip(&f, true);
}

static void test_roundtrip(void **state)
{
	struct lr_peer_iface ifs[2] = {
		{.name = "veth1",
		 .gen = 2,
		 .base_ns = 1000,
		 .mtu = 1500,
		 .speed_mbps = -1,
		 .softirq_max_pct = 12.5,
		 .softirq_cpu = 3,
		 .known = (1u << LR_PC_RX_BYTES) | (1u << LR_PC_NIC_DROP),
		 .c = {[LR_PC_RX_BYTES] = 123456789012ULL, [LR_PC_NIC_DROP] = 7}},
		{.name = "lo",
		 .base_ns = 5,
		 .mtu = 65536,
		 .speed_mbps = -1,
		 .softirq_max_pct = -1,
		 .softirq_cpu = -1},
	};
	struct lr_peer_cpu cpus[2] = {
		{.cpu = 0, .has_t = true, .t = {1.5, 0.25, 0.5, 0, 0.125, 0.625}},
		{.cpu = 5, .has_q = true, .has_n = true, .q = {2, 100, 3}, .n = {2, 50, 1, 0}},
	};
	struct lr_peer_frame f = {.seq = 9,
				  .mono_ns = 77,
				  .end = true,
				  .host = "peerhost",
				  .ifaces = ifs,
				  .n_ifaces = 2,
				  .cpus = cpus,
				  .n_cpus = 2,
				  .has_stack = true,
				  .stack_known = 0xb,
				  .stack = {1, 2, 3, 4}};
	struct lr_peer_frame g;
	char err[LR_PROTO_ERR_MAX], *buf;
	size_t len;

	(void)state;
	assert_int_equal(lr_peer_frame_encode(&f, &buf, &len), 0);
	assert_int_equal(lr_peer_frame_decode(buf, len, &g, err), 0);
	free(buf);
	assert_int_equal(g.seq, 9);
	assert_int_equal(g.mono_ns, 77);
	assert_true(g.end);
	assert_string_equal(g.host, "peerhost");
	assert_int_equal(g.n_ifaces, 2);
	assert_string_equal(g.ifaces[0].name, "veth1");
	assert_int_equal(g.ifaces[0].gen, 2);
	assert_int_equal(g.ifaces[0].base_ns, 1000);
	assert_int_equal(g.ifaces[0].known, ifs[0].known);
	assert_int_equal(g.ifaces[0].c[LR_PC_RX_BYTES], 123456789012ULL);
	assert_int_equal(g.ifaces[0].c[LR_PC_NIC_DROP], 7);
	assert_int_equal(g.ifaces[0].speed_mbps, -1);
	assert_int_equal(g.ifaces[0].softirq_cpu, 3);
	assert_true(g.ifaces[0].softirq_max_pct == 12.5);
	assert_int_equal(g.ifaces[1].known, 0);
	assert_int_equal(g.n_cpus, 2);
	assert_true(g.cpus[0].has_t && !g.cpus[0].has_q);
	assert_true(g.cpus[0].t[5] == 0.625);
	assert_int_equal(g.cpus[1].cpu, 5);
	assert_true(g.cpus[1].q[1] == 100 && g.cpus[1].n[2] == 1);
	assert_true(g.has_stack);
	assert_int_equal(g.stack[LR_PS_UDP_SNDBUF_ERRORS], 4);
	assert_int_equal(g.stack_known, 0xb); /* udp_rcvbuf_errors unknown: absent, not 0 */
	assert_int_equal(g.stack[LR_PS_UDP_RCVBUF_ERRORS], 0);
	expect_frame_eq(&f, &g, false); /* and every other field of it */
	lr_peer_frame_free(&g);
}

/* The link/ring/tuning/queue fields added within version 1 survive the round trip; unknown
 * ones stay unknown (absent on the wire, -1 / "" decoded). */
static void test_roundtrip_state(void **state)
{
	struct lr_peer_iface ifs[2];
	struct lr_peer_queue qs[3] = {
		{.queue = 0, .known = 0x3f, .base_ns = 10, .c = {1, 2, 3, 4, 5, 6}, .cpu = 2,
		 .cpu_softirq_pct = 7.5},
		{.queue = 3, .known = 0x0f, .base_ns = 11, .c = {9, 8, 7, 6, 0, 0}, .cpu = -1,
		 .cpu_softirq_pct = -1},
		{.queue = 1, .known = 1, .base_ns = 12, .c = {42}, .cpu = 0, .cpu_softirq_pct = 0},
	};
	struct lr_peer_cpu cpus[2] = {{.cpu = 0, .node = 1}, {.cpu = 1, .node = -1}};
	int serving[3] = {1, 5, 2};
	struct lr_peer_frame f = {.seq = 1, .mono_ns = 2, .host = "h", .ifaces = ifs,
				  .n_ifaces = 2, .cpus = cpus, .n_cpus = 2, .queues = qs,
				  .n_queues = 3, .serving = serving, .n_serving = 3,
				  .has_tuning = true};
	struct lr_peer_frame g;
	char err[LR_PROTO_ERR_MAX], *buf;
	size_t len;

	(void)state;
	lr_peer_iface_unknown(&ifs[0]);
	lr_peer_iface_unknown(&ifs[1]);
	snprintf(ifs[0].name, sizeof(ifs[0].name), "eth1");
	ifs[0].base_ns = 1;
	ifs[0].ring_rx = 512;
	ifs[0].ring_rx_max = 4096;
	ifs[0].ring_tx = 1024;
	ifs[0].ring_tx_max = 4096;
	ifs[0].duplex = 1;
	snprintf(ifs[0].driver, sizeof(ifs[0].driver), "ixgbe");
	ifs[0].features = 0x5;
	ifs[0].features_known = 0xf;
	ifs[0].numa_node = 1;
	ifs[0].queue_source = 2;
	ifs[0].q_first = 0;
	ifs[0].n_q = 2;
	snprintf(ifs[1].name, sizeof(ifs[1].name), "veth1");
	ifs[1].base_ns = 1;
	ifs[1].q_first = 2;
	ifs[1].n_q = 1;
	ifs[1].queue_source = 1;
	ifs[1].s_first = 1;
	ifs[1].n_s = 2;
	lr_peer_tuning_unknown(&f.tuning);
	f.tuning.rmem_max = 212992;
	f.tuning.tcp_rmem[0] = 4096;
	f.tuning.tcp_rmem[1] = 131072;
	f.tuning.tcp_rmem[2] = 6291456;
	f.tuning.tcp_sack = 1;
	snprintf(f.tuning.tcp_congestion, sizeof(f.tuning.tcp_congestion), "bbr");
	assert_int_equal(lr_peer_frame_encode(&f, &buf, &len), 0);
	assert_int_equal(lr_peer_frame_decode(buf, len, &g, err), 0);
	free(buf);
	assert_int_equal(g.ifaces[0].ring_rx, 512);
	assert_int_equal(g.ifaces[0].ring_rx_max, 4096);
	assert_int_equal(g.ifaces[0].ring_tx, 1024);
	assert_int_equal(g.ifaces[0].duplex, 1);
	assert_string_equal(g.ifaces[0].driver, "ixgbe");
	assert_int_equal(g.ifaces[0].features, 0x5);
	assert_int_equal(g.ifaces[0].features_known, 0xf);
	assert_int_equal(g.ifaces[0].numa_node, 1);
	assert_int_equal(g.ifaces[0].queue_source, 2);
	assert_int_equal(g.ifaces[1].ring_rx, -1); /* unknown stays unknown, never 0 */
	assert_int_equal(g.ifaces[1].ring_tx_max, -1);
	assert_int_equal(g.ifaces[1].mtu, -1);
	assert_int_equal(g.ifaces[1].duplex, -1);
	assert_int_equal(g.ifaces[1].numa_node, -1);
	assert_string_equal(g.ifaces[1].driver, "");
	assert_int_equal(g.n_queues, 3);
	assert_int_equal(g.ifaces[0].n_q, 2);
	assert_int_equal(g.ifaces[1].q_first, 2);
	assert_int_equal(g.queues[1].queue, 3);
	assert_int_equal(g.queues[1].known, 0x0f);
	assert_int_equal(g.queues[1].c[3], 6);
	assert_int_equal(g.queues[1].cpu, -1);
	assert_true(g.queues[0].cpu_softirq_pct == 7.5);
	assert_int_equal(g.queues[0].c[5], 6);
	assert_int_equal(g.queues[2].c[0], 42);
	assert_int_equal(g.queues[2].base_ns, 12);
	assert_int_equal(g.ifaces[0].n_s, 0);
	assert_int_equal(g.ifaces[1].n_s, 2);
	assert_int_equal(g.serving[g.ifaces[1].s_first], 5);
	assert_int_equal(g.serving[g.ifaces[1].s_first + 1], 2);
	assert_int_equal(g.cpus[0].node, 1);
	assert_int_equal(g.cpus[1].node, -1);
	assert_true(g.has_tuning);
	assert_int_equal(g.tuning.rmem_max, 212992);
	assert_int_equal(g.tuning.wmem_max, -1);
	assert_int_equal(g.tuning.tcp_rmem[2], 6291456);
	assert_int_equal(g.tuning.tcp_wmem[1], -1);
	assert_int_equal(g.tuning.tcp_window_scaling, -1);
	assert_int_equal(g.tuning.tcp_sack, 1);
	assert_string_equal(g.tuning.tcp_congestion, "bbr");
	lr_peer_frame_free(&g);

	/* an older linerate server's frame: none of them, all unknown */
	{
		static const char old[] =
			"{\"v\":1,\"seq\":1,\"host\":\"h\",\"mono_ns\":5,\"ifaces\":[{\"name\":\"a\","
			"\"base_ns\":1,\"mtu\":1500,\"c\":{}}],\"cpus\":[{\"cpu\":0}],"
			"\"stack\":{\"tcp_retrans\":1,\"udp_in_errors\":2,\"udp_rcvbuf_errors\":3,"
			"\"udp_sndbuf_errors\":4}}";

		assert_int_equal(lr_peer_frame_decode(old, strlen(old), &g, err), 0);
		assert_int_equal(g.ifaces[0].mtu, 1500);
		assert_int_equal(g.ifaces[0].ring_rx, -1);
		assert_int_equal(g.ifaces[0].ring_rx_max, -1);
		assert_int_equal(g.ifaces[0].numa_node, -1);
		assert_int_equal(g.ifaces[0].operstate, -1);	/* an older peer: unknown */
		assert_int_equal(g.ifaces[0].n_q, 0);
		assert_int_equal(g.cpus[0].node, -1);
		assert_false(g.has_tuning);
		/* no qdisc, no ledger witnesses: unknown, never 0 */
		assert_int_equal(g.ifaces[0].qdisc_drops, -1);
		assert_string_equal(g.ifaces[0].qdisc, "");
		assert_int_equal(g.stack_known, 0xf);
		assert_int_equal(g.stack[LR_PS_UDP_SNDBUF_ERRORS], 4);
		lr_peer_frame_free(&g);
	}
	/* the ledger's keys as docs/wire.md §P4.1 spells them */
	{
		static const char ledger[] =
			"{\"v\":1,\"seq\":1,\"host\":\"h\",\"mono_ns\":5,\"ifaces\":[{\"name\":\"a\","
			"\"base_ns\":1,\"c\":{},\"qdisc_drops\":143924,\"qdisc\":\"tbf 8001:\"}],"
			"\"cpus\":[],\"stack\":{\"ip_in_discards\":1,\"ip_in_hdr_errors\":2,"
			"\"ip_in_addr_errors\":3,\"ip_reasm_fails\":4,\"udp_no_ports\":5,"
			"\"udp_in_csum_errors\":6,\"tcp_backlog_drop\":7,\"tcp_rcvq_drop\":8,"
			"\"tcp_zero_window_drop\":9,\"tcp_ofo_drop\":10,"
			"\"tcp_dsack_recv_segs\":11}}";

		assert_int_equal(lr_peer_frame_decode(ledger, strlen(ledger), &g, err), 0);
		assert_int_equal(g.ifaces[0].qdisc_drops, 143924);
		assert_string_equal(g.ifaces[0].qdisc, "tbf 8001:");
		assert_int_equal(g.stack_known, ((1u << LR_PS__COUNT) - 1) & ~0xfu);
		for (int k = LR_PS_STACK_DROP; k < LR_PS__COUNT; k++)
			assert_int_equal(g.stack[k], k - LR_PS_STACK_DROP + 1);
		lr_peer_frame_free(&g);
	}
}

static int decode_str(const char *s, char err[LR_PROTO_ERR_MAX])
{
	struct lr_peer_frame g;
	int rc = lr_peer_frame_decode(s, strlen(s), &g, err);

	lr_peer_frame_free(&g);
	return rc;
}

#define HDR "\"v\":1,\"seq\":1,\"host\":\"h\",\"mono_ns\":5,"

static void test_hostile(void **state)
{
	static const char *const bad[] = {
		"",
		"[]",
		"{",
		"null",
		"{\"v\":1}",
		"{" HDR "\"ifaces\":{},\"cpus\":[]}",
		"{" HDR "\"ifaces\":[],\"cpus\":[{\"cpu\":-1}]}",
		"{" HDR "\"ifaces\":[],\"cpus\":[{\"cpu\":1},{\"cpu\":1}]}",
		"{" HDR "\"ifaces\":[],\"cpus\":[{\"cpu\":1,\"t\":[1,2]}]}",
		"{" HDR "\"ifaces\":[],\"cpus\":[{\"cpu\":1,\"q\":[1,-2,3]}]}",
		"{" HDR "\"ifaces\":[],\"cpus\":[{\"cpu\":1,\"q\":[1,\"2\",3]}]}",
		"{" HDR "\"ifaces\":[{\"name\":\"averyveryverylongname\",\"base_ns\":1,\"c\":{}}],"
		"\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{\"rx_bytes\":-5}}],"
		"\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{}},"
		"{\"name\":\"a\",\"base_ns\":1,\"c\":{}}],\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\\u0000b\",\"base_ns\":1,\"c\":{}}],\"cpus\":[]}",
		"{\"v\":1,\"seq\":1,\"host\":7,\"mono_ns\":5,\"ifaces\":[],\"cpus\":[]}",
		"{" HDR "\"end\":1,\"ifaces\":[],\"cpus\":[]}",
		"{" HDR "\"seq\":2,\"ifaces\":[],\"cpus\":[]}",
		/* the state fields added within version 1 */
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"ring_rx\":-7}],"
		"\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"ring_rx_max\":1e9}],"
		"\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"driver\":"
		"\"0123456789012345678901234567890123\"}],\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"numa_node\":\"0\"}],"
		"\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"queues\":{}}],"
		"\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"queues\":[{\"q\":0,"
		"\"b\":1,\"c\":[1,2,3]}]}],\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"queues\":[{\"q\":0,"
		"\"b\":1,\"c\":[1,2,3,4,5,-6]}]}],\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"queues\":[{\"q\":1,"
		"\"b\":1,\"c\":[0,0,0,0,0,0]},{\"q\":1,\"b\":1,\"c\":[0,0,0,0,0,0]}]}],\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"queues\":[{\"q\":70000,"
		"\"b\":1,\"c\":[0,0,0,0,0,0]}]}],\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"queues\":[{\"q\":0,"
		"\"b\":1,\"k\":64,\"c\":[0,0,0,0,0,0]}]}],\"cpus\":[]}",
		"{" HDR "\"ifaces\":[],\"cpus\":[{\"cpu\":0,\"node\":-2}]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"serving\":[1,-1]}],"
		"\"cpus\":[]}",
		"{" HDR "\"ifaces\":[{\"name\":\"a\",\"base_ns\":1,\"c\":{},\"serving\":7}],"
		"\"cpus\":[]}",
		"{" HDR "\"ifaces\":[],\"cpus\":[],\"tuning\":[]}",
		"{" HDR "\"ifaces\":[],\"cpus\":[],\"tuning\":{\"rmem_max\":1.5}}",
		"{" HDR "\"ifaces\":[],\"cpus\":[],\"tuning\":{\"tcp_rmem\":[1,2]}}",
		"{" HDR "\"ifaces\":[],\"cpus\":[],\"tuning\":{\"tcp_wmem\":[1,2,\"x\"]}}",
		"{" HDR "\"ifaces\":[],\"cpus\":[],\"tuning\":{\"tcp_congestion\":"
		"\"a-congestion-name-far-longer-than-32\"}}",
	};
	char err[LR_PROTO_ERR_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = decode_str(bad[i], err);

		if (rc == 0)
			fail_msg("accepted: %s", bad[i]);
		assert_true(err[0] != '\0');
	}
	assert_int_equal(decode_str("{" HDR "\"ifaces\":[],\"cpus\":[]}", err), 0);
}

static void test_too_many(void **state)
{
	size_t n = LR_PEER_MAX_CPUS + 1, cap = 64 + n * 16;
	char *s = malloc(cap), err[LR_PROTO_ERR_MAX];
	size_t off = (size_t)snprintf(s, cap, "{" HDR "\"ifaces\":[],\"cpus\":[");

	(void)state;
	for (size_t i = 0; i < n; i++)
		off += (size_t)snprintf(s + off, cap - off, "%s{\"cpu\":%zu}", i ? "," : "", i);
	snprintf(s + off, cap - off, "]}");
	assert_int_equal(decode_str(s, err), -E2BIG);
	free(s);
}

/* More queues than an interface or a frame may carry: refused before anything is stored. */
static void test_too_many_queues(void **state)
{
	size_t cap = 1 << 20;
	char *s = malloc(cap), err[LR_PROTO_ERR_MAX];
	size_t off;

	(void)state;
	off = (size_t)snprintf(s, cap, "{" HDR "\"cpus\":[],\"ifaces\":[{\"name\":\"a\","
				       "\"base_ns\":1,\"c\":{},\"queues\":[");
	for (int q = 0; q <= LR_PEER_MAX_QUEUES; q++)
		off += (size_t)snprintf(s + off, cap - off, "%s{\"q\":%d,\"b\":1,\"c\":[0,0,0,0,0,0]}",
					q ? "," : "", q);
	snprintf(s + off, cap - off, "]}]}");
	assert_int_equal(decode_str(s, err), -E2BIG);
	/* per interface within bounds, but the frame over LR_PEER_MAX_QUEUES_FRAME */
	off = (size_t)snprintf(s, cap, "{" HDR "\"cpus\":[],\"ifaces\":[");
	for (int i = 0; i <= LR_PEER_MAX_QUEUES_FRAME / LR_PEER_MAX_QUEUES; i++) {
		off += (size_t)snprintf(s + off, cap - off,
					"%s{\"name\":\"a%d\",\"base_ns\":1,\"c\":{},\"queues\":[",
					i ? "," : "", i);
		for (int q = 0; q < LR_PEER_MAX_QUEUES; q++)
			off += (size_t)snprintf(s + off, cap - off,
						"%s{\"q\":%d,\"b\":1,\"c\":[0,0,0,0,0,0]}",
						q ? "," : "", q);
		off += (size_t)snprintf(s + off, cap - off, "]}");
	}
	snprintf(s + off, cap - off, "]}");
	assert_int_equal(decode_str(s, err), -E2BIG);
	free(s);
}

static void test_host_sanitised(void **state)
{
	struct lr_peer_frame g;
	char err[LR_PROTO_ERR_MAX];
	const char *s = "{\"v\":1,\"seq\":1,\"host\":\"a\\u001b[2Jb\",\"mono_ns\":5,\"ifaces\":[],"
			"\"cpus\":[]}";

	(void)state;
	assert_int_equal(lr_peer_frame_decode(s, strlen(s), &g, err), 0);
	assert_string_equal(g.host, "a?[2Jb");
	lr_peer_frame_free(&g);
}

static void test_offer(void **state)
{
	struct lr_peer_offer o = {.version = 1, .interval_ms = 500, .max_frame = 4096}, p;
	struct lr_peer_offer odd = {.version = 7, .interval_ms = 1234, .max_frame = 65537};
	char err[LR_PROTO_ERR_MAX], *buf;
	size_t len;

	(void)state;
	assert_int_equal(lr_peer_offer_encode(&o, &buf, &len), 0);
	assert_int_equal(lr_peer_offer_decode(buf, len, &p, err), 0);
	free(buf);
	assert_int_equal(p.version, 1);
	assert_int_equal(p.interval_ms, 500);
	assert_int_equal(p.max_frame, 4096);
	/* every field, each its own value */
	assert_int_equal(lr_peer_offer_encode(&odd, &buf, &len), 0);
	assert_int_equal(lr_peer_offer_decode(buf, len, &p, err), 0);
	free(buf);
	assert_int_equal(p.version, odd.version);
	assert_int_equal(p.interval_ms, odd.interval_ms);
	assert_int_equal(p.max_frame, odd.max_frame);
	assert_int_not_equal(lr_peer_offer_decode("{\"v\":1,\"interval_ms\":1}", 23, &p, err), 0);
	assert_int_not_equal(lr_peer_offer_decode("{\"v\":1,\"interval_ms\":100,\"max_frame\":"
						  "99999999}",
						  46, &p, err),
			     0);
}

/* iperf3 3.12's own parameters plus our key: decoded as asked; a malformed key is "not asked"
 * and the test parameters still decode. */
static void test_params_key(void **state)
{
	struct lr_proto_params p, q;
	char err[LR_PROTO_ERR_MAX], *buf;
	size_t len;
	static const char *const odd[] = {
		"{\"tcp\":true,\"linerate_peer_stats\":1}",
		"{\"tcp\":true,\"linerate_peer_stats\":{\"v\":\"1\",\"interval_ms\":500}}",
		"{\"tcp\":true,\"linerate_peer_stats\":{\"v\":1}}",
		"{\"tcp\":true,\"linerate_peer_stats\":{\"v\":1,\"interval_ms\":-4}}",
	};

	(void)state;
	lr_proto_params_init(&p);
	p.peer_stats = true;
	p.peer_interval_ms = 250;
	assert_int_equal(lr_proto_params_encode(&p, &buf, &len), 0);
	assert_non_null(strstr(buf, "\"linerate_peer_stats\":{\"v\":1,\"interval_ms\":250}"));
	assert_int_equal(lr_proto_params_decode(buf, len, &q, err), 0);
	free(buf);
	assert_true(q.peer_stats);
	assert_int_equal(q.peer_interval_ms, 250);
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		assert_int_equal(lr_proto_params_decode(odd[i], strlen(odd[i]), &q, err), 0);
		assert_false(q.peer_stats);
	}
	lr_proto_params_init(&p);
	assert_int_equal(lr_proto_params_encode(&p, &buf, &len), 0);
	assert_null(strstr(buf, "linerate_peer_stats"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip), cmocka_unit_test(test_roundtrip_every_field),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_roundtrip_state), cmocka_unit_test(test_too_many_queues),
		cmocka_unit_test(test_too_many),  cmocka_unit_test(test_host_sanitised),
		cmocka_unit_test(test_offer),	  cmocka_unit_test(test_params_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
