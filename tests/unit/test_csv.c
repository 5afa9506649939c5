// SPDX-License-Identifier: GPL-2.0-or-later
/* The CSV writer: exact header, deltas from cumulative counters (a missed snapshot folds into
 * the next row, so column sums stay exact), unknown as empty fields, quoting, write errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "linerate/sample/csv.h"
#include "linerate/sample/snapshot.h"

#define SEC 1000000000ULL

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[8192];
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static const char *nodename(void)
{
	static struct utsname u;

	assert_int_equal(uname(&u), 0);
	return u.nodename;
}

static void snap_at(struct lr_snapshot *s, struct lr_iface_snap *i, uint64_t seq, uint64_t t,
		    uint64_t rx_bytes_cum)
{
	memset(s, 0, sizeof(*s));
	s->seq = seq;
	s->mono_ns = 100 * SEC + t;
	s->real_ns = 1700000000ULL * SEC + t;
	s->elapsed_ns = t;
	s->interval_ns = SEC / 2;
	s->ifaces = i;
	s->n_ifaces = 1;
	i->base_ns = 100 * SEC;
	i->cum[LR_M_RX_BYTES] = rx_bytes_cum;
	i->cum[LR_M_RX_PACKETS] = rx_bytes_cum / 100;
	i->cum_valid = i->valid = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_RX_PACKETS);
}

static void test_rows_and_missed_snapshot(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	struct lr_iface_snap i;
	char *text, *line2, *line3;
	char want[512];

	(void)state;
	close(fd);
	memset(&i, 0, sizeof(i));
	strcpy(i.name, "eth,1");	/* a legal interface name that needs quoting */
	i.mtu = 1500;
	i.speed_mbps = 1000;
	i.softirq_max_pct = -1;
	i.softirq_cpu = -1;
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_IFACES), 0);
	snap_at(&s, &i, 1, SEC / 2, 1000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	/* seq 2 was never read by the writer; seq 3 carries both intervals */
	snap_at(&s, &i, 3, 3 * SEC / 2, 4000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	line2 = strchr(text, '\n') + 1;
	line3 = strchr(line2, '\n') + 1;
	assert_memory_equal(text, lr_csv_header(LR_CSV_IFACES), strlen(lr_csv_header(LR_CSV_IFACES)));
	snprintf(want, sizeof(want),
		 "1700000000.500000,0.500000,\"eth,1\",0.500000,1000,,10,,16000.0,,"
		 "20.0,,,,,,,,,,,,,1000,1500,,local,%s,,,,,,,\n"
		 "1700000001.500000,1.500000,\"eth,1\",1.000000,3000,,30,,24000.0,,"
		 "30.0,,,,,,,,,,,,,1000,1500,,local,%s,,,,,,,\n",
		 nodename(), nodename());
	assert_string_equal(line2, want);
	(void)line3;
}

/* The time columns of every row: the wall clock's microseconds cut, the elapsed time rounded
 * from its nanoseconds, half up, a carry crossing the point. */
static void test_time_columns(void **state)
{
	static const struct {
		uint64_t real_frac, elapsed;
		const char *want;
	} cases[] = {
		{123456789, 1234567500, "1700000000.123456,1.234568,"},
		{999999999, 999999500, "1700000000.999999,1.000000,"},
		{0, 1234567499, "1700000000.000000,1.234567,"},
		{1000, 7 * SEC, "1700000000.000001,7.000000,"},
		{0, 1213993500, "1700000000.000000,1.213994,"},	/* printf's double: 1.213993 */
	};
	static const struct lr_csv_latency lat = {.answered = 1, .p50_us = -1, .p90_us = -1,
						  .p99_us = -1, .max_us = -1};

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char path[] = "/tmp/lr-csv-XXXXXX";
		int fd = mkstemp(path);
		struct lr_csv *c;
		struct lr_snapshot s;
		struct lr_iface_snap i;
		char *text, *row;

		close(fd);
		memset(&i, 0, sizeof(i));
		strcpy(i.name, "eth0");
		i.softirq_max_pct = -1;
		i.softirq_cpu = 3;
		assert_int_equal(lr_csv_open(&c, path, LR_CSV_IFACES), 0);
		snap_at(&s, &i, 1, SEC / 2, 1000);
		s.real_ns = 1700000000ULL * SEC + cases[k].real_frac;
		s.elapsed_ns = cases[k].elapsed;
		assert_int_equal(lr_csv_write(c, &s), 0);
		assert_int_equal(lr_csv_close(c), 0);
		text = slurp(path);
		unlink(path);
		row = strchr(text, '\n') + 1;
		assert_memory_equal(row, cases[k].want, strlen(cases[k].want));
		assert_non_null(strstr(row, ",,3,"));	/* softirq_max_pct unknown, softirq_cpu 3 */
		/* a latency row of the same snapshot carries the same time columns */
		assert_int_equal(lr_csv_open(&c, path, LR_CSV_STREAMS), 0);
		assert_int_equal(lr_csv_write_latency(c, &s, &lat), 0);
		assert_int_equal(lr_csv_close(c), 0);
		text = slurp(path);
		unlink(path);
		row = strchr(text, '\n') + 1;
		assert_memory_equal(row, cases[k].want, strlen(cases[k].want));
	}
}

/* Fails unless the line at row ends with tail (its newline included); returns the next line. */
static char *row_ends(char *row, const char *tail)
{
	char *nl = strchr(row, '\n');
	size_t n = strlen(tail);

	assert_non_null(nl);
	if ((size_t)(nl + 1 - row) < n || memcmp(nl + 1 - n, tail, n))
		fail_msg("row %.*s does not end with %s", (int)(nl - row), row, tail);
	return nl + 1;
}

/* The qdisc columns (issue 27): the root's counts since the row before (a missed snapshot
 * folds into the next row, as the kernel counters do), the backlog as read; an interval in
 * which the root was replaced is empty, and the sums go on after it. */
static void test_qdisc_columns(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	struct lr_iface_snap i;
	struct lr_qdisc_figures *q = &i.qdisc;
	char *text, *row;
	const uint32_t all = LR_QDV_BIT(LR_QDC_DROPS) | LR_QDV_BIT(LR_QDC_OVERLIMITS) |
			     LR_QDV_BIT(LR_QDC_REQUEUES) | LR_QDV_BACKLOG_BYTES |
			     LR_QDV_BACKLOG_PACKETS;

	(void)state;
	close(fd);
	memset(&i, 0, sizeof(i));
	strcpy(i.name, "veth0");
	i.mtu = i.speed_mbps = i.softirq_max_pct = i.softirq_cpu = -1;
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_IFACES), 0);
	q->base_ns = 100 * SEC;
	q->valid = q->cum_valid = all;
	q->cum[LR_QDC_DROPS] = 143;
	q->cum[LR_QDC_OVERLIMITS] = 200;
	q->backlog_bytes = 15000;
	q->backlog_packets = 10;
	snap_at(&s, &i, 1, SEC, 1000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	q->cum[LR_QDC_DROPS] = 143924;	/* seq 2 missed: seq 3 carries both intervals */
	q->cum[LR_QDC_OVERLIMITS] = 250;
	q->cum[LR_QDC_REQUEUES] = 1;
	q->backlog_bytes = q->backlog_packets = 0;
	snap_at(&s, &i, 3, 3 * SEC, 2000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	q->valid = LR_QDV_BACKLOG_BYTES | LR_QDV_BACKLOG_PACKETS;	/* the root was replaced */
	snap_at(&s, &i, 4, 4 * SEC, 3000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	q->valid = all;
	q->cum[LR_QDC_DROPS] = 143930;
	snap_at(&s, &i, 5, 5 * SEC, 4000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	memset(q, 0, sizeof(*q));	/* unknown: --source proc, a bad reply */
	snap_at(&s, &i, 6, 6 * SEC, 5000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	row = strchr(text, '\n') + 1;	/* after driver: drops, overlimits, requeues, backlog */
	row = row_ends(row, ",,143,200,0,15000,10\n");
	row = row_ends(row, ",,143781,50,1,0,0\n");
	row = row_ends(row, ",,,,,0,0\n");
	row = row_ends(row, ",,6,0,0,0,0\n");
	row_ends(row, ",,,,,,\n");
}

static void test_header_is_the_contract(void **state)
{
	(void)state;
	assert_string_equal(lr_csv_header(LR_CSV_IFACES),
			    "time,elapsed,iface,interval,rx_bytes,tx_bytes,rx_packets,tx_packets,"
			    "rx_bps,tx_bps,rx_pps,tx_pps,rx_dropped,tx_dropped,rx_errors,tx_errors,"
			    "rx_fifo,rx_missed,rx_over,nic_fifo,nic_drop,softirq_max_pct,softirq_cpu,"
			    "link_mbps,mtu,wire_util_pct,side,host,numa_node,driver,qdisc_drops,"
			    "qdisc_overlimits,qdisc_requeues,qdisc_backlog_bytes,"
			    "qdisc_backlog_packets");
	assert_string_equal(lr_csv_header(LR_CSV_CPUS),
			    "time,elapsed,cpu,interval,user_pct,system_pct,irq_pct,softirq_pct,"
			    "idle_pct,net_rx_per_s,net_tx_per_s,softnet_processed_per_s,"
			    "softnet_dropped_per_s,softnet_squeezed_per_s,side,host,steal_pct,node");
	assert_string_equal(lr_csv_header(LR_CSV_STREAMS),
			    "time,elapsed,stream,direction,protocol,bytes,bps,packets,pps,retransmits,"
			    "lost,out_of_order,jitter_ms,cwnd_bytes,rtt_us,target_bps,length,"
			    "congestion,rtt_p50_us,rtt_p90_us,rtt_p99_us,rtt_max_us");
}

/* A `latency` row: the interval's answered and lost probes in packets and lost, its round
 * trips in the appended columns, every other column empty; unknown quantiles (no answer in
 * the interval) empty, never 0; as many fields as the header; nothing in other kinds. */
static void test_latency_row(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	struct lr_csv_latency l = {.answered = 98, .lost = 2, .p50_us = 41, .p90_us = 77,
				   .p99_us = 812, .max_us = 1020};
	struct lr_csv_latency none = {.answered = 0, .lost = 5, .p50_us = -1, .p90_us = -1,
				      .p99_us = -1, .max_us = -1};
	char *text, *row;
	unsigned commas = 0;

	(void)state;
	close(fd);
	memset(&s, 0, sizeof(s));
	s.real_ns = 1700000000ULL * SEC + SEC / 2;
	s.elapsed_ns = 2 * SEC;
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_STREAMS), 0);
	assert_int_equal(lr_csv_write_latency(c, &s, &l), 0);
	assert_int_equal(lr_csv_write_latency(c, &s, &none), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	row = strchr(text, '\n') + 1;
	assert_string_equal(row, "1700000000.500000,2.000000,latency,,udp,,,98,,,2,,,,,,,,41,77,812,"
				 "1020\n"
				 "1700000000.500000,2.000000,latency,,udp,,,0,,,5,,,,,,,,,,,\n");
	for (const char *p = lr_csv_header(LR_CSV_STREAMS); *p; p++)
		commas += *p == ',';
	for (const char *p = row; *p != '\n'; p++)
		commas -= *p == ',';
	assert_int_equal(commas, 0);
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_IFACES), 0);
	assert_int_equal(lr_csv_write_latency(c, &s, &l), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	assert_null(strstr(text, "latency"));
}

/* steal_pct is the last column (appended after side,host, docs/design.md §4); unknown steal
 * is empty. */
static void test_cpu_rows_steal_last(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	struct lr_iface_snap i;
	struct lr_cpu_snap k[2];
	char *text;

	(void)state;
	close(fd);
	memset(&i, 0, sizeof(i));
	memset(k, 0, sizeof(k));
	snap_at(&s, &i, 1, SEC, 0);
	s.n_ifaces = 0;
	k[0].cpu = 0;
	k[0].valid = LR_CPUV_TIMES;
	k[0].user_pct = 10;
	k[0].system_pct = 20;
	k[0].idle_pct = 62.5;
	k[0].steal_pct = 7.5;
	k[1].cpu = 1;
	k[1].valid = LR_CPUV_TIMES;
	k[1].idle_pct = 100;
	k[1].steal_pct = -1;
	k[1].valid |= LR_CPUV_NODE;	/* node 0 is a node, unknown is empty */
	k[1].node = 0;
	s.cpus = k;
	s.n_cpus = 2;
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_CPUS), 0);
	assert_int_equal(lr_csv_write(c, &s), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	assert_non_null(strstr(text, ",0,0.500000,10.00,20.00,0.00,0.00,62.50,,,,,,local,"));
	assert_non_null(strstr(text, ",7.50,\n"));	/* steal, then node: unknown */
	assert_non_null(strstr(text, ",100.00,,,,,,local,"));
	assert_non_null(strstr(text, ",,0\n"));		/* no steal column; node 0 */
	assert_non_null(strstr(text, ",1,0.500000,0.00,0.00,0.00,0.00,100.00,,,,,,local,"));
}

/* The interface CSV of one second of full-size frames at 10G on i (812743 frames of 1514
 * bytes, +24 unseen each): the file's text (slurp's buffer). */
static const char *one_second_at_10g(struct lr_iface_snap *i)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	const char *text;

	close(fd);
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_IFACES), 0);
	snap_at(&s, i, 1, SEC, 812743ULL * 1514);
	i->cum[LR_M_RX_PACKETS] = 812743;
	i->cum[LR_M_TX_BYTES] = 0;
	i->cum[LR_M_TX_PACKETS] = 0;
	i->cum_valid = i->valid = LR_M_BIT(LR_M_RX_BYTES) | LR_M_BIT(LR_M_RX_PACKETS) |
				  LR_M_BIT(LR_M_TX_BYTES) | LR_M_BIT(LR_M_TX_PACKETS);
	assert_int_equal(lr_csv_write(c, &s), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	return text;
}

static void test_wire_utilisation(void **state)
{
	struct lr_iface_snap i;
	const char *text, *last;

	(void)state;
	memset(&i, 0, sizeof(i));
	strcpy(i.name, "eth1");
	i.speed_mbps = 10000;
	i.mtu = 1500;
	i.softirq_max_pct = 97.25;
	i.softirq_cpu = 3;
	i.numa_node = 1;
	i.numa_known = true;
	strcpy(i.driver, "ixgbe");
	text = one_second_at_10g(&i);
	last = strstr(text, ",100.00,local,");
	assert_non_null(last);
	assert_non_null(strchr(last, '\n'));
	/* numa_node, then the driver, then the qdisc columns: unknown here */
	assert_memory_equal(strchr(last, '\n') - 13, ",1,ixgbe,,,,,\n", 14);
	assert_non_null(strstr(text, ",97.2,3,10000,1500,"));

	/* the same second on a veth: its 10000 Mbit/s is the kernel's word (link_mbps), not a
	 * line rate, so no wire_util_pct (issue 28) */
	strcpy(i.driver, "veth");
	text = one_second_at_10g(&i);
	assert_non_null(strstr(text, ",97.2,3,10000,1500,,local,"));
}

/* docs/design.md §10: peer rows carry side=peer and the peer's host (quoted when it must be), and an
 * interface of the same name on both ends keeps two separate running sums. */
static void test_peer_rows(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	struct lr_iface_snap i, p;
	struct lr_cpu_snap k = {.cpu = 7, .valid = LR_CPUV_TIMES, .idle_pct = 100};
	char *text, want[1024];

	(void)state;
	close(fd);
	memset(&i, 0, sizeof(i));
	memset(&p, 0, sizeof(p));
	strcpy(i.name, "eth0");
	strcpy(p.name, "eth0");
	i.mtu = p.mtu = 1500;
	i.speed_mbps = p.speed_mbps = -1;
	i.softirq_max_pct = p.softirq_max_pct = -1;
	i.softirq_cpu = p.softirq_cpu = -1;
	strcpy(p.driver, "veth");	/* the peer's own driver; this side's unknown */
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_IFACES), 0);
	snap_at(&s, &i, 1, SEC, 1000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	snap_at(&s, &p, 1, SEC, 500);	/* the peer's own running sum */
	assert_int_equal(lr_csv_write_peer(c, &s, "peer,host"), 0);
	snap_at(&s, &i, 2, 2 * SEC, 3000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	snap_at(&s, &p, 2, 2 * SEC, 600);
	assert_int_equal(lr_csv_write_peer(c, &s, "peer,host"), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	snprintf(want, sizeof(want),
		 "1700000001.000000,1.000000,eth0,1.000000,1000,,10,,8000.0,,10.0,,,,,,,,,,,,,,1500,,"
		 "local,%s,,,,,,,\n"
		 "1700000001.000000,1.000000,eth0,1.000000,500,,5,,4000.0,,5.0,,,,,,,,,,,,,,1500,,"
		 "peer,\"peer,host\",,veth,,,,,\n"
		 "1700000002.000000,2.000000,eth0,1.000000,2000,,20,,16000.0,,20.0,,,,,,,,,,,,,,1500,,"
		 "local,%s,,,,,,,\n"
		 "1700000002.000000,2.000000,eth0,1.000000,100,,1,,800.0,,1.0,,,,,,,,,,,,,,1500,,"
		 "peer,\"peer,host\",,veth,,,,,\n",
		 nodename(), nodename());
	assert_string_equal(strchr(text, '\n') + 1, want);

	/* CPU rows: the same suffix */
	fd = mkstemp(path);
	close(fd);
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_CPUS), 0);
	memset(&s, 0, sizeof(s));
	s.seq = 1;
	s.interval_ns = SEC;
	s.cpus = &k;
	s.n_cpus = 1;
	assert_int_equal(lr_csv_write_peer(c, &s, "peerhost"), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	assert_non_null(strstr(text, ",7,1.000000,0.00,0.00,0.00,0.00,100.00,,,,,,peer,peerhost,"));	/* steal_pct follows */
}

/* --queues-csv: the peer's queues keep their own last rows (docs/wire.md §P4.1), so the
 * same interface and queue on both hosts never mix: each side's rows are its own differences. */
static void test_peer_queue_rows(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	struct lr_iface_snap i, p;
	struct lr_queue_snap qi = {.queue = 0, .valid = LR_QV_RX_PACKETS, .cpu = -1,
				   .cpu_softirq_pct = -1, .base_ns = 100 * SEC};
	struct lr_queue_snap qp = qi;
	char *text, want[512];

	(void)state;
	close(fd);
	memset(&i, 0, sizeof(i));
	memset(&p, 0, sizeof(p));
	strcpy(i.name, "eth0");
	strcpy(p.name, "eth0");
	i.queues = &qi;
	p.queues = &qp;
	i.n_queues = p.n_queues = 1;
	i.queue_source = p.queue_source = LR_QSRC_ETHTOOL;
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_QUEUES), 0);
	qi.cum[0] = 1000;
	snap_at(&s, &i, 1, SEC, 0);
	assert_int_equal(lr_csv_write(c, &s), 0);
	qp.cum[0] = 70;
	snap_at(&s, &p, 1, SEC, 0);
	assert_int_equal(lr_csv_write_peer(c, &s, "peerhost"), 0);
	qi.cum[0] = 3000;
	snap_at(&s, &i, 2, 2 * SEC, 0);
	assert_int_equal(lr_csv_write(c, &s), 0);
	qp.cum[0] = 100;
	snap_at(&s, &p, 2, 2 * SEC, 0);
	assert_int_equal(lr_csv_write_peer(c, &s, "peerhost"), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	snprintf(want, sizeof(want),
		 "1700000001.000000,1.000000,eth0,0,1.000000,1000,,,,,,1000.0,,,,ethtool,local,%s\n"
		 "1700000001.000000,1.000000,eth0,0,1.000000,70,,,,,,70.0,,,,ethtool,peer,peerhost\n"
		 "1700000002.000000,2.000000,eth0,0,1.000000,2000,,,,,,2000.0,,,,ethtool,local,%s\n"
		 "1700000002.000000,2.000000,eth0,0,1.000000,30,,,,,,30.0,,,,ethtool,peer,peerhost\n",
		 nodename(), nodename());
	assert_string_equal(strchr(text, '\n') + 1, want);
}

/* A matrix's next case is a new peer session whose sums start at its own base: the first row
 * after it counts from that base (never a 2^64 step back from the last case's sums), for the
 * interface's columns and its queues' alike. */
static void test_peer_next_session_starts_anew(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c, *q;
	struct lr_snapshot s;
	struct lr_iface_snap p;
	struct lr_queue_snap qp = {.queue = 0, .valid = LR_QV_RX_PACKETS, .cpu = -1,
				   .cpu_softirq_pct = -1, .base_ns = 100 * SEC};
	char qpath[] = "/tmp/lr-csv-XXXXXX";
	int qfd = mkstemp(qpath);
	char *text;

	(void)state;
	close(fd);
	close(qfd);
	memset(&p, 0, sizeof(p));
	strcpy(p.name, "eth0");
	p.mtu = 1500;
	p.speed_mbps = p.softirq_max_pct = p.softirq_cpu = -1;
	p.queues = &qp;
	p.n_queues = 1;
	p.queue_source = LR_QSRC_ETHTOOL;
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_IFACES), 0);
	assert_int_equal(lr_csv_open(&q, qpath, LR_CSV_QUEUES), 0);
	qp.cum[0] = 9000;
	snap_at(&s, &p, 1, SEC, 900000);	/* case 1's session: its sums */
	assert_int_equal(lr_csv_write_peer(c, &s, "peerhost"), 0);
	assert_int_equal(lr_csv_write_peer(q, &s, "peerhost"), 0);
	snap_at(&s, &p, 2, 3 * SEC, 400);	/* case 2's session, begun 1 s before */
	p.base_ns = 102 * SEC;
	qp.base_ns = 102 * SEC;
	qp.cum[0] = 40;
	assert_int_equal(lr_csv_write_peer(c, &s, "peerhost"), 0);
	assert_int_equal(lr_csv_write_peer(q, &s, "peerhost"), 0);
	assert_int_equal(lr_csv_close(c), 0);
	assert_int_equal(lr_csv_close(q), 0);
	text = slurp(path);
	unlink(path);
	assert_non_null(strstr(text, "\n1700000003.000000,3.000000,eth0,1.000000,400,,4,,3200.0,"));
	text = slurp(qpath);
	unlink(qpath);
	assert_non_null(strstr(text, "\n1700000003.000000,3.000000,eth0,0,1.000000,40,"));
}

static void test_full_disk_is_an_error(void **state)
{
	struct lr_csv *c;

	(void)state;
	/* the header is written and flushed at open: /dev/full fails right there */
	assert_int_equal(lr_csv_open(&c, "/dev/full", LR_CSV_IFACES), -28 /* ENOSPC */);
	assert_int_equal(lr_csv_open(&c, "/nonexistent/dir/x.csv", LR_CSV_CPUS), -2);
}

/* Streams: the first row counts from the stream's start, a missed snapshot folds into the
 * next row, and fields that do not apply (retransmits of a UDP stream) are empty. */
static void test_stream_rows(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	struct lr_stream_snap st;
	char *text;

	(void)state;
	close(fd);
	memset(&st, 0, sizeof(st));
	st.id = 1;
	st.sender = false;
	st.udp = true;
	st.start_ns = 100 * SEC + SEC / 4;
	st.jitter_ms = 0.125;
	st.cwnd_bytes = st.rtt_us = -1;
	st.target_bps = -1;	/* unknown: an empty field */
	st.length = 1400;
	strcpy(st.congestion, "cubic");	/* a UDP stream has none: never written */
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_STREAMS), 0);
	memset(&s, 0, sizeof(s));
	s.streams = &st;
	s.n_streams = 1;
	s.traffic_generation = 1;
	s.seq = 1;
	s.mono_ns = 100 * SEC + SEC / 2;
	s.real_ns = 1700000000ULL * SEC + SEC / 2;
	s.elapsed_ns = SEC / 2;
	st.total_bytes = 1400 * 10;
	st.total_packets = 10;
	st.total_lost = 1;
	assert_int_equal(lr_csv_write(c, &s), 0);
	s.seq = 3;	/* seq 2 missed */
	s.mono_ns += SEC;
	s.real_ns += SEC;
	s.elapsed_ns += SEC;
	st.total_bytes = 1400 * 110;
	st.total_packets = 110;
	st.total_lost = 4;
	st.total_out_of_order = 2;
	st.target_bps = 1000000;	/* the stream's -b 1M from here; unknown before */
	assert_int_equal(lr_csv_write(c, &s), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	assert_string_equal(text,
			    "time,elapsed,stream,direction,protocol,bytes,bps,packets,pps,retransmits,"
			    "lost,out_of_order,jitter_ms,cwnd_bytes,rtt_us,target_bps,length,congestion,"
			    "rtt_p50_us,rtt_p90_us,rtt_p99_us,rtt_max_us\n"
			    "1700000000.500000,0.500000,1,recv,udp,14000,448000.0,10,40.0,,1,0,0.125,,,,"
			    "1400,,,,,\n"
			    "1700000001.500000,1.500000,1,recv,udp,140000,1120000.0,100,100.0,,3,2,0.125,,,"
			    "1000000,1400,,,,,\n");
}

/* A TCP stream's length and congestion control; names the kernel gave are written as plain
 * words: a byte that could break the row (comma, quote, newline) becomes '?', never quoted. A
 * segment count the kernel does not give is empty. */
static void test_stream_length_congestion(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	struct lr_stream_snap st[2];
	struct lr_iface_snap i;
	char *text;

	(void)state;
	close(fd);
	memset(st, 0, sizeof(st));
	st[0].id = 1;
	st[0].sender = true;
	st[0].start_ns = 100 * SEC;
	st[0].jitter_ms = -1;
	st[0].cwnd_bytes = st[0].rtt_us = -1;
	st[0].target_bps = 0;
	st[0].length = 131072;
	strcpy(st[0].congestion, "bbr");
	st[1] = st[0];
	st[1].id = 3;
	st[1].length = 0;	/* unknown */
	st[1].packets_unknown = true;	/* a kernel without TCP_INFO's segments: empty, not 0 */
	strcpy(st[1].congestion, "a,b\"c\nd");
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_STREAMS), 0);
	memset(&s, 0, sizeof(s));
	s.streams = st;
	s.n_streams = 2;
	s.seq = 1;
	s.mono_ns = 101 * SEC;
	s.real_ns = 1700000000ULL * SEC;
	s.elapsed_ns = SEC;
	st[0].total_bytes = st[1].total_bytes = 1000;
	assert_int_equal(lr_csv_write(c, &s), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	assert_string_equal(strchr(text, '\n') + 1,
			    "1700000000.000000,1.000000,1,send,tcp,1000,8000.0,0,0.0,0,,,,,,0,"
			    "131072,bbr,,,,\n"
			    "1700000000.000000,1.000000,3,send,tcp,1000,8000.0,,,0,,,,,,0,,"
			    "a?b?c?d,,,,\n");

	/* a driver name likewise */
	fd = mkstemp(path);
	close(fd);
	memset(&i, 0, sizeof(i));
	strcpy(i.name, "eth0");
	strcpy(i.driver, "x,\"y\r\n");
	i.mtu = i.speed_mbps = i.softirq_max_pct = i.softirq_cpu = -1;
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_IFACES), 0);
	snap_at(&s, &i, 1, SEC, 1000);
	assert_int_equal(lr_csv_write(c, &s), 0);
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	assert_non_null(strstr(text, ",x??y??,,,,,\n"));
	assert_null(strchr(strstr(text, ",x?"), '\r'));
}

/* A stream seen in a snapshot before it started (a fast -i catches the setup) gets its rows
 * once it runs, counted from its own start: the column still sums to its total (the soak's
 * -i 0.01 run wrote no stream row at all). */
static void test_stream_seen_before_start(void **state)
{
	char path[] = "/tmp/lr-csv-XXXXXX";
	int fd = mkstemp(path);
	struct lr_csv *c;
	struct lr_snapshot s;
	struct lr_stream_snap st;
	char *text, *row;
	uint64_t sum = 0;

	(void)state;
	close(fd);
	memset(&st, 0, sizeof(st));
	st.id = 5;
	st.sender = true;
	st.jitter_ms = -1;
	st.cwnd_bytes = st.rtt_us = -1;
	assert_int_equal(lr_csv_open(&c, path, LR_CSV_STREAMS), 0);
	memset(&s, 0, sizeof(s));
	s.streams = &st;
	s.n_streams = 1;
	s.traffic_generation = 1;
	for (int t = 1; t <= 5; t++) {
		s.seq = (uint64_t)t;
		s.mono_ns = 100 * SEC + (uint64_t)t * SEC / 100;
		if (t == 3)
			st.start_ns = s.mono_ns - SEC / 200;	/* started between ticks 2 and 3 */
		st.total_bytes = t >= 3 ? 1000u * (uint64_t)(t - 2) : 0;
		assert_int_equal(lr_csv_write(c, &s), 0);
	}
	assert_int_equal(lr_csv_close(c), 0);
	text = slurp(path);
	unlink(path);
	for (row = strchr(text, '\n'); row && row[1]; row = strchr(row + 1, '\n')) {
		unsigned long long b = 0;

		assert_int_equal(sscanf(row + 1, "%*[^,],%*[^,],5,send,tcp,%llu,", &b), 1);
		sum += b;
	}
	assert_int_equal(sum, 3000);	/* the stream's total */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_missed_snapshot),
		cmocka_unit_test(test_time_columns),
		cmocka_unit_test(test_header_is_the_contract),
		cmocka_unit_test(test_qdisc_columns),
		cmocka_unit_test(test_wire_utilisation),
		cmocka_unit_test(test_peer_rows),
		cmocka_unit_test(test_full_disk_is_an_error),
		cmocka_unit_test(test_cpu_rows_steal_last),
		cmocka_unit_test(test_stream_rows),
		cmocka_unit_test(test_stream_length_congestion),
		cmocka_unit_test(test_peer_queue_rows),
		cmocka_unit_test(test_peer_next_session_starts_anew),
		cmocka_unit_test(test_stream_seen_before_start),
		cmocka_unit_test(test_latency_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
