// SPDX-License-Identifier: GPL-2.0-or-later
/* diagnose/ledger, TCP's books: its loss is the sender's retransmits, which overcount what was
 * lost (a stage explaining a quarter of them is named), less the spurious ones the sender's
 * TcpExt TCPDSACKRecvSegs counts; nearly all of them spurious, and the rest too little to
 * matter, is reordering, never a firewall. Figures from runs on a veth pair and on lo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/diagnose/ledger.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/present/ledger_out.h"
#include "fakes/ledger_books.h"

/* TCP through a tbf on the sender's veth (-t 1): the qdisc dropped 3108 segments and the
 * sender counted 6369 retransmits (2,000 and more of them retransmissions its own qdisc
 * refused, retried and counted again: TCPRetransFail). Nothing else dropped: the qdisc is
 * named. A stage that explains a fifth of them is not. */
static void test_tcp_qdisc_under_half(void **state)
{
	struct lr_ledger_input in;
	struct lr_ledger l;

	(void)state;
	ledger_read_ends(&in);
	in.udp = false;
	in.sent = -1;
	in.lost = 6369;
	in.snd.if_tx_packets = in.rcv.if_rx_packets = 9100;
	in.snd.qdisc_drops = 3108;
	strcpy(in.snd.qdisc, "tbf 8001:");
	lr_ledger_build(&in, &l);
	assert_ptr_equal(l.largest, ledger_row(&l, LR_LS_QDISC));
	assert_non_null(strstr(l.conclusion, "3108 of 6369 lost segments at the sender's qdisc: "
					     "tbf 8001: on ns-a veth-a"));
	in.snd.qdisc_drops = 1270;
	lr_ledger_build(&in, &l);
	assert_null(l.largest);
	assert_non_null(strstr(l.conclusion, "unaccounted"));
}

/* The ledger's text as printed after the verdict (malloc'd). */
static char *printed(const struct lr_ledger *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	lr_ledger_print(f, l);
	fclose(f);
	return text;
}

/* TCP over lo in a namespace of its own, -t 2, three runs: nothing was dropped anywhere, and
 * nstat in that namespace counted TcpRetransSegs 21, 87 and TcpExtTCPDSACKRecvSegs 21, 83:
 * reordering (a sending thread that moves between CPUs fills two backlogs) makes the sender
 * retransmit segments the receiver already had, and it says so with D-SACKs. Spurious
 * retransmits are not loss; the few left without a D-SACK beside them are not a firewall. */
static void test_tcp_spurious_retransmits(void **state)
{
	struct lr_ledger_input in;
	struct lr_ledger l;
	char *text;

	(void)state;
	ledger_read_ends(&in);
	in.one_link = false;	/* lo: no link, no wire stage */
	in.udp = false;
	in.sent = -1;
	in.lost = 21;
	in.snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS] = 21;
	lr_ledger_build(&in, &l);
	assert_int_equal(l.retransmitted, 21);
	assert_int_equal(l.spurious, 21);
	assert_int_equal(l.lost, 0);
	assert_true(l.unaccounted_known && fabs(l.unaccounted) < 0.5);
	assert_non_null(strstr(l.conclusion, "no loss: every retransmit was spurious, the "
					     "receiver already had them"));
	assert_string_equal(l.advice, "");
	/* 87 retransmitted, 83 D-SACKed, no stage saw a drop: reordering, not "check the
	 * firewall"; the 4 stay in the books as unaccounted */
	in.lost = 87;
	in.snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS] = 83;
	lr_ledger_build(&in, &l);
	assert_int_equal(l.lost, 4);
	assert_true(fabs(l.unaccounted - 4) < 0.5);
	assert_non_null(strstr(l.conclusion, "reordered, not lost: 83 of the 87 retransmitted "
					     "segments were spurious (TcpExt TCPDSACKRecvSegs on "
					     "ns-a)"));
	assert_string_equal(l.advice, "");
	/* on one link whose wire is unknown (live, or an end's count unread) it is the same:
	 * the wire is a difference, not a drop counter */
	in.one_link = true;
	lr_ledger_build(&in, &l);
	assert_false(ledger_row(&l, LR_LS_WIRE)->known);
	assert_non_null(strstr(l.conclusion, "reordered, not lost"));
	in.one_link = false;
	lr_ledger_build(&in, &l);
	text = printed(&l);
	assert_non_null(strstr(text, "lost 4\n  retransmitted 87 segments, 83 of them spurious"));
	free(text);
	/* --rr: the same books are the requests' way only, and say so */
	l.requests_only = true;
	text = printed(&l);
	assert_non_null(strstr(text, "Loss ledger of the requests, "));
	assert_non_null(strstr(text, "lost 4\n  (--rr: the sender is the asking end, the receiver "
				     "the answering end; the answers' way back is not in it)\n"));
	free(text);
	l.requests_only = false;
	/* the verdict reads it: its place is the ledger's, its loopback step on retransmits
	 * ("a firewall rule, or a receiver too slow") gives way */
	{
		static struct lr_verdict v;

		strcpy(v.loss, "TCP 87 segments retransmitted (the senders' count); driver 3");
		strcpy(v.loss_where, "inside this host (loopback)");
		strcpy(v.next_step, "TCP retransmitted 87 segments on loopback, where no counter "
				    "saw a drop: a firewall rule, or a receiver too slow");
		v.step_retrans = true;
		lr_verdict_conclude(&v, &l);
		assert_string_equal(v.loss, "TCP 87 segments retransmitted (the senders' count), 83 "
					    "of them spurious (D-SACK); driver 3");
		assert_string_equal(v.loss_where, l.conclusion);
		assert_null(strstr(v.next_step, "firewall"));
		assert_non_null(strstr(v.next_step, "reordering, not loss"));
	}
	/* a stage that did drop is named, with the spurious ones off the loss */
	in.rcv.stack_drop[LR_SD_TCP_RCVQ_DROP] = 3;
	lr_ledger_build(&in, &l);
	assert_ptr_equal(l.largest, ledger_row(&l, LR_LS_TRANSPORT));
	assert_non_null(strstr(l.conclusion, "3 of 4 lost segments"));
	/* half of them spurious is not reordering: the rest is unaccounted loss */
	in.rcv.stack_drop[LR_SD_TCP_RCVQ_DROP] = 0;
	in.snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS] = 40;
	lr_ledger_build(&in, &l);
	assert_int_equal(l.lost, 47);
	assert_non_null(strstr(l.conclusion, "unaccounted: no counter on either end saw the 47"));
	/* a host-wide count above this test's retransmits: all of them spurious, never more */
	in.snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS] = 500;
	lr_ledger_build(&in, &l);
	assert_int_equal(l.spurious, 87);
	assert_int_equal(l.lost, 0);
	/* the sender could not read it (a kernel before 5.10, an older peer): unknown, and every
	 * retransmit counts as lost, as before */
	in.snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS] = -1;
	lr_ledger_build(&in, &l);
	assert_int_equal(l.spurious, -1);
	assert_int_equal(l.lost, 87);
	text = printed(&l);
	assert_non_null(strstr(text, "retransmitted 87 segments, spurious unknown"));
	free(text);
}

/* An nft rule in the receiver's namespace dropping 0.5 % of a veth's skbs (tests/integration/
 * verdict_netns.sh, tcp_drop), its sender's CPU loaded: retransmitted 42742, 30488 of them
 * D-SACKed, 12254 lost, of some 1.3 million segments. A slower receiver's timeouts add
 * spurious ones until they pass 90 %: the 12254 are still loss a firewall made, not the
 * reordering D-SACK missed. Only a rest too small to matter (0.1 % of the segments sent) is. */
static void test_tcp_spurious_hide_no_loss(void **state)
{
	struct lr_ledger_input in;
	struct lr_ledger l;

	(void)state;
	ledger_read_ends(&in);
	in.one_link = false;	/* no wire stage: every stage is read */
	in.udp = false;
	in.sent = -1;
	in.lost = 130000;
	in.snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS] = 117746;	/* 90.6 % spurious */
	in.tcp_segments = 1300000;
	lr_ledger_build(&in, &l);
	assert_int_equal(l.lost, 12254);
	assert_false(l.reordered);
	assert_non_null(strstr(l.conclusion, "unaccounted: no counter on either end saw the "
					     "12254 lost segments"));
	assert_non_null(strstr(l.advice, "nft list ruleset"));
	/* the same share with a rest of 0.1 % of the segments (1300 of 1.3 million) and below
	 * is the reordering */
	in.lost = 13000;
	in.snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS] = 11700;
	lr_ledger_build(&in, &l);
	assert_int_equal(l.lost, 1300);
	assert_true(l.reordered);
	in.snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS] = 11699;
	lr_ledger_build(&in, &l);
	assert_false(l.reordered);
	/* the segments unknown (0 or -1): the share alone, as before */
	for (int64_t unknown = -1; unknown <= 0; unknown++) {
		in.tcp_segments = unknown;
		in.lost = 130000;
		in.snd.stack_drop[LR_SD_TCP_DSACK_RECV_SEGS] = 117746;
		lr_ledger_build(&in, &l);
		assert_true(l.reordered);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp_qdisc_under_half),
		cmocka_unit_test(test_tcp_spurious_retransmits),
		cmocka_unit_test(test_tcp_spurious_hide_no_loss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
