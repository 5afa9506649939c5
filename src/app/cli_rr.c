// SPDX-License-Identifier: GPL-2.0-or-later
/* --rr's options (cli_rr.h): its sizes and what it cannot go with, beside cli.c's table. */
#include <stdint.h>
#include <string.h>

#include "linerate/app/cli_rr.h"
#include "linerate/app/config.h"
#include "linerate/core/strutil.h"

/* -l REQ,RESP: --rr's request and response bytes (checked against --rr by lr_cli_rr_valid). */
int lr_cli_rr_sizes(const char *arg, struct lr_traffic_config *t)
{
	char req[32];
	const char *comma = strchr(arg, ',');
	uint64_t a, b;

	if ((size_t)(comma - arg) >= sizeof(req))
		return -1;
	memcpy(req, arg, (size_t)(comma - arg));
	req[comma - arg] = '\0';
	if (lr_parse_size_bytes(req, &a) || lr_parse_size_bytes(comma + 1, &b) || !a || !b ||
	    a > UINT32_MAX || b > UINT32_MAX)
		return -1;
	t->rr_req_bytes = (uint32_t)a;
	t->rr_resp_bytes = (uint32_t)b;
	t->length = 0;
	return 0;
}

/* --rr: its sizes (-l REQ[,RESP], netperf's 1,1 by default; one size is both), and what it
 * cannot go with. The data streams' iperf3 length becomes the larger size (UDP: at least
 * iperf3's 16), which only a linerate server, answering by the sizes, sees. */
int lr_cli_rr_valid(struct lr_config *cfg, char *err, size_t len)
{
	struct lr_traffic_config *t = &cfg->traffic;
	uint64_t max = t->udp ? 65507 : 1024 * 1024, big;

	if (!cfg->rr) {
		if (t->rr_req_bytes)
			return lr_err_inval(err, len, "-l REQ,RESP: two sizes are --rr's");
		return 0;
	}
	if (!t->host || cfg->mode == LR_MODE_SERVER)
		return lr_err_inval(err, len, "--rr needs -c HOST");
	if (cfg->mode != LR_MODE_HEADLESS)
		return lr_err_inval(err, len, "--rr prints a table: it has no dashboard");
	if (cfg->matrix || t->reverse || t->bidir || t->num_bytes || t->blockcount || t->file ||
	    t->bitrate_set || cfg->omit_ns)
		return lr_err_inval(err, len, "--rr excludes %s",
			    cfg->matrix ? "--matrix (its key rr=0,1 runs it)" : t->reverse ? "-R"
			    : t->bidir ? "--bidir" : t->num_bytes || t->blockcount ? "-n and -k"
			    : t->file ? "-F" : t->bitrate_set ? "-b" : "-O");
	if (!t->rr_req_bytes)
		t->rr_req_bytes = t->rr_resp_bytes = t->length ? (uint32_t)t->length : 1;
	if (t->rr_req_bytes > max || t->rr_resp_bytes > max)
		return lr_err_inval(err, len, "-l: %u,%u is out of range for %s_RR (1 to %llu)",
			    t->rr_req_bytes, t->rr_resp_bytes, t->udp ? "UDP" : "TCP",
			    (unsigned long long)max);
	big = t->rr_req_bytes > t->rr_resp_bytes ? t->rr_req_bytes : t->rr_resp_bytes;
	t->length = t->udp && big < 16 ? 16 : big;
	return 0;
}
