// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The loss ledger written out: one line per stage (which end, its host and interface, the
 * counter, its count in its own unit and in the test's), the unaccounted remainder, the
 * conclusion and what to do; or the same as -J's "linerate_ledger". Main thread.
 */
#include <stdio.h>

#include <jansson.h>

#include "linerate/diagnose/ledger.h"
#include "linerate/present/ledger_out.h"

static const char *host_of(const struct lr_ledger *l, const struct lr_ledger_row *r)
{
	const char *h = r->sender ? l->snd_host : l->rcv_host;

	return h[0] ? h : "?";
}

void lr_ledger_print(FILE *f, const struct lr_ledger *l)
{
	/* --bidir prints two: each names its direction as --ledger-csv does */
	fprintf(f, "Loss ledger%s%s, %s -> %s (%s):",
		l->requests_only ? " of the requests" : l->bidir ? " " : "",
		l->bidir && !l->requests_only ? lr_ledger_dir_name(l->dir) : "",
		l->snd_host[0] ? l->snd_host : "?", l->rcv_host[0] ? l->rcv_host : "the peer",
		l->unit);
	{	/* each figure, unknown said so: never a dangling comma */
		const char *const name[3] = {"sent", "received", "lost"};
		const int64_t v[3] = {l->sent, l->received, l->lost};

		for (int k = 0; k < 3; k++)
			if (v[k] >= 0)
				fprintf(f, "%s %s %lld", k ? "," : "", name[k], (long long)v[k]);
			else
				fprintf(f, "%s %s unknown", k ? "," : "", name[k]);
	}
	fputc('\n', f);
	if (l->requests_only)
		fprintf(f, "  (--rr: the sender is the asking end, the receiver the answering end; "
			"the answers' way back is not in it)\n");
	/* TCP: its loss is the retransmits the receiver did not already have */
	if (l->retransmitted >= 0 && l->spurious >= 0)
		fprintf(f, "  retransmitted %lld segments, %lld of them spurious (the receiver had "
			"them: TcpExt TCPDSACKRecvSegs)\n", (long long)l->retransmitted,
			(long long)l->spurious);
	else if (l->retransmitted >= 0)
		fprintf(f, "  retransmitted %lld segments, spurious unknown (the sender's TcpExt "
			"TCPDSACKRecvSegs was not read): each counted lost\n",
			(long long)l->retransmitted);
	for (unsigned i = 0; i < l->n_rows; i++) {
		const struct lr_ledger_row *r = &l->rows[i];

		fprintf(f, "  %-8s %-16.16s %-9s %-32.32s ", r->sender ? "sender" : "receiver",
			host_of(l, r), lr_ledger_stage_name(r->stage), r->counter);
		if (!r->known) {
			fprintf(f, "unknown\n");
			continue;
		}
		fprintf(f, "%lld %s", (long long)r->count, r->unit);
		if (r->count != 0)
			fprintf(f, " = %s%.0f %s", r->approx ? "~" : "", r->datagrams, l->unit);
		fputc('\n', f);
	}
	if (l->unaccounted_known)
		fprintf(f, "  unaccounted %.0f %s%s\n", l->unaccounted, l->unit,
			l->unaccounted < 0 ? " (host-wide counters also counted other traffic)" : "");
	fprintf(f, "  => %s\n", l->conclusion);
	if (l->advice[0])
		fprintf(f, "  next: %s\n", l->advice);
}

static json_t *num_or_null(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

json_t *lr_ledger_json(const struct lr_ledger *l)
{
	json_t *o = json_object(), *st = json_array();

	if (!o || !st) {
		json_decref(o);
		json_decref(st);
		return NULL;
	}
	json_object_set_new(o, "direction", json_string(lr_ledger_dir_name(l->dir)));
	if (l->requests_only)	/* --rr: the requests' way; the answers' is in no ledger */
		json_object_set_new(o, "requests_only", json_true());
	json_object_set_new(o, "sender", json_string(l->snd_host));
	json_object_set_new(o, "receiver", json_string(l->rcv_host));
	json_object_set_new(o, "unit", json_string(l->unit));
	json_object_set_new(o, "sent", num_or_null(l->sent));
	json_object_set_new(o, "received", num_or_null(l->received));
	json_object_set_new(o, "lost", num_or_null(l->lost));
	if (!l->udp) {	/* TCP: lost = retransmitted - spurious */
		json_object_set_new(o, "retransmitted", num_or_null(l->retransmitted));
		json_object_set_new(o, "spurious", num_or_null(l->spurious));
	}
	for (unsigned i = 0; i < l->n_rows; i++) {
		const struct lr_ledger_row *r = &l->rows[i];

		json_array_append_new(
			st, json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:o,s:b}", "side",
				      r->peer ? "peer" : "local", "host", host_of(l, r), "stage",
				      lr_ledger_stage_name(r->stage), "counter", r->counter, "count",
				      r->known ? json_integer(r->count) : json_null(), "unit",
				      r->unit, "datagrams",
				      r->known ? json_real(r->datagrams) : json_null(), "approx",
				      r->approx));
	}
	json_object_set_new(o, "stages", st);
	json_object_set_new(o, "unaccounted",
			    l->unaccounted_known ? json_real(l->unaccounted) : json_null());
	json_object_set_new(o, "conclusion", json_string(l->conclusion));
	json_object_set_new(o, "advice", json_string(l->advice));
	return o;
}
