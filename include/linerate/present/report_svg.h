/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The report's drawing: inline SVG charts (time series with a min/max band per pixel column so
 * no peak is lost, a CPU x time heat map, horizontal bars), axes with 1-2-5 ticks and SI
 * prefixes, and the HTML escaping every string from a CSV goes through. Pure output to a FILE;
 * no script, no external reference. [main] */
#ifndef LINERATE_REPORT_SVG_H
#define LINERATE_REPORT_SVG_H

#include <stddef.h>
#include <stdio.h>

struct lr_rep_band;
struct lr_report;

/* Writes s with & < > " ' escaped (and control bytes dropped). */
void lr_rep_escape(FILE *f, const char *s);

/* The 1-2-5 step (1, 2, 5 x 10^k) at or above raw; raw <= 0 gives 1. */
double lr_rep_nice_step(double raw);
/* Axis top for data peaking at peak with about `ticks` steps: a multiple of *step >= peak. */
double lr_rep_axis_top(double peak, unsigned ticks, double *step);
/* v with an SI prefix and unit: "9.41 Gbit/s", "531 kpkt/s", "0 bit/s", "12.0 %"-free. */
void lr_rep_fmt_si(char *buf, size_t len, double v, const char *unit);

enum lr_svg_style { LR_SVG_SOLID, LR_SVG_DASHED, LR_SVG_DOTTED, LR_SVG_DASHDOT };

struct lr_svg_series {
	const char *label;	/* escaped at output */
	const struct lr_rep_band *b;	/* bucket k is b[k * stride] */
	size_t stride;
	enum lr_svg_style style;	/* also picks the colour: told apart by more than colour */
};

struct lr_svg_chart {
	const char *title;	/* escaped */
	const char *unit;	/* "bit/s": the axis says "Gbit/s" */
	double bucket_secs;	/* width of a bucket */
	unsigned n_buckets;
	double x_max_secs;	/* the run's length */
	double gap_secs;	/* buckets further apart are not joined (missing rows) */
	double y_peak;	/* the exact peak of every series (the axis reaches it) */
	const struct lr_svg_series *s;
	unsigned n;
};

/* One time chart as <figure><svg>: axes, ticks, legend, per series a min..max band and the
 * mean line. 0 or -EIO. */
int lr_svg_time_chart(FILE *f, const struct lr_svg_chart *c);

/* The CPU x time softirq heat map of r (CPUs grouped when there are more than 128 rows). */
int lr_svg_heatmap(FILE *f, const struct lr_report *r);

/* Horizontal bars: n rows, each with up to two values (second < 0: none), for streams and the
 * matrix. names[2] label the two series (hatched vs solid). */
int lr_svg_bars(FILE *f, const char *title, const char *unit, const char *const *labels,
		const double (*v)[2], unsigned n, const char *const names[2]);

#endif
