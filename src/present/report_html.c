// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report as one self-contained HTML file: CSS inline, charts as inline SVG, no script and
 * no external reference, so it opens from a mail attachment on an offline laptop and prints.
 * Every number of a summary table is printed readable ("9.41 Gbit/s") and carries its exact
 * value in data-v, so a test (or a script) can compare it with the CSV. Every string that came
 * from a CSV (interface, host, file names, matrix fields) goes through lr_rep_escape.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "linerate/present/report.h"
#include "linerate/present/report_svg.h"
#include "report_priv.h"
#include "linerate/sample/ifrate.h"

static const char css[] =
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1b1f24;"
	"max-width:1040px;margin:24px auto;padding:0 16px;background:#fff}"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:2px solid #1f5fbf;padding-bottom:2px}h3{font-size:15px;margin:18px 0 4px}"
	"p.sub{color:#555;margin:0 0 12px}"
	"table{border-collapse:collapse;margin:6px 0 12px;font-size:12.5px}"
	".wide{overflow-x:auto}"
	"th,td{border:1px solid #c9ced6;padding:3px 5px;text-align:left;vertical-align:top}"
	"th{background:#eef2f7;font-weight:600}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums;white-space:nowrap}td.bad{background:#fde2e1}"
	"table.facts th{width:170px}.muted{color:#666}"
	"#matrix table{font-size:11.5px;width:100%}#matrix td{white-space:nowrap}"
	"#matrix td[data-k=settings],#matrix td[data-k=verdict]{white-space:normal}"
	"#matrix td[data-k=settings]{min-width:120px}#matrix td[data-k=verdict]{min-width:220px}"
	".cases{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:0 16px}"
	"figure{margin:8px 0 16px}figcaption{font-weight:600;font-size:13px;margin-bottom:2px}"
	"svg.chart{width:100%;height:auto;display:block}"
	"svg text{font:11px system-ui,sans-serif;fill:#333}"
	"svg .yt{text-anchor:end}svg .xt{text-anchor:middle}svg .xl,svg .yl{text-anchor:middle;"
	"font-size:12px}svg .grid{stroke:#e3e6ea;stroke-width:1}svg .axis{stroke:#444;"
	"stroke-width:1}svg .band{fill-opacity:.2;stroke:none}svg .ln{fill:none;"
	"stroke-width:1.7}svg .bandkey{fill:#888;fill-opacity:.25}svg .bv.in{text-anchor:end;"
	"fill:#111;stroke:#fff;stroke-width:3px;paint-order:stroke}svg .cell{stroke:#999;stroke-width:.5}"
	"footer{margin-top:32px;color:#666;font-size:12px}"
	"@media print{body{max-width:none;margin:0;font-size:11px}h2{break-after:avoid}"
	"figure,table,tr{break-inside:avoid}a{color:inherit}.wide{overflow:visible}"
	"#matrix table{font-size:8.5px}}"
	"@page{margin:12mm}";

static void esc(FILE *f, const char *s)
{
	lr_rep_escape(f, s);
}

/* A summary cell: readable text, the exact value in data-v, and its key. */
void lr_rep_cell(FILE *f, const char *key, double v, const char *unit, bool alarm)
{
	char buf[64];

	if (!(v >= 0) || !isfinite(v)) {
		fprintf(f, "<td class=\"n muted\" data-k=\"%s\">unknown</td>", key);
		return;
	}
	if (!strcmp(unit, "count"))
		snprintf(buf, sizeof(buf), "%.0f", v);
	else if (!strcmp(unit, "%"))
		snprintf(buf, sizeof(buf), "%.2f %%", v);
	else
		lr_rep_fmt_si(buf, sizeof(buf), v, unit);
	fprintf(f, "<td class=\"n%s\" data-k=\"%s\" data-v=\"%.17g\">%s</td>",
		alarm && v > 0 ? " bad" : "", key, v, buf);
}

static void utc(char *buf, size_t len, double t)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (t > 0 && gmtime_r(&s, &tm))
		strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
	else
		snprintf(buf, len, "unknown");
}

void lr_rep_who(FILE *f, const char *side, const char *host)
{
	if (host[0])
		esc(f, host);
	else
		fputs("this host", f);
	if (!strcmp(side, "peer"))
		fputs(" (peer)", f);
}

/* The values one fact took over the streams, told honestly: the one value, or each with the
 * number of streams that had it ("cubic on 2 streams, bbr on 1"), the first few. */
#define TALLY_MAX 6
struct tally {
	char val[TALLY_MAX][LR_REP_DRIVER_MAX];
	unsigned n[TALLY_MAX], k, others;	/* others: streams of values past TALLY_MAX */
};

static void tally_add(struct tally *t, const char *v)
{
	for (unsigned i = 0; i < t->k; i++)
		if (!strcmp(t->val[i], v)) {
			t->n[i]++;
			return;
		}
	if (t->k == TALLY_MAX) {
		t->others++;
		return;
	}
	snprintf(t->val[t->k], sizeof(t->val[0]), "%s", v);
	t->n[t->k++] = 1;
}

static void tally_put(FILE *f, const struct tally *t, const char *unit)
{
	for (unsigned i = 0; i < t->k; i++) {
		fputs(i ? ", " : "", f);
		esc(f, t->val[i]);
		fputs(strcmp(t->val[i], "unknown") ? unit : "", f);
		if (t->k > 1 || t->others)
			fprintf(f, " on %u%s", t->n[i], i ? "" : t->n[i] == 1 ? " stream" : " streams");
	}
	if (t->others)
		fprintf(f, ", others on %u", t->others);
}

/* -l and -C of the streams, or that the CSV does not record them (an older linerate). */
static void length_congestion(FILE *f, const struct lr_report *r)
{
	struct tally len = {0}, cc = {0};
	bool len_old = false, cc_old = false, len_changed = false, cc_changed = false;
	unsigned tcp = 0;
	char buf[32];

	for (size_t i = 0; i < r->n_streams; i++) {
		const struct lr_rep_stream *s = &r->streams[i];

		len_old |= !s->length_col;
		len_changed |= s->length_changed;
		if (s->length >= 0)
			snprintf(buf, sizeof(buf), "%.0f", s->length);
		tally_add(&len, s->length >= 0 ? buf : "unknown");
		if (strcmp(s->protocol, "tcp"))
			continue;	/* UDP has no congestion control */
		tcp++;
		cc_old |= !s->cc_col;
		cc_changed |= s->cc_changed;
		tally_add(&cc, s->congestion[0] ? s->congestion : "unknown");
	}
	fputs(", <span data-k=\"length\">", f);
	if (len_old) {
		fputs("-l not recorded", f);
	} else {
		fputs("-l ", f);
		tally_put(f, &len, " bytes");
		fputs(len_changed ? " (changed during the run)" : "", f);
	}
	fputs("</span>", f);
	if (!tcp)
		return;
	fputs(", <span data-k=\"congestion\">", f);
	if (cc_old) {
		fputs("congestion control (-C) not recorded", f);
	} else {
		fputs("congestion control ", f);
		tally_put(f, &cc, "");
		fputs(cc_changed ? " (changed during the run)" : "", f);
	}
	fputs("</span>", f);
}

/* What the facts cannot show: what no CSV format carries, and what these (older) CSVs lack. */
static void not_recorded(FILE *f, const struct lr_report *r)
{
	bool driver = false, target = false, length = false, cc = false;
	const char *sep = "; not recorded here: ", *list = "";

	for (size_t i = 0; i < r->n_ifaces; i++)
		driver |= !r->ifaces[i].driver_col;
	for (size_t i = 0; i < r->n_streams; i++) {
		target |= !r->streams[i].target_col;
		length |= !r->streams[i].length_col;
		cc |= !strcmp(r->streams[i].protocol, "tcp") && !r->streams[i].cc_col;
	}
	fputs("<tr><th>Not in these CSVs</th><td class=\"muted\" data-k=\"not_recorded\">ring "
	      "sizes and the traffic options beyond -P, -b, -l, -C (-w, -M, ...): the CSV formats "
	      "do not carry them", f);
	if (!r->n_ifaces) {
		fprintf(f, "%sdriver (no interface CSV)", sep);
		sep = "; ";
	}
	if (!r->n_streams) {
		fprintf(f, "%s-P, -b, -l, -C (no streams CSV)", sep);
		sep = "; ";
	}
	if (driver || target || length || cc) {
		fputs(sep, f);
		if (driver) {
			fputs("driver", f);
			list = ", ";
		}
		if (target) {
			fprintf(f, "%s-b", list);
			list = ", ";
		}
		if (length) {
			fprintf(f, "%s-l", list);
			list = ", ";
		}
		if (cc)
			fprintf(f, "%s-C", list);
		fputs(" (CSVs from a linerate before those columns)", f);
	}
	fputs("</td></tr>", f);
}

/* The traffic as the streams CSV tells it: protocol, streams per direction, the -b target. */
static void traffic_fact(FILE *f, const struct lr_report *r)
{
	unsigned send = 0, recv = 0;
	bool tcp = false, udp = false, old = false, unknown = false, differ = false;
	double target = -1;
	char buf[64];

	if (r->n_matrix) {	/* a grid: each case has its own settings, in its row */
		lr_rep_matrix_traffic(f, r);
		return;
	}
	if (!r->n_streams)
		return;
	for (size_t i = 0; i < r->n_streams; i++) {
		const struct lr_rep_stream *s = &r->streams[i];

		send += !strcmp(s->direction, "send");
		recv += !strcmp(s->direction, "recv");
		tcp |= !strcmp(s->protocol, "tcp");
		udp |= !strcmp(s->protocol, "udp");
		old |= !s->target_col;
		unknown |= s->target_col && s->target_bps < 0;
		differ |= s->target_changed || (target >= 0 && s->target_bps >= 0 &&
						s->target_bps != target);
		if (s->target_bps >= 0)
			target = s->target_bps;
	}
	fprintf(f, "<tr><th>Traffic</th><td data-k=\"traffic\">%s%s%s", tcp ? "TCP" : "",
		tcp && udp ? " and " : "", udp ? "UDP" : "");
	if (send)
		fprintf(f, ", %u stream%s sent", send, send == 1 ? "" : "s");
	if (recv)
		fprintf(f, ", %u received", recv);
	if (old)
		fputs(", target (-b) not recorded", f);
	else if (differ)
		fputs(", target (-b) changed during the run", f);
	else if (target > 0) {
		lr_rep_fmt_si(buf, sizeof(buf), target, "bit/s");
		fprintf(f, ", target %s per stream (-b)", buf);
	} else if (target == 0)
		fputs(", no target (-b): unlimited", f);
	else if (unknown)
		fputs(", target (-b) unknown", f);
	length_congestion(f, r);
	fputs("</td></tr>", f);
}

static const char *const kind_name[] = {"interfaces (--csv)", "CPUs (--cpu-csv)",
					"streams (--streams-csv)", "queues (--queues-csv)",
					"matrix (--matrix-csv)", "loss ledger (--ledger-csv)"};

static void facts(FILE *f, const struct lr_report *r)
{
	char a[64], b[64];

	fputs("<section id=\"facts\"><h2>The run</h2><table class=\"facts\">", f);
	if (r->time_max >= 0) {
		utc(a, sizeof(a), r->time_min);
		utc(b, sizeof(b), r->time_max);
		fprintf(f, "<tr><th>Recorded</th><td>%s to %s</td></tr>", a, b);
		fprintf(f, "<tr><th>Duration</th><td data-k=\"duration_s\" data-v=\"%.17g\">%.1f s",
			r->elapsed_max, r->elapsed_max);
		if (r->elapsed_max >= 120)
			fprintf(f, " (%d h %02d min)", (int)(r->elapsed_max / 3600),
				(int)fmod(r->elapsed_max / 60, 60));
		fputs("</td></tr>", f);
	}
	if (r->interval_rows)
		fprintf(f, "<tr><th>Interval</th><td>%.3g s mean measured (%.3g to %.3g s)</td></tr>",
			r->interval_sum / (double)r->interval_rows, r->interval_min,
			r->interval_max);
	fputs("<tr><th>Hosts</th><td>", f);
	{
		unsigned shown = 0;

		for (size_t i = 0; i < r->n_ifaces; i++) {
			bool seen = false;

			for (size_t j = 0; j < i && !seen; j++)
				seen = !strcmp(r->ifaces[j].host, r->ifaces[i].host) &&
				       !strcmp(r->ifaces[j].side, r->ifaces[i].side);
			if (seen)
				continue;
			fputs(shown++ ? ", " : "", f);
			lr_rep_who(f, r->ifaces[i].side, r->ifaces[i].host);
		}
		for (size_t i = 0; !r->n_ifaces && i < r->n_cpus; i++) {	/* a CPU CSV alone */
			bool seen = false;

			for (size_t j = 0; j < i && !seen; j++)
				seen = !strcmp(r->cpus[j].host, r->cpus[i].host) &&
				       !strcmp(r->cpus[j].side, r->cpus[i].side);
			if (seen)
				continue;
			fputs(shown++ ? ", " : "", f);
			lr_rep_who(f, r->cpus[i].side, r->cpus[i].host);
		}
		if (!shown)
			fputs("<span class=\"muted\">not recorded (no interface or CPU CSV)</span>", f);
		else if (r->n_ifaces ? !r->ifaces[0].host[0] : !r->cpus[0].host[0])
			fputs(" <span class=\"muted\">(the CSV has no host column)</span>", f);
	}
	fputs("</td></tr>", f);
	if (r->n_ifaces)
		fputs("<tr><th>Interfaces</th><td>", f);
	for (size_t i = 0; i < r->n_ifaces; i++) {
		const struct lr_rep_iface *s = &r->ifaces[i];
		const char *nominal;
		char link[48];

		fputs(i ? "; " : "", f);
		esc(f, s->name);
		if (strcmp(s->side, "local") || s->host[0]) {
			fputs(" on ", f);
			lr_rep_who(f, s->side, s->host);
		}
		nominal = lr_ifrate_nominal_why(s->name, NULL, s->driver);
		if (s->link_mbps > 0)
			lr_rep_fmt_si(link, sizeof(link), s->link_mbps * 1e6, "bit/s");
		else
			snprintf(link, sizeof(link), "link speed unknown");
		fprintf(f, ": %s%s", link, s->link_changed ? " (changed during the run)" : "");
		if (s->link_mbps > 0 && nominal)	/* a veth's 10G: not a line rate */
			fprintf(f, " nominal (%s)", nominal);
		if (s->mtu >= 0)
			fprintf(f, ", MTU %.0f%s", s->mtu, s->mtu_changed ? " (changed)" : "");
		fputs(", <span data-k=\"driver\">", f);
		if (!s->driver_col) {
			fputs("driver not recorded", f);
		} else if (s->driver[0]) {
			fputs("driver ", f);
			esc(f, s->driver);
			fputs(s->driver_changed ? " (changed during the run)" : "", f);
		} else {
			fputs("no driver reported", f);	/* loopback; ethtool -i refused */
		}
		fputs("</span>", f);
	}
	if (r->n_ifaces)
		fputs("</td></tr>", f);
	traffic_fact(f, r);
	not_recorded(f, r);
	fputs("<tr><th>Files</th><td>", f);
	for (unsigned i = 0; i < r->n_files; i++) {
		fputs(i ? "<br>" : "", f);
		esc(f, r->files[i].name);
		fprintf(f, ": %s, %llu rows", kind_name[r->files[i].kind],
			(unsigned long long)r->files[i].rows);
		if (r->files[i].extra_columns)
			fprintf(f, ", %u newer columns not shown", r->files[i].extra_columns);
	}
	fputs("</td></tr></table></section>\n", f);
}

static bool carried_traffic(const struct lr_rep_iface *s)
{
	return s->rx_bytes + s->tx_bytes + s->rx_packets + s->tx_packets > 0;
}

static void iface_table(FILE *f, const struct lr_report *r)
{
	fputs("<div class=\"wide\"><table class=\"sum\" id=\"iface-table\"><tr><th>Interface</th>"
	      "<th>rx avg</th><th>rx peak</th><th>tx avg</th><th>tx peak</th>"
	      "<th>rx pps avg</th><th>rx pps peak</th><th>tx pps avg</th><th>tx pps peak</th>"
	      "<th>drops rx / tx / qdisc</th><th>FIFO, missed, over</th><th>NIC fifo / drop</th>"
	      "<th>errors</th><th>% line avg / peak</th></tr>", f);
	for (size_t i = 0; i < r->n_ifaces; i++) {
		const struct lr_rep_iface *s = &r->ifaces[i];
		double bs = s->byte_secs, ps = s->packet_secs;

		fputs("<tr data-iface=\"", f);
		esc(f, s->name);
		fprintf(f, "\" data-side=\"%s\" data-host=\"", s->side);
		esc(f, s->host);
		fputs("\"><th>", f);
		esc(f, s->name);
		if (strcmp(s->side, "local") || s->host[0]) {
			fputs("<br><span class=\"muted\">", f);
			lr_rep_who(f, s->side, s->host);
			fputs("</span>", f);
		}
		fputs("</th>", f);
		lr_rep_cell(f, "rx_avg_bps", bs > 0 ? s->rx_bytes * 8 / bs : -1, "bit/s", false);
		lr_rep_cell(f, "rx_peak_bps", s->peak[LR_RM_RX_BPS], "bit/s", false);
		lr_rep_cell(f, "tx_avg_bps", bs > 0 ? s->tx_bytes * 8 / bs : -1, "bit/s", false);
		lr_rep_cell(f, "tx_peak_bps", s->peak[LR_RM_TX_BPS], "bit/s", false);
		lr_rep_cell(f, "rx_avg_pps", ps > 0 ? s->rx_packets / ps : -1, "pkt/s", false);
		lr_rep_cell(f, "rx_peak_pps", s->peak[LR_RM_RX_PPS], "pkt/s", false);
		lr_rep_cell(f, "tx_avg_pps", ps > 0 ? s->tx_packets / ps : -1, "pkt/s", false);
		lr_rep_cell(f, "tx_peak_pps", s->peak[LR_RM_TX_PPS], "pkt/s", false);
		fprintf(f, "<td class=\"n%s\">", s->qdisc_known && s->qdisc_sum[LR_RQ_DROPS] > 0 ? " bad"
										       : "");
		fprintf(f, "<span data-k=\"rx_dropped\" data-v=\"%.17g\">%.0f</span> / "
			   "<span data-k=\"tx_dropped\" data-v=\"%.17g\">%.0f</span> / ",
			s->rx_dropped, s->rx_dropped, s->tx_dropped, s->tx_dropped);
		if (!s->qdisc_col)	/* a CSV from before the qdisc columns */
			fputs("<span data-k=\"qdisc_drops\">&ndash;</span></td>", f);
		else if (!s->qdisc_known)
			fputs("<span data-k=\"qdisc_drops\">unknown</span></td>", f);
		else
			fprintf(f, "<span data-k=\"qdisc_drops\" data-v=\"%.17g\">%.0f</span></td>",
				s->qdisc_sum[LR_RQ_DROPS], s->qdisc_sum[LR_RQ_DROPS]);
		lr_rep_cell(f, "fifo_missed_over", s->rx_fifo + s->rx_missed + s->rx_over, "count", true);
		fprintf(f, "<td class=\"n%s\"><span data-k=\"nic_fifo\" data-v=\"%.17g\">%.0f</span> / "
			   "<span data-k=\"nic_drop\" data-v=\"%.17g\">%.0f</span></td>",
			s->nic_fifo + s->nic_drop > 0 ? " bad" : "", s->nic_fifo, s->nic_fifo,
			s->nic_drop, s->nic_drop);
		lr_rep_cell(f, "errors", s->rx_errors + s->tx_errors, "count", true);
		if (s->util_secs > 0)
			fprintf(f, "<td class=\"n\"><span data-k=\"util_avg_pct\" data-v=\"%.17g\">"
				   "%.2f</span> / <span data-k=\"util_peak_pct\" data-v=\"%.17g\">"
				   "%.2f %%</span></td>", s->util_sum / s->util_secs,
				s->util_sum / s->util_secs, s->util_peak, s->util_peak);
		else if (lr_ifrate_nominal_why(s->name, NULL, s->driver))
			fputs("<td class=\"n muted\">nominal speed</td>", f);
		else
			fputs("<td class=\"n muted\">no link speed</td>", f);
		fputs("</tr>\n", f);
	}
	fputs("</table></div><p class=\"sub\">avg = the column's bytes or packets over the time the rows "
	      "cover; peak = the highest row. Drops are stats64 rx/tx_dropped; NIC counters are the "
	      "driver's own (ethtool -S) classified fifo or drop; qdisc drops are the egress root "
	      "qdisc's (tc -s qdisc), which counts every drop under it (&ndash;: a CSV from before "
	      "the qdisc columns). On loopback and veth the kernel counts GSO super-packets as one "
	      "packet.</p>\n", f);
}

static int iface_charts(FILE *f, const struct lr_report *r, const struct lr_rep_iface *s)
{
	double gap = fmax(2.5 * r->interval_max, 2 * r->bucket_secs);
	struct lr_svg_series se[2];
	struct lr_svg_chart c = {.bucket_secs = r->bucket_secs, .n_buckets = LR_REP_BUCKETS,
				 .x_max_secs = r->elapsed_max, .gap_secs = gap, .s = se, .n = 2};
	static const struct {
		const char *what, *note, *unit, *l0, *l1;
		enum lr_rep_metric m0, m1;
	} charts[] = {
		{"Bitrate", "", "bit/s", "rx", "tx", LR_RM_RX_BPS, LR_RM_TX_BPS},
		{"Packets", "", "pkt/s", "rx", "tx", LR_RM_RX_PPS, LR_RM_TX_PPS},
		{"Drops and FIFO", " (drops: rx+tx dropped and NIC drop; FIFO: rx fifo, missed, over "
		 "and NIC fifo)", "events/s", "drops", "FIFO", LR_RM_DROPS_PS, LR_RM_FIFO_PS},
	};
	char title[256];
	int err = 0;

	fputs("<h3>", f);
	esc(f, s->name);
	if (strcmp(s->side, "local") || s->host[0]) {
		fputs(" on ", f);
		lr_rep_who(f, s->side, s->host);
	}
	fputs("</h3>", f);
	if (!carried_traffic(s)) {
		fputs("<p class=\"sub\">no traffic in this recording: not charted</p>", f);
		return 0;
	}
	for (unsigned k = 0; k < LR_ARRAY_SIZE(charts) && !err; k++) {
		/* the peer's charts say so in words (its host may be ours: loopback) */
		snprintf(title, sizeof(title), "%s, %s%s%s%s%s", charts[k].what, s->name,
			 s->host[0] ? " on " : "", s->host, strcmp(s->side, "peer") ? "" : " (peer)",
			 charts[k].note);
		c.title = title;
		c.unit = charts[k].unit;
		se[0] = (struct lr_svg_series){charts[k].l0, &s->band[0][charts[k].m0], LR_RM__COUNT,
					       LR_SVG_SOLID};
		se[1] = (struct lr_svg_series){charts[k].l1, &s->band[0][charts[k].m1], LR_RM__COUNT,
					       LR_SVG_DASHED};
		c.y_peak = fmax(s->peak[charts[k].m0], s->peak[charts[k].m1]);
		err = lr_svg_time_chart(f, &c);
	}
	return err;
}

static void cpu_table(FILE *f, const struct lr_report *r)
{
	fputs("<table class=\"sum\" id=\"cpu-table\"><tr><th>CPU</th><th>softirq peak</th>"
	      "<th>at</th><th>softirq mean</th></tr>", f);
	for (size_t i = 0; i < r->n_cpus; i++) {
		const struct lr_rep_cpu *c = &r->cpus[i];

		fprintf(f, "<tr data-cpu=\"%d\" data-side=\"%s\" data-host=\"", c->cpu, c->side);
		esc(f, c->host);
		fprintf(f, "\"><th>cpu%d", c->cpu);
		if (strcmp(c->side, "local") || c->host[0]) {
			fputs(" <span class=\"muted\">", f);
			lr_rep_who(f, c->side, c->host);
			fputs("</span>", f);
		}
		fputs("</th>", f);
		lr_rep_cell(f, "softirq_peak_pct", c->softirq_peak, "%", false);
		if (c->softirq_peak >= 0)
			fprintf(f, "<td class=\"n\">%.1f s</td>", c->softirq_peak_at);
		else
			fputs("<td></td>", f);
		lr_rep_cell(f, "softirq_mean_pct", c->softirq_secs > 0 ? c->softirq_sum / c->softirq_secs : -1,
		     "%", false);
		fputs("</tr>\n", f);
	}
	fputs("</table><p class=\"sub\">mean = softirq_pct weighted by each row's measured "
	      "interval.</p>\n", f);
}

/* The target cell: -b per stream, "unlimited" (0), or why it is not known. */
static void target_cell(FILE *f, const struct lr_rep_stream *s)
{
	if (s->target_bps > 0)
		lr_rep_cell(f, "target_bps", s->target_bps, "bit/s", false);
	else if (s->target_bps == 0)
		fputs("<td class=\"n\" data-k=\"target_bps\" data-v=\"0\">unlimited</td>", f);
	else
		fprintf(f, "<td class=\"n muted\" data-k=\"target_bps\">%s</td>",
			s->target_col ? "unknown" : "not recorded");
}

static int streams(FILE *f, const struct lr_report *r)
{
	const char *labels[64];
	char names[64][40];
	double v[64][2];
	unsigned n = 0;
	bool old = false, changed = false, any_target = false;

	fputs("<section id=\"streams\"><h2>Streams</h2><table class=\"sum\" id=\"stream-table\">"
	      "<tr><th>Stream</th><th>bytes</th><th>achieved</th><th>target</th>"
	      "<th>of target</th><th>peak</th><th>retransmits</th><th>lost</th>"
	      "<th>out of order</th><th>jitter max</th><th>last RTT</th></tr>", f);
	for (size_t i = 0; i < r->n_streams; i++) {
		const struct lr_rep_stream *s = &r->streams[i];
		double achieved = s->secs > 0 ? s->bytes * 8 / s->secs : -1;

		old |= !s->target_col;
		changed |= s->target_changed;
		any_target |= s->target_bps > 0;
		fprintf(f, "<tr data-stream=\"%d\" data-direction=\"%s\"><th>%d %s %s</th>", s->id,
			s->direction, s->id, s->protocol, s->direction);
		lr_rep_cell(f, "bytes", s->bytes, "count", false);
		lr_rep_cell(f, "achieved_bps", achieved, "bit/s", false);
		target_cell(f, s);
		if (s->target_bps > 0 && achieved >= 0)
			lr_rep_cell(f, "achieved_pct_of_target", achieved / s->target_bps * 100, "%", false);
		else
			fputs("<td class=\"n muted\" data-k=\"achieved_pct_of_target\">-</td>", f);
		lr_rep_cell(f, "peak_bps", s->peak_bps, "bit/s", false);
		lr_rep_cell(f, "retransmits", !strcmp(s->protocol, "tcp") ? s->retransmits : -1, "count",
		     true);
		lr_rep_cell(f, "lost", !strcmp(s->protocol, "udp") ? s->lost : -1, "count", true);
		lr_rep_cell(f, "out_of_order", !strcmp(s->protocol, "udp") ? s->out_of_order : -1, "count",
		     false);
		if (s->jitter_max_ms >= 0)
			fprintf(f, "<td class=\"n\">%.3f ms</td>", s->jitter_max_ms);
		else
			fputs("<td class=\"n muted\">-</td>", f);
		if (s->rtt_last_us >= 0)
			fprintf(f, "<td class=\"n\">%.0f &micro;s</td>", s->rtt_last_us);
		else
			fputs("<td class=\"n muted\">-</td>", f);
		fputs("</tr>\n", f);
	}
	for (size_t i = 0; i < r->n_streams && n < LR_ARRAY_SIZE(v); i++, n++) {
		const struct lr_rep_stream *s = &r->streams[i];
		double achieved = s->secs > 0 ? s->bytes * 8 / s->secs : -1;

		snprintf(names[n], sizeof(names[n]), "stream %d %s %s", s->id, s->protocol,
			 s->direction);
		labels[n] = names[n];
		v[n][0] = achieved > 0 ? achieved : 0;
		/* beside each: its target when any stream had one (none: unlimited or unknown),
		 * else its peak row */
		v[n][1] = any_target ? (s->target_bps > 0 ? s->target_bps : -1)
			  : s->peak_bps > 0 ? s->peak_bps : 0;
	}
	fputs("</table><p class=\"sub\">achieved = the stream's bytes over the time its rows cover; "
	      "target = the -b per stream the run asked for (unlimited: no -b; unknown: a server's "
	      "or a matrix's streams, whose rate came with each test).", f);
	if (changed)
		fputs(" The target changed during the run (the dashboard's rate keys): the last one "
		      "is shown.", f);
	if (old)
		fputs(" Not recorded: a streams CSV written before the target_bps column was "
		      "added.", f);
	fputs("</p>\n", f);
	if (n) {
		static const char *const nm_t[2] = {"achieved (mean)", "target (-b)"};
		static const char *const nm_p[2] = {"achieved (mean)", "peak row"};

		if (lr_svg_bars(f, any_target ? "Streams: achieved against target"
					      : "Streams: achieved and peak bitrate",
				"bit/s", labels, (const double (*)[2])v, n, any_target ? nm_t : nm_p))
			return -EIO;
	}
	fputs("</section>\n", f);
	return 0;
}

static void queues(FILE *f, const struct lr_report *r)
{
	fputs("<section id=\"queues\"><h2>Queues</h2><table class=\"sum\"><tr><th>Interface</th>"
	      "<th>queue</th><th>CPU</th><th>rx packets</th><th>rx bytes</th><th>tx packets</th>"
	      "<th>tx bytes</th><th>drops rx</th><th>drops tx</th><th>rx pps peak</th></tr>", f);
	for (size_t i = 0; i < r->n_queues; i++) {
		const struct lr_rep_queue *q = &r->queues[i];

		fputs("<tr><th>", f);
		esc(f, q->iface);
		if (strcmp(q->side, "local") || q->host[0]) {
			fputs(" <span class=\"muted\">", f);
			lr_rep_who(f, q->side, q->host);
			fputs("</span>", f);
		}
		fprintf(f, "</th><td class=\"n\">%d</td>", q->queue);
		if (q->cpu >= 0)
			fprintf(f, "<td class=\"n\">%d</td>", q->cpu);
		else
			fputs("<td class=\"n muted\">?</td>", f);
		lr_rep_cell(f, "rx_packets", q->rx_packets, "count", false);
		lr_rep_cell(f, "rx_bytes", q->rx_bytes, "count", false);
		lr_rep_cell(f, "tx_packets", q->tx_packets, "count", false);
		lr_rep_cell(f, "tx_bytes", q->tx_bytes, "count", false);
		lr_rep_cell(f, "rx_drops", q->rx_drops, "count", true);
		lr_rep_cell(f, "tx_drops", q->tx_drops, "count", true);
		lr_rep_cell(f, "rx_peak_pps", q->peak_rx_pps, "pkt/s", false);
		fputs("</tr>\n", f);
	}
	fputs("</table></section>\n", f);
}

int lr_report_write_html(const struct lr_report *r, FILE *f)
{
	int err = 0;

	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		   "<meta name=\"generator\" content=\"linerate %s\"><title>linerate report",
		lr_version());
	for (size_t i = 0; i < r->n_ifaces && i < 4; i++) {
		fputs(i ? ", " : ": ", f);
		esc(f, r->ifaces[i].name);
	}
	fprintf(f, "</title><style>%s</style></head><body>\n<h1>linerate report</h1>", css);
	fputs("<p class=\"sub\">Recorded by linerate, drawn from its CSVs. rx is the solid line, "
	      "tx the dashed one; the shade spans each pixel column's lowest to highest row, so "
	      "no peak is lost however long the run.</p>\n", f);
	facts(f, r);
	if (r->n_ifaces) {
		fputs("<section id=\"ifaces\"><h2>Interfaces</h2>", f);
		iface_table(f, r);
		for (size_t i = 0; i < r->n_ifaces && !err; i++)
			err = iface_charts(f, r, &r->ifaces[i]);
		fputs("</section>\n", f);
	}
	if (!err && r->n_cpus) {
		fputs("<section id=\"cpus\"><h2>CPUs</h2>", f);
		cpu_table(f, r);
		err = lr_svg_heatmap(f, r);
		fputs("</section>\n", f);
	}
	if (!err && r->n_streams && r->n_matrix)	/* one id per stream of every case */
		fputs("<section id=\"streams\"><h2>Streams</h2><p class=\"sub\">A matrix run: each "
		      "case's streams are summed in its row of the Matrix section (a stream number "
		      "comes back in every case, so a table per stream would mix them).</p>"
		      "</section>\n", f);
	else if (!err && r->n_streams)
		err = streams(f, r);
	if (!err && r->n_queues)
		queues(f, r);
	if (!err && r->n_matrix)
		err = lr_rep_matrix_section(f, r);
	if (!err && r->n_ledger)
		lr_rep_ledger_section(f, r);
	fprintf(f, "<footer>linerate %s. Charts reduce the run to at most %d columns per series "
		   "(here %.3g s each).</footer>\n</body></html>\n", lr_version(), LR_REP_BUCKETS,
		r->bucket_secs);
	if (!err && (ferror(f) || fflush(f)))
		err = -EIO;
	return err;
}
