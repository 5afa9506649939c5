// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: /proc/net/snmp header/value pairs, plus the sysctl value helpers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/collect/snmp.h"
#include "linerate/collect/tuning.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_snmp_raw r;
	char *buf = malloc(size ? size : 1);
	int64_t v[3];
	char word[32];
	int n;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	n = lr_snmp_parse(buf, size, &r);
	/* at most every counter it looks for: 4 of the stack line and the ledger's drops */
	if (n > 4 + LR_SD__COUNT || (n < 0 && r.valid))
		abort();
	lr_tuning_parse_ints(buf, size, v, 3);
	if (!lr_tuning_parse_word(buf, size, word, sizeof(word)) && strlen(word) >= sizeof(word))
		abort();
	free(buf);
	return 0;
}
