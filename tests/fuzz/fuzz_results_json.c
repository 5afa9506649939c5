// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: the results decoder (iperf3 EXCHANGE_RESULTS JSON from either peer) must never
 * crash or leak; accepted results stay within LR_PROTO_MAX_RESULTS unique ids and survive an
 * encode/decode round trip. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/traffic/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_proto_results *r = malloc(sizeof(*r)), *q = malloc(sizeof(*q));
	char err[LR_PROTO_ERR_MAX];
	char *out;
	size_t len;

	if (!r || !q)
		abort();
	if (lr_proto_results_decode((const char *)data, size, r, err) == 0) {
		if (r->n_streams > LR_PROTO_MAX_RESULTS)
			abort();
		for (unsigned i = 0; i < r->n_streams; i++)
			if (r->streams[i].id < 1 || r->streams[i].retransmits < -1)
				abort();
		if (lr_proto_results_encode(r, &out, &len) < 0)
			abort();
		if (lr_proto_results_decode(out, len, q, err) < 0 || q->n_streams != r->n_streams)
			abort();
		for (unsigned i = 0; i < r->n_streams; i++)
			if (q->streams[i].id != r->streams[i].id ||
			    q->streams[i].bytes != r->streams[i].bytes)
				abort();
		free(out);
	}
	free(r);
	free(q);
	return 0;
}
