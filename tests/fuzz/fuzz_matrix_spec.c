// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the --matrix SPEC grammar. A SPEC that parses must give n_cases equal to
 * the product of its keys' value counts, every case must be within the limits of the
 * single-test options, and a parse twice must agree; a SPEC that fails must give one line. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/run/matrix_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_cases(const struct lr_matrix_spec *s)
{
	struct lr_traffic_config b, tc;
	uint64_t prod = 1;
	char err[256];

	for (unsigned i = 0; i < s->n_keys; i++)
		prod *= s->n_values[s->order[i]];
	if (prod != s->n_cases || !s->n_cases || s->n_cases > LR_MATRIX_MAX_CASES)
		abort();
	memset(&b, 0, sizeof(b));
	b.parallel = 1;
	for (unsigned i = 0; i < s->n_cases; i += 1 + s->n_cases / 64) {
		lr_matrix_case(s, &b, i, &tc);
		if (tc.parallel < 1 || tc.parallel > LR_MAX_STREAMS || tc.length > 1024 * 1024 ||
		    (tc.reverse && tc.bidir) || (tc.mss && (tc.mss < 88 || tc.mss > 32767)) ||
		    (tc.congestion && strlen(tc.congestion) >= LR_MATRIX_CC_LEN))
			abort();
	}
	if (lr_matrix_spec_check(s, &b, err, sizeof(err)) && (!err[0] || strchr(err, '\n')))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lr_matrix_spec a, b;
	char err_a[256], err_b[256];
	char *spec = malloc(size + 1);
	int ra, rb;

	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	memset(err_a, 'x', sizeof(err_a));
	ra = lr_matrix_spec_parse(spec, &a, err_a, sizeof(err_a));
	if (ra) {
		if (ra != -EINVAL || !memchr(err_a, '\0', sizeof(err_a)) || !err_a[0] ||
		    strchr(err_a, '\n'))
			abort();
	} else {
		check_cases(&a);
	}
	rb = lr_matrix_spec_parse(spec, &b, err_b, sizeof(err_b));
	if (ra != rb || (ra && strcmp(err_a, err_b)) || (!ra && memcmp(&a, &b, sizeof(a))))
		abort();
	free(spec);
	return 0;
}
