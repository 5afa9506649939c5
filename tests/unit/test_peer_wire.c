// SPDX-License-Identifier: GPL-2.0-or-later
/* The peer-stats wire codecs (docs/peer-stats.md): a frame survives encode/decode exactly;
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
		cmocka_unit_test(test_too_many),  cmocka_unit_test(test_host_sanitised),
		cmocka_unit_test(test_offer),	  cmocka_unit_test(test_params_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
