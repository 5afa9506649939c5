// SPDX-License-Identifier: GPL-2.0-or-later
/* The exporter's peer series (issue 16): the peer view's snapshots rendered beside ours in the
 * same families, labelled side="peer" and host; a counter that never goes backwards when the
 * peer's sums restart with a new test; the same snapshot fed twice counted once; the series
 * gone once the peer stops sending. Snapshots are built by hand as lr_peer_rx_build makes them
 * (interface sums in cum[], CPU rates over the frame's interval). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/present/prom.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL

struct fix {
	struct lr_snapshot local, peer;
	struct lr_iface_snap lif, pif;
	struct lr_cpu_snap pcpu;
	struct lr_prom *prom;
	struct lr_prom_buf out;
};

static void local_tick(struct fix *x, uint64_t mono, uint64_t rx)
{
	x->local.mono_ns = mono;
	x->local.real_ns = 1700000000ULL * SEC + mono;
	x->local.target_interval_ns = SEC / 5;
	x->lif.raw_valid = LR_M_BIT(LR_M_RX_BYTES);
	x->lif.raw[LR_M_RX_BYTES] = rx;
	assert_int_equal(lr_prom_update(x->prom, &x->local), 0);
}

static void peer_frame(struct fix *x, uint64_t seq, uint64_t base, uint64_t rx)
{
	x->peer.seq = seq;
	x->peer.mono_ns = 50 * SEC + seq * SEC / 5;	/* the peer's own clock */
	x->peer.interval_ns = SEC / 5;
	x->pif.base_ns = base;
	x->pif.cum_valid = LR_M_BIT(LR_M_RX_BYTES);
	x->pif.cum[LR_M_RX_BYTES] = rx;
	assert_int_equal(lr_prom_update_peer(x->prom, &x->peer, "peer\"h"), 0);
}

static const char *render(struct fix *x)
{
	x->out.len = 0;
	assert_int_equal(lr_prom_render(x->prom, LR_PROM_TEXT, &x->out), 0);
	assert_true(x->out.len < x->out.cap);
	x->out.p[x->out.len] = '\0';
	return x->out.p;
}

static const char *line_of(const char *text, const char *prefix)
{
	const char *l = strstr(text, prefix);

	if (!l)
		fail_msg("no line %s in:\n%s", prefix, text);
	return l;
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_peer_series(void **state)
{
	static struct fix x;
	const char *t, *l;

	(void)state;
	memset(&x, 0, sizeof(x));
	assert_int_equal(lr_prom_open(&x.prom), 0);
	snprintf(x.lif.name, sizeof(x.lif.name), "eth0");
	x.lif.ifindex = 2;
	x.lif.mtu = x.pif.mtu = 1500;
	x.local.ifaces = &x.lif;
	x.local.n_ifaces = 1;
	snprintf(x.pif.name, sizeof(x.pif.name), "veth1");
	x.pcpu.cpu = 3;
	x.pcpu.valid = LR_CPUV_TIMES | LR_CPUV_SOFTIRQS;
	x.pcpu.user_pct = 50;
	x.pcpu.idle_pct = 50;
	x.pcpu.net_rx_per_s = 100;
	x.peer.ifaces = &x.pif;
	x.peer.n_ifaces = 1;
	x.peer.cpus = &x.pcpu;
	x.peer.n_cpus = 1;

	local_tick(&x, 10 * SEC, 1000);
	peer_frame(&x, 1, 7, 100);
	local_tick(&x, 10 * SEC + SEC / 5, 2000);
	peer_frame(&x, 2, 7, 300);
	peer_frame(&x, 2, 7, 300);	/* the same snapshot again: counted once */
	t = render(&x);
	/* one family, ours first and the peer's right after it, the host's quote escaped */
	assert_int_equal(count(t, "# TYPE linerate_iface_rx_bytes_total counter"), 1);
	l = line_of(t, "linerate_iface_rx_bytes_total{iface=\"eth0\"} 2000\n");
	assert_ptr_equal(strchr(l, '\n') + 1,
			 line_of(t, "linerate_iface_rx_bytes_total{iface=\"veth1\",side=\"peer\",host=\"peer\\\"h\"} 300\n"));
	/* 50 % of two 0.2 s frames; 100 NET_RX/s over them */
	line_of(t, "linerate_cpu_seconds_total{cpu=\"3\",mode=\"user\",side=\"peer\",host=\"peer\\\"h\"} 0.200\n");
	line_of(t, "linerate_softirqs_total{cpu=\"3\",type=\"NET_RX\",side=\"peer\",host=\"peer\\\"h\"} 40\n");
	assert_int_equal(count(t, "mode=\"steal\",side=\"peer\""), 0);	/* not in a frame: absent */
	assert_int_equal(count(t, "linerate_softnet_processed_total{cpu=\"3\",side"), 0);

	/* the next test: the peer's sums start again (new base); ours never go backwards */
	local_tick(&x, 11 * SEC, 3000);
	peer_frame(&x, 1, 99, 50);
	t = render(&x);
	line_of(t, "linerate_iface_rx_bytes_total{iface=\"veth1\",side=\"peer\",host=\"peer\\\"h\"} 350\n");

	/* the peer stopped sending: its series stay while the screen would call it live (2 s
	 * at 0.2 s frames: three intervals, at least 2 s), then go; ours stay */
	local_tick(&x, 13 * SEC, 3500);
	t = render(&x);
	line_of(t, "linerate_iface_rx_bytes_total{iface=\"veth1\",side=\"peer\",host=\"peer\\\"h\"} 350\n");
	local_tick(&x, 13 * SEC + SEC / 5, 4000);
	t = render(&x);
	assert_int_equal(count(t, "side=\"peer\""), 0);
	line_of(t, "linerate_iface_rx_bytes_total{iface=\"eth0\"} 4000\n");

	lr_prom_buf_free(&x.out);
	lr_prom_close(x.prom);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peer_series),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
