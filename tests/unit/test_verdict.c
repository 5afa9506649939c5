// SPDX-License-Identifier: GPL-2.0-or-later
/* The end-of-test verdict on synthetic runs shaped like the seed reports: an X710 whose FIFO
 * overflowed with a small rx ring, one CPU pinned in softirq, a 10G link at its MTU 1500
 * ceiling, UDP socket buffer overflows, a veth without link speed. No advice without evidence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/present/verdict.h"

#define SEC 1000000000ULL

struct run {
	struct lr_snapshot s;
	struct lr_iface_snap i;
	struct lr_cpu_snap cpus[4];
	struct lr_drv_counter drv;
};

/* One second per tick: bytes/packets per second, fifo events per second. */
static void make_run(struct run *r, int64_t speed, int64_t mtu, uint64_t bytes_per_s,
		     uint64_t fifo_per_s, int64_t ring, int64_t ring_max, double hot_pct)
{
	memset(r, 0, sizeof(*r));
	strcpy(r->i.name, "eth1");
	r->i.speed_mbps = speed;
	r->i.mtu = mtu;
	r->i.ring_rx = ring;
	r->i.ring_rx_max = ring_max;
	r->i.valid = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_RX_PACKETS) |
		     LR_M_BIT(LR_M_TX_BYTES) | LR_M_BIT(LR_M_TX_PACKETS) |
		     LR_M_BIT(LR_M_RX_MISSED_ERRORS) | LR_M_BIT(LR_M_NIC_FIFO);
	r->i.delta[LR_M_RX_BYTES] = bytes_per_s;
	r->i.delta[LR_M_RX_PACKETS] = bytes_per_s / (uint64_t)(mtu + 14);
	r->i.delta[LR_M_RX_MISSED_ERRORS] = fifo_per_s;
	r->i.delta[LR_M_NIC_FIFO] = fifo_per_s;
	r->i.softirq_max_pct = hot_pct;
	r->i.softirq_cpu = 2;
	if (fifo_per_s) {
		strcpy(r->drv.name, "rx_missed_errors");
		r->drv.cat = LR_CAT_FIFO;
		r->drv.total = fifo_per_s;
		r->i.moved = &r->drv;
		r->i.n_moved = 1;
	}
	for (int c = 0; c < 4; c++) {
		r->cpus[c].cpu = c;
		r->cpus[c].valid = LR_CPUV_TIMES;
		r->cpus[c].idle_pct = c == 2 ? 100 - hot_pct : 95;
		r->cpus[c].softirq_pct = c == 2 ? hot_pct : 1;
	}
	r->s.ifaces = &r->i;
	r->s.n_ifaces = 1;
	r->s.cpus = r->cpus;
	r->s.n_cpus = 4;
	r->s.interval_ns = SEC;
	r->s.tuning.rmem_max = 212992;
	r->s.tuning.tcp_window_scaling = 1;
}

static void judge(struct run *r, unsigned ticks, const struct lr_verdict_traffic *t,
		  struct lr_verdict_acc *a, struct lr_verdict *v)
{
	lr_verdict_init(a, "eth1");
	for (unsigned k = 1; k <= ticks; k++) {
		r->s.mono_ns = 100 * SEC + k * SEC;
		lr_verdict_add(a, &r->s);
	}
	lr_verdict_compute(a, t, v);
}

static void test_fifo_with_small_ring_says_raise_ring(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {.ran = true, .udp = false, .parallel = 1,
				       .up_bps = 7.9e9, .down_bps = -1, .retransmits = 0};

	(void)state;
	make_run(&r, 10000, 1500, 990000000, 1200, 512, 4096, 40);
	judge(&r, 10, &t, &a, &v);
	assert_int_equal(v.nic_fifo, 12000);
	assert_non_null(strstr(v.loss, "NIC FIFO 12.0k (rx_missed_errors)"));
	assert_string_equal(v.next_step, "the NIC FIFO overflowed with the rx ring at 512 of 4096: "
					 "ethtool -G eth1 rx 4096");
	assert_true(v.seconds > 9.99 && v.seconds < 10.01);
}

static void test_fifo_ring_at_max_and_hot_cpu_says_spread(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {.ran = true, .parallel = 1, .up_bps = 6e9, .down_bps = -1};

	(void)state;
	make_run(&r, 10000, 1500, 750000000, 50, 4096, 4096, 99);
	judge(&r, 8, &t, &a, &v);
	assert_non_null(strstr(v.next_step, "while cpu2 ran 99% softirq: spread"));
}

static void test_one_hot_cpu_no_loss(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {.ran = true, .parallel = 1, .up_bps = 8e9, .down_bps = -1};

	(void)state;
	make_run(&r, 10000, 1500, 1000000000, 0, 4096, 4096, 99);
	judge(&r, 8, &t, &a, &v);
	assert_string_equal(v.loss, "");
	assert_non_null(strstr(v.next_step, "cpu2 ran 99% softirq while other CPUs idled"));
	assert_non_null(strstr(v.next_step, "-P 4"));
}

/* 9.41 Gbit/s of TCP goodput at MTU 1500 on 10G is the ceiling, not a fault. */
static void test_mtu1500_ceiling_says_jumbo(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {.ran = true, .parallel = 4, .up_bps = 9.41e9, .down_bps = -1};

	(void)state;
	make_run(&r, 10000, 1500, 1230000000, 0, 4096, 4096, 30);
	judge(&r, 5, &t, &a, &v);
	assert_true(v.ceiling_bps > 9.414e9 && v.ceiling_bps < 9.415e9);	/* 10G * 1448/1538 */
	assert_true(v.ceiling_pct > 99 && v.ceiling_pct < 100);
	assert_non_null(strstr(v.next_step, "jumbo frames (MTU 9000 end to end) raise it to 9.90 Gbit/s"));
}

static void test_jumbo_at_ceiling_is_done(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {.ran = true, .parallel = 4, .up_bps = 38e9, .down_bps = -1};

	(void)state;
	make_run(&r, 40000, 9000, 4900000000, 0, 4096, 4096, 30);
	judge(&r, 5, &t, &a, &v);
	assert_non_null(strstr(v.next_step, "line rate reached"));
}

static void test_udp_rcvbuf(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {.ran = true, .udp = true, .parallel = 1, .up_bps = 2e9,
				       .down_bps = -1, .udp_lost = 500, .udp_packets = 100000};

	(void)state;
	make_run(&r, 10000, 1500, 250000000, 0, 4096, 4096, 20);
	r.s.stack.valid = LR_STACKV_UDP_RCVBUF;
	r.s.stack.udp_rcvbuf_errors_per_s = 50;
	judge(&r, 10, &t, &a, &v);
	assert_int_equal(a.udp_rcvbuf, 500);
	assert_non_null(strstr(v.loss, "socket 500 (UDP RcvbufErrors)"));
	assert_non_null(strstr(v.next_step, "raise net.core.rmem_max (now 212992)"));
}

static void test_virtual_link_no_verdict_without_evidence(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {.ran = true, .parallel = 1, .up_bps = 20e9, .down_bps = -1};

	(void)state;
	make_run(&r, -1, 1500, 2500000000, 0, -1, -1, 30);
	judge(&r, 5, &t, &a, &v);
	assert_true(v.line_pct < 0 && v.ceiling_pct < 0);
	assert_non_null(strstr(v.next_step, "has no link speed"));
}

/* A veth reports 10000 Mbit/s and carries 20 Gbit/s: no ceiling, no "jumbo frames" advice. */
static void test_nominal_speed_no_ceiling(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {.ran = true, .parallel = 1, .up_bps = 20e9, .down_bps = -1};

	(void)state;
	make_run(&r, 10000, 1500, 2500000000, 0, -1, -1, 30);
	judge(&r, 5, &t, &a, &v);
	assert_true(v.speed_nominal);
	assert_true(v.line_pct < 0 && v.ceiling_bps < 0 && v.ceiling_pct < 0);
	assert_null(strstr(v.next_step, "jumbo"));
	assert_non_null(strstr(v.next_step, "carried more than the 10000 Mbit/s it reports"));
}

static void test_json_unknowns_are_null(void **state)
{
	struct run r;
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {.ran = true, .parallel = 1, .up_bps = 20e9, .down_bps = -1};
	json_t *j;

	(void)state;
	make_run(&r, -1, 1500, 2500000000, 0, -1, -1, 30);
	judge(&r, 5, &t, &a, &v);
	j = lr_verdict_json(&a, &v);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "interface")), "eth1");
	assert_true(json_is_null(json_object_get(j, "link_mbps")));
	assert_true(json_is_null(json_object_get(j, "ceiling_pct")));
	assert_int_equal(json_integer_value(json_object_get(j, "mtu")), 1500);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "loss"), "nic_fifo")),
			 0);
	assert_string_equal(json_string_value(json_object_get(j, "next_step")), v.next_step);
	json_decref(j);
}

static void test_nothing_sampled(void **state)
{
	struct lr_verdict_acc a;
	struct lr_verdict v;
	struct lr_verdict_traffic t = {0};

	(void)state;
	lr_verdict_init(&a, NULL);
	lr_verdict_compute(&a, &t, &v);
	assert_null(v.iface);
	assert_string_equal(v.next_step, "nothing was sampled");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_with_small_ring_says_raise_ring),
		cmocka_unit_test(test_fifo_ring_at_max_and_hot_cpu_says_spread),
		cmocka_unit_test(test_one_hot_cpu_no_loss),
		cmocka_unit_test(test_mtu1500_ceiling_says_jumbo),
		cmocka_unit_test(test_jumbo_at_ceiling_is_done),
		cmocka_unit_test(test_udp_rcvbuf),
		cmocka_unit_test(test_virtual_link_no_verdict_without_evidence),
		cmocka_unit_test(test_nominal_speed_no_ceiling),
		cmocka_unit_test(test_json_unknowns_are_null),
		cmocka_unit_test(test_nothing_sampled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
