// SPDX-License-Identifier: GPL-2.0-or-later
/* The sampler's qdisc state (sample/qdiscsrc.c) fed dumps: the recorded one of
 * tests/fixtures/qdisc/ (htb over a tbf leaf, mq over tbfs: the interface total is the root's,
 * as tc -s printed it for the root, never root + children), then readings built here for what
 * a recording cannot show: a qdisc replaced mid-run, a 32-bit wrap, a failed dump, a reply
 * that does not parse, an interface with no qdisc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "linerate/collect/qdisc.h"
#include "linerate/core/log.h"
#include "linerate/sample/qdiscsrc.h"
#include "linerate/sample/snapshot.h"
#include "fakes/slurp.h"

#define SEC 1000000000ULL

static struct lr_iface_snap ifs[8];

/* A snapshot of n interfaces with ifindex 1..n, as the sampler's work snapshot is. */
static void snap_of(struct lr_snapshot *w, size_t n)
{
	memset(w, 0, sizeof(*w));
	memset(ifs, 0, sizeof(ifs));
	for (size_t i = 0; i < n; i++) {
		ifs[i].ifindex = (int)i + 1;
		snprintf(ifs[i].name, sizeof(ifs[i].name), "if%u", (unsigned)(i + 1) % 100);
	}
	w->ifaces = ifs;
	w->n_ifaces = n;
}

static struct lr_qdisc_stats qd(int ifindex, uint32_t handle, uint32_t parent, const char *kind,
				uint64_t bytes, uint64_t drops)
{
	struct lr_qdisc_stats q = {.ifindex = ifindex, .handle = handle, .parent = parent,
				   .valid = LR_QD_COUNTERS | LR_QD_GAUGES};

	snprintf(q.kind, sizeof(q.kind), "%s", kind);
	q.v[LR_QD_BYTES] = bytes;
	q.v[LR_QD_PACKETS] = bytes / 1000;
	q.v[LR_QD_DROPS] = drops;
	q.v[LR_QD_OVERLIMITS] = drops * 2;
	q.v[LR_QD_BACKLOG_BYTES] = 3000;
	q.v[LR_QD_QLEN] = 2;
	return q;
}

/* One dump of one qdisc read at sec seconds. */
static void feed1(struct lr_qdiscsrc *src, struct lr_snapshot *w, struct lr_qdisc_stats q,
		  uint64_t sec, bool first)
{
	assert_int_equal(lr_qdiscsrc_feed(src, &q, 1, 0, sec * SEC, first, w), 0);
}

static const struct lr_qdisc_snap *entry(const struct lr_iface_snap *f, uint32_t handle)
{
	for (size_t i = 0; i < f->n_qdiscs; i++)
		if (f->qdiscs[i].handle == handle)
			return &f->qdiscs[i];
	return NULL;
}

/* The recording twice, the second time with every drop counter +7 (root and children): the
 * total moved by the root's 7, not by 14 (htb) or 7 + 7 + 7 (mq and two tbfs). The figures
 * published are tc's own, as tc printed them for each qdisc. */
static void test_recorded_total_is_the_root(void **state)
{
	static char buf[65536];
	size_t len = slurp("tests/fixtures/qdisc/tbf-htb-mq.raw", buf, sizeof(buf)), n;
	struct lr_qdisc_stats q[64];
	struct lr_qdiscsrc *src;
	struct lr_snapshot w;
	const struct lr_iface_snap *ht, *mq;

	(void)state;
	assert_int_equal(lr_qdisc_parse_all(buf, len, q, 64, &n), 0);
	snap_of(&w, 5);	/* lo, tb, ht, mq, sl: ifindex 1..5 in the recording */
	assert_int_equal(lr_qdiscsrc_open(&src), 0);
	assert_int_equal(lr_qdiscsrc_feed(src, q, n, 0, 10 * SEC, true, &w), 0);
	for (size_t i = 0; i < n; i++)
		q[i].v[LR_QD_DROPS] += 7;
	assert_int_equal(lr_qdiscsrc_feed(src, q, n, 0, 11 * SEC, false, &w), 0);
	ht = &w.ifaces[2];
	mq = &w.ifaces[3];
	/* tc -s: htb 1: dropped 41504, its tbf 10: dropped 41504 (the same packets) */
	assert_int_equal(entry(ht, 0x10000)->raw[LR_QDC_DROPS], 41504 + 7);
	assert_int_equal(entry(ht, 0x100000)->raw[LR_QDC_DROPS], 41504 + 7);
	assert_true(ht->qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	assert_int_equal(ht->qdisc.delta[LR_QDC_DROPS], 7);
	assert_int_equal(ht->qdisc.cum[LR_QDC_DROPS], 7);
	assert_true(ht->qdisc.drops_per_s > 6.99 && ht->qdisc.drops_per_s < 7.01);
	/* tc -s: mq 1: dropped 50841 = 10095 (12:) + 40746 (13:) */
	assert_int_equal(mq->qdisc.delta[LR_QDC_DROPS], 7);
	assert_int_equal(mq->n_qdiscs, 6);	/* mq, 4 children, clsact */
	assert_string_equal(mq->qdiscs[0].kind, "mq");	/* the kernel's order: root first */
	/* the ingress qdisc is listed, never in the total; its drops moved too */
	assert_int_equal(entry(ht, 0xffff0000)->parent, LR_QDISC_PARENT_INGRESS);
	assert_int_equal(entry(ht, 0xffff0000)->f.delta[LR_QDC_DROPS], 7);
	/* gauges as read: tc -s for sl's tbf 5: backlog 9378b 9p */
	assert_true(w.ifaces[4].qdisc.valid & LR_QDV_BACKLOG_BYTES);
	assert_int_equal(w.ifaces[4].qdisc.backlog_bytes, 9378);
	assert_int_equal(w.ifaces[4].qdisc.backlog_packets, 9);
	/* lo's noqueue: a real 0 */
	assert_true(w.ifaces[0].qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	lr_qdiscsrc_close(src);
}

/* tc qdisc del + add with the same handle: the counters restart. That interval is dropped,
 * never negative, never a 2^64 or 2^32 spike; the sums carry on from the next reading. Then a
 * replace that takes a new handle, as `tc qdisc replace` does: the same for the total. */
static void test_replaced_qdisc_drops_the_interval(void **state)
{
	struct lr_qdiscsrc *src;
	struct lr_snapshot w;
	struct lr_qdisc_stats q;
	const struct lr_iface_snap *f = &ifs[0];

	(void)state;
	snap_of(&w, 1);
	assert_int_equal(lr_qdiscsrc_open(&src), 0);
	feed1(src, &w, qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 1000000, 500), 1, true);
	feed1(src, &w, qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 2000000, 800), 2, false);
	assert_int_equal(f->qdisc.delta[LR_QDC_DROPS], 300);
	q = qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 30000, 40);	/* deleted and re-added */
	assert_int_equal(lr_qdiscsrc_feed(src, &q, 1, 0, 3 * SEC, false, &w), 0);
	assert_false(f->qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	assert_false(f->qdisc.valid & LR_QDV_BIT(LR_QDC_BYTES));
	assert_true(f->qdisc.valid & LR_QDV_BACKLOG_BYTES);	/* a gauge is a gauge */
	assert_int_equal(f->qdisc.cum[LR_QDC_DROPS], 300);
	assert_false(f->qdiscs[0].f.valid & LR_QDV_BIT(LR_QDC_DROPS));
	feed1(src, &w, qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 40000, 50), 4, false);
	assert_int_equal(f->qdisc.delta[LR_QDC_DROPS], 10);
	assert_int_equal(f->qdisc.cum[LR_QDC_DROPS], 310);
	/* tc qdisc replace: a new handle (8001:), a new kind; the old root is gone */
	feed1(src, &w, qd(1, 0x80010000, LR_QDISC_PARENT_ROOT, "htb", 100, 0), 5, false);
	assert_false(f->qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	assert_int_equal(f->n_qdiscs, 1);
	assert_string_equal(f->qdiscs[0].kind, "htb");
	feed1(src, &w, qd(1, 0x80010000, LR_QDISC_PARENT_ROOT, "htb", 200, 4), 6, false);
	assert_int_equal(f->qdisc.delta[LR_QDC_DROPS], 4);
	assert_int_equal(f->qdisc.cum[LR_QDC_DROPS], 314);
	/* the same handle, another kind (a kernel that allows it): a restart too */
	feed1(src, &w, qd(1, 0x80010000, LR_QDISC_PARENT_ROOT, "prio", 300, 9), 7, false);
	assert_false(f->qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	assert_int_equal(f->qdisc.cum[LR_QDC_DROPS], 314);
	lr_qdiscsrc_close(src);
}

/* drops are 32-bit in the kernel: past 2^32 they wrap, which is counted, not dropped */
static void test_32bit_wrap(void **state)
{
	struct lr_qdiscsrc *src;
	struct lr_snapshot w;
	struct lr_qdisc_stats q;

	(void)state;
	snap_of(&w, 1);
	assert_int_equal(lr_qdiscsrc_open(&src), 0);
	q = qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 1000000, UINT32_MAX - 5);
	q.v[LR_QD_OVERLIMITS] = 7;
	assert_int_equal(lr_qdiscsrc_feed(src, &q, 1, 0, 1 * SEC, true, &w), 0);
	q = qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 2000000, 10);
	q.v[LR_QD_OVERLIMITS] = 9;
	assert_int_equal(lr_qdiscsrc_feed(src, &q, 1, 0, 2 * SEC, false, &w), 0);
	assert_true(ifs[0].qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	assert_int_equal(ifs[0].qdisc.delta[LR_QDC_DROPS], 16);
	assert_int_equal(ifs[0].qdisc.delta[LR_QDC_OVERLIMITS], 2);
	/* going back by more than half the range is no wrap: a restart, the interval dropped */
	q = qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 3000000, 10);
	q.v[LR_QD_OVERLIMITS] = 5;
	assert_int_equal(lr_qdiscsrc_feed(src, &q, 1, 0, 3 * SEC, false, &w), 0);
	assert_false(ifs[0].qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	lr_qdiscsrc_close(src);
}

/* A failed dump: unknown that tick, never 0; the next good one counts from the last good one,
 * so the sums lose nothing. */
static void test_failed_dump(void **state)
{
	struct lr_qdiscsrc *src;
	struct lr_snapshot w;

	(void)state;
	snap_of(&w, 1);
	assert_int_equal(lr_qdiscsrc_open(&src), 0);
	feed1(src, &w, qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 1000, 100), 1, true);
	assert_int_equal(lr_qdiscsrc_feed(src, NULL, 0, -ENOBUFS, 2 * SEC, false, &w), 0);
	assert_int_equal(ifs[0].qdisc.valid, 0);
	assert_int_equal(ifs[0].n_qdiscs, 0);
	feed1(src, &w, qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 3000, 160), 3, false);
	assert_int_equal(ifs[0].qdisc.delta[LR_QDC_DROPS], 60);
	assert_int_equal(ifs[0].qdisc.interval_ns, 2 * SEC);
	assert_true(ifs[0].qdisc.drops_per_s > 29.99 && ifs[0].qdisc.drops_per_s < 30.01);
	lr_qdiscsrc_close(src);
}

static size_t warnings_since(uint64_t *seen, const char *needle)
{
	struct lr_log_entry e[32];
	size_t n = lr_log_read(seen, e, 32), hits = 0;

	for (size_t i = 0; i < n; i++)
		hits += e[i].level == LR_LOG_WARN && strstr(e[i].msg, needle) != NULL;
	return hits;
}

/* A reply about if2 that does not parse: one warning naming it, its figures unknown for the
 * rest of the run even when its later replies parse; if1 goes on. A reply that names no
 * interface: everything unknown from then on, one warning. */
static void test_bad_reply(void **state)
{
	struct lr_qdiscsrc *src;
	struct lr_snapshot w;
	struct lr_qdisc_stats q[3];
	uint64_t seen = 0;

	(void)state;
	snap_of(&w, 2);
	warnings_since(&seen, "");
	assert_int_equal(lr_qdiscsrc_open(&src), 0);
	q[0] = qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 1000, 1);
	q[1] = qd(2, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 1000, 1);
	assert_int_equal(lr_qdiscsrc_feed(src, q, 2, 0, 1 * SEC, true, &w), 0);
	q[0] = qd(1, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 2000, 2);
	q[1] = qd(2, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 2000, 2);
	q[2] = (struct lr_qdisc_stats){.ifindex = 2, .bad = true};
	for (int t = 2; t <= 4; t++) {	/* bad once, then good replies again */
		q[0].v[LR_QD_DROPS]++, q[1].v[LR_QD_DROPS]++;
		assert_int_equal(lr_qdiscsrc_feed(src, q, t == 2 ? 3 : 2, 0, (uint64_t)t * SEC, false,
						  &w), 0);
		assert_true(ifs[0].qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
		assert_int_equal(ifs[1].qdisc.valid, 0);
		assert_int_equal(ifs[1].n_qdiscs, 0);
	}
	assert_int_equal(warnings_since(&seen, "if2 (ifindex 2) does not parse"), 1);
	/* one about an interface the snapshot does not have yet (born since the link dump): it
	 * stays unknown once the snapshot has it */
	q[2] = (struct lr_qdisc_stats){.ifindex = 3, .bad = true};
	assert_int_equal(lr_qdiscsrc_feed(src, q, 3, 0, 5 * SEC, false, &w), 0);
	snap_of(&w, 3);
	q[2] = qd(3, 0x10000, LR_QDISC_PARENT_ROOT, "tbf", 1000, 1);
	for (int t = 6; t <= 7; t++) {
		q[2].v[LR_QD_DROPS]++;
		assert_int_equal(lr_qdiscsrc_feed(src, q, 3, 0, (uint64_t)t * SEC, false, &w), 0);
		assert_int_equal(ifs[2].qdisc.valid, 0);
	}
	assert_true(ifs[0].qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	q[2] = (struct lr_qdisc_stats){.ifindex = 0, .bad = true};
	for (int t = 8; t <= 9; t++)
		assert_int_equal(lr_qdiscsrc_feed(src, q, 3, 0, (uint64_t)t * SEC, false, &w), 0);
	assert_int_equal(ifs[0].qdisc.valid, 0);
	assert_int_equal(warnings_since(&seen, "names no interface"), 1);
	lr_qdiscsrc_close(src);
}

/* An interface with no qdisc in the dump (down: the kernel dumps no noop) is unknown, and its
 * sums are kept for when it comes back; one in neither the dump nor the snapshot is forgotten. */
static void test_interface_without_qdisc(void **state)
{
	struct lr_qdiscsrc *src;
	struct lr_snapshot w;
	struct lr_qdisc_stats q;

	(void)state;
	snap_of(&w, 1);
	assert_int_equal(lr_qdiscsrc_open(&src), 0);
	feed1(src, &w, qd(1, 0, LR_QDISC_PARENT_ROOT, "pfifo_fast", 1000, 5), 1, true);
	feed1(src, &w, qd(1, 0, LR_QDISC_PARENT_ROOT, "pfifo_fast", 2000, 8), 2, false);
	assert_int_equal(ifs[0].qdisc.cum[LR_QDC_DROPS], 3);
	assert_int_equal(lr_qdiscsrc_feed(src, NULL, 0, 0, 3 * SEC, false, &w), 0);
	assert_int_equal(ifs[0].qdisc.valid, 0);
	assert_int_equal(ifs[0].qdisc.cum[LR_QDC_DROPS], 3);	/* kept: a CSV diffs it */
	q = qd(1, 0, LR_QDISC_PARENT_ROOT, "pfifo_fast", 100, 0);	/* up again, new qdisc */
	assert_int_equal(lr_qdiscsrc_feed(src, &q, 1, 0, 4 * SEC, false, &w), 0);
	feed1(src, &w, qd(1, 0, LR_QDISC_PARENT_ROOT, "pfifo_fast", 200, 2), 5, false);
	assert_int_equal(ifs[0].qdisc.cum[LR_QDC_DROPS], 5);
	lr_qdiscsrc_close(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded_total_is_the_root),
		cmocka_unit_test(test_replaced_qdisc_drops_the_interval),
		cmocka_unit_test(test_32bit_wrap),
		cmocka_unit_test(test_failed_dump),
		cmocka_unit_test(test_bad_reply),
		cmocka_unit_test(test_interface_without_qdisc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
