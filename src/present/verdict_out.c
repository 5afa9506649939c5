// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict written out: text after a headless test's summary, and the "linerate_verdict"
 * JSON object of -J. Unknown numbers are null in JSON and left out of the text. [main]
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "linerate/sample/snapshot.h"
#include "linerate/core/strutil.h"
#include "linerate/diagnose/verdict.h"
#include "linerate/present/verdict_out.h"

/* "none" only when every witness was there to ask */
static const char *no_loss(const struct lr_verdict *v)
{
	if (v->udp_packets > 0 || v->retransmits >= 0)
		return "none (the test's own counts and this host's counters)";
	return "none in this host's counters";
}

void lr_verdict_print(FILE *out, const struct lr_verdict_acc *a, const struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = v->iface;
	char rx[32], tx[32], ceil[32];

	if (!f) {
		fprintf(out, "NIC view: %s\n", v->next_step);
		return;
	}
	lr_verdict_fmt_bps(rx, sizeof(rx), v->rx_bps);
	lr_verdict_fmt_bps(tx, sizeof(tx), v->tx_bps);
	fprintf(out, "NIC view of %s over %s%.2f s: rx %s, tx %s", f->name,
		v->test_window ? "the test's " : "", v->seconds, rx, tx);
	if (v->line_pct >= 0)
		fprintf(out, ", %.1f%% of the %lld Mbit/s link", v->line_pct,
			(long long)f->speed_mbps);
	else if (v->speed_nominal && f->speed_mbps > 0)
		fprintf(out, "; its %lld Mbit/s is nominal (%s)", (long long)f->speed_mbps,
			v->nominal_why);
	fputc('\n', out);
	if (v->ceiling_bps > 0) {
		lr_verdict_fmt_bps(ceil, sizeof(ceil), v->ceiling_bps);
		fprintf(out, "  goodput ceiling at MTU %lld: %s; achieved %.1f%% of it\n",
			(long long)f->mtu, ceil, v->ceiling_pct);
	}
	fprintf(out, "  loss: %s\n", v->loss[0] ? v->loss : no_loss(v));
	if (v->loss_where[0])
		fprintf(out, "  where: %s\n", v->loss_where);
	if (v->hot_cpu >= 0)
		fprintf(out, "  hottest CPU: cpu%d, %.0f%% softirq at peak%s\n", v->hot_cpu,
			v->hot_pct, v->hot_saturated ? " (saturated)" : "");
	if (a->stack_valid & LR_STACKV_TCP_RETRANS)
		fprintf(out, "  TCP retransmits (host-wide, in the test): %llu\n",
			(unsigned long long)a->tcp_retrans);
	if (v->latency[0])
		fprintf(out, "  %s\n", v->latency);	/* "latency held: ..." */
	fprintf(out, "  next step: %s\n", v->next_step);
}

static json_t *num_or_null(double v, bool known)
{
	return known ? json_real(v) : json_null();
}

static json_t *int_or_null(int64_t v)
{
	return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

static json_t *loss_json(const struct lr_verdict *v)
{
	json_t *loss = json_object();

	if (!loss)
		return NULL;
	json_object_set_new(loss, "receiver_lost", int_or_null(v->udp_lost));
	json_object_set_new(loss, "receiver_packets", int_or_null(v->udp_packets));
	json_object_set_new(loss, "tcp_retransmits", int_or_null(v->retransmits));
	json_object_set_new(loss, "nic_fifo", json_integer((json_int_t)v->nic_fifo));
	json_object_set_new(loss, "driver_drop", json_integer((json_int_t)v->nic_drop));
	json_object_set_new(loss, "stack_drop", json_integer((json_int_t)v->stack_drop));
	json_object_set_new(loss, "socket_rcvbuf", json_integer((json_int_t)v->udp_rcvbuf));
	json_object_set_new(loss, "udp_in_errors", json_integer((json_int_t)v->udp_in_errors));
	json_object_set_new(loss, "softnet_drop", json_integer((json_int_t)v->softnet_drop));
	json_object_set_new(loss, "errors", json_integer((json_int_t)v->errors));
	json_object_set_new(loss, "witnesses", json_string(v->loss));
	json_object_set_new(loss, "where",
			    v->loss_where[0] ? json_string(v->loss_where) : json_null());
	return loss;
}

json_t *lr_verdict_json(const struct lr_verdict_acc *a, const struct lr_verdict *v)
{
	const struct lr_verdict_iface *f = v->iface;
	json_t *o = json_object(), *loss = loss_json(v);

	if (!o || !loss) {
		json_decref(o);
		json_decref(loss);
		return NULL;
	}
	json_object_set_new(o, "interface", f ? json_string(f->name) : json_null());
	json_object_set_new(o, "seconds", num_or_null(v->seconds, f != NULL));
	json_object_set_new(o, "test_window", json_boolean(v->test_window));
	json_object_set_new(o, "sampled_seconds", num_or_null(v->sampled_seconds, f != NULL));
	json_object_set_new(o, "ticks_left_out", json_integer(a->ticks_left_out));
	json_object_set_new(o, "rx_bytes",
			    f && (f->valid & LR_M_BIT(LR_M_RX_BYTES))
				    ? json_integer((json_int_t)f->total[LR_M_RX_BYTES])
				    : json_null());
	json_object_set_new(o, "tx_bytes",
			    f && (f->valid & LR_M_BIT(LR_M_TX_BYTES))
				    ? json_integer((json_int_t)f->total[LR_M_TX_BYTES])
				    : json_null());
	json_object_set_new(o, "rx_bps", num_or_null(v->rx_bps, f != NULL));
	json_object_set_new(o, "tx_bps", num_or_null(v->tx_bps, f != NULL));
	json_object_set_new(o, "link_mbps",
			    f && f->speed_mbps > 0 ? json_integer(f->speed_mbps) : json_null());
	json_object_set_new(o, "link_kind", f && f->kind[0] ? json_string(f->kind) : json_null());
	json_object_set_new(o, "mtu", f && f->mtu > 0 ? json_integer(f->mtu) : json_null());
	json_object_set_new(o, "line_pct", num_or_null(v->line_pct, v->line_pct >= 0));
	json_object_set_new(o, "link_speed_nominal", json_boolean(v->speed_nominal));
	json_object_set_new(o, "link_nominal_why",
			    v->nominal_why[0] ? json_string(v->nominal_why) : json_null());
	json_object_set_new(o, "ceiling_bps", num_or_null(v->ceiling_bps, v->ceiling_bps >= 0));
	json_object_set_new(o, "ceiling_pct", num_or_null(v->ceiling_pct, v->ceiling_pct >= 0));
	json_object_set_new(o, "capped_by_bitrate", json_boolean(v->capped));
	json_object_set_new(o, "loss", loss);
	json_object_set_new(o, "hottest_cpu",
			    v->hot_cpu >= 0 ? json_integer(v->hot_cpu) : json_null());
	json_object_set_new(o, "hottest_softirq_pct", num_or_null(v->hot_pct, v->hot_cpu >= 0));
	json_object_set_new(o, "hottest_saturated", json_boolean(v->hot_saturated));
	json_object_set_new(o, "tcp_retransmits_host",
			    a->stack_valid & LR_STACKV_TCP_RETRANS
				    ? json_integer((json_int_t)a->tcp_retrans)
				    : json_null());
	json_object_set_new(o, "latency", v->latency[0] ? json_string(v->latency) : json_null());
	json_object_set_new(o, "next_step", json_string(v->next_step));
	return o;
}
