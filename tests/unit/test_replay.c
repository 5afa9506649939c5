// SPDX-License-Identifier: GPL-2.0-or-later
/* The replay source on CSVs the real binary wrote (tests/fixtures/report/): at each recorded
 * row's time the snapshot holds that row's rates and the sum of the rows so far, which this
 * test reads from the CSV text itself; the clock pauses, changes speed within x1/2..x16, seeks
 * and stays at the end; a seek back rebuilds the same state; peer rows make the peer's
 * snapshot; bad, truncated and mixed-run input is one "file:line: why" error. */
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

#include "linerate/app/cli.h"
#include "linerate/app/config.h"
#include "fakes/report_io.h"
#include "linerate/run/replay.h"
#include "linerate/present/matrix_out.h"
#include "linerate/present/view_matrix.h"
#include "linerate/sample/snapshot.h"

#define FIX "tests/fixtures/report/"
#define T0 1000000000000ULL	/* the monotonic time the replays start at */

/* The witness: a fixture's rows split at commas (these files hold no quotes). */
struct csv {
	char *text;
	char *row[256][64];
	unsigned nf[256];
	unsigned n;	/* data rows */
	char *hdr[64];
	unsigned nh;
};

static unsigned split(char *line, char **f)
{
	unsigned n = 0;

	for (char *p = line;; p++) {
		f[n++] = p;
		p = strchr(p, ',');
		if (!p)
			return n;
		*p = '\0';
	}
}

static void csv_load(struct csv *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line, *save = NULL;
	long len;

	assert_non_null(f);
	memset(c, 0, sizeof(*c));
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	c->text = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(c->text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	line = strtok_r(c->text, "\n", &save);
	c->nh = split(line, c->hdr);
	while ((line = strtok_r(NULL, "\n", &save)) && c->n < 256) {
		c->nf[c->n] = split(line, c->row[c->n]);
		c->n++;
	}
}

static const char *col(const struct csv *c, unsigned row, const char *name)
{
	for (unsigned i = 0; i < c->nh; i++)
		if (!strcmp(c->hdr[i], name))
			return c->row[row][i];
	fail_msg("no column %s", name);
	return NULL;
}

static double num(const struct csv *c, unsigned row, const char *name)
{
	return strtod(col(c, row, name), NULL);
}

static struct lr_replay *open_files(const char *const *paths, int n, char *err)
{
	struct lr_replay *rp;

	assert_int_equal(lr_replay_new(&rp), 0);
	for (int i = 0; i < n; i++) {
		FILE *f = fopen(paths[i], "r");

		assert_non_null(f);
		assert_int_equal(lr_replay_add(rp, f, paths[i], err, 512), 0);
		fclose(f);
	}
	assert_int_equal(lr_replay_start(rp, T0, err, 512), 0);
	return rp;
}

/* The monotonic time at which a x1 replay shows recorded time t (1 us past it). */
static uint64_t when(const struct lr_replay *rp, double t)
{
	return T0 + (uint64_t)((t - lr_replay_first_time(rp)) * 1e9) + 1000;
}

static const struct lr_cpu_snap *cpu_of(const struct lr_snapshot *s, int cpu)
{
	for (size_t i = 0; i < s->n_cpus; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

static void test_rows_at_recorded_times(void **state)
{
	static const char *const files[] = {FIX "loopback_ifaces.csv", FIX "loopback_cpus.csv",
					    FIX "loopback_streams.csv"};
	struct csv ifc, cpu, st;
	struct lr_snapshot s;
	struct lr_replay *rp;
	uint64_t seen = 0;
	char err[512];
	double rx_total = 0, tx_packets = 0, peak = 0, stream_bytes = 0;
	unsigned ci = 0, si = 0;

	(void)state;
	csv_load(&ifc, files[0]);
	csv_load(&cpu, files[1]);
	csv_load(&st, files[2]);
	rp = open_files(files, 3, err);
	lr_snapshot_init(&s);
	assert_true(ifc.n >= 10);
	assert_near(lr_replay_first_time(rp), num(&ifc, 0, "time"), 1e-6);
	for (unsigned k = 0; k < ifc.n; k++) {
		double t = num(&ifc, k, "time"), rx_bps = num(&ifc, k, "rx_bps");
		const struct lr_iface_snap *lo;

		rx_total += num(&ifc, k, "rx_bytes");
		tx_packets += num(&ifc, k, "tx_packets");
		peak = rx_bps > peak ? rx_bps : peak;
		assert_int_equal(lr_replay_read(rp, when(rp, t), &s, &seen), 1);
		assert_near((double)s.real_ns / 1e9, t, 1e-6);
		assert_near((double)s.elapsed_ns / 1e9, num(&ifc, k, "elapsed"), 1e-6);
		assert_int_equal(s.source, LR_SOURCE_REPLAY);
		lo = lr_snapshot_iface(&s, "lo");
		assert_non_null(lo);
		assert_int_equal(s.n_ifaces, 1);
		/* the pane's figure is the CSV's, and the totals are the rows' sums so far */
		assert_near(lo->per_s[LR_M_RX_BYTES] * 8, rx_bps, 1e-6);
		assert_near(lo->per_s[LR_M_TX_PACKETS], num(&ifc, k, "tx_pps"), 1e-6);
		assert_near((double)lo->total[LR_M_RX_BYTES], rx_total, 0.5);
		assert_near((double)lo->total[LR_M_TX_PACKETS], tx_packets, 0.5);
		assert_near(lo->peak_rx_bps.max, peak, 1e-6);
		assert_near(lr_series_get(&lo->hist[LR_SER_RX_BPS], 0), rx_bps, rx_bps * 1e-6);
		assert_int_equal(lo->hist[LR_SER_RX_BPS].len, k + 1);
		assert_int_equal(lo->mtu, (int64_t)num(&ifc, k, "mtu"));
		assert_int_equal(lo->speed_mbps, -1);	/* link_mbps empty: unknown */
		assert_near((double)lo->interval_ns / 1e9, num(&ifc, k, "interval"), 1e-6);
		/* every CPU row of this tick */
		for (; ci < cpu.n && num(&cpu, ci, "time") <= t; ci++) {
			const struct lr_cpu_snap *c = cpu_of(&s, atoi(col(&cpu, ci, "cpu")));

			if (num(&cpu, ci, "time") < t)
				continue;
			assert_non_null(c);
			/* kept as float: 7 digits, more than a pane shows */
			assert_near(c->softirq_pct, num(&cpu, ci, "softirq_pct"), 1e-5);
			assert_near(c->user_pct, num(&cpu, ci, "user_pct"), 1e-5);
			assert_near(c->net_rx_per_s, num(&cpu, ci, "net_rx_per_s"),
				    num(&cpu, ci, "net_rx_per_s") * 1e-6);
		}
		for (; si < st.n && num(&st, si, "time") <= t; si++)
			stream_bytes += num(&st, si, "bytes");
		if (s.n_streams) {
			assert_int_equal(s.streams[0].id, 1);
			assert_true(s.streams[0].sender);
			assert_near((double)s.streams[0].total_bytes, stream_bytes, 0.5);
		}
	}
	assert_true(stream_bytes > 0);
	/* the same time again: nothing new */
	assert_int_equal(lr_replay_read(rp, when(rp, num(&ifc, ifc.n - 1, "time")), &s, &seen), 0);
	lr_snapshot_free(&s);
	lr_replay_close(rp);
	free(ifc.text);
	free(cpu.text);
	free(st.text);
}

/* CSVs with the columns appended since (driver; target_bps, length, congestion: a real veth
 * run, facts_*.csv) replay as the older ones: replayed to the end, the veth's rx bytes and the
 * first stream's bytes are the CSVs' sums. */
static void test_appended_columns(void **state)
{
	static const char *const files[] = {FIX "facts_ifaces.csv", FIX "facts_streams.csv"};
	struct csv ifc, st;
	struct lr_snapshot s;
	struct lr_replay *rp;
	const struct lr_iface_snap *v;
	const char *name;
	uint64_t seen = 0;
	char err[512];
	double rx = 0, bytes = 0;

	(void)state;
	csv_load(&ifc, files[0]);
	csv_load(&st, files[1]);
	name = col(&ifc, 0, "iface");
	for (unsigned k = 0; k < ifc.n; k++)
		if (!strcmp(col(&ifc, k, "iface"), name) && !strcmp(col(&ifc, k, "side"), "local"))
			rx += num(&ifc, k, "rx_bytes");
	for (unsigned k = 0; k < st.n; k++)
		if (atoi(col(&st, k, "stream")) == 1 && !strcmp(col(&st, k, "direction"), "send"))
			bytes += num(&st, k, "bytes");
	rp = open_files(files, 2, err);
	lr_snapshot_init(&s);
	assert_int_equal(lr_replay_read(rp, when(rp, lr_replay_last_time(rp)), &s, &seen), 1);
	v = lr_snapshot_iface(&s, name);
	assert_non_null(v);
	assert_true(rx > 0 && bytes > 0);
	assert_near((double)v->total[LR_M_RX_BYTES], rx, 0.5);
	assert_true(s.n_streams >= 1);
	assert_int_equal(s.streams[0].id, 1);
	assert_near((double)s.streams[0].total_bytes, bytes, 0.5);
	lr_snapshot_free(&s);
	lr_replay_close(rp);
	free(ifc.text);
	free(st.text);
}

/* A CSV with the qdisc columns (issue 27: a tbf that dropped most of a UDP test): replayed to
 * the end, the veth's root-qdisc sums are the columns' sums and its figures the last row's; lo's
 * noqueue is a known 0. */
static void test_qdisc_columns(void **state)
{
	static const char *const files[] = {FIX "qdisc_ifaces.csv"};
	struct csv ifc;
	struct lr_snapshot s;
	struct lr_replay *rp;
	const struct lr_iface_snap *v;
	uint64_t seen = 0;
	char err[512];
	double drops = 0, over = 0;
	unsigned last = 0;

	(void)state;
	csv_load(&ifc, files[0]);
	for (unsigned k = 0; k < ifc.n; k++)
		if (!strcmp(col(&ifc, k, "iface"), "lr19651272x")) {
			drops += num(&ifc, k, "qdisc_drops");
			over += num(&ifc, k, "qdisc_overlimits");
			last = k;
		}
	rp = open_files(files, 1, err);
	lr_snapshot_init(&s);
	assert_int_equal(lr_replay_read(rp, when(rp, lr_replay_last_time(rp)), &s, &seen), 1);
	v = lr_snapshot_iface(&s, "lr19651272x");
	assert_non_null(v);
	assert_true(drops > 20000);
	assert_near((double)v->qdisc.cum[LR_QDC_DROPS], drops, 0.5);
	assert_near((double)v->qdisc.cum[LR_QDC_OVERLIMITS], over, 0.5);
	assert_true(v->qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	assert_near((double)v->qdisc.delta[LR_QDC_DROPS], num(&ifc, last, "qdisc_drops"), 0.5);
	assert_near((double)v->qdisc.backlog_bytes, num(&ifc, last, "qdisc_backlog_bytes"), 0.5);
	v = lr_snapshot_iface(&s, "lo");
	assert_non_null(v);
	assert_true(v->qdisc.valid & LR_QDV_BIT(LR_QDC_DROPS));
	assert_int_equal(v->qdisc.cum[LR_QDC_DROPS], 0);
	lr_snapshot_free(&s);
	lr_replay_close(rp);
	free(ifc.text);
}

/* The loopback run's last row is the stop tick's 0.5 ms sliver: replayed to the end, lo's peak
 * holds only the full intervals' rates (the sliver's 0 bit/s is no minimum of a run that carried
 * traffic throughout), while its bytes are in the totals. */
static void test_sliver_is_no_peak(void **state)
{
	static const char *const files[] = {FIX "loopback_ifaces.csv"};
	struct csv ifc;
	struct lr_snapshot s;
	struct lr_replay *rp;
	uint64_t seen = 0;
	char err[512];
	double iv_max = 0, full_max = 0, full_min = INFINITY, rx_total = 0;
	unsigned full = 0, slivers = 0;
	const struct lr_iface_snap *lo;

	(void)state;
	csv_load(&ifc, files[0]);
	for (unsigned k = 0; k < ifc.n; k++)
		iv_max = fmax(iv_max, num(&ifc, k, "interval"));
	for (unsigned k = 0; k < ifc.n; k++) {
		double iv = num(&ifc, k, "interval"), bps = num(&ifc, k, "rx_bps");

		rx_total += num(&ifc, k, "rx_bytes");
		if (iv < 0.25 * iv_max) {
			slivers++;
			continue;
		}
		full++;
		full_max = fmax(full_max, bps);
		full_min = fmin(full_min, bps);
	}
	assert_int_equal(slivers, 1);	/* the fixture has its stop tick */
	rp = open_files(files, 1, err);
	lr_snapshot_init(&s);
	assert_int_equal(lr_replay_read(rp, when(rp, num(&ifc, ifc.n - 1, "time")), &s, &seen), 1);
	lo = lr_snapshot_iface(&s, "lo");
	assert_non_null(lo);
	assert_int_equal(lo->peak_rx_bps.n, full);
	assert_near(lo->peak_rx_bps.max, full_max, 1e-6);
	assert_near(lo->peak_rx_bps.min, full_min, 1e-6);
	assert_near((double)lo->total[LR_M_RX_BYTES], rx_total, 0.5);
	lr_snapshot_free(&s);
	lr_replay_close(rp);
	free(ifc.text);
}

/* A real 4-queue recording (ifb, tests/fixtures/report/README.md): replayed, each tick's
 * interface carries the queues of its --queues-csv rows, with the rows' counts and rates, cum[]
 * the rows' running sums, and at the end the queues' rx packets together equal the interface's
 * own rx_packets total (two kernel counters: ethtool's per-queue ones and the device's). */
static void test_queues_replayed(void **state)
{
	static const char *const files[] = {FIX "ifb_ifaces.csv", FIX "ifb_queues.csv"};
	struct csv ifc, qc;
	struct lr_snapshot s;
	struct lr_replay *rp;
	uint64_t seen = 0, cum[4] = {0}, qsum = 0;
	char err[512];
	unsigned qi = 0;
	const struct lr_iface_snap *f = NULL;

	(void)state;
	csv_load(&ifc, files[0]);
	csv_load(&qc, files[1]);
	rp = open_files(files, 2, err);
	lr_snapshot_init(&s);
	for (unsigned k = 0; k < ifc.n; k++) {
		double t = num(&ifc, k, "time");
		unsigned at_t = 0;

		assert_int_equal(lr_replay_read(rp, when(rp, t), &s, &seen), 1);
		f = lr_snapshot_iface(&s, "ifbq0");
		assert_non_null(f);
		for (; qi < qc.n && num(&qc, qi, "time") <= t; qi++) {
			unsigned q = (unsigned)num(&qc, qi, "queue");
			const struct lr_queue_snap *qs = NULL;

			assert_true(q < 4);
			cum[q] += (uint64_t)num(&qc, qi, "rx_packets");
			for (size_t j = 0; j < f->n_queues; j++)
				if (f->queues[j].queue == q)
					qs = &f->queues[j];
			assert_non_null(qs);
			at_t++;
			assert_int_equal(qs->rx_packets, (uint64_t)num(&qc, qi, "rx_packets"));
			assert_int_equal(qs->rx_bytes, (uint64_t)num(&qc, qi, "rx_bytes"));
			assert_true(qs->valid & LR_QV_RX_PACKETS);
			assert_false(qs->valid & LR_QV_RX_DROPS);	/* empty in the CSV: unknown */
			assert_true(fabs(qs->rx_pps - num(&qc, qi, "rx_pps")) < 1e-6);
			assert_int_equal(qs->cum[0], cum[q]);
			/* the serving CPU as recorded; an empty cell unknown, never CPU 0 */
			if (!*col(&qc, qi, "cpu"))
				assert_int_equal(qs->cpu, -1);
			else
				assert_int_equal(qs->cpu, (int)num(&qc, qi, "cpu"));
		}
		assert_int_equal(f->n_queues, at_t);
		assert_int_equal(f->queue_source, LR_QSRC_ETHTOOL);
	}
	for (unsigned q = 0; q < 4; q++)
		qsum += cum[q];
	assert_true(qsum > 1000);	/* the recording carried traffic */
	assert_int_equal(qsum, f->total[LR_M_RX_PACKETS]);
	lr_snapshot_free(&s);
	lr_replay_close(rp);
	free(ifc.text);
	free(qc.text);
}

static void test_clock(void **state)
{
	static const char *const files[] = {FIX "loopback_ifaces.csv"};
	struct lr_replay *rp;
	char err[512];
	double first, last;
	uint64_t now = T0;

	(void)state;
	rp = open_files(files, 1, err);
	first = lr_replay_first_time(rp);
	last = lr_replay_last_time(rp);
	assert_true(last - first > 1.5);
	assert_near(lr_replay_pos(rp, now), first, 1e-9);
	assert_near(lr_replay_pos(rp, now + 500000000), first + 0.5, 1e-6);
	/* speed: x2 from 0.5 s on; then clamps at x16 and x1/2 */
	now += 500000000;
	assert_int_equal(lr_replay_speed_step(rp, 1, now), 1);
	assert_near(lr_replay_pos(rp, now + 250000000), first + 1.0, 1e-6);
	for (int i = 0; i < 10; i++)
		lr_replay_speed_step(rp, 1, now);
	assert_int_equal(lr_replay_speed_exp(rp), LR_REPLAY_SPEED_MAX);
	for (int i = 0; i < 10; i++)
		lr_replay_speed_step(rp, -1, now);
	assert_int_equal(lr_replay_speed_exp(rp), LR_REPLAY_SPEED_MIN);
	assert_near(lr_replay_pos(rp, now + 1000000000), first + 1.0, 1e-6);	/* x1/2 */
	/* pause freezes; next tick never due */
	lr_replay_set_paused(rp, true, now);
	assert_near(lr_replay_pos(rp, now + 5000000000ULL), first + 0.5, 1e-6);
	assert_true(lr_replay_next_due_ns(rp, now) == UINT64_MAX);
	/* seek, clamped to the recording */
	lr_replay_seek(rp, 10, now);
	assert_near(lr_replay_pos(rp, now), last, 1e-9);
	assert_true(lr_replay_at_end(rp, now));
	lr_replay_seek(rp, -10, now);
	assert_near(lr_replay_pos(rp, now), first, 1e-9);
	/* playing past the end stays at the end */
	lr_replay_set_paused(rp, false, now);
	assert_false(lr_replay_at_end(rp, now));
	assert_true(lr_replay_next_due_ns(rp, now) > 0);
	assert_near(lr_replay_pos(rp, now + 3600 * 1000000000ULL), last, 1e-9);
	assert_true(lr_replay_next_due_ns(rp, now + 3600 * 1000000000ULL) == UINT64_MAX);
	lr_replay_close(rp);
}

/* A seek back starts again from the first row: the same totals as on the way forward. */
static void test_seek_back_rebuilds(void **state)
{
	static const char *const files[] = {FIX "loopback_ifaces.csv"};
	struct lr_snapshot a, b;
	struct lr_replay *rp;
	struct csv ifc;
	uint64_t seen = 0, now;
	char err[512];

	(void)state;
	csv_load(&ifc, files[0]);
	rp = open_files(files, 1, err);
	lr_snapshot_init(&a);
	lr_snapshot_init(&b);
	now = when(rp, num(&ifc, 4, "time"));
	assert_int_equal(lr_replay_read(rp, now, &a, &seen), 1);
	lr_replay_set_paused(rp, true, now);
	lr_replay_seek(rp, 10, now);
	assert_int_equal(lr_replay_read(rp, now, &b, &seen), 1);
	assert_near(b.real_ns / 1e9, lr_replay_last_time(rp), 1e-6);
	lr_replay_seek(rp, -(lr_replay_last_time(rp) - num(&ifc, 4, "time")), now);
	assert_int_equal(lr_replay_read(rp, now, &b, &seen), 1);
	assert_int_equal(b.real_ns, a.real_ns);
	assert_int_equal(b.ifaces[0].total[LR_M_RX_BYTES], a.ifaces[0].total[LR_M_RX_BYTES]);
	assert_int_equal(b.ifaces[0].hist[LR_SER_RX_BPS].len, 5);
	/* r: totals count from here */
	lr_replay_reset_totals(rp);
	assert_int_equal(lr_replay_read(rp, now, &b, &seen), 1);
	assert_int_equal(b.ifaces[0].total[LR_M_RX_BYTES], 0);
	assert_int_equal(b.ifaces[0].peak_rx_bps.n, 0);
	lr_snapshot_free(&a);
	lr_snapshot_free(&b);
	lr_replay_close(rp);
	free(ifc.text);
}

/* Appended columns (side, host, a newer numa_node): peer rows become the peer's snapshot. */
static void test_peer_rows(void **state)
{
	static const char *const files[] = {FIX "appended_ifaces.csv"};
	const struct lr_snapshot *peer;
	struct lr_snapshot s;
	struct lr_replay *rp;
	const char *host = NULL;
	uint64_t seen = 0;
	char err[512];

	(void)state;
	rp = open_files(files, 1, err);
	lr_snapshot_init(&s);
	assert_int_equal(lr_replay_read(rp, T0, &s, &seen), 1);
	assert_string_equal(lr_replay_host(rp), "lab,<b>a&b</b>");
	peer = lr_replay_peer(rp, &host);
	assert_non_null(peer);
	assert_string_equal(host, "srv \"B\"");
	assert_int_equal(peer->n_ifaces, s.n_ifaces);
	assert_true(s.n_ifaces >= 2);
	assert_string_equal(s.ifaces[0].name, peer->ifaces[0].name);
	lr_snapshot_free(&s);
	lr_replay_close(rp);
}

/* -I keeps only the interfaces named (lo and eth0 of the recording's four). */
static void test_iface_filter(void **state)
{
	struct lr_snapshot s;
	struct lr_replay *rp;
	uint64_t seen = 0;
	char err[512];
	FILE *f = fopen(FIX "headless_ifaces.csv", "r");

	(void)state;
	assert_non_null(f);
	assert_int_equal(lr_replay_new(&rp), 0);
	lr_replay_set_ifaces(rp, "lo,eth0,eth");
	assert_int_equal(lr_replay_add(rp, f, "headless_ifaces.csv", err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(lr_replay_start(rp, T0, err, sizeof(err)), 0);
	lr_snapshot_init(&s);
	assert_int_equal(lr_replay_read(rp, T0, &s, &seen), 1);
	assert_int_equal(s.n_ifaces, 2);
	assert_string_equal(s.ifaces[0].name, "eth0");
	assert_string_equal(s.ifaces[1].name, "lo");
	lr_snapshot_free(&s);
	lr_replay_close(rp);
}

static int add_text(struct lr_replay *rp, const char *name, const char *text, char *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = lr_replay_add(rp, f, name, err, 512);
	fclose(f);
	return rc;
}

static void test_bad_input(void **state)
{
	static const char hdr[] =
		"time,elapsed,iface,interval,rx_bytes,tx_bytes,rx_packets,tx_packets,rx_bps,tx_bps,"
		"rx_pps,tx_pps,rx_dropped,tx_dropped,rx_errors,tx_errors,rx_fifo,rx_missed,rx_over,"
		"nic_fifo,nic_drop,softirq_max_pct,softirq_cpu,link_mbps,mtu,wire_util_pct";
	static const char row[] = "1800000000.5,0.5,eth0,0.5,100,0,1,0,1600.0,0.0,2.0,0.0,0,0,0,0,"
				  "0,0,0,,,1.0,0,,1500,";
	struct lr_replay *rp;
	char text[2048], err[512];
	FILE *f;

	(void)state;
	assert_int_equal(lr_replay_new(&rp), 0);
	assert_int_equal(add_text(rp, "top.csv", "Date,Time,Throughput\n1,2,3\n", err), -EINVAL);
	assert_non_null(strstr(err, "top.csv:1: not a CSV linerate wrote"));
	/* a cut last line */
	snprintf(text, sizeof(text), "%s\n%s\n%.30s", hdr, row, row);
	assert_int_equal(add_text(rp, "cut.csv", text, err), -EINVAL);
	assert_string_equal(err, "cut.csv:3: truncated last line (no newline at its end)");
	/* a softirq CPU that is no CPU number (the fuzzer's 1.1e51: replay cast it to int) */
	snprintf(text, sizeof(text), "%s\n1800000000.5,0.5,eth0,0.5,100,0,1,0,1600.0,0.0,2.0,0.0,0,0,"
		 "0,0,0,0,0,,,1.0,1.11111e51,,1500,\n", hdr);
	assert_int_equal(add_text(rp, "cpu.csv", text, err), -EINVAL);
	assert_string_equal(err, "cpu.csv:2: softirq_cpu '1.11111e51' is not a CPU number");
	/* a newer header: the extra column is ignored, the row counts */
	snprintf(text, sizeof(text), "%s,from_the_future\n%s,42\n", hdr, row);
	assert_int_equal(add_text(rp, "new.csv", text, err), 0);
	/* another run: started 100 s later, overlapping in time */
	snprintf(text, sizeof(text), "%s\n1800000000.5,100.5,eth1,0.5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,1500,\n",
		 hdr);
	assert_int_equal(add_text(rp, "other.csv", text, err), -EINVAL);
	assert_non_null(strstr(err, "other.csv:2: a run that began 100.0 s before"));
	assert_int_equal(lr_replay_start(rp, T0, err, 512), 0);
	assert_int_equal(lr_replay_ticks(rp), 1);
	lr_replay_close(rp);
	/* recorded files of two runs, both real */
	assert_int_equal(lr_replay_new(&rp), 0);
	f = fopen(FIX "headless_ifaces.csv", "r");
	assert_int_equal(lr_replay_add(rp, f, "headless_ifaces.csv", err, 512), 0);
	fclose(f);
	f = fopen(FIX "loopback_cpus.csv", "r");
	assert_int_equal(lr_replay_add(rp, f, "loopback_cpus.csv", err, 512), -EINVAL);
	fclose(f);
	assert_non_null(strstr(err, "loopback_cpus.csv:2: a run that began"));
	lr_replay_close(rp);
	/* nothing to replay: a header only */
	assert_int_equal(lr_replay_new(&rp), 0);
	snprintf(text, sizeof(text), "%s\n", hdr);
	assert_int_equal(add_text(rp, "empty.csv", text, err), 0);
	assert_int_equal(lr_replay_start(rp, T0, err, 512), -EINVAL);
	assert_string_equal(err, "empty.csv: no interface, CPU, stream or matrix rows to replay");
	lr_replay_close(rp);
}

/* Reads FIX files into a started replay. */
static struct lr_replay *replay_of(const char *const *names, size_t n)
{
	struct lr_replay *rp;
	char err[512], path[256];

	assert_int_equal(lr_replay_new(&rp), 0);
	for (size_t i = 0; i < n; i++) {
		FILE *f;

		snprintf(path, sizeof(path), FIX "%s", names[i]);
		f = fopen(path, "r");
		assert_non_null(f);
		assert_int_equal(lr_replay_add(rp, f, names[i], err, sizeof(err)), 0);
		fclose(f);
	}
	assert_int_equal(lr_replay_start(rp, T0, err, sizeof(err)), 0);
	return rp;
}

/* The matrix CSV's receiver_bps column, case by case (the fixture's plain rows). */
static unsigned matrix_receivers(const char *name, double *out, unsigned max)
{
	char path[256], line[1024];
	unsigned n = 0;
	FILE *f;

	snprintf(path, sizeof(path), FIX "%s", name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	while (n < max && fgets(line, sizeof(line), f)) {
		const char *p = line;

		for (int i = 0; i < 11; i++)	/* receiver_bps is column 12 */
			p = strchr(p, ',') + 1;
		out[n++] = strtod(p, NULL);
	}
	fclose(f);
	return n;
}

/* A matrix CSV alone has no times: every row is shown finished from the start, and the
 * replay says why; with the same run's streams and interface CSVs (a real 4-case loopback
 * run, matrix_run*.csv) the rows fill in: none at the first tick, all four at the end, in
 * case order, each with the CSV's receiver rate. */
static void test_matrix_rows(void **state)
{
	static const char *const alone[] = {"matrix_run.csv"};
	static const char *const run[] = {"matrix_run_ifaces.csv", "matrix_run_streams.csv",
					  "matrix_run.csv"};
	struct lr_matrix_progress v;
	double rx[8];
	unsigned n = matrix_receivers("matrix_run.csv", rx, 8), prev = 0;
	char name[64];
	struct lr_replay *rp;

	(void)state;
	assert_int_equal(n, 4);
	rp = replay_of(alone, 1);
	assert_int_equal(lr_replay_matrix_rows(rp), 4);
	assert_non_null(lr_replay_matrix_untimed(rp));
	lr_replay_matrix_view(rp, lr_replay_pos(rp, T0), &v, name, sizeof(name));
	assert_int_equal(v.n_rows, 4);
	assert_int_equal(v.running, 0);
	for (unsigned i = 0; i < n; i++)
		assert_true(v.rows[i].index == i + 1 && v.rows[i].receiver_bps == rx[i]);
	lr_replay_close(rp);

	rp = replay_of(run, LR_ARRAY_SIZE(run));
	assert_null(lr_replay_matrix_untimed(rp));
	lr_replay_matrix_view(rp, lr_replay_first_time(rp), &v, name, sizeof(name));
	assert_int_equal(v.n_rows, 0);
	assert_int_equal(v.running, 1);
	assert_int_equal(v.n_cases, 4);
	for (double t = lr_replay_first_time(rp); t <= lr_replay_last_time(rp) + 0.05; t += 0.05) {
		lr_replay_matrix_view(rp, t, &v, name, sizeof(name));
		assert_true(v.n_rows >= prev && v.n_rows <= 4);	/* rows only ever fill in */
		assert_true(v.running == 0 || v.running == v.n_rows + 1);
		prev = v.n_rows;
	}
	lr_replay_matrix_view(rp, lr_replay_last_time(rp), &v, name, sizeof(name));
	assert_int_equal(v.n_rows, 4);
	assert_int_equal(v.running, 0);
	for (unsigned i = 0; i < n; i++)
		assert_true(v.rows[i].index == i + 1 && v.rows[i].receiver_bps == rx[i]);
	lr_replay_close(rp);
}

static void test_cli(void **state)
{
	char **ok = (char **)(const char *[]){"linerate", "--replay", "-I", "eth0", "a.csv",
					     "b.csv", NULL};
	char **none = (char **)(const char *[]){"linerate", "--replay", NULL};
	char **headless = (char **)(const char *[]){"linerate", "--headless", "--replay", "a.csv",
						   NULL};
	char **client = (char **)(const char *[]){"linerate", "--replay", "-c", "h", "a.csv", NULL};
	char **csv = (char **)(const char *[]){"linerate", "--replay", "--csv", "o.csv", "a.csv",
					      NULL};
	struct lr_config cfg;
	char err[256];

	(void)state;
	assert_int_equal(lr_cli_parse(6, ok, true, &cfg, err, sizeof(err)), 0);
	assert_int_equal(cfg.mode, LR_MODE_REPLAY);
	assert_int_equal(cfg.n_report_files, 2);
	assert_string_equal(cfg.report_files[1], "b.csv");
	assert_string_equal(cfg.ifaces, "eth0");
	assert_int_not_equal(lr_cli_parse(2, none, true, &cfg, err, sizeof(err)), 0);
	assert_string_equal(err, "--replay: name the CSVs to play");
	assert_int_not_equal(lr_cli_parse(4, headless, true, &cfg, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "excludes --headless"));
	assert_int_not_equal(lr_cli_parse(5, client, true, &cfg, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "excludes traffic options"));
	assert_int_not_equal(lr_cli_parse(5, csv, true, &cfg, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "writes no CSV"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_at_recorded_times),
		cmocka_unit_test(test_sliver_is_no_peak),
		cmocka_unit_test(test_queues_replayed),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_seek_back_rebuilds),
		cmocka_unit_test(test_peer_rows),
		cmocka_unit_test(test_iface_filter),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_appended_columns),
		cmocka_unit_test(test_qdisc_columns),
		cmocka_unit_test(test_matrix_rows),
		cmocka_unit_test(test_cli),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
