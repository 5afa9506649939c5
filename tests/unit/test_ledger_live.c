// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * diagnose/ledger_live and --ledger-csv: an interval's ledger is the ledger of the deltas of
 * the books' totals (a counter unknown now, or one that went back, is unknown for that
 * interval, never 0; one first known now counts from the test's start), so the intervals'
 * stages sum to the test's; the engines' counts per direction; and the CSV's rows (csv.md §8):
 * one per line per interval, each interval once, unknown empty.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "linerate/diagnose/ledger_live.h"
#include "linerate/present/ledger_csv.h"
#include "linerate/sample/snapshot.h"

static void books(struct lr_ledger_input *in, int64_t sent, int64_t qdisc, int64_t rcvbuf)
{
	memset(in, 0, sizeof(*in));
	lr_ledger_end_init(&in->snd);
	lr_ledger_end_init(&in->rcv);
	in->udp = in->sender_local = true;
	in->sent = sent;
	in->lost = -1;
	strcpy(in->snd.host, "ns-a");
	strcpy(in->snd.iface, "veth-a");
	in->snd.qdisc_drops = qdisc;
	in->snd.if_tx_packets = sent >= 0 && qdisc >= 0 ? sent - qdisc : -1;
	strcpy(in->rcv.host, "ns-b");
	strcpy(in->rcv.iface, "veth-b");
	in->rcv.udp_rcvbuf = rcvbuf;
}

static const struct lr_ledger_row *stage(const struct lr_ledger *l, enum lr_ledger_stage st)
{
	for (unsigned i = 0; i < l->n_rows; i++)
		if (l->rows[i].stage == st)
			return &l->rows[i];
	fail_msg("no %s row", lr_ledger_stage_name(st));
	return NULL;
}

static void test_delta_rules(void **state)
{
	struct lr_ledger_input a, b, d;

	(void)state;
	books(&a, 1000, 300, -1);
	books(&b, 2500, 200, 40);	/* the qdisc went back: replaced, its counts reset */
	lr_ledger_input_delta(&b, &a, &d);
	assert_int_equal(d.sent, 1500);
	assert_int_equal(d.snd.qdisc_drops, -1);	/* unknown, never 0 */
	assert_int_equal(d.rcv.udp_rcvbuf, 40);		/* first known: from the start */
	assert_int_equal(d.snd.if_tx_packets, 2300 - 700);
	books(&b, -1, 900, -1);
	lr_ledger_input_delta(&b, &a, &d);
	assert_int_equal(d.sent, -1);
	assert_int_equal(d.snd.qdisc_drops, 600);
	assert_int_equal(d.rcv.udp_rcvbuf, -1);
	books(&b, 2500, 900, -1);
	strcpy(b.snd.iface, "eth0");	/* another interface's counters are no delta */
	lr_ledger_input_delta(&b, &a, &d);
	assert_int_equal(d.snd.qdisc_drops, -1);
	assert_int_equal(d.snd.if_tx_packets, -1);
	/* TCP's segments sent (the weight of D-SACK's rest) are the interval's, like its loss */
	a.tcp_segments = 70000;
	b.tcp_segments = 100000;
	lr_ledger_input_delta(&b, &a, &d);
	assert_int_equal(d.tcp_segments, 30000);
	b.tcp_segments = -1;
	lr_ledger_input_delta(&b, &a, &d);
	assert_int_equal(d.tcp_segments, -1);
}

/* Three ticks: each interval's qdisc stage is its own drops, the total the test's, and the
 * intervals sum to it. */
static void test_steps_sum(void **state)
{
	static const int64_t sent[] = {10085, 21116, 32392}, qd[] = {8116, 17012, 26110};
	struct lr_ledger_live lv;
	struct lr_ledger_input in;
	int64_t sum = 0;

	(void)state;
	lr_ledger_live_reset(&lv);
	for (int i = 0; i < 3; i++) {
		books(&in, sent[i], qd[i], 0);
		lr_ledger_live_step(&lv, &in, (uint64_t)(i + 1) * 250000000ull, 250000000ull);
		assert_int_equal(lv.steps, i + 1);
		assert_int_equal(stage(&lv.interval, LR_LS_QDISC)->count, qd[i] - (i ? qd[i - 1] : 0));
		assert_int_equal(lv.interval.sent, sent[i] - (i ? sent[i - 1] : 0));
		assert_int_equal(stage(&lv.total, LR_LS_QDISC)->count, qd[i]);
		sum += stage(&lv.interval, LR_LS_QDISC)->count;
	}
	assert_int_equal(sum, 26110);
	assert_true(lv.interval_s > 0.2499 && lv.interval_s < 0.2501);
}

/* One link, both ends' interface counters read: live, the peer's newest frame is not this
 * tick's, so the wire is unknown in the interval and in the total so far (a 300M veth run's
 * last interval read -12704), never a difference of two instants. */
static void test_wire_unknown_live(void **state)
{
	struct lr_ledger_live lv;
	struct lr_ledger_input in;

	(void)state;
	lr_ledger_live_reset(&lv);
	for (int i = 1; i <= 2; i++) {
		books(&in, 10000 * i, 0, 0);
		in.one_link = true;
		in.lost = 0;
		in.rcv.if_rx_packets = 10000 * i - 5000;	/* its frame half a tick old */
		lr_ledger_live_step(&lv, &in, (uint64_t)i * 250000000ull, 250000000ull);
		assert_false(stage(&lv.interval, LR_LS_WIRE)->known);
		assert_false(stage(&lv.total, LR_LS_WIRE)->known);
		assert_null(lv.interval.largest);
	}
}

/* The engines' counts: this host's senders (up), its receivers' count and gaps (-R), TCP's
 * retransmits where this host sends; the other direction's streams are not counted. */
static void test_counts(void **state)
{
	struct lr_stream_snap st[3] = {
		{.udp = true, .sender = true, .total_packets = 500},
		{.udp = true, .sender = false, .total_packets = 90, .total_lost = 10},
		{.udp = false, .sender = true, .total_retransmits = 7, .total_bytes = 14480000},
	};
	struct lr_snapshot s = {.streams = st, .n_streams = 3};
	int64_t sent, lost, bytes;

	(void)state;
	lr_ledger_live_counts(&s, true, false, &sent, &lost, &bytes);
	assert_int_equal(sent, 500);
	assert_int_equal(lost, -1);	/* the peer receives: its count comes at the end */
	assert_int_equal(bytes, -1);
	lr_ledger_live_counts(&s, true, true, &sent, &lost, &bytes);
	assert_int_equal(sent, 100);
	assert_int_equal(lost, 10);
	lr_ledger_live_counts(&s, false, false, &sent, &lost, &bytes);
	assert_int_equal(sent, -1);
	assert_int_equal(lost, 7);
	assert_int_equal(bytes, 14480000);	/* the TCP senders' bytes */
	lr_ledger_live_counts(&s, false, true, &sent, &lost, &bytes);	/* no stream: unknown */
	assert_int_equal(lost, -1);
	assert_int_equal(bytes, -1);
}

/* Lines: sent, the stages, received, lost and the unaccounted remainder, always. */
static void test_lines(void **state)
{
	struct lr_ledger_input in;
	struct lr_ledger l;
	struct lr_ledger_line ln[LR_LEDGER_LINES];
	unsigned n;

	(void)state;
	books(&in, 1000, 300, -1);
	lr_ledger_build(&in, &l);
	n = lr_ledger_lines(&l, true, ln);
	assert_int_equal(n, l.n_rows + 4);
	assert_string_equal(ln[0].stage, "sent");
	assert_false(ln[0].peer);
	assert_string_equal(ln[n - 3].stage, "received");
	assert_true(ln[n - 3].peer);
	assert_string_equal(ln[n - 1].stage, "unaccounted");
	assert_false(ln[n - 1].known);	/* lost unknown: so is the remainder */
	assert_false(ln[n - 1].has_side);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);

	assert_non_null(f);
	assert_non_null(buf);
	assert_true(fread(buf, 1, 65535, f) > 0);
	fclose(f);
	return buf;
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_csv(void **state)
{
	char path[] = "/tmp/lr_ledger_csv_XXXXXX";
	int fd = mkstemp(path);
	struct lr_ledger_csv *c;
	struct lr_ledger_live lv;
	struct lr_ledger_input in;
	char *text;
	unsigned per;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(lr_ledger_csv_open(&c, path), 0);
	lr_ledger_live_reset(&lv);
	assert_int_equal(lr_ledger_csv_write(c, &lv, "up", 0, 0), 0);	/* nothing yet */
	books(&in, 1000, 300, -1);
	lr_ledger_live_step(&lv, &in, 250000000ull, 250000000ull);
	assert_int_equal(lr_ledger_csv_write(c, &lv, "up", 1796355115370138000ull, 250103000), 0);
	assert_int_equal(lr_ledger_csv_write(c, &lv, "up", 1796355115370138000ull, 250103000), 0);
	assert_int_equal(lr_ledger_csv_close(c), 0);
	text = slurp(path);
	per = lv.interval.n_rows + 4;
	assert_int_equal(count_lines(text), 1 + per);	/* the interval once */
	assert_true(!strncmp(text, LR_LEDGER_CSV_HEADER "\n", strlen(LR_LEDGER_CSV_HEADER) + 1));
	assert_non_null(strstr(text, "\n1796355115.370138,0.250103,0.250000,up,local,ns-a,qdisc,"
				     "qdisc drops,300,skbs,300,0\n"));
	/* the receiver's RcvbufErrors unknown: count and datagrams empty, never 0 */
	assert_non_null(strstr(text, ",up,peer,ns-b,transport,UDP RcvbufErrors,,skbs,,\n"));
	assert_non_null(strstr(text, ",up,,,unaccounted,lost - stages,,datagrams,,\n"));
	assert_non_null(strstr(text, ",socket,\"UDP SndbufErrors, not qdisc\","));
	free(text);
	unlink(path);
	assert_int_equal(lr_ledger_csv_open(&c, "/dev/full"), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_rules), cmocka_unit_test(test_wire_unknown_live), cmocka_unit_test(test_steps_sum),
		cmocka_unit_test(test_counts),	    cmocka_unit_test(test_lines),
		cmocka_unit_test(test_csv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
