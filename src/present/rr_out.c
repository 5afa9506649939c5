// SPDX-License-Identifier: GPL-2.0-or-later
/* --rr's report: text laid out as netperf's TCP_RR table with -c -C, and -J's "linerate_rr".
 * The figures are rr_sum's; this file only lays them out. */
#include <limits.h>
#include <stdint.h>

#include "linerate/present/rr_out.h"

static const char *proto(const struct lr_rr_result *r)
{
	return r->udp ? "UDP_RR" : "TCP_RR";
}

/* floor(log2(ns)), -1 for 0 */
static int octave(uint64_t ns)
{
	int k = -1;

	for (; ns; ns >>= 1)
		k++;
	return k;
}

/* A column of width w with `prec` decimals, "unknown" when v < 0. */
static void put(FILE *f, int w, int prec, double v)
{
	if (v < 0)
		fprintf(f, "%-*s ", w, "unknown");
	else
		fprintf(f, "%-*.*f ", w, prec, v);
}

void lr_rr_print(FILE *f, const char *host, const struct lr_rr_result *r, const struct lr_rr_sum *s)
{
	const struct lr_lathist *h = &r->rtt;
	uint64_t n = 0;
	unsigned first = 0;
	int cur = -2;

	fprintf(f, "%s to %s: %u flow%s, one transaction in flight each\n", proto(r), host,
		r->flows, r->flows == 1 ? "" : "s");
	fprintf(f, "Request  Resp.    Elapsed  Trans.       Trans.       Service demand us/Tr\n"
		   "Size     Size     Time     count        Rate         local    remote\n"
		   "bytes    bytes    secs.                 per sec\n\n");
	fprintf(f, "%-8u %-8u ", r->req_bytes, r->resp_bytes);
	put(f, 8, 2, s->seconds);
	fprintf(f, "%-12llu ", (unsigned long long)r->transactions);
	put(f, 12, 2, s->tps);
	put(f, 8, 3, s->local_sd_us);
	put(f, 8, 3, s->peer_sd_us);
	fputc('\n', f);
	if (r->udp)
		fprintf(f,
			"\nLost: %llu transactions unanswered within %llu ms (%llu late answers "
			"dropped)\n",
			(unsigned long long)r->lost,
			(unsigned long long)(LR_RR_TIMEOUT_NS / 1000000),
			(unsigned long long)r->late);
	if (!h->count)
		return;
	fprintf(f,
		"\nRound trip (us): min %.1f  p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  "
		"max %.1f  mean %.1f\n",
		s->min_us, s->p50_us, s->p90_us, s->p99_us, s->p999_us, s->max_us, s->mean_us);
	fprintf(f, "Histogram (us, by powers of two; -J has every bucket):\n");
	/* the buckets summed per power of two: a screenful, where -J keeps 32 per octave */
	for (unsigned i = 0; i <= LR_LATHIST_BUCKETS; i++) {
		int k = i < LR_LATHIST_BUCKETS ? octave(lr_lathist_low(i)) : INT_MAX;

		if (k != cur) {
			if (n)
				fprintf(f, "  %12.3f .. %-12.3f %llu\n",
					(double)lr_lathist_low(first) / 1e3,
					(double)lr_lathist_high(i - 1) / 1e3,
					(unsigned long long)n);
			n = 0;
			first = i;
			cur = k;
		}
		if (i < LR_LATHIST_BUCKETS)
			n += h->b[i];
	}
}

static json_t *num(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

json_t *lr_rr_json(const struct lr_rr_result *r, const struct lr_rr_sum *s)
{
	json_t *o = json_object(), *hist = json_array(), *lat;

	if (!o || !hist) {
		json_decref(o);
		json_decref(hist);
		return NULL;
	}
	for (unsigned i = 0; i < LR_LATHIST_BUCKETS; i++)
		if (r->rtt.b[i])
			json_array_append_new(hist,
					      json_pack("{s:f,s:f,s:I}", "low_us",
							(double)lr_lathist_low(i) / 1e3, "high_us",
							(double)lr_lathist_high(i) / 1e3, "count",
							(json_int_t)r->rtt.b[i]));
	lat = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "min", num(s->min_us), "p50",
			num(s->p50_us), "p90", num(s->p90_us), "p99", num(s->p99_us), "p999",
			num(s->p999_us), "max", num(s->max_us), "mean", num(s->mean_us));
	json_object_set_new(o, "proto", json_string(r->udp ? "udp" : "tcp"));
	json_object_set_new(o, "flows", json_integer(r->flows));
	json_object_set_new(o, "request_bytes", json_integer(r->req_bytes));
	json_object_set_new(o, "response_bytes", json_integer(r->resp_bytes));
	json_object_set_new(o, "seconds", num(s->seconds));
	json_object_set_new(o, "transactions", json_integer((json_int_t)r->transactions));
	json_object_set_new(o, "transactions_per_s", num(s->tps));
	json_object_set_new(o, "latency_us", lat ? lat : json_null());
	json_object_set_new(o, "histogram", hist);
	json_object_set_new(o, "local_service_demand_us_per_tran", num(s->local_sd_us));
	json_object_set_new(o, "peer_service_demand_us_per_tran", num(s->peer_sd_us));
	if (r->udp) {
		json_object_set_new(o, "lost", json_integer((json_int_t)r->lost));
		json_object_set_new(o, "late", json_integer((json_int_t)r->late));
	}
	return o;
}
