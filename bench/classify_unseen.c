// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench/classify_unseen: how often lr_classify agrees with the labels of driver counter names the
 * rules were not written from (tests/fixtures/ethtool-unseen/unseen.tsv: driver, name, category,
 * why). A benchmark, never a test: it prints the agreement per expected category, the confusion
 * matrix and every disagreement, and exits 0 whatever the score (2 on a bad file). The rules must
 * never be tuned to this set (its README says why).
 * Usage: classify_unseen [FILE.tsv]   (make bench-classify)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/classify.h"

static int cat_from_name(const char *s)
{
	int c;

	for (c = 0; c < LR_CAT__COUNT; c++)
		if (!strcmp(lr_counter_cat_name((enum lr_counter_cat)c), s))
			return c;
	return -1;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "tests/fixtures/ethtool-unseen/unseen.tsv";
	int conf[LR_CAT__COUNT][LR_CAT__COUNT] = {{0}};
	int rows = 0, agree = 0, lineno = 0, w, g;
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "classify_unseen: cannot open %s\n", path);
		return 2;
	}
	printf("disagreements (driver name: classified, expected -- why):\n");
	while (fgets(line, sizeof(line), f)) {
		char *drv = strtok(line, "\t\n"), *name = strtok(NULL, "\t\n");
		char *want = strtok(NULL, "\t\n"), *why = strtok(NULL, "\n");
		struct lr_counter_class c;

		lineno++;
		if (!drv || *drv == '#')
			continue;
		if (!name || !want || (w = cat_from_name(want)) < 0) {
			fprintf(stderr, "classify_unseen: %s:%d: want driver<TAB>name<TAB>category\n",
				path, lineno);
			fclose(f);
			return 2;
		}
		c = lr_classify(drv, name);
		conf[w][c.cat]++;
		rows++;
		if ((int)c.cat == w)
			agree++;
		else
			printf("  %-6s %-34s %-7s want %-7s -- %s\n", drv, name,
			       lr_counter_cat_name(c.cat), want, why ? why : "");
	}
	fclose(f);

	printf("\nagreement per expected category (rows: expected, columns: classified):\n");
	printf("  %-8s %5s %7s ", "expected", "names", "agree");
	for (g = 0; g < LR_CAT__COUNT; g++)
		printf(" %7s", lr_counter_cat_name((enum lr_counter_cat)g));
	printf("\n");
	for (w = 0; w < LR_CAT__COUNT; w++) {
		int n = 0;

		for (g = 0; g < LR_CAT__COUNT; g++)
			n += conf[w][g];
		printf("  %-8s %5d %6.1f%% ", lr_counter_cat_name((enum lr_counter_cat)w), n,
		       n ? 100.0 * conf[w][w] / n : 0.0);
		for (g = 0; g < LR_CAT__COUNT; g++)
			printf(" %7d", conf[w][g]);
		printf("\n");
	}
	printf("  %-8s %5d %6.1f%%\n", "all", rows, rows ? 100.0 * agree / rows : 0.0);
	printf("%d of %d names agree (%.1f%%)\n", agree, rows, rows ? 100.0 * agree / rows : 0.0);
	return 0;
}
