// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inline SVG for the report: time charts, the softirq heat map, bars. Every chart is drawn from
 * the report's time buckets (at most LR_REP_BUCKETS per series, about one per pixel column of
 * an 866-pixel plot), each drawn as a min..max band plus its mean line: the band's top is the
 * largest value of the bucket, so the eye sees every peak however long the run. Series differ
 * in dash pattern as well as colour (rx solid, tx dashed), so print and colour-blind readers
 * tell them apart. Coordinates carry one decimal to keep the file small.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "linerate/present/report.h"
#include "linerate/present/report_svg.h"

#define W 960
#define H 280
#define ML 78	/* room for the y tick labels */
#define MR 16
#define MT 34	/* the legend */
#define MB 44	/* x ticks and the axis title */
#define PW (W - ML - MR)
#define PH (H - MT - MB)
#define HEAT_ROWS_MAX 128
#define HEAT_COLS_MAX 160

static const char *const colour[] = {"#1f5fbf", "#c0392b", "#2e7d32", "#7b3fa0"};
static const char *const dash[] = {"", "7 4", "2 3", "9 3 2 3"};

void lr_rep_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if ((unsigned char)*s >= 0x20 && *s != 0x7f)
				fputc(*s, f);
		}
	}
}

double lr_rep_nice_step(double raw)
{
	double mag, norm;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	if (norm <= 1.0000001)
		return mag;
	if (norm <= 2.0000001)
		return 2 * mag;
	if (norm <= 5.0000001)
		return 5 * mag;
	return 10 * mag;
}

double lr_rep_axis_top(double peak, unsigned ticks, double *step)
{
	double st, top;

	if (!(peak > 0) || !isfinite(peak)) {
		*step = 0.2;
		return 1;
	}
	st = lr_rep_nice_step(peak / (ticks ? ticks : 1));
	top = ceil(peak / st - 1e-9) * st;
	if (top < peak)
		top += st;
	*step = st;
	return top;
}

/* The SI prefix for values up to v: the divisor and its letter. */
static double si_prefix(double v, const char **letter)
{
	static const char *const p[] = {"", "k", "M", "G", "T", "P"};
	unsigned k = 0;
	double d = 1;

	while (k + 1 < LR_ARRAY_SIZE(p) && fabs(v) >= d * 1000) {
		d *= 1000;
		k++;
	}
	*letter = p[k];
	return d;
}

void lr_rep_fmt_si(char *buf, size_t len, double v, const char *unit)
{
	const char *pre;
	double d = si_prefix(v, &pre), x = v / d;

	if (v == 0)
		snprintf(buf, len, "0 %s", unit);
	else if (fabs(x) >= 100)
		snprintf(buf, len, "%.0f %s%s", x, pre, unit);
	else if (fabs(x) >= 10)
		snprintf(buf, len, "%.1f %s%s", x, pre, unit);
	else
		snprintf(buf, len, "%.2f %s%s", x, pre, unit);
}

/* Decimals a tick label needs for steps of `step` (already divided by the prefix). */
static int tick_decimals(double step)
{
	int d = 0;

	while (d < 4 && fabs(step * pow(10, d) - rint(step * pow(10, d))) > 1e-6)
		d++;
	return d;
}

static void line(FILE *f, double x1, double y1, double x2, double y2, const char *cls)
{
	fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", cls, x1,
		y1, x2, y2);
}

static void y_axis(FILE *f, double top, double step, const char *unit)
{
	const char *pre;
	double d = si_prefix(top, &pre);
	int dec = tick_decimals(step / d);

	for (int i = 0; i * step <= top * (1 + 1e-9) && i < 1000; i++) {
		double v = i * step, y = MT + PH - v / top * PH;

		line(f, ML, y, ML + PW, y, "grid");
		fprintf(f, "<text class=\"yt\" x=\"%d\" y=\"%.1f\">%.*f</text>", ML - 6, y + 4, dec,
			v / d);
	}
	fprintf(f, "<text class=\"yl\" transform=\"translate(14 %d) rotate(-90)\">%s", MT + PH / 2,
		pre);
	lr_rep_escape(f, unit);
	fputs("</text>", f);
}

static void x_axis(FILE *f, double x_max)
{
	const char *unit = "s";
	double div = 1, step;

	if (x_max >= 7200) {
		unit = "h";
		div = 3600;
	} else if (x_max >= 300) {
		unit = "min";
		div = 60;
	}
	step = lr_rep_nice_step(x_max / div / 8);
	for (int i = 0; i * step * div <= x_max * (1 + 1e-9) && i < 1000; i++) {
		double v = i * step, x = ML + v * div / x_max * PW;

		line(f, x, MT, x, MT + PH, "grid");
		fprintf(f, "<text class=\"xt\" x=\"%.1f\" y=\"%d\">%.*f</text>", x, MT + PH + 16,
			tick_decimals(step), v);
	}
	fprintf(f, "<text class=\"xl\" x=\"%d\" y=\"%d\">time since start (%s)</text>", ML + PW / 2,
		H - 6, unit);
	line(f, ML, MT + PH, ML + PW, MT + PH, "axis");
	line(f, ML, MT, ML, MT + PH, "axis");
}

static void legend(FILE *f, const struct lr_svg_chart *c)
{
	double x = ML;

	for (unsigned i = 0; i < c->n; i++) {
		const struct lr_svg_series *s = &c->s[i];

		fprintf(f, "<line x1=\"%.0f\" y1=\"14\" x2=\"%.0f\" y2=\"14\" stroke=\"%s\" "
			   "stroke-width=\"2.5\" stroke-dasharray=\"%s\"/>",
			x, x + 34, colour[s->style], dash[s->style]);
		fprintf(f, "<text class=\"lg\" x=\"%.0f\" y=\"18\">", x + 40);
		lr_rep_escape(f, s->label);
		fputs("</text>", f);
		x += 48 + 7.5 * (double)strlen(s->label) + 20;
	}
	fprintf(f, "<rect x=\"%.0f\" y=\"8\" width=\"20\" height=\"12\" class=\"bandkey\"/>"
		   "<text class=\"lg\" x=\"%.0f\" y=\"18\">shade: min..max of each column, line: "
		   "mean</text>",
		x, x + 26);
}

/* One series: each run of buckets closer than gap_secs becomes one band and one line. */
static void series(FILE *f, const struct lr_svg_chart *c, const struct lr_svg_series *s,
		   double top, double x_max)
{
	unsigned k = 0;

	while (k < c->n_buckets) {
		unsigned first, last, prev;
		bool flat = true;

		while (k < c->n_buckets && !s->b[k * s->stride].n)
			k++;
		if (k == c->n_buckets)
			break;
		first = last = prev = k;
		for (k++; k < c->n_buckets; k++) {
			if (!s->b[k * s->stride].n)
				continue;
			if ((k - prev) * c->bucket_secs > c->gap_secs)
				break;
			prev = last = k;
		}
		for (unsigned j = first; j <= last; j++) {
			const struct lr_rep_band *b = &s->b[j * s->stride];

			if (b->n && b->max > b->min)
				flat = false;
		}
#define X(j) (ML + fmin(((j) + 0.5) * c->bucket_secs / x_max, 1.0) * PW)
#define Y(v) (MT + PH - (v) / top * PH)
		if (!flat) {
			fprintf(f, "<path class=\"band\" fill=\"%s\" d=\"M", colour[s->style]);
			for (unsigned j = first; j <= last; j++)
				if (s->b[j * s->stride].n)
					fprintf(f, "%.1f,%.1f ", X(j), Y(s->b[j * s->stride].max));
			for (unsigned j = last + 1; j-- > first;)
				if (s->b[j * s->stride].n)
					fprintf(f, "%.1f,%.1f ", X(j), Y(s->b[j * s->stride].min));
			fputs("Z\"/>", f);
		}
		fprintf(f, "<path class=\"ln\" stroke=\"%s\" stroke-dasharray=\"%s\" d=\"M",
			colour[s->style], dash[s->style]);
		for (unsigned j = first; j <= last; j++) {
			const struct lr_rep_band *b = &s->b[j * s->stride];

			if (b->n)
				fprintf(f, "%.1f,%.1f ", X(j), Y(b->sum / b->n));
		}
		if (first == last)	/* a lone sample: a short tick so it shows */
			fprintf(f, "%.1f,%.1f", X(first) + 2, Y(s->b[first * s->stride].sum /
								 s->b[first * s->stride].n));
		fputs("\"/>", f);
#undef X
#undef Y
	}
}

int lr_svg_time_chart(FILE *f, const struct lr_svg_chart *c)
{
	double step, top = lr_rep_axis_top(c->y_peak, 5, &step);
	double x_max = c->x_max_secs > c->bucket_secs ? c->x_max_secs : c->bucket_secs;

	fputs("<figure><figcaption>", f);
	lr_rep_escape(f, c->title);
	fprintf(f, "</figcaption><svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" "
		   "aria-label=\"", W, H);
	lr_rep_escape(f, c->title);
	fprintf(f, "\" data-ymax=\"%.17g\">", top);
	y_axis(f, top, step, c->unit);
	x_axis(f, x_max);
	legend(f, c);
	for (unsigned i = 0; i < c->n; i++)
		series(f, c, &c->s[i], top, x_max);
	fputs("</svg></figure>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* 0..10: the colour step of a softirq percentage. */
static const char *const heat[] = {"#f4f6f8", "#fde0c5", "#fcc39a", "#fba572", "#f6844e",
				   "#ea6334", "#d6452a", "#bb2c25", "#9a1b21", "#78101c",
				   "#4f0714"};

static int heat_level(double pct)
{
	int l = (int)ceil(pct / 10 - 1e-9);

	return l < 0 ? 0 : l > 10 ? 10 : l;
}

int lr_svg_heatmap(FILE *f, const struct lr_report *r)
{
	size_t n = r->n_cpus, group = (n + HEAT_ROWS_MAX - 1) / HEAT_ROWS_MAX;
	size_t rows = group ? (n + group - 1) / group : 0;
	unsigned used = (unsigned)fmin(ceil(r->elapsed_max / r->bucket_secs) + 1, LR_REP_BUCKETS);
	double mean_iv = r->interval_rows ? r->interval_sum / (double)r->interval_rows : 0;
	unsigned cols = used < HEAT_COLS_MAX ? used : HEAT_COLS_MAX;
	double rh = rows ? fmax(3, fmin(20, 560.0 / (double)rows)) : 20;

	if (mean_iv > 0 && r->elapsed_max / mean_iv < cols)
		cols = (unsigned)fmax(1, ceil(r->elapsed_max / mean_iv));
	double cw, hh = MT + rh * (double)rows + MB;
	unsigned look = (unsigned)ceil(r->interval_max / r->bucket_secs);

	if (!n)
		return 0;
	cw = (double)PW / cols;
	fputs("<figure><figcaption>Softirq % per CPU over time (each cell: the highest value in "
	      "its span)</figcaption>", f);
	fprintf(f, "<svg class=\"chart heat\" viewBox=\"0 0 %d %.0f\" role=\"img\" "
		   "aria-label=\"softirq heat map\">", W, hh);
	for (int l = 0; l <= 10; l++) {
		fprintf(f, "<rect x=\"%d\" y=\"6\" width=\"28\" height=\"12\" fill=\"%s\" "
			   "class=\"cell\"/>", ML + l * 44, heat[l]);
		fprintf(f, "<text class=\"lg\" x=\"%d\" y=\"30\">%s%d</text>", ML + l * 44,
			l ? "\xe2\x89\xa4" : "", l * 10);	/* "<=" */
	}
	fprintf(f, "<text class=\"lg\" x=\"%d\" y=\"16\">softirq %%</text>", ML + 11 * 44 + 4);
	for (size_t row = 0; row < rows; row++) {
		size_t c0 = row * group, c1 = c0 + group < n ? c0 + group : n;
		double y = MT + rh * (double)row;
		int run_level = -2;
		unsigned run_start = 0;

		fprintf(f, "<g><title>");
		if (strcmp(r->cpus[c0].side, "local") || r->cpus[c0].host[0]) {
			lr_rep_escape(f, r->cpus[c0].host[0] ? r->cpus[c0].host : r->cpus[c0].side);
			fputc(' ', f);
		}
		fprintf(f, "cpu%d", r->cpus[c0].cpu);
		if (c1 - c0 > 1)
			fprintf(f, "..cpu%d", r->cpus[c1 - 1].cpu);
		fputs("</title>", f);
		if (rh >= 11 || row % (size_t)ceil(11 / rh) == 0) {	/* labels never overlap */
			fprintf(f, "<text class=\"yt\" x=\"%d\" y=\"%.1f\">%scpu%d%s</text>", ML - 6,
				y + rh - 1.5, strcmp(r->cpus[c0].side, "peer") ? "" : "peer ",
				r->cpus[c0].cpu, c1 - c0 > 1 ? "+" : "");
		}
		for (unsigned col = 0; col <= cols; col++) {
			int level = -1;

			if (col < cols) {
				unsigned b0 = col * used / cols, b1 = (col + 1) * used / cols;
				double mx = -1;

				for (size_t c = c0; c < c1; c++)
					for (unsigned b = b0; b < b1 && b < LR_REP_BUCKETS; b++)
						if (r->cpus[c].band[b].n && r->cpus[c].band[b].max > mx)
							mx = r->cpus[c].band[b].max;
				/* a row covers (elapsed - interval, elapsed]: an empty cell is
				 * covered by the next row when that row is within one interval */
				for (unsigned b = b1; mx < 0 && b < b1 + look && b < LR_REP_BUCKETS; b++)
					for (size_t c = c0; c < c1; c++)
						if (r->cpus[c].band[b].n && r->cpus[c].band[b].max > mx)
							mx = r->cpus[c].band[b].max;
				level = mx < 0 ? -1 : heat_level(mx);
			}
			if (level == run_level)
				continue;
			if (run_level >= 0)
				fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
					   "fill=\"%s\"/>", ML + run_start * cw, y,
					(col - run_start) * cw, rh - (rh > 4 ? 1 : 0), heat[run_level]);
			run_level = level;
			run_start = col;
		}
		fputs("</g>", f);
	}
	{
		double x_max = fmax(r->elapsed_max, r->bucket_secs);
		const char *unit = x_max >= 7200 ? "h" : x_max >= 300 ? "min" : "s";
		double div = x_max >= 7200 ? 3600 : x_max >= 300 ? 60 : 1;
		double step = lr_rep_nice_step(x_max / div / 8), base = MT + rh * (double)rows;
		double span = used * r->bucket_secs;	/* the cells cover the used buckets */

		for (int i = 0; i * step * div <= span * (1 + 1e-9) && i < 1000; i++) {
			double v = i * step, x = ML + v * div / span * PW;

			line(f, x, base, x, base + 5, "axis");
			fprintf(f, "<text class=\"xt\" x=\"%.1f\" y=\"%.1f\">%.*f</text>", x,
				base + 18, tick_decimals(step), v);
		}
		fprintf(f, "<text class=\"xl\" x=\"%d\" y=\"%.1f\">time since start (%s)</text>",
			ML + PW / 2, hh - 6, unit);
	}
	fputs("</svg></figure>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* The first series is solid, the second hatched: told apart without colour. */
static void bar_fill(char *buf, size_t len, unsigned series, unsigned id)
{
	if (series)
		snprintf(buf, len, "url(#hatch%u)", id);
	else
		snprintf(buf, len, "%s", colour[0]);
}

int lr_svg_bars(FILE *f, const char *title, const char *unit, const char *const *labels,
		const double (*v)[2], unsigned n, const char *const names[2])
{
	static unsigned id;	/* pattern ids unique within the document */
	const int lw = 190, bh = 12, gap = 8;
	double peak = 0, step, top;
	int hh = MT + (int)n * (2 * bh + gap) + MB;
	bool two = false;

	for (unsigned i = 0; i < n; i++) {
		peak = fmax(peak, fmax(v[i][0], v[i][1]));
		two |= v[i][1] >= 0;
	}
	top = lr_rep_axis_top(peak, 5, &step);
	id++;
	fputs("<figure><figcaption>", f);
	lr_rep_escape(f, title);
	fprintf(f, "</figcaption><svg class=\"chart\" viewBox=\"0 0 %d %d\" role=\"img\" "
		   "aria-label=\"", W, hh);
	lr_rep_escape(f, title);
	fprintf(f, "\" data-ymax=\"%.17g\"><defs><pattern id=\"hatch%u\" width=\"6\" height=\"6\" "
		   "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" "
		   "height=\"6\" fill=\"#fff\"/><rect width=\"3\" height=\"6\" fill=\"%s\"/>"
		   "</pattern></defs>", top, id, colour[1]);
	for (unsigned s = 0; s < (two ? 2u : 1u); s++) {
		char fill[32];

		bar_fill(fill, sizeof(fill), s, id);
		fprintf(f, "<rect x=\"%d\" y=\"8\" width=\"20\" height=\"12\" fill=\"%s\" "
			   "stroke=\"#333\"/>", lw + (int)s * 240, fill);
		fprintf(f, "<text class=\"lg\" x=\"%d\" y=\"18\">", lw + 26 + (int)s * 240);
		lr_rep_escape(f, names[s]);
		fputs("</text>", f);
	}
	for (int i = 0; i * step <= top * (1 + 1e-9) && i < 1000; i++) {
		const char *pre;
		double t = i * step, d = si_prefix(top, &pre), x = lw + t / top * (W - lw - MR);

		line(f, x, MT, x, hh - MB, "grid");
		fprintf(f, "<text class=\"xt\" x=\"%.1f\" y=\"%d\">%.*f</text>", x, hh - MB + 16,
			tick_decimals(step / d), t / d);
		if (t + step > top * (1 + 1e-9)) {
			fprintf(f, "<text class=\"xl\" x=\"%d\" y=\"%d\">%s", lw + (W - lw) / 2, hh - 6,
				pre);
			lr_rep_escape(f, unit);
			fputs("</text>", f);
		}
	}
	for (unsigned i = 0; i < n; i++) {
		int y = MT + (int)i * (2 * bh + gap);

		fprintf(f, "<text class=\"yt\" x=\"%d\" y=\"%d\">", lw - 6, y + bh + 4);
		lr_rep_escape(f, labels[i]);
		fputs("</text>", f);
		for (unsigned s = 0; s < 2; s++) {
			char val[48];

			if (v[i][s] < 0)
				continue;
			char fill[32];

			lr_rep_fmt_si(val, sizeof(val), v[i][s], unit);
			bar_fill(fill, sizeof(fill), s, id);
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
				   "fill=\"%s\" stroke=\"#333\" stroke-width=\"0.5\"/>",
				lw, y + (int)s * bh, v[i][s] / top * (W - lw - MR), bh - 1, fill);
			{
				double bw = v[i][s] / top * (W - lw - MR);
				bool inside = bw > W - lw - MR - 110;	/* no room after the bar */

				fprintf(f, "<text class=\"bv%s\" x=\"%.1f\" y=\"%d\">%s</text>",
					inside ? " in" : "", lw + bw + (inside ? -4 : 4),
					y + (int)s * bh + 10, val);
			}
		}
	}
	fputs("</svg></figure>\n", f);
	return ferror(f) ? -EIO : 0;
}
