// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cycles' ledger written out: one line per busy CPU per end (its split and whether this
 * test's threads ran there), then the conclusion; or the same as -J's "linerate_cycles".
 * Main thread.
 */
#include <stdio.h>

#include <jansson.h>

#include "linerate/diagnose/cycles.h"
#include "linerate/present/cycles_out.h"

static const char *side_name(int k)
{
	return k == LR_CYCLES_LOCAL ? "local" : "peer";
}

void lr_cycles_print(FILE *f, const struct lr_cycles *c)
{
	fprintf(f, "Cycles:\n");
	for (int k = 0; k < LR_CYCLES__SIDES; k++) {
		const struct lr_cycles_end *e = &c->end[k];

		if (!e->known) {
			fprintf(f, "  %-8s %-16.16s CPU times unknown\n", e->role,
				e->host[0] ? e->host : side_name(k));
			continue;
		}
		for (unsigned i = 0; i < e->n_top; i++) {
			const struct lr_cycles_cpu *u = &e->top[i];

			fprintf(f, "  %-8s %-16.16s cpu%-3d %3.0f%% busy: softirq %.0f%% irq %.0f%% sys "
				"%.0f%% usr %.0f%% steal ", e->role, e->host[0] ? e->host : side_name(k),
				u->cpu, u->busy, u->softirq, u->irq, u->sys, u->usr);
			if (u->steal >= 0)
				fprintf(f, "%.0f%%", u->steal);
			else
				fputs("unknown", f);
			if (u->threads >= 0)
				fprintf(f, ", test threads %d%% of ticks", u->threads);
			fputc('\n', f);
		}
	}
	fprintf(f, "  => %s\n", c->conclusion);
}

static json_t *pct(double v)
{
	return v >= 0 ? json_real(v) : json_null();
}

static json_t *cpu_json(const struct lr_cycles_cpu *u)
{
	return json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "cpu", u->cpu, "busy_pct",
			 pct(u->busy), "softirq_pct", pct(u->softirq), "irq_pct", pct(u->irq),
			 "sys_pct", pct(u->sys), "usr_pct", pct(u->usr), "steal_pct", pct(u->steal),
			 "idle_pct", pct(u->idle), "net_rx_per_s", pct(u->net_rx_per_s),
			 "net_tx_per_s", pct(u->net_tx_per_s), "test_threads_pct",
			 u->threads >= 0 ? json_integer(u->threads) : json_null());
}

json_t *lr_cycles_json(const struct lr_cycles *c)
{
	json_t *o = json_object(), *ends = json_array();

	if (!o || !ends) {
		json_decref(o);
		json_decref(ends);
		return NULL;
	}
	for (int k = 0; k < LR_CYCLES__SIDES; k++) {
		const struct lr_cycles_end *e = &c->end[k];
		json_t *cpus = e->known ? json_array() : json_null();

		for (unsigned i = 0; e->known && i < e->n_top; i++)
			json_array_append_new(cpus, cpu_json(&e->top[i]));
		json_array_append_new(ends, json_pack("{s:s,s:s,s:s,s:o,s:o,s:b}", "side", side_name(k),
						      "host", e->host, "role", e->role, "seconds",
						      e->known ? json_real(e->seconds) : json_null(),
						      "cpus", cpus, "saturated", e->saturated));
	}
	json_object_set_new(o, "ends", ends);
	json_object_set_new(o, "bound_by",
			    c->bound >= 0 ? json_pack("{s:s,s:s,s:i}", "side", side_name(c->bound),
						      "host", c->end[c->bound].host, "cpu",
						      c->end[c->bound].top[0].cpu)
					  : json_null());
	json_object_set_new(o, "saturated_pct", json_real(LR_CYCLES_SATURATED_PCT));
	json_object_set_new(o, "conclusion", json_string(c->conclusion));
	return o;
}
