// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: --expect's COND[,COND] grammar (diagnose/expect.h). A spec that parses must
 * hold 1 to LR_EXPECT_MAX conditions, each with a known measure and operator, a finite value in
 * range (percentages 0 to 100, never negative) and its own text as written; every condition
 * judged on empty facts must come back "cannot be judged" with one line naming it (an unknown
 * is never a pass). A spec that fails gives -EINVAL and one line. Parsing twice agrees. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/diagnose/expect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const char *spec, const struct lr_expect *e)
{
	struct lr_expect_facts f;
	char line[200];

	memset(&f, 0, sizeof(f));
	f.lost = f.packets = f.retransmits = -1;
	f.rate_bps = -1;
	if (!e->n || e->n > LR_EXPECT_MAX)
		abort();
	for (unsigned i = 0; i < e->n; i++) {
		const struct lr_expect_cond *c = &e->c[i];

		if (c->metric > LR_EXPECT_CPU || c->op > LR_EXPECT_GT || !isfinite(c->value) ||
		    c->value < 0 || !c->text[0] || !strstr(spec, c->text))
			abort();
		if ((c->metric == LR_EXPECT_LOSS || c->metric == LR_EXPECT_CPU) && c->value > 100)
			abort();
		f.ran = i % 2;	/* both the test that did not run and the one that knew nothing */
		if (lr_expect_judge(c, &f, line, sizeof(line)) != LR_EXPECT_UNKNOWN ||
		    strncmp(line, "expect ", 7) || strchr(line, '\n'))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lr_expect a, b;
	char err_a[160], err_b[160];
	char *spec = malloc(size + 1);
	int ra, rb;

	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	ra = lr_expect_parse(spec, &a, err_a, sizeof(err_a));
	if (ra) {
		if (ra != -EINVAL || !err_a[0] || strchr(err_a, '\n'))
			abort();
	} else {
		check(spec, &a);
	}
	rb = lr_expect_parse(spec, &b, err_b, sizeof(err_b));
	if (ra != rb || (ra && strcmp(err_a, err_b)) || (!ra && memcmp(&a, &b, sizeof(a))))
		abort();
	free(spec);
	return 0;
}
