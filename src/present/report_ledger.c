// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report's loss ledger: a --ledger-csv (docs/csv.md §8) summed over its intervals, one
 * table per direction, each line's stage, side, host and witness with its total in its own
 * unit and in datagrams or segments. A line that some intervals did not know says over how
 * many it is summed; one no interval knew is unknown, never 0. Main thread.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/present/report_svg.h"
#include "report_priv.h"

static void total(FILE *f, const char *key, double v, uint64_t known, uint64_t of,
		  const char *unit, bool alarm)
{
	if (!known) {
		fprintf(f, "<td class=\"n muted\" data-k=\"%s\">unknown</td>", key);
		return;
	}
	fprintf(f, "<td class=\"n%s\" data-k=\"%s\" data-v=\"%.17g\">%.0f%s%s", alarm && v > 0 ? " bad" : "",
		key, v, v, *unit ? " " : "", unit);
	if (known < of)
		fprintf(f, " <span class=\"muted\">(%llu of %llu intervals)</span>",
			(unsigned long long)known, (unsigned long long)of);
	fputs("</td>", f);
}

static bool is_stage(const char *s)
{
	return strcmp(s, "sent") && strcmp(s, "received") && strcmp(s, "lost");
}

void lr_rep_ledger_section(FILE *f, const struct lr_report *r)
{
	static const char *const dirs[2] = {"up", "down"};

	fputs("<section id=\"ledger\"><h2>Loss ledger</h2><p class=\"sub\">From --ledger-csv: "
	      "where the test's packets went, each stage witnessed by its own counter on its own "
	      "end, summed over the test's intervals (a counter's intervals sum to its delta over "
	      "the test). unaccounted = lost minus the stages: loss no counter saw (a filter, a "
	      "policer, the path) when positive.</p>\n", f);
	for (int d = 0; d < 2; d++) {
		bool any = false;

		for (size_t i = 0; i < r->n_ledger && !any; i++)
			any = !strcmp(r->ledger[i].direction, dirs[d]);
		if (!any)
			continue;
		fprintf(f, "<h3>%s</h3><table class=\"sum\" data-direction=\"%s\"><tr><th>stage</th>"
			   "<th>side</th><th>host</th><th>witness</th><th>count</th>"
			   "<th>datagrams / segments</th></tr>\n",
			d ? "down: the server sent (-R or --bidir)" : "up: this host sent", dirs[d]);
		for (size_t i = 0; i < r->n_ledger; i++) {
			const struct lr_rep_ledger_line *l = &r->ledger[i];

			if (strcmp(l->direction, dirs[d]))
				continue;
			fputs("<tr data-stage=\"", f);
			lr_rep_escape(f, l->stage);
			fputs("\"><th>", f);
			lr_rep_escape(f, l->stage);
			fputs("</th><td>", f);
			lr_rep_escape(f, l->side);
			fputs("</td><td>", f);
			lr_rep_escape(f, l->host[0] ? l->host : l->side[0] ? "unknown" : "");
			fputs("</td><td>", f);
			lr_rep_escape(f, l->counter);
			fputs("</td>", f);
			total(f, "count", l->count, l->known, l->intervals, l->unit,
			      is_stage(l->stage) && strcmp(l->stage, "unaccounted"));
			total(f, "datagrams", l->datagrams, l->dg_known, l->intervals,
			      l->approx ? "(converted)" : "", false);
			fputs("</tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	fputs("</section>\n", f);
}
