// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report of a matrix run, per case: one table row per case (its settings in words, the
 * rates with units, loss, CPU and drops at both ends, the verdict), a bar chart of the cases,
 * and one small bitrate chart per case, cut from the interface CSV's buckets by the case's
 * time_start and time_end. The CSV's columns are read by name, so a CSV from an older linerate
 * (without the times) still gets its table. The table is sized to a 1280 px screen and an
 * A4 page: the verdict wraps, the numbers do not. Main thread.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/present/report_svg.h"
#include "report_priv.h"

static int col_of(const struct lr_report *r, const char *name)
{
	for (unsigned c = 0; c < r->matrix_cols; c++)
		if (!strcmp(r->matrix_header[c], name))
			return (int)c;
	return -1;
}

static const char *text(const struct lr_report *r, const struct lr_rep_matrix_row *m,
			const char *name)
{
	int c = col_of(r, name);

	return c >= 0 && (unsigned)c < m->n && m->field[c] ? m->field[c] : "";
}

/* The field as a number; -1 when empty (unknown) or not a number. */
static double num(const struct lr_report *r, const struct lr_rep_matrix_row *m,
		  const char *name)
{
	const char *s = text(r, m, name);
	char *end;
	double v;

	if (!*s)
		return -1;
	v = strtod(s, &end);
	return *end || !isfinite(v) ? -1 : v;
}

void lr_rep_matrix_traffic(FILE *f, const struct lr_report *r)
{
	size_t tcp = 0, udp = 0;

	for (size_t i = 0; i < r->n_matrix; i++) {
		const char *p = text(r, &r->matrix[i], "proto");

		tcp += !strcmp(p, "tcp");
		udp += !strcmp(p, "udp");
	}
	fprintf(f, "<tr><th>Traffic</th><td data-k=\"traffic\">a matrix of %zu case%s", r->n_matrix,
		r->n_matrix == 1 ? "" : "s");
	if (tcp && udp)
		fprintf(f, ": %zu TCP, %zu UDP", tcp, udp);
	else if (tcp || udp)
		fprintf(f, ", all %s", tcp ? "TCP" : "UDP");
	fputs("; each case's settings are in its row of the Matrix section</td></tr>", f);
}

/* "UDP, 2 streams, -l 1400, -R, -b 100 Mbit/s each": the case's settings in words. */
static void settings(FILE *f, const struct lr_report *r, const struct lr_rep_matrix_row *m)
{
	const char *proto = text(r, m, "proto"), *rev = text(r, m, "reverse");
	double streams = num(r, m, "streams"), len = num(r, m, "length");
	double rate = num(r, m, "bitrate_target"), win = num(r, m, "window"), mss = num(r, m, "mss");
	const char *cc = text(r, m, "congestion");
	char buf[48];

	fputs(!strcmp(proto, "udp") ? "UDP" : !strcmp(proto, "tcp") ? "TCP" : "?", f);
	if (streams >= 0)
		fprintf(f, ", %.0f stream%s", streams, streams == 1 ? "" : "s");
	if (len > 0)
		fprintf(f, ", -l %.0f", len);
	if (!strcmp(rev, "1"))
		fputs(", -R", f);
	else if (!strcmp(rev, "bidir"))
		fputs(", --bidir", f);
	if (rate > 0) {
		lr_rep_fmt_si(buf, sizeof(buf), rate, "bit/s");
		fprintf(f, ", -b %s each", buf);
	}
	if (win > 0)
		fprintf(f, ", -w %.0f", win);
	if (mss > 0)
		fprintf(f, ", -M %.0f", mss);
	if (*cc) {
		fputs(", -C ", f);
		lr_rep_escape(f, cc);
	}
}

/* "local / peer" figures in one cell, each "unknown" when its end did not say; decimals: 1
 * with a % sign, else a count. */
static void pair_cell(FILE *f, const char *key, double local, double peer, bool pct)
{
	const double v[2] = {local, peer};
	char t[2][32];

	for (int k = 0; k < 2; k++) {
		if (v[k] < 0)
			snprintf(t[k], sizeof(t[k]), "unknown");
		else if (pct)
			snprintf(t[k], sizeof(t[k]), "%.1f %%", v[k]);
		else
			snprintf(t[k], sizeof(t[k]), "%.0f", v[k]);
	}
	fprintf(f, "<td class=\"n\" data-k=\"%s\">%s / %s</td>", key, t[0], t[1]);
}

static void loss_cell(FILE *f, const struct lr_report *r, const struct lr_rep_matrix_row *m)
{
	double lost = num(r, m, "lost"), pct = num(r, m, "lost_pct"), retr = num(r, m, "retransmits");

	if (!strcmp(text(r, m, "proto"), "udp") && lost >= 0) {
		fprintf(f, "<td class=\"n%s\" data-k=\"lost\" data-v=\"%.0f\">%.0f", lost > 0 ? " bad" : "",
			lost, lost);
		if (pct >= 0)
			fprintf(f, " (%.2f %%)", pct);
		fputs("</td>", f);
	} else if (retr >= 0) {
		fprintf(f, "<td class=\"n%s\" data-k=\"retransmits\" data-v=\"%.0f\">%.0f retr</td>",
			retr > 0 ? " bad" : "", retr, retr);
	} else {
		fputs("<td class=\"n muted\" data-k=\"lost\">unknown</td>", f);
	}
}

static void table(FILE *f, const struct lr_report *r)
{
	fputs("<table class=\"sum\"><tr><th>case</th><th>settings</th><th>seconds</th>"
	      "<th>sender</th><th>receiver</th><th>lost / retr</th><th>jitter</th>"
	      "<th>CPU busy<br>local / peer</th><th>drops<br>local / peer</th>"
	      "<th>verdict</th></tr>\n", f);
	for (size_t i = 0; i < r->n_matrix; i++) {
		const struct lr_rep_matrix_row *m = &r->matrix[i];
		double jit = num(r, m, "jitter_ms"), secs = num(r, m, "seconds");

		fputs("<tr data-case=\"", f);
		lr_rep_escape(f, text(r, m, "case"));
		fputs("\"><td class=\"n\">", f);
		lr_rep_escape(f, text(r, m, "case"));
		fputs("</td><td data-k=\"settings\">", f);
		settings(f, r, m);
		fputs("</td>", f);
		if (secs >= 0)
			fprintf(f, "<td class=\"n\" data-k=\"seconds\" data-v=\"%.17g\">%.2f s</td>", secs,
				secs);
		else
			fputs("<td class=\"n muted\" data-k=\"seconds\">unknown</td>", f);
		lr_rep_cell(f, "sender_bps", num(r, m, "sender_bps"), "bit/s", false);
		lr_rep_cell(f, "receiver_bps", num(r, m, "receiver_bps"), "bit/s", false);
		loss_cell(f, r, m);
		if (jit >= 0)
			fprintf(f, "<td class=\"n\" data-k=\"jitter_ms\">%.3f ms</td>", jit);
		else
			fputs("<td class=\"n muted\" data-k=\"jitter_ms\">-</td>", f);
		pair_cell(f, "cpu_busy_pct", num(r, m, "local_cpu_busy_pct"),
			  num(r, m, "peer_cpu_busy_pct"), true);
		pair_cell(f, "drops", num(r, m, "local_drops"), num(r, m, "peer_drops"), false);
		fputs("<td data-k=\"verdict\">", f);
		lr_rep_escape(f, text(r, m, "verdict"));
		fputs("</td></tr>\n", f);
	}
	fputs("</table>", f);
}

/* The busiest local interface of the run: the test's, as the matrix's own rows are. */
static const struct lr_rep_iface *test_iface(const struct lr_report *r)
{
	const struct lr_rep_iface *best = NULL;

	for (size_t i = 0; i < r->n_ifaces; i++) {
		const struct lr_rep_iface *s = &r->ifaces[i];

		if (strcmp(s->side, "local"))
			continue;
		if (!best || s->rx_bytes + s->tx_bytes > best->rx_bytes + best->tx_bytes)
			best = s;
	}
	return best;
}

/* The case's window of the interface's buckets as a small chart of its own. */
static int case_chart(FILE *f, const struct lr_report *r, const struct lr_rep_iface *s,
		      const struct lr_rep_matrix_row *m)
{
	double t0 = num(r, m, "time_start"), t1 = num(r, m, "time_end");
	double gap = fmax(2.5 * r->interval_max, 2 * r->bucket_secs), peak = 0;
	size_t k0, k1;
	char title[160];
	struct lr_svg_series se[2];

	if (t0 < r->start || t1 <= t0 || r->bucket_secs <= 0) {
		fputs("<p class=\"sub\">case ", f);
		lr_rep_escape(f, text(r, m, "case"));
		fputs(": no times in the matrix CSV, or outside the interface CSV</p>", f);
		return 0;
	}
	k0 = (size_t)floor((t0 - r->start) / r->bucket_secs);
	k1 = (size_t)ceil((t1 - r->start) / r->bucket_secs);
	if (k1 > LR_REP_BUCKETS)
		k1 = LR_REP_BUCKETS;
	if (k0 >= k1)
		return 0;
	for (size_t k = k0; k < k1; k++)
		for (int q = LR_RM_RX_BPS; q <= LR_RM_TX_BPS; q++)
			if (s->band[k][q].n && s->band[k][q].max > peak)
				peak = s->band[k][q].max;
	snprintf(title, sizeof(title), "Case %.8s: %s, %.40s%s", text(r, m, "case"),
		 text(r, m, "proto"), s->name, " (rx solid, tx dashed)");
	se[0] = (struct lr_svg_series){"rx", &s->band[k0][LR_RM_RX_BPS], LR_RM__COUNT, LR_SVG_SOLID};
	se[1] = (struct lr_svg_series){"tx", &s->band[k0][LR_RM_TX_BPS], LR_RM__COUNT,
				       LR_SVG_DASHED};
	return lr_svg_time_chart(f, &(struct lr_svg_chart){
					    .title = title, .unit = "bit/s",
					    .bucket_secs = r->bucket_secs,
					    .n_buckets = (unsigned)(k1 - k0),
					    .x_max_secs = (double)(k1 - k0) * r->bucket_secs,
					    .gap_secs = gap, .y_peak = peak, .s = se, .n = 2});
}

int lr_rep_matrix_section(FILE *f, const struct lr_report *r)
{
	const char *labels[LR_REP_MATRIX_MAX];
	static char names[LR_REP_MATRIX_MAX][48];
	static double v[LR_REP_MATRIX_MAX][2];
	static const char *const nm[2] = {"receiver", "sender"};
	const struct lr_rep_iface *s = test_iface(r);
	int err = 0;

	fputs("<section id=\"matrix\"><h2>Matrix</h2>", f);
	table(f, r);
	fputs("<p class=\"sub\">sender and receiver: both directions summed; lost: UDP datagrams "
	      "the receiver never got; retr: TCP retransmits; CPU busy: the whole host's mean over "
	      "the case; drops: the test interfaces' drops over the case. The matrix CSV has every "
	      "column (window, service demand, softirq, FIFO).</p>\n", f);
	for (size_t i = 0; i < r->n_matrix; i++) {
		const struct lr_rep_matrix_row *m = &r->matrix[i];
		double sb = num(r, m, "sender_bps"), rb = num(r, m, "receiver_bps");

		snprintf(names[i], sizeof(names[i]), "case %.8s %.4s P%.4s", text(r, m, "case"),
			 text(r, m, "proto"), text(r, m, "streams"));
		labels[i] = names[i];
		v[i][0] = rb >= 0 ? rb : 0;
		v[i][1] = sb >= 0 ? sb : -1;
	}
	if (r->n_matrix && lr_svg_bars(f, "Matrix: bitrate by case", "bit/s", labels,
				       (const double (*)[2])v, (unsigned)r->n_matrix, nm))
		return -EIO;
	if (s && col_of(r, "time_start") >= 0) {
		fputs("<h3>Each case</h3><p class=\"sub\">", f);
		lr_rep_escape(f, s->name);
		fputs(", this host's busiest interface, over each case's test (its time_start to "
		      "time_end).</p><div class=\"cases\">", f);
		for (size_t i = 0; i < r->n_matrix && !err; i++)
			err = case_chart(f, r, s, &r->matrix[i]);
		fputs("</div>", f);
	} else {
		fputs("<p class=\"sub\">No chart per case: ", f);
		fputs(s ? "this matrix CSV is from a linerate before its time_start and time_end "
			  "columns.</p>"
			: "no interface CSV of this host beside it (--csv).</p>", f);
	}
	fputs("</section>\n", f);
	return err;
}
