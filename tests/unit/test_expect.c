// SPDX-License-Identifier: GPL-2.0-or-later
/* diagnose/expect: --expect's grammar (each malformed COND one line naming it) and each
 * condition judged on a test's figures: met, not met with the figure it was judged on, or not
 * judgeable (never a silent pass). The figures are the tbf run (143,910 of 178,643
 * datagrams lost) and runs of this kind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "linerate/diagnose/expect.h"
#include "linerate/diagnose/verdict.h"

static void parses(const char *spec, struct lr_expect *e)
{
	char err[160];

	assert_int_equal(lr_expect_parse(spec, e, err, sizeof(err)), 0);
}

/* The error line, for a spec that must not parse. */
static const char *refused(const char *spec)
{
	static char err[160];
	struct lr_expect e;

	memset(err, 'x', sizeof(err));
	assert_int_equal(lr_expect_parse(spec, &e, err, sizeof(err)), -EINVAL);
	assert_null(strchr(err, '\n'));
	return err;
}

static void test_grammar(void **state)
{
	struct lr_expect e;

	(void)state;
	parses("loss<=0.1%,rate>=9.4G,retr<=100,cpu<90%", &e);
	assert_int_equal(e.n, 4);
	assert_int_equal(e.c[0].metric, LR_EXPECT_LOSS);
	assert_int_equal(e.c[0].op, LR_EXPECT_LE);
	assert_true(e.c[0].value > 0.0999 && e.c[0].value < 0.1001);
	assert_string_equal(e.c[0].text, "loss<=0.1%");
	assert_int_equal(e.c[1].metric, LR_EXPECT_RATE);
	assert_int_equal(e.c[1].op, LR_EXPECT_GE);
	assert_true(e.c[1].value > 9.3999e9 && e.c[1].value < 9.4001e9);
	assert_int_equal(e.c[2].metric, LR_EXPECT_RETR);
	assert_true(e.c[2].value == 100);
	assert_int_equal(e.c[3].metric, LR_EXPECT_CPU);
	assert_int_equal(e.c[3].op, LR_EXPECT_LT);
	parses("rate>500k", &e);
	assert_int_equal(e.c[0].op, LR_EXPECT_GT);
	assert_true(e.c[0].value == 500e3);
	parses("rate>=1M", &e);
	assert_true(e.c[0].value == 1e6);
	parses("rate>=2K", &e);
	assert_true(e.c[0].value == 2e3);
	parses("rate>=1200", &e);
	assert_true(e.c[0].value == 1200);
	parses("retr<5", &e);
	assert_int_equal(e.c[0].op, LR_EXPECT_LT);
}

static void test_malformed_named(void **state)
{
	(void)state;
	assert_string_equal(refused("loss<=0.1"), "--expect: 'loss<=0.1': a percentage needs % "
				    "after the number (loss<=0.1%, cpu<90%)");
	assert_non_null(strstr(refused("loss=0.1%"), "'loss=0.1%': no comparison"));
	assert_non_null(strstr(refused("jitter<1%"), "'jitter<1%': unknown measure"));
	assert_non_null(strstr(refused("rate>=9.4X"), "'rate>=9.4X': a rate is bit/s"));
	assert_non_null(strstr(refused("rate>=9.4Gbit"), "'rate>=9.4Gbit'"));
	assert_non_null(strstr(refused("retr<=1.5"), "'retr<=1.5': retransmits are a whole"));
	assert_non_null(strstr(refused("cpu<101%"), "'cpu<101%': a percentage above 100"));
	assert_non_null(strstr(refused("loss<=-1%"), "'loss<=-1%': no number"));
	assert_non_null(strstr(refused("loss<=.5%"), "no number"));
	assert_non_null(strstr(refused("loss<=1.%"), "no number"));
	assert_non_null(strstr(refused("rate>=0x10"), "'rate>=0x10'"));
	assert_non_null(strstr(refused("rate>=1e9"), "'rate>=1e9'"));
	assert_non_null(strstr(refused("loss<=1%,"), "'': an empty condition"));
	assert_non_null(strstr(refused(""), "an empty condition"));
	assert_non_null(strstr(refused("loss<=1%, rate>=1M"), "' rate>=1M': unknown measure"));
	/* a control character is shown as '?': the error stays one line (found by fuzz_expect) */
	assert_non_null(strstr(refused("\nrate>1k"), "'?rate>1k': unknown measure"));
	assert_non_null(strstr(refused("rate>1\n"), "'rate>1?': a rate is bit/s"));
	assert_non_null(strstr(refused("retr<1,retr<1,retr<1,retr<1,retr<1,retr<1,retr<1,retr<1,"
				       "retr<1"), "more than 8 conditions"));
}

static struct lr_expect_facts udp_facts(int64_t lost, int64_t packets)
{
	struct lr_expect_facts f = {.ran = true, .udp = true, .lost = lost, .packets = packets,
				    .rate_bps = 181.2e6, .retransmits = -1};

	return f;
}

static enum lr_expect_result judge(const char *spec, const struct lr_expect_facts *f, char *line)
{
	struct lr_expect e;

	parses(spec, &e);
	return lr_expect_judge(&e.c[0], f, line, 200);
}

static void test_loss(void **state)
{
	struct lr_expect_facts f = udp_facts(4120, 178643);
	char line[200];

	(void)state;
	assert_int_equal(judge("loss<=0.1%", &f, line), LR_EXPECT_NOT_MET);
	assert_string_equal(line, "expect loss<=0.1%: lost 2.31% (4,120 of 178,643 datagrams)");
	assert_int_equal(judge("loss<=2.4%", &f, line), LR_EXPECT_MET);
	assert_string_equal(line, "expect loss<=2.4%: met: lost 2.31% (4,120 of 178,643 datagrams)");
	/* each operator at its edge: 1 of 100 is exactly 1 % */
	f = udp_facts(1, 100);
	assert_int_equal(judge("loss<=1%", &f, line), LR_EXPECT_MET);
	assert_int_equal(judge("loss<1%", &f, line), LR_EXPECT_NOT_MET);
	assert_int_equal(judge("loss>=1%", &f, line), LR_EXPECT_MET);
	assert_int_equal(judge("loss>1%", &f, line), LR_EXPECT_NOT_MET);
	/* a threshold finer than two decimals is shown finer */
	f = udp_facts(3, 178643);
	assert_int_equal(judge("loss<=0.001%", &f, line), LR_EXPECT_NOT_MET);
	assert_string_equal(line, "expect loss<=0.001%: lost 0.0017% (3 of 178,643 datagrams)");
}

/* --bidir: the loss condition is judged on the worse direction, named; the sum of both would
 * read 5,000 of 200,000 (2.5 %) and pass loss<=3% although down lost 5 %. Unknown in either
 * direction: not judged. */
static void test_loss_bidir_worse_direction(void **state)
{
	struct lr_verdict_traffic t = {.ran = true, .udp = true, .bidir = true,
				       .up_bps = 9e8, .down_bps = 8e8, .retransmits = -1,
				       .udp_lost = 5000, .udp_packets = 200000,
				       .dir_udp_lost = {0, 5000},
				       .dir_udp_packets = {100000, 100000}};
	struct lr_expect_facts f;
	char line[200];

	(void)state;
	memset(&f, 0, sizeof(f));
	lr_expect_traffic_facts(&t, &f);
	assert_int_equal(judge("loss<=3%", &f, line), LR_EXPECT_NOT_MET);
	assert_string_equal(line, "expect loss<=3%: lost 5.00% (5,000 of 100,000 datagrams, the "
			    "worse direction: down)");
	assert_true(f.rate_bps == 8e8);
	t.dir_udp_lost[0] = 6000;
	t.dir_udp_packets[0] = 120000;	/* up 5 %, down 1 %: up decides */
	t.dir_udp_lost[1] = 1000;
	lr_expect_traffic_facts(&t, &f);
	assert_int_equal(judge("loss<=3%", &f, line), LR_EXPECT_NOT_MET);
	assert_non_null(strstr(line, "(6,000 of 120,000 datagrams, the worse direction: up)"));
	t.dir_udp_lost[1] = -1;
	lr_expect_traffic_facts(&t, &f);
	assert_int_equal(judge("loss<=3%", &f, line), LR_EXPECT_UNKNOWN);
}

static void test_unknown_never_passes(void **state)
{
	struct lr_expect_facts f = udp_facts(-1, -1);
	char line[200];

	(void)state;
	assert_int_equal(judge("loss<=100%", &f, line), LR_EXPECT_UNKNOWN);
	assert_string_equal(line, "expect loss<=100%: cannot be judged: the receiver's count of "
				  "lost datagrams did not arrive");
	f.udp = false;	/* TCP: the loss condition has nothing to read */
	assert_int_equal(judge("loss<=100%", &f, line), LR_EXPECT_UNKNOWN);
	assert_non_null(strstr(line, "a TCP test loses no data"));
	f = udp_facts(0, 1000);
	assert_int_equal(judge("retr<=1000", &f, line), LR_EXPECT_UNKNOWN);
	/* the far end's CPUs unknown (a plain iperf3): cpu is not judged on one end alone */
	f.cpu_local = (struct lr_expect_cpu){.known = true, .cpu = 1, .busy_pct = 12};
	assert_int_equal(judge("cpu<100%", &f, line), LR_EXPECT_UNKNOWN);
	assert_string_equal(line, "expect cpu<100%: cannot be judged: the peer's CPU times are "
				  "unknown (a plain iperf3 shares none)");
	f.rate_bps = -1;
	assert_int_equal(judge("rate>=0", &f, line), LR_EXPECT_UNKNOWN);
	f = udp_facts(0, 1000);
	f.ran = false;
	assert_int_equal(judge("rate>=0", &f, line), LR_EXPECT_UNKNOWN);
	f = udp_facts(0, 0);
	assert_int_equal(judge("loss<=1%", &f, line), LR_EXPECT_UNKNOWN);
}

static void test_rate_retr_cpu(void **state)
{
	struct lr_expect_facts f = udp_facts(0, 10);
	char line[200];

	(void)state;
	assert_int_equal(judge("rate>=9.4G", &f, line), LR_EXPECT_NOT_MET);
	assert_string_equal(line, "expect rate>=9.4G: received 181 Mbit/s");
	assert_int_equal(judge("rate>=181M", &f, line), LR_EXPECT_MET);
	f.udp = false;
	f.retransmits = 23205;
	assert_int_equal(judge("retr<=100", &f, line), LR_EXPECT_NOT_MET);
	assert_string_equal(line, "expect retr<=100: 23,205 segments retransmitted");
	f.retransmits = 100;
	assert_int_equal(judge("retr<=100", &f, line), LR_EXPECT_MET);
	f.cpu_local = (struct lr_expect_cpu){.known = true, .cpu = 1, .busy_pct = 40, .host = "a"};
	f.cpu_peer = (struct lr_expect_cpu){.known = true, .cpu = 3, .busy_pct = 97.5, .host = "b"};
	assert_int_equal(judge("cpu<90%", &f, line), LR_EXPECT_NOT_MET);
	assert_string_equal(line, "expect cpu<90%: busiest CPU 97.5% busy (cpu3 on b)");
	f.cpu_peer.busy_pct = 20;
	assert_int_equal(judge("cpu<90%", &f, line), LR_EXPECT_MET);
	assert_string_equal(line, "expect cpu<90%: met: busiest CPU 40.0% busy (cpu1 on a)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_malformed_named),
		cmocka_unit_test(test_loss),
		cmocka_unit_test(test_loss_bidir_worse_direction),
		cmocka_unit_test(test_unknown_never_passes),
		cmocka_unit_test(test_rate_retr_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
