// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -J's "linerate_latency": the probes' state, the idle baseline, each report interval under
 * load and the load's summary, in microseconds (3 decimals) as iperf3 prints its rtt.
 */
#include <jansson.h>

#include "linerate/diagnose/latency.h"
#include "linerate/present/latency_out.h"

static json_t *us_or_null(int64_t ns)
{
	return ns >= 0 ? json_real((double)ns / 1e3) : json_null();
}

static json_t *count_or_null(bool known, uint64_t n)
{
	return known ? json_integer((json_int_t)n) : json_null();
}

json_t *lr_latency_json(const struct lr_latency *l)
{
	bool some = !lr_latency_none(l);
	json_t *o = json_object(), *idle = json_object(), *load = json_object();
	json_t *ivs = json_array(), *pr = json_object();

	if (!o || !idle || !load || !ivs || !pr) {
		json_decref(o);
		json_decref(idle);
		json_decref(load);
		json_decref(ivs);
		json_decref(pr);
		return NULL;
	}
	json_object_set_new(o, "state", json_string(lr_latency_state_word(l)));
	json_object_set_new(idle, "count", count_or_null(some, l->idle.count));
	json_object_set_new(idle, "p50_us", us_or_null(l->idle.p50_ns));
	json_object_set_new(idle, "p99_us", us_or_null(l->idle.p99_ns));
	json_object_set_new(o, "idle", idle);
	for (unsigned i = lr_latency_first_iv(l); some && i < l->n_iv; i++) {
		const struct lr_latency_iv *v = lr_latency_iv_at(l, i);

		json_array_append_new(
			ivs, json_pack("{s:f,s:f,s:I,s:I,s:I,s:o,s:o,s:o,s:o}", "start", v->start_s,
				       "end", v->end_s, "sent", (json_int_t)v->sent, "answered",
				       (json_int_t)v->answered, "lost", (json_int_t)v->lost,
				       "p50_us", us_or_null(v->q.p50_ns), "p90_us",
				       us_or_null(v->q.p90_ns), "p99_us", us_or_null(v->q.p99_ns),
				       "max_us", us_or_null(v->q.max_ns)));
	}
	json_object_set_new(o, "intervals", ivs);
	json_object_set_new(load, "count", count_or_null(some, l->load.count));
	json_object_set_new(load, "p50_us", us_or_null(l->load.p50_ns));
	json_object_set_new(load, "p90_us", us_or_null(l->load.p90_ns));
	json_object_set_new(load, "p99_us", us_or_null(l->load.p99_ns));
	json_object_set_new(load, "max_us", us_or_null(l->load.max_ns));
	json_object_set_new(load, "sent", count_or_null(some, l->load_sent));
	json_object_set_new(load, "lost", count_or_null(some, l->load_lost));
	json_object_set_new(o, "load", load);
	json_object_set_new(pr, "sent", count_or_null(some, l->sent));
	json_object_set_new(pr, "answered", count_or_null(some, l->answered));
	json_object_set_new(pr, "lost", count_or_null(some, l->lost));
	json_object_set_new(pr, "refused", count_or_null(some, l->refused));
	/* neither answered nor yet 2 s old when the test ended: fate unknown, so apart */
	json_object_set_new(pr, "unanswered_at_end",
			    count_or_null(some && l->sent >= l->answered + l->lost,
					  l->sent - l->answered - l->lost));
	json_object_set_new(o, "probes", pr);
	return o;
}
