// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer: the params decoder (iperf3 PARAM_EXCHANGE JSON, hostile client input on the
 * server) must never crash or leak, and whatever it accepts must satisfy the documented ranges
 * and survive an encode/decode round trip. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/traffic/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lr_proto_params p, q;
	char err[LR_PROTO_ERR_MAX];
	char *out;
	size_t len;

	if (size > LR_PROTO_PARAMS_MAX)
		return 0;
	if (lr_proto_params_decode((const char *)data, size, &p, err) < 0)
		return 0;
	if (p.parallel < 1 || p.parallel > LR_PROTO_MAX_STREAMS || p.len == 0 || p.time_s < 0 ||
	    p.time_s > LR_PROTO_MAX_TIME_S || p.omit_s < 0 ||
	    (p.udp && (p.len < LR_PROTO_UDP_MIN_LEN || p.len > LR_PROTO_UDP_MAX_LEN)) ||
	    (!p.udp && p.len > LR_PROTO_TCP_MAX_LEN))
		abort();
	if (lr_proto_params_encode(&p, &out, &len) < 0)
		abort();
	if (lr_proto_params_decode(out, len, &q, err) < 0)
		abort();
	free(out);
	if (q.parallel != p.parallel || q.len != p.len || q.udp != p.udp ||
	    q.reverse != p.reverse || q.bidir != p.bidir || q.bandwidth_bps != p.bandwidth_bps)
		abort();
	return 0;
}
