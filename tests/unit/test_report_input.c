// SPDX-License-Identifier: GPL-2.0-or-later
/* The report's reader on bad input: empty, foreign, truncated, malformed, NUL-holding and
 * mixed-run CSVs are each one "file:line: why" error without a newline; a newer linerate's
 * extra columns are ignored and the known ones still count; each CSV kind is told by its
 * header. (The numbers of the report itself: test_report.c.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fakes/report_io.h"
#include "linerate/sample/report_read.h"

static const char iface_hdr[] =
	"time,elapsed,iface,interval,rx_bytes,tx_bytes,rx_packets,tx_packets,rx_bps,tx_bps,rx_pps,"
	"tx_pps,rx_dropped,tx_dropped,rx_errors,tx_errors,rx_fifo,rx_missed,rx_over,nic_fifo,"
	"nic_drop,softirq_max_pct,softirq_cpu,link_mbps,mtu,wire_util_pct";
#define ROW(t, e) #t "," #e ",eth0,0.5,100,0,1,0,1600.0,0.0,2.0,0.0,0,0,0,0,0,0,0,,,1.0,0,,1500,\n"

static void expect_error(const char *text, const char *want)
{
	char err[LR_REP_ERR_MAX];
	struct lr_report *r;

	assert_int_equal(lr_report_new(&r), 0);
	if (report_read_text(r, "in.csv", text, err) != -EINVAL)
		fail_msg("accepted: %.200s (want %s)", text, want);
	if (strncmp(err, want, strlen(want)))
		fail_msg("error '%s' does not start with '%s'", err, want);
	assert_null(strchr(err, '\n'));
	lr_report_free(r);
}

static void test_bad_input(void **state)
{
	char text[8192], longline[6000];

	(void)state;
	expect_error("", "in.csv:1: empty file");
	expect_error("Date,Time,Throughput\n1,2,3\n", "in.csv:1: not a CSV linerate wrote");
	expect_error("time,elapsed,iface\n", "in.csv:1: not a CSV linerate wrote");
	snprintf(text, sizeof(text), "%s\n" ROW(1800000000.5, 0.5) "1800000001.0,1.0,eth0,0.5,10",
		 iface_hdr);
	expect_error(text, "in.csv:3: truncated last line");
	snprintf(text, sizeof(text), "%s\n" ROW(1800000000.5, 0.5) "%s\n" ROW(1800000000.5, 0.5),
		 iface_hdr, iface_hdr);
	expect_error(text, "in.csv:3: a second header");
	snprintf(text, sizeof(text), "%s\n" ROW(1800000000.5, 9.5) ROW(1800000001.0, 0.5), iface_hdr);
	expect_error(text, "in.csv:3: elapsed goes back");
	snprintf(text, sizeof(text), "%s\n1800000000.5,0.5,eth0,0.5,100\n", iface_hdr);
	expect_error(text, "in.csv:2: 5 fields where the header has 26");
	snprintf(text, sizeof(text), "%s\n" ROW(1800000000.5, 0.5), iface_hdr);
	strstr(text, ",100,")[1] = 'x';
	expect_error(text, "in.csv:2: rx_bytes 'x00' is not a number");
	snprintf(text, sizeof(text), "%s\n" ROW(1800000000.5, 0.5), iface_hdr);
	memcpy(strstr(text, ",100,") + 1, "-10", 3);
	expect_error(text, "in.csv:2: rx_bytes '-10' is not a number");
	memset(longline, 'a', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	snprintf(text, sizeof(text), "%s\n%s\n", iface_hdr, longline);
	expect_error(text, "in.csv:2: line longer than 4096");
	snprintf(text, sizeof(text), "%s\n1,2,\"eth0,3\n", iface_hdr);
	expect_error(text, "in.csv:2: a stray or unterminated quote");
	snprintf(text, sizeof(text), "%s\n" ROW(1800000000.5, 0.5), iface_hdr);
	strstr(text, "eth0")[0] = '\t';
	expect_error(text, "in.csv:2: iface holds a control character");
}

static void test_nul_byte(void **state)
{
	static const char text[] = "time,elapsed\0,iface\n";
	char err[LR_REP_ERR_MAX];
	struct lr_report *r;
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");

	(void)state;
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(lr_report_read(r, f, "nul.csv", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "nul.csv:1: NUL byte (not a text CSV)");
	fclose(f);
	lr_report_free(r);
}

static void test_two_runs_across_files(void **state)
{
	char a[1024], b[1024], err[LR_REP_ERR_MAX];
	struct lr_report *r;

	(void)state;
	snprintf(a, sizeof(a), "%s\n" ROW(1800000000.5, 0.5), iface_hdr);
	snprintf(b, sizeof(b), "%s\n" ROW(1800090000.5, 0.5), iface_hdr);	/* a day later */
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "a.csv", a, err), 0);
	assert_int_equal(report_read_text(r, "b.csv", b, err), -EINVAL);
	assert_string_equal(err, "b.csv:2: recorded at another time than the files before it (not "
				 "the same run)");
	lr_report_free(r);
}

/* A newer linerate's extra columns are ignored; the known ones still count. */
static void test_newer_columns(void **state)
{
	char text[1024], err[LR_REP_ERR_MAX];
	struct lr_report *r;

	(void)state;
	snprintf(text, sizeof(text),
		 "%s,side,host,numa_node,from_the_future\n"
		 "1800000000.5,0.5,eth0,0.5,100,0,1,0,1600.0,0.0,2.0,0.0,0,0,0,0,0,0,0,,,1.0,0,,1500,"
		 ",local,h1,0,42\n", iface_hdr);
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "new.csv", text, err), 0);
	assert_int_equal(r->files[0].extra_columns, 2);
	assert_true(r->ifaces[0].rx_bytes == 100.0);
	assert_string_equal(r->ifaces[0].host, "h1");
	lr_report_free(r);
}

static void test_kinds(void **state)
{
	unsigned extra = 99;

	(void)state;
	assert_int_equal(lr_report_kind_of_header(iface_hdr, &extra), LR_REP_IFACES);
	assert_int_equal(extra, 0);
	assert_int_equal(lr_report_kind_of_header(
				 "time,elapsed,cpu,interval,user_pct,system_pct,irq_pct,softirq_pct,"
				 "idle_pct,net_rx_per_s,net_tx_per_s,softnet_processed_per_s,"
				 "softnet_dropped_per_s,softnet_squeezed_per_s,steal_pct,side,host",
				 &extra),
			 LR_REP_CPUS);
	assert_int_equal(extra, 3);
	assert_int_equal(lr_report_kind_of_header(
				 "time,elapsed,iface,queue,interval,rx_packets,rx_bytes,tx_packets,"
				 "tx_bytes,rx_drops,tx_drops,rx_pps,tx_pps,cpu,cpu_softirq_pct,source,"
				 "side,host", NULL),
			 LR_REP_QUEUES);
	assert_int_equal(lr_report_kind_of_header(
				 "case,proto,streams,length,reverse,bitrate_target,window,mss,"
				 "congestion,seconds,sender_bps,receiver_bps,receiver_pps", NULL),
			 LR_REP_MATRIX);
	assert_int_equal(lr_report_kind_of_header("time,elapsed,iface", NULL), -1);
}

/* The qdisc columns appended to --csv (issue 27) are known by name, wherever they sit after
 * the known prefix: summed over the rows that knew them, an empty field unknown, a bad value
 * refused; a file without them reads as before and its table cell says "not recorded". */
static void test_qdisc_columns(void **state)
{
	static const char with[] =
		"time,elapsed,iface,interval,rx_bytes,tx_bytes,rx_packets,tx_packets,rx_bps,tx_bps,"
		"rx_pps,tx_pps,rx_dropped,tx_dropped,rx_errors,tx_errors,rx_fifo,rx_missed,rx_over,"
		"nic_fifo,nic_drop,softirq_max_pct,softirq_cpu,link_mbps,mtu,wire_util_pct,side,host,"
		"numa_node,driver,qdisc_drops,qdisc_overlimits,qdisc_requeues,qdisc_backlog_bytes,"
		"qdisc_backlog_packets\n"
		"1800000000.5,0.5,eth0,0.5,100,0,1,0,1600.0,0.0,2.0,0.0,0,0,0,0,0,0,0,,,1.0,0,,1500,,"
		"local,h,,veth,143000,160000,0,15000,10\n"
		"1800000001.0,1.0,eth0,0.5,100,0,1,0,1600.0,0.0,2.0,0.0,0,0,0,0,0,0,0,,,1.0,0,,1500,,"
		"local,h,,veth,,,,,\n"
		"1800000001.5,1.5,eth0,0.5,100,0,1,0,1600.0,0.0,2.0,0.0,0,0,0,0,0,0,0,,,1.0,0,,1500,,"
		"local,h,,veth,924,1000,2,0,0\n";
	char err[LR_REP_ERR_MAX], text[4096], *html;
	struct lr_report *r;

	(void)state;
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "q.csv", with, err), 0);
	/* known, not "newer columns": only numa_node is (the report has no use for it) */
	assert_int_equal(r->files[0].extra_columns, 1);
	assert_true(r->ifaces[0].qdisc_col && r->ifaces[0].qdisc_known);
	assert_near(r->ifaces[0].qdisc_sum[LR_RQ_DROPS], 143924, 0);
	assert_near(r->ifaces[0].qdisc_sum[LR_RQ_OVERLIMITS], 161000, 0);
	assert_near(r->ifaces[0].qdisc_sum[LR_RQ_REQUEUES], 2, 0);
	assert_near(r->ifaces[0].qdisc_backlog_peak[0], 15000, 0);
	html = report_html(r);
	assert_near(report_table_value(html, "data-iface=\"eth0\"", "qdisc_drops"), 143924, 0);
	free(html);
	lr_report_free(r);
	/* without them: read as before, the cell says so */
	snprintf(text, sizeof(text), "%s\n" ROW(1800000000.5, 0.5), iface_hdr);
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "old.csv", text, err), 0);
	assert_false(r->ifaces[0].qdisc_col);
	html = report_html(r);
	assert_non_null(strstr(html, "<span data-k=\"qdisc_drops\">&ndash;</span>"));
	free(html);
	lr_report_free(r);
	snprintf(text, sizeof(text), "%s", with);
	memcpy(strstr(text, ",924,") + 1, "-92", 3);
	expect_error(text, "in.csv:4: qdisc_drops '-92' is not a number");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_two_runs_across_files),
		cmocka_unit_test(test_newer_columns),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_qdisc_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
