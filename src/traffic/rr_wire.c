// SPDX-License-Identifier: GPL-2.0-or-later
/* The --rr negotiation's codec (docs/wire.md part 4): the "linerate_rr" member of iperf3's
 * parameters and the server's acknowledgement, which is the same object. Remote input: every
 * value type- and range-checked, the whole object refused on any fault. No I/O. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/traffic/rr.h"

json_t *lr_rr_ask_json(const struct lr_rr_ask *a)
{
	return json_pack("{s:i,s:I,s:I}", "v", LR_RR_VERSION, "req", (json_int_t)a->req_bytes,
			 "resp", (json_int_t)a->resp_bytes);
}

static int size_of(json_t *j, const char *key, uint32_t max, uint32_t *out,
		   char err[LR_PROTO_ERR_MAX])
{
	json_t *v = json_object_get(j, key);

	if (!json_is_integer(v)) {
		snprintf(err, LR_PROTO_ERR_MAX, "linerate_rr: \"%s\" missing or not an integer",
			 key);
		return -EINVAL;
	}
	if (json_integer_value(v) < 1 || json_integer_value(v) > (json_int_t)max) {
		snprintf(err, LR_PROTO_ERR_MAX, "linerate_rr: \"%s\" out of 1..%u", key, max);
		return -EINVAL;
	}
	*out = (uint32_t)json_integer_value(v);
	return 0;
}

int lr_rr_ask_from_json(json_t *j, bool udp, struct lr_rr_ask *a, char err[LR_PROTO_ERR_MAX])
{
	json_t *v = json_object_get(j, "v");
	uint32_t max = udp ? LR_RR_UDP_MAX : LR_RR_TCP_MAX;
	int rc;

	memset(a, 0, sizeof(*a));
	if (!j)
		return 0;
	if (!json_is_object(j) || !json_is_integer(v) || json_integer_value(v) < 1) {
		snprintf(err, LR_PROTO_ERR_MAX, "linerate_rr: not an object with \"v\" >= 1");
		return -EINVAL;
	}
	rc = size_of(j, "req", max, &a->req_bytes, err);
	if (rc == 0)
		rc = size_of(j, "resp", max, &a->resp_bytes, err);
	if (rc < 0)
		memset(a, 0, sizeof(*a));
	return rc;
}

int lr_rr_ack_encode(const struct lr_rr_ask *a, char **out, size_t *len)
{
	json_t *j = lr_rr_ask_json(a);

	*out = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(j);
	if (!*out)
		return -ENOMEM;
	*len = strlen(*out);
	return 0;
}

int lr_rr_ack_decode(const char *buf, size_t len, struct lr_rr_ask *a, char err[LR_PROTO_ERR_MAX])
{
	json_error_t jerr;
	json_t *j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	int rc;

	err[0] = '\0';
	memset(a, 0, sizeof(*a));
	if (!j) {
		snprintf(err, LR_PROTO_ERR_MAX, "bad JSON: %.100s", jerr.text);
		return -EINVAL;
	}
	/* within the larger (TCP) bound: the client then checks they are the sizes it asked */
	rc = lr_rr_ask_from_json(j, false, a, err);
	json_decref(j);
	return rc;
}

void lr_rr_result_merge(struct lr_rr_result *sum, const struct lr_rr_result *flow)
{
	sum->transactions += flow->transactions;
	sum->lost += flow->lost;
	sum->late += flow->late;
	lr_lathist_merge(&sum->rtt, &flow->rtt);
}
