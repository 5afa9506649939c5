// SPDX-License-Identifier: GPL-2.0-or-later
/* The report: on CSVs the real binary wrote (tests/fixtures/report/), every number of the
 * summary tables equals a sum or maximum this test computes itself from the CSV text; strings
 * from a CSV are HTML-escaped; a long run reduced to buckets keeps its peak; bad, foreign,
 * truncated and mixed-run input is one "file:line: why" error; ticks are 1-2-5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linerate/app/cli.h"
#include "linerate/app/config.h"
#include "fakes/report_io.h"
#include "linerate/present/report.h"
#include "linerate/present/report_svg.h"

#define FIX "tests/fixtures/report/"

/* A streams CSV of one row (extra: appended header columns) is refused with exactly want. */
static void assert_bad_stream_row(const char *name, const char *extra, const char *row,
				  const char *want)
{
	struct lr_report *r;
	char text[512], err[LR_REP_ERR_MAX];

	snprintf(text, sizeof(text),
		 "time,elapsed,stream,direction,protocol,bytes,bps,packets,pps,retransmits,lost,"
		 "out_of_order,jitter_ms,cwnd_bytes,rtt_us%s\n%s\n", extra, row);
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, name, text, err), -EINVAL);
	assert_string_equal(err, want);
	lr_report_free(r);
}

struct witness {
	double rx_bytes, interval, rx_peak_bps, tx_peak_pps, rx_packets, dropped;
	/* over full intervals only (>= a quarter of the longest: what a rate can honestly be
	 * measured over), and the time of the shorter ones */
	double full_rx_peak_bps, full_tx_peak_pps, full_rx_min_bps, full_min_interval, iv_max;
	double sliver_secs, sliver_rx_bits, sliver_tx_packets;
	bool any;
};

/* The test's own reading of an interface CSV: sums and maxima for one interface. */
static struct witness witness_iface(const char *path, const char *iface)
{
	FILE *f = fopen(path, "r");
	char line[2048], hdr[2048], v[64];
	struct witness w = {0};
	int c_if, c_rxb, c_int, c_rxbps, c_txpps, c_rxp, c_rxd, c_txd;

	assert_non_null(f);
	assert_non_null(fgets(hdr, sizeof(hdr), f));
	c_if = csv_col_of(hdr, "iface");
	c_rxb = csv_col_of(hdr, "rx_bytes");
	c_int = csv_col_of(hdr, "interval");
	c_rxbps = csv_col_of(hdr, "rx_bps");
	c_txpps = csv_col_of(hdr, "tx_pps");
	c_rxp = csv_col_of(hdr, "rx_packets");
	c_rxd = csv_col_of(hdr, "rx_dropped");
	c_txd = csv_col_of(hdr, "tx_dropped");
	w.rx_peak_bps = w.tx_peak_pps = w.full_rx_peak_bps = w.full_tx_peak_pps = -1;
	w.full_rx_min_bps = w.full_min_interval = INFINITY;
	while (fgets(line, sizeof(line), f)) {
		csv_field_of(line, c_if, v, sizeof(v));
		if (!strcmp(v, iface)) {
			csv_field_of(line, c_int, v, sizeof(v));
			w.iv_max = fmax(w.iv_max, atof(v));
		}
	}
	rewind(f);
	assert_non_null(fgets(hdr, sizeof(hdr), f));
	while (fgets(line, sizeof(line), f)) {
		double iv;

		csv_field_of(line, c_if, v, sizeof(v));
		if (strcmp(v, iface))
			continue;
		w.any = true;
		csv_field_of(line, c_rxb, v, sizeof(v));
		w.rx_bytes += atof(v);
		csv_field_of(line, c_rxp, v, sizeof(v));
		w.rx_packets += atof(v);
		csv_field_of(line, c_int, v, sizeof(v));
		iv = atof(v);
		w.interval += iv;
		if (iv < 0.25 * w.iv_max) {
			w.sliver_secs += iv;
			csv_field_of(line, c_rxb, v, sizeof(v));
			w.sliver_rx_bits += 8 * atof(v);
			csv_field_of(line, csv_col_of(hdr, "tx_packets"), v, sizeof(v));
			w.sliver_tx_packets += atof(v);
		}
		csv_field_of(line, c_rxbps, v, sizeof(v));
		w.rx_peak_bps = fmax(w.rx_peak_bps, atof(v));
		if (iv >= 0.25 * w.iv_max) {
			w.full_rx_peak_bps = fmax(w.full_rx_peak_bps, atof(v));
			w.full_rx_min_bps = fmin(w.full_rx_min_bps, atof(v));
			w.full_min_interval = fmin(w.full_min_interval, iv);
		}
		csv_field_of(line, c_txpps, v, sizeof(v));
		w.tx_peak_pps = fmax(w.tx_peak_pps, atof(v));
		if (iv >= 0.25 * w.iv_max)
			w.full_tx_peak_pps = fmax(w.full_tx_peak_pps, atof(v));
		csv_field_of(line, c_rxd, v, sizeof(v));
		w.dropped += atof(v);
		csv_field_of(line, c_txd, v, sizeof(v));
		w.dropped += atof(v);
	}
	fclose(f);
	return w;
}

/* A peak is the largest rate over a full interval, moved only by the slivers folded into it:
 * at most their count spread over a full interval above it, at most their time below it. */
static void assert_peak_honest(double got, double full_peak, double sliver_count,
			       const struct witness *w)
{
	double floor_ = full_peak * w->full_min_interval / (w->full_min_interval + w->sliver_secs);
	double top = full_peak + sliver_count / w->full_min_interval;

	if (!(got <= top * (1 + 1e-12) && got >= floor_ * (1 - 1e-9)))
		fail_msg("peak %.17g outside [%.17g, %.17g]", got, floor_, top);
}

/* The dash pattern of the first chart legend key labelled `label` (the key's line comes right
 * before its text), "?" when there is none. */
static const char *legend_dash(const char *html, const char *label)
{
	static char dash[32];
	char text[64];
	const char *t, *d;
	size_t n;

	snprintf(text, sizeof(text), " y=\"18\">%s</text>", label);
	t = strstr(html, text);
	if (!t)
		return "?";
	for (d = t; d > html && strncmp(d, "stroke-dasharray=\"", 18); d--)
		;
	if (d == html)
		return "?";
	d += 18;
	n = strcspn(d, "\"");
	snprintf(dash, sizeof(dash), "%.*s", (int)n, d);
	return dash;
}

static void test_iface_table_equals_csv(void **state)
{
	static const char *const files[] = {FIX "loopback_ifaces.csv", FIX "loopback_cpus.csv",
					    FIX "loopback_streams.csv"};
	static const char *const ifaces[] = {"lo"};
	char err[LR_REP_ERR_MAX];
	struct lr_report *r = report_read_files(files, 3, 0, err);
	char *html = report_html(r);

	(void)state;
	for (unsigned i = 0; i < LR_ARRAY_SIZE(ifaces); i++) {
		struct witness w = witness_iface(files[0], ifaces[i]);
		char row[64];

		assert_true(w.any);
		assert_true(w.rx_bytes > 0);	/* the recording carried traffic */
		snprintf(row, sizeof(row), "data-iface=\"%s\"", ifaces[i]);
		assert_near(report_table_value(html, row, "rx_avg_bps"), w.rx_bytes * 8 / w.interval,
				    1e-6 * w.rx_bytes);
		assert_peak_honest(report_table_value(html, row, "rx_peak_bps"), w.full_rx_peak_bps,
				   w.sliver_rx_bits, &w);
		assert_peak_honest(report_table_value(html, row, "tx_peak_pps"), w.full_tx_peak_pps,
				   w.sliver_tx_packets, &w);
		assert_near(report_table_value(html, row, "rx_avg_pps"), w.rx_packets / w.interval,
				    1e-9 * w.rx_packets + 1e-9);
		assert_near(report_table_value(html, row, "rx_dropped") +
					    report_table_value(html, row, "tx_dropped"),
				    w.dropped, 0);
	}
	assert_non_null(strstr(html, "<section id=\"cpus\">"));
	assert_non_null(strstr(html, "<section id=\"streams\">"));
	/* the README: rx drawn solid, tx dashed, told apart without colour */
	assert_string_equal(legend_dash(html, "rx"), "");
	assert_string_equal(legend_dash(html, "tx"), "7 4");
	assert_null(strstr(html, "http://"));
	assert_null(strstr(html, "https://"));
	free(html);
	lr_report_free(r);
}

static void test_every_iface_of_a_headless_run(void **state)
{
	static const char *const files[] = {FIX "headless_ifaces.csv", FIX "headless_cpus.csv"};
	char err[LR_REP_ERR_MAX];
	struct lr_report *r = report_read_files(files, 2, 0, err);
	char *html = report_html(r);

	(void)state;
	assert_true(r->n_ifaces >= 1);
	for (size_t i = 0; i < r->n_ifaces; i++) {
		struct witness w = witness_iface(files[0], r->ifaces[i].name);
		char row[96];

		snprintf(row, sizeof(row), "data-iface=\"%s\"", r->ifaces[i].name);
		assert_peak_honest(report_table_value(html, row, "rx_peak_bps"), w.full_rx_peak_bps,
				   w.sliver_rx_bits, &w);
		assert_near(report_table_value(html, row, "rx_avg_bps"),
				    w.rx_bytes * 8 / w.interval, 1e-6 * (w.rx_bytes + 1));
	}
	free(html);
	lr_report_free(r);
}

static void test_cpu_table_equals_csv(void **state)
{
	static const char *const files[] = {FIX "headless_cpus.csv"};
	char err[LR_REP_ERR_MAX], line[1024], hdr[1024], v[64], row[32];
	struct lr_report *r = report_read_files(files, 1, 0, err);
	char *html = report_html(r);
	double peak[4096], wsum[4096], secs[4096];
	int c_cpu, c_si, c_int, ncpu = 0;
	FILE *f = fopen(files[0], "r");

	(void)state;
	assert_non_null(fgets(hdr, sizeof(hdr), f));
	c_cpu = csv_col_of(hdr, "cpu");
	c_si = csv_col_of(hdr, "softirq_pct");
	c_int = csv_col_of(hdr, "interval");
	for (int i = 0; i < 4096; i++)
		peak[i] = -1, wsum[i] = secs[i] = 0;
	while (fgets(line, sizeof(line), f)) {
		int cpu;
		double si, dt;

		csv_field_of(line, c_cpu, v, sizeof(v));
		cpu = atoi(v);
		csv_field_of(line, c_si, v, sizeof(v));
		si = atof(v);
		csv_field_of(line, c_int, v, sizeof(v));
		dt = atof(v);
		peak[cpu] = fmax(peak[cpu], si);
		wsum[cpu] += si * dt;
		secs[cpu] += dt;
		if (cpu + 1 > ncpu)
			ncpu = cpu + 1;
	}
	fclose(f);
	assert_int_equal((int)r->n_cpus, ncpu);
	for (int c = 0; c < ncpu; c++) {
		snprintf(row, sizeof(row), "data-cpu=\"%d\"", c);
		assert_near(report_table_value(html, row, "softirq_peak_pct"), peak[c], 0);
		assert_near(report_table_value(html, row, "softirq_mean_pct"), wsum[c] / secs[c],
				    1e-9);
	}
	assert_non_null(strstr(html, "softirq heat map"));
	free(html);
	lr_report_free(r);
}

static void test_stream_bytes_equal_csv(void **state)
{
	static const char *const files[] = {FIX "loopback_streams.csv"};
	char err[LR_REP_ERR_MAX], line[1024], v[64];
	struct lr_report *r = report_read_files(files, 1, 0, err);
	char *html = report_html(r);
	double bytes = 0;
	FILE *f = fopen(files[0], "r");

	(void)state;
	assert_non_null(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		csv_field_of(line, 5, v, sizeof(v));
		bytes += atof(v);
	}
	fclose(f);
	assert_true(bytes > 0);
	assert_near(report_table_value(html, "data-stream=\"1\"", "bytes"), bytes, 0);
	free(html);
	lr_report_free(r);
}

/* A run with -b 20M -P 2 (target_streams.csv): each stream's target cell is the CSV's
 * target_bps, achieved its bytes over the time its rows cover as the CSV gives them (the first
 * row from the stream's start: bytes / bps; then the elapsed steps), and the share of target
 * the one over the other; the chart sets the target beside the achieved rate. An older file
 * (loopback_streams.csv, no column) says the target is not recorded. */
static void test_stream_target_against_csv(void **state)
{
	static const char *const files[] = {FIX "target_streams.csv"};
	static const char *const old[] = {FIX "loopback_streams.csv"};
	char err[LR_REP_ERR_MAX], line[1024], v[64], hdr[1024], attr[32];
	struct lr_report *r = report_read_files(files, 1, 0, err);
	char *html = report_html(r);
	double bytes[8] = {0}, secs[8] = {0}, last[8], target[8];
	bool seen[8] = {false};
	FILE *f = fopen(files[0], "r");
	int c_el, c_id, c_bytes, c_bps, c_tg, n = 0;

	(void)state;
	assert_non_null(fgets(hdr, sizeof(hdr), f));
	c_el = csv_col_of(hdr, "elapsed");
	c_id = csv_col_of(hdr, "stream");
	c_bytes = csv_col_of(hdr, "bytes");
	c_bps = csv_col_of(hdr, "bps");
	c_tg = csv_col_of(hdr, "target_bps");
	while (fgets(line, sizeof(line), f)) {
		int id;
		double el, b;

		csv_field_of(line, c_id, v, sizeof(v));
		id = atoi(v);
		assert_true(id > 0 && id < 8);
		csv_field_of(line, c_el, v, sizeof(v));
		el = atof(v);
		csv_field_of(line, c_bytes, v, sizeof(v));
		b = atof(v);
		if (!seen[id]) {
			char bps[64];

			csv_field_of(line, c_bps, bps, sizeof(bps));
			secs[id] = b * 8 / atof(bps);
			seen[id] = true;
			n++;
		} else {
			secs[id] += el - last[id];
		}
		last[id] = el;
		bytes[id] += b;
		csv_field_of(line, c_tg, v, sizeof(v));
		target[id] = atof(v);
		assert_near(target[id], 20e6, 0);	/* the run's -b 20M */
	}
	fclose(f);
	assert_int_equal(n, 2);
	for (int id = 1; id < 8; id++) {
		double achieved;

		if (!seen[id])
			continue;
		achieved = bytes[id] * 8 / secs[id];
		snprintf(attr, sizeof(attr), "data-stream=\"%d\"", id);
		assert_near(report_table_value(html, attr, "target_bps"), target[id], 0);
		assert_near(report_table_value(html, attr, "achieved_bps"), achieved, achieved * 1e-12);
		assert_near(report_table_value(html, attr, "achieved_pct_of_target"),
			    achieved / target[id] * 100, 1e-9);
	}
	assert_non_null(strstr(html, "Streams: achieved against target"));
	assert_non_null(strstr(html, "TCP, 2 streams sent, target 20.0 Mbit/s per stream (-b)"));
	assert_null(strstr(html, "data-k=\"target_bps\">not recorded"));
	assert_null(strstr(html, "Not recorded: a streams CSV"));
	free(html);
	lr_report_free(r);

	r = report_read_files(old, 1, 0, err);
	html = report_html(r);
	assert_non_null(strstr(html, "data-k=\"target_bps\">not recorded</td>"));
	assert_non_null(strstr(html, "Not recorded: a streams CSV written before"));
	assert_null(strstr(html, "achieved against target"));
	free(html);
	lr_report_free(r);

	/* a target that is not a number >= 0: one line naming the file, line and column */
	assert_bad_stream_row("bad.csv", ",target_bps", "100.0,0.5,1,send,tcp,1000,16000.0,1,2.0,0,,,,100,10,-5",
			      "bad.csv:2: target_bps '-5' is not a number in 0..9.2e18");
	/* a count beyond any counter (the fuzzer's: replay cast it to uint64_t, undefined) */
	assert_bad_stream_row("huge.csv", "", "100.0,0.5,1,send,tcp,1000,16000.0,5.55556e57,2.0,0,,,,100,10",
			      "huge.csv:2: packets '5.55556e57' is not a number in 0..9.2e18");
	/* a time whose nanoseconds overflow 64 bits */
	assert_bad_stream_row("future.csv", "", "2e10,0.5,1,send,tcp,1000,16000.0,1,2.0,0,,,,100,10",
			      "future.csv:2: time '2e10' is not a Unix time");
}

/* Appended columns (side, host, numa_node) are read by name; hosts are escaped. */
static void test_appended_columns_and_escaping(void **state)
{
	static const char *const files[] = {FIX "appended_ifaces.csv"};
	char err[LR_REP_ERR_MAX];
	struct lr_report *r = report_read_files(files, 1, 0, err);
	char *html = report_html(r);

	(void)state;
	assert_int_equal(r->files[0].extra_columns, 1);	/* numa_node: not shown */
	assert_string_equal(r->ifaces[0].host, "lab,<b>a&b</b>");
	assert_string_equal(r->ifaces[0].side, "local");
	assert_string_equal(r->ifaces[1].host, "srv \"B\"");
	assert_string_equal(r->ifaces[1].side, "peer");
	assert_null(strstr(html, "<b>a&b"));
	assert_non_null(strstr(html, "lab,&lt;b&gt;a&amp;b&lt;/b&gt;"));
	assert_non_null(strstr(html, "srv &quot;B&quot;"));
	free(html);
	lr_report_free(r);
}

static void test_escape(void **state)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	lr_rep_escape(f, "<script>alert('x')</script>&\"\x01");
	fclose(f);
	assert_string_equal(buf, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;");
	free(buf);
}

/* The loopback run's last row is a 0.5 ms sliver (the stop tick): it is folded into the row
 * before it, so no charted value of lo is one of its noise rates (here 0 bit/s: a dip to zero
 * at the end of a run that never stopped carrying traffic), and no byte is lost. */
static void test_sliver_is_folded_not_charted(void **state)
{
	static const char *const files[] = {FIX "loopback_ifaces.csv"};
	struct witness w = witness_iface(files[0], "lo");
	char err[LR_REP_ERR_MAX];
	struct lr_report *r = report_read_files(files, 1, 0, err);
	double lo = w.full_rx_min_bps * w.full_min_interval / (w.full_min_interval + w.sliver_secs);
	unsigned charted = 0;

	(void)state;
	assert_true(w.sliver_secs > 0 && w.sliver_secs < 0.01);	/* the fixture has its sliver */
	assert_int_equal(r->n_ifaces, 1);
	for (unsigned k = 0; k < LR_REP_BUCKETS; k++) {
		const struct lr_rep_band *b = &r->ifaces[0].band[k][LR_RM_RX_BPS];

		if (!b->n)
			continue;
		charted += b->n;
		if (b->min < lo * (1 - 1e-9) ||
		    b->max > (w.full_rx_peak_bps + w.sliver_rx_bits / w.full_min_interval) *
				     (1 + 1e-12))
			fail_msg("bucket %u [%.17g, %.17g] outside the full intervals' [%.17g, %.17g]",
				 k, b->min, b->max, lo, w.full_rx_peak_bps);
	}
	assert_int_equal(charted, r->ifaces[0].rows - 1);	/* the sliver was no point of its own */
	assert_near(r->ifaces[0].rx_bytes, w.rx_bytes, 0);
	assert_near(r->ifaces[0].byte_secs, w.interval, 1e-12);
	lr_report_free(r);
}

/* The same real recording with bytes in its sliver (64 KiB in 0.492 ms, as the recorder would
 * have written it: 1.07 Gbit/s): the peak stays the full intervals' and the bytes count. */
static void test_sliver_with_bytes_is_no_peak(void **state)
{
	FILE *in = fopen(FIX "loopback_ifaces.csv", "r");
	char *text = NULL, line[2048], hdr[2048], err[LR_REP_ERR_MAX], *html, *p;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct witness w;
	struct lr_report *r;

	(void)state;
	assert_non_null(in);
	assert_non_null(fgets(hdr, sizeof(hdr), in));
	fputs(hdr, out);
	while (fgets(line, sizeof(line), in)) {
		if (strstr(line, ",0.000492,0,0,0,0,0.0,0.0,0.0,0.0,") &&
		    (p = strstr(line, ",0.000492,")))
			fprintf(out, "%.*s,0.000492,65536,65536,1,1,%.1f,%.1f,%.1f,%.1f,%s",
				(int)(p - line), line, 65536 * 8 / 0.000492, 65536 * 8 / 0.000492,
				1 / 0.000492, 1 / 0.000492, p + strlen(",0.000492,0,0,0,0,0.0,0.0,0.0,0.0,"));
		else
			fputs(line, out);
	}
	fclose(in);
	fclose(out);
	assert_non_null(strstr(text, ",0.000492,65536,"));	/* the sliver row was rewritten */
	{
		char tmp[] = "/tmp/lr_sliver_XXXXXX";
		int fd = mkstemp(tmp);
		FILE *t;

		assert_true(fd >= 0);
		t = fdopen(fd, "w");
		fwrite(text, 1, len, t);
		fclose(t);
		w = witness_iface(tmp, "lo");
		unlink(tmp);
	}
	assert_true(w.rx_peak_bps > 1e9);	/* the sliver's own rate: the noise */
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "sliver.csv", text, err), 0);
	html = report_html(r);
	assert_peak_honest(report_table_value(html, "data-iface=\"lo\"", "rx_peak_bps"),
			   w.full_rx_peak_bps, w.sliver_rx_bits, &w);
	assert_peak_honest(report_table_value(html, "data-iface=\"lo\"", "tx_peak_pps"),
			   w.full_tx_peak_pps, w.sliver_tx_packets, &w);
	assert_near(r->ifaces[0].rx_bytes, w.rx_bytes, 0);	/* its bytes count */
	assert_near(report_table_value(html, "data-iface=\"lo\"", "rx_avg_bps"),
		    w.rx_bytes * 8 / w.interval, 1e-6 * w.rx_bytes);
	free(html);
	free(text);
	lr_report_free(r);
}

/* The wire utilisation of a sliver (a stop tick's 0.5 ms at 100 %) is folded into its
 * neighbour's by time: the peak is the full intervals' 40 % moved by the sliver's share only. */
static void test_sliver_util_is_no_peak(void **state)
{
	static const char text[] =
		"time,elapsed,iface,interval,rx_bytes,tx_bytes,rx_packets,tx_packets,rx_bps,tx_bps,"
		"rx_pps,tx_pps,rx_dropped,tx_dropped,rx_errors,tx_errors,rx_fifo,rx_missed,rx_over,"
		"nic_fifo,nic_drop,softirq_max_pct,softirq_cpu,link_mbps,mtu,wire_util_pct\n"
		"1800000000.2,0.2,eth0,0.2,100000000,0,66000,0,4000000000.0,0.0,330000.0,0.0,0,0,0,0,"
		"0,0,0,0,0,1.0,0,10000,1500,40.00\n"
		"1800000000.4,0.4,eth0,0.2,100000000,0,66000,0,4000000000.0,0.0,330000.0,0.0,0,0,0,0,"
		"0,0,0,0,0,1.0,0,10000,1500,40.00\n"
		"1800000000.4005,0.4005,eth0,0.0005,625000,0,412,0,10000000000.0,0.0,824000.0,0.0,0,0,"
		"0,0,0,0,0,0,0,1.0,0,10000,1500,100.00\n";
	char err[LR_REP_ERR_MAX];
	struct lr_report *r;

	(void)state;
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "util.csv", text, err), 0);
	assert_true(r->ifaces[0].util_peak >= 40 && r->ifaces[0].util_peak <= 40 + 60 * 0.0005 / 0.2);
	assert_true(r->ifaces[0].peak[LR_RM_RX_BPS] <= 4e9 + 625000 * 8 / 0.2);
	assert_near(r->ifaces[0].rx_bytes, 200625000, 0);
	lr_report_free(r);
}

/* A day at 0.1 s would be 864000 rows; 200000 rows here (5.5 hours): the buckets widen, every
 * row is counted once and the one spike survives as a bucket's max and the table's peak. */
static void test_reduction_keeps_the_peak(void **state)
{
	const unsigned rows = 200000, spike = 123457;
	char *text = NULL, err[LR_REP_ERR_MAX], *html;
	size_t len = 0, counted = 0;
	FILE *f = open_memstream(&text, &len);
	struct lr_report *r;
	double top = -1, ymax;
	const char *p;

	(void)state;
	fprintf(f, "time,elapsed,iface,interval,rx_bytes,tx_bytes,rx_packets,tx_packets,rx_bps,"
		   "tx_bps,rx_pps,tx_pps,rx_dropped,tx_dropped,rx_errors,tx_errors,rx_fifo,"
		   "rx_missed,rx_over,nic_fifo,nic_drop,softirq_max_pct,softirq_cpu,link_mbps,mtu,"
		   "wire_util_pct\n");
	for (unsigned i = 1; i <= rows; i++) {
		double bps = i == spike ? 9.5e9 : 1e9 + (i % 7) * 1e6;

		fprintf(f, "%.6f,%.6f,eth0,0.100000,%.0f,0,%u,0,%.1f,0.0,10.0,0.0,0,0,0,0,0,0,0,0,"
			   "0,1.0,0,10000,1500,50.00\n", 1.8e9 + i * 0.1, i * 0.1, bps / 80, 1, bps);
	}
	fclose(f);
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "big.csv", text, err), 0);
	free(text);
	assert_true(r->bucket_secs * LR_REP_BUCKETS >= rows * 0.1);
	assert_true(r->bucket_secs * LR_REP_BUCKETS < 2 * rows * 0.1);
	for (unsigned k = 0; k < LR_REP_BUCKETS; k++) {
		counted += r->ifaces[0].band[k][LR_RM_RX_BPS].n;
		if (r->ifaces[0].band[k][LR_RM_RX_BPS].n)
			top = fmax(top, r->ifaces[0].band[k][LR_RM_RX_BPS].max);
	}
	assert_int_equal(counted, rows);
	assert_near(top, 9.5e9, 0);
	html = report_html(r);
	assert_near(report_table_value(html, "data-iface=\"eth0\"", "rx_peak_bps"), 9.5e9, 0);
	/* the bitrate chart's axis reaches the peak */
	p = strstr(strstr(html, "Bitrate, eth0"), "data-ymax=\"");
	ymax = strtod(p + strlen("data-ymax=\""), NULL);
	assert_true(ymax >= 9.5e9);
	assert_true(ymax <= 1.2e10);
	assert_true(strlen(html) < 200 * 1024);	/* bounded by buckets, not rows */
	free(html);
	lr_report_free(r);
}

static void test_ticks_and_prefixes(void **state)
{
	double step, top;
	char buf[32];

	(void)state;
	assert_near(lr_rep_nice_step(0.3), 0.5, 1e-12);
	assert_near(lr_rep_nice_step(1.2), 2, 1e-12);
	assert_near(lr_rep_nice_step(7), 10, 1e-12);
	assert_near(lr_rep_nice_step(1000), 1000, 1e-9);
	top = lr_rep_axis_top(9.41e9, 5, &step);
	assert_near(step, 2e9, 1);
	assert_near(top, 1e10, 1);
	top = lr_rep_axis_top(1e9, 5, &step);
	assert_near(top, 1e9, 1);
	top = lr_rep_axis_top(0, 5, &step);
	assert_true(top > 0);
	lr_rep_fmt_si(buf, sizeof(buf), 9.41e9, "bit/s");
	assert_string_equal(buf, "9.41 Gbit/s");
	lr_rep_fmt_si(buf, sizeof(buf), 531000, "pkt/s");
	assert_string_equal(buf, "531 kpkt/s");
	lr_rep_fmt_si(buf, sizeof(buf), 0, "bit/s");
	assert_string_equal(buf, "0 bit/s");
}

/* The matrix CSV: its table as written (escaped), a bar per case, axis above the largest. */
static void test_matrix(void **state)
{
	static const char *const files[] = {FIX "matrix.csv"};
	char err[LR_REP_ERR_MAX];
	struct lr_report *r = report_read_files(files, 1, 0, err);
	char *html = report_html(r), *sec;
	double ymax;

	(void)state;
	assert_int_equal(r->n_matrix, 3);
	assert_int_equal(r->matrix_cols, 30);
	sec = strstr(html, "<section id=\"matrix\">");
	assert_non_null(sec);
	/* per case, in words and units, the exact value kept */
	assert_non_null(strstr(sec, "data-k=\"receiver_bps\" data-v=\"9410001234\">9.41 Gbit/s<"));
	assert_non_null(strstr(sec, ">UDP, 1 stream, -l 1400, -b 1.00 Gbit/s each<"));
	assert_non_null(strstr(sec, "data-k=\"lost\" data-v=\"1234\">1234 (1.25 %)<"));
	assert_non_null(strstr(sec, "data-k=\"retransmits\" data-v=\"12\">12 retr<"));
	assert_non_null(strstr(sec, "data-k=\"cpu_busy_pct\">48.9 % / unknown<"));
	/* the facts: a grid, not one traffic with settings "changed during the run" */
	assert_non_null(strstr(html, "a matrix of 3 cases: 2 TCP, 1 UDP;"));
	assert_non_null(strstr(sec, "No chart per case: no interface CSV"));
	assert_non_null(strstr(sec, "loss: 1.25 % &lt;udp&gt;"));
	assert_null(strstr(html, "<udp>"));
	ymax = strtod(strstr(sec, "data-ymax=\"") + strlen("data-ymax=\""), NULL);
	assert_true(ymax >= 9412345678.0);
	free(html);
	lr_report_free(r);
}

/* The matrix CSV main's binary wrote: every case is a bar, the axis above the fastest. */
static void test_matrix_recorded(void **state)
{
	static const char *const files[] = {FIX "matrix_loopback.csv"};
	char err[LR_REP_ERR_MAX], line[2048];
	struct lr_report *r = report_read_files(files, 1, 0, err);
	char *html = report_html(r), *sec;
	double mx = 0;
	size_t cases = 0;
	FILE *f = fopen(files[0], "r");

	(void)state;
	assert_non_null(fgets(line, sizeof(line), f));
	while (fgets(line, sizeof(line), f)) {
		char v[64];

		csv_field_of(line, 11, v, sizeof(v));	/* receiver_bps */
		mx = fmax(mx, atof(v));
		cases++;
	}
	fclose(f);
	assert_int_equal(r->n_matrix, cases);
	assert_true(mx > 0);
	sec = strstr(html, "<section id=\"matrix\">");
	assert_non_null(sec);
	assert_true(strtod(strstr(sec, "data-ymax=\"") + strlen("data-ymax=\""), NULL) >= mx);
	free(html);
	lr_report_free(r);
}

/* A queues CSV (docs/design.md §12) is summed per queue. */
static void test_queues(void **state)
{
	char text[2048], err[LR_REP_ERR_MAX], *html;
	struct lr_report *r;

	(void)state;
	snprintf(text, sizeof(text),
		 "time,elapsed,iface,queue,interval,rx_packets,rx_bytes,tx_packets,tx_bytes,rx_drops,"
		 "tx_drops,rx_pps,tx_pps,cpu,cpu_softirq_pct,source,side,host\n"
		 "1800000000.5,0.5,eth0,0,0.5,100,150000,5,500,0,0,200.0,10.0,2,5.0,netdev,local,h\n"
		 "1800000000.5,0.5,eth0,1,0.5,7,9000,0,0,1,0,14.0,0.0,3,1.0,netdev,local,h\n"
		 "1800000001.0,1.0,eth0,0,0.5,300,450000,5,500,0,0,600.0,10.0,2,9.0,netdev,local,h\n"
		 /* the stop tick's 0.5 ms sliver: 50 packets, 100 kpkt/s of noise */
		 "1800000001.0005,1.0005,eth0,0,0.0005,50,75000,0,0,0,0,100000.0,0.0,2,9.0,netdev,"
		 "local,h\n");
	assert_int_equal(lr_report_new(&r), 0);
	assert_int_equal(report_read_text(r, "q.csv", text, err), 0);
	assert_int_equal(r->n_queues, 2);
	assert_near(r->queues[0].rx_packets, 450, 0);	/* the sliver's packets count */
	assert_near(r->queues[0].peak_rx_pps, 600, 0);	/* its rate is no peak */
	assert_int_equal(r->queues[1].cpu, 3);
	html = report_html(r);
	assert_non_null(strstr(html, "<section id=\"queues\">"));
	free(html);
	lr_report_free(r);
}

static void test_cli(void **state)
{
	char **ok = (char **)(const char *[]){"linerate", "--report", "out.html", "a.csv", "b.csv",
					     NULL};
	char **none = (char **)(const char *[]){"linerate", "--report", "out.html", NULL};
	char **client = (char **)(const char *[]){"linerate", "--report", "out.html", "-c", "h",
						 "a.csv", NULL};
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(lr_cli_parse(5, ok, true, &cfg, err, sizeof(err)), 0);
	assert_int_equal(cfg.mode, LR_MODE_REPORT);
	assert_string_equal(cfg.report_out, "out.html");
	assert_int_equal(cfg.n_report_files, 2);
	assert_string_equal(cfg.report_files[1], "b.csv");
	assert_int_not_equal(lr_cli_parse(3, none, true, &cfg, err, sizeof(err)), 0);
	assert_string_equal(err, "--report out.html: name the CSVs to read");
	assert_int_not_equal(lr_cli_parse(6, client, true, &cfg, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "excludes -c"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iface_table_equals_csv),
		cmocka_unit_test(test_every_iface_of_a_headless_run),
		cmocka_unit_test(test_cpu_table_equals_csv),
		cmocka_unit_test(test_stream_bytes_equal_csv),
		cmocka_unit_test(test_stream_target_against_csv),
		cmocka_unit_test(test_appended_columns_and_escaping),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_reduction_keeps_the_peak),
		cmocka_unit_test(test_sliver_is_folded_not_charted),
		cmocka_unit_test(test_sliver_with_bytes_is_no_peak),
		cmocka_unit_test(test_sliver_util_is_no_peak),
		cmocka_unit_test(test_ticks_and_prefixes),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_matrix_recorded),
		cmocka_unit_test(test_queues),
		cmocka_unit_test(test_cli),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
