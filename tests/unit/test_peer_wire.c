// SPDX-License-Identifier: GPL-2.0-or-later
/* The peer-stats wire codecs (docs/wire.md, part 2): a frame survives encode/decode exactly;
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
			"\"base_ns\":1,\"mtu\":1500,\"c\":{}}],\"cpus\":[{\"cpu\":0}]}";

		assert_int_equal(lr_peer_frame_decode(old, strlen(old), &g, err), 0);
		assert_int_equal(g.ifaces[0].mtu, 1500);
		assert_int_equal(g.ifaces[0].ring_rx, -1);
		assert_int_equal(g.ifaces[0].ring_rx_max, -1);
		assert_int_equal(g.ifaces[0].numa_node, -1);
		assert_int_equal(g.ifaces[0].n_q, 0);
		assert_int_equal(g.cpus[0].node, -1);
		assert_false(g.has_tuning);
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
	char err[LR_PROTO_ERR_MAX], *buf;
	size_t len;

	(void)state;
	assert_int_equal(lr_peer_offer_encode(&o, &buf, &len), 0);
	assert_int_equal(lr_peer_offer_decode(buf, len, &p, err), 0);
	free(buf);
	assert_int_equal(p.interval_ms, 500);
	assert_int_equal(p.max_frame, 4096);
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
		cmocka_unit_test(test_roundtrip), cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_roundtrip_state), cmocka_unit_test(test_too_many_queues),
		cmocka_unit_test(test_too_many),  cmocka_unit_test(test_host_sanitised),
		cmocka_unit_test(test_offer),	  cmocka_unit_test(test_params_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
