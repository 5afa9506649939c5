// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the report's CSV reader. Any bytes either read into a report or fail with
 * -EINVAL and one "fuzz.csv:LINE: why" line; either way the HTML is then written (to
 * /dev/null) from whatever was read, so the writer meets every shape the reader lets through. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/sample/report_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[LR_REP_ERR_MAX];
	struct lr_report *r;
	FILE *in, *out;
	int rc;

	if (!size || lr_report_new(&r))
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in) {
		lr_report_free(r);
		return 0;
	}
	err[0] = '\0';
	rc = lr_report_read(r, in, "fuzz.csv", err, sizeof(err));
	fclose(in);
	if (rc && rc != -EINVAL && rc != -ENOMEM)
		abort();
	if (rc == -EINVAL && (strncmp(err, "fuzz.csv:", 9) || strchr(err, '\n')))
		abort();
	out = fopen("/dev/null", "w");
	if (out) {
		if (lr_report_write_html(r, out))
			abort();
		fclose(out);
	}
	lr_report_free(r);
	return 0;
}
