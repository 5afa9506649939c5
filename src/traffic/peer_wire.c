// SPDX-License-Identifier: GPL-2.0-or-later
/* Codecs of the peer-stats extension (docs/wire.md, part 2): the offer and the sample frames,
 * JSON through jansson. Decoding is the client's defence against a hostile "server": every
 * count is bounded before anything is allocated, every value type- and range-checked, and any
 * violation rejects the whole frame. No I/O, no globals. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "linerate/traffic/peer_wire.h"

#include "peer_wire_priv.h"

static const char *const ctr_names[LR_PC__COUNT] = {
	"rx_bytes",   "tx_bytes",  "rx_packets", "tx_packets", "rx_dropped",
	"tx_dropped", "rx_errors", "tx_errors",	 "rx_fifo",    "rx_missed",
	"rx_over",    "nic_fifo",  "nic_drop",
};
static const char *const stack_names[LR_PS__COUNT] = {
	"tcp_retrans",	      "udp_in_errors",	    "udp_rcvbuf_errors", "udp_sndbuf_errors",
	"ip_in_discards",     "ip_in_hdr_errors",   "ip_in_addr_errors", "ip_reasm_fails",
	"udp_no_ports",	      "udp_in_csum_errors", "tcp_backlog_drop",	 "tcp_rcvq_drop",
	"tcp_zero_window_drop", "tcp_ofo_drop",	    "tcp_dsack_recv_segs",
};

#define MAX_VALUE 1e15 /* cumulative seconds / events: far above any real run */

const char *lr_peer_ctr_name(enum lr_peer_ctr c)
{
	return (unsigned)c < LR_PC__COUNT ? ctr_names[c] : "?";
}

int lr_pw_fail(char err[LR_PROTO_ERR_MAX], int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, LR_PROTO_ERR_MAX, fmt, ap);
	va_end(ap);
	return rc;
}

static json_t *load_object(const char *buf, size_t len, char err[LR_PROTO_ERR_MAX])
{
	json_error_t jerr;
	json_t *o = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);

	if (!o) {
		lr_pw_fail(err, -EINVAL, "bad JSON: %s", jerr.text);
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		lr_pw_fail(err, -EINVAL, "not a JSON object");
		return NULL;
	}
	return o;
}

/* 1 found, 0 absent, -EINVAL wrong type or range. */
int lr_pw_get_i64(json_t *o, const char *key, int64_t lo, int64_t hi, int64_t *v,
		   char err[LR_PROTO_ERR_MAX])
{
	json_t *j = json_object_get(o, key);

	if (!j)
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi)
		return lr_pw_fail(err, -EINVAL, "\"%s\" is not an integer in range", key);
	*v = json_integer_value(j);
	return 1;
}

int lr_pw_get_dbl(json_t *j, const char *what, double lo, double hi, double *v,
		   char err[LR_PROTO_ERR_MAX])
{
	double x;

	if (!json_is_number(j))
		return lr_pw_fail(err, -EINVAL, "\"%s\" is not a number", what);
	x = json_number_value(j);
	if (!(x >= lo && x <= hi))
		return lr_pw_fail(err, -EINVAL, "\"%s\" out of range", what);
	*v = x;
	return 1;
}

/* ---- offer ---- */

int lr_peer_offer_encode(const struct lr_peer_offer *o, char **out, size_t *len)
{
	json_t *j = json_pack("{s:i,s:i,s:I}", "v", (int)o->version, "interval_ms",
			      (int)o->interval_ms, "max_frame", (json_int_t)o->max_frame);

	if (j && o->probe_port &&
	    json_object_set_new(j, "probe_port", json_integer(o->probe_port)) < 0) {
		json_decref(j);
		j = NULL;
	}
	if (!j)
		return -ENOMEM;
	*out = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(j);
	if (!*out)
		return -ENOMEM;
	*len = strlen(*out);
	return 0;
}

int lr_peer_offer_decode(const char *buf, size_t len, struct lr_peer_offer *o,
			 char err[LR_PROTO_ERR_MAX])
{
	json_t *j;
	int64_t v = 0, iv = 0, mf = 0, pp = 0;	/* an absent probe_port: no probes */
	int rc;

	err[0] = '\0';
	memset(o, 0, sizeof(*o));
	j = load_object(buf, len, err);
	if (!j)
		return -EINVAL;
	rc = lr_pw_get_i64(j, "v", 1, 1000, &v, err);
	if (rc == 0)
		rc = lr_pw_fail(err, -EINVAL, "missing \"v\"");
	if (rc > 0)
		rc = lr_pw_get_i64(j, "interval_ms", LR_PEER_INTERVAL_MIN_MS, LR_PEER_INTERVAL_MAX_MS,
			     &iv, err);
	if (rc == 0)
		rc = lr_pw_fail(err, -EINVAL, "missing \"interval_ms\"");
	if (rc > 0)
		rc = lr_pw_get_i64(j, "max_frame", 1, LR_PEER_FRAME_MAX, &mf, err);
	if (rc == 0)
		mf = LR_PEER_FRAME_MAX;
	if (rc >= 0)
		rc = lr_pw_get_i64(j, "probe_port", 1, 65535, &pp, err);
	json_decref(j);
	if (rc < 0)
		return rc;
	o->version = (unsigned)v;
	o->interval_ms = (unsigned)iv;
	o->max_frame = (uint32_t)mf;
	o->probe_port = (uint16_t)pp;
	return 0;
}

/* ---- frame encode ---- */

static json_t *dbl_array(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_real(isfinite(v[i]) && v[i] >= 0 ? v[i] : 0))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *enc_iface(const struct lr_peer_iface *i, const struct lr_peer_frame *f)
{
	json_t *o = json_object(), *c = json_object();
	int rc = 0;

	if (!o || !c) {
		json_decref(o);
		json_decref(c);
		return NULL;
	}
	for (unsigned k = 0; k < LR_PC__COUNT; k++)
		if (i->known & (1u << k))
			rc |= json_object_set_new(c, ctr_names[k],
						  json_integer((json_int_t)(i->c[k] & INT64_MAX)));
	rc |= json_object_set_new(o, "name", json_string(i->name));
	rc |= json_object_set_new(o, "gen", json_integer(i->gen));
	rc |= json_object_set_new(o, "base_ns", json_integer((json_int_t)(i->base_ns & INT64_MAX)));
	rc |= json_object_set_new(o, "mtu", json_integer(i->mtu));
	rc |= json_object_set_new(o, "speed_mbps", json_integer(i->speed_mbps));
	rc |= json_object_set_new(
		o, "softirq_max_pct",
		json_real(isfinite(i->softirq_max_pct) ? i->softirq_max_pct : -1));
	rc |= json_object_set_new(o, "softirq_cpu", json_integer(i->softirq_cpu));
	rc |= json_object_set_new(o, "c", c);
	rc |= lr_pw_enc_state(o, i, f);
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *enc_cpu(const struct lr_peer_cpu *k)
{
	json_t *o = json_object();
	int rc = 0;

	if (!o)
		return NULL;
	rc |= json_object_set_new(o, "cpu", json_integer(k->cpu));
	if (k->has_t)
		rc |= json_object_set_new(o, "t", dbl_array(k->t, 6));
	if (k->has_q)
		rc |= json_object_set_new(o, "q", dbl_array(k->q, 3));
	if (k->has_n)
		rc |= json_object_set_new(o, "n", dbl_array(k->n, 4));
	rc |= lr_pw_set_known(o, "node", k->node);
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int lr_peer_frame_encode(const struct lr_peer_frame *f, char **out, size_t *len)
{
	json_t *o, *ifs, *cpus, *st;
	int rc = 0;

	if (f->n_ifaces > LR_PEER_MAX_IFACES || f->n_cpus > LR_PEER_MAX_CPUS ||
	    !lr_pw_state_fits(f))
		return -EINVAL;
	o = json_object();
	ifs = json_array();
	cpus = json_array();
	st = json_object();
	if (!o || !ifs || !cpus || !st) {
		json_decref(o);
		json_decref(ifs);
		json_decref(cpus);
		json_decref(st);
		return -ENOMEM;
	}
	rc |= json_object_set_new(o, "v", json_integer(LR_PEER_VERSION));
	rc |= json_object_set_new(o, "seq", json_integer((json_int_t)(f->seq & INT64_MAX)));
	rc |= json_object_set_new(o, "host", json_string(f->host));
	rc |= json_object_set_new(o, "mono_ns", json_integer((json_int_t)(f->mono_ns & INT64_MAX)));
	rc |= json_object_set_new(o, "end", json_boolean(f->end));
	for (size_t i = 0; i < f->n_ifaces; i++)
		rc |= json_array_append_new(ifs, enc_iface(&f->ifaces[i], f));
	for (size_t i = 0; i < f->n_cpus; i++)
		rc |= json_array_append_new(cpus, enc_cpu(&f->cpus[i]));
	rc |= json_object_set_new(o, "ifaces", ifs);
	rc |= json_object_set_new(o, "cpus", cpus);
	if (f->has_tuning)
		rc |= json_object_set_new(o, "tuning", lr_pw_enc_tuning(&f->tuning));
	if (f->has_stack) {
		for (unsigned k = 0; k < LR_PS__COUNT; k++)
			if (f->stack_known & (1u << k))
				rc |= json_object_set_new(
					st, stack_names[k],
					json_integer((json_int_t)(f->stack[k] & INT64_MAX)));
		rc |= json_object_set_new(o, "stack", st);
	} else {
		json_decref(st);
	}
	return lr_proto_json_text(o, rc, out, len);
}

/* ---- frame decode ---- */

static int dec_iface(json_t *j, struct lr_peer_iface *i, struct lr_peer_frame *f,
		     char err[LR_PROTO_ERR_MAX])
{
	json_t *name, *c, *x;
	int64_t v;
	int rc;

	if (!json_is_object(j))
		return lr_pw_fail(err, -EINVAL, "interface entry is not an object");
	lr_peer_iface_unknown(i);
	name = json_object_get(j, "name");
	if (!json_is_string(name) || json_string_length(name) == 0 ||
	    json_string_length(name) >= sizeof(i->name) ||
	    strlen(json_string_value(name)) != json_string_length(name))
		return lr_pw_fail(err, -EINVAL, "bad interface \"name\"");
	memcpy(i->name, json_string_value(name), json_string_length(name) + 1);
	v = 0;
	if ((rc = lr_pw_get_i64(j, "gen", 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	i->gen = (uint32_t)v;
	v = 0;
	if ((rc = lr_pw_get_i64(j, "base_ns", 0, INT64_MAX, &v, err)) <= 0)
		return rc < 0 ? rc : lr_pw_fail(err, -EINVAL, "missing \"base_ns\"");
	i->base_ns = (uint64_t)v;
	if ((rc = lr_pw_get_i64(j, "mtu", -1, 1 << 24, &i->mtu, err)) < 0 ||
	    (rc = lr_pw_get_i64(j, "speed_mbps", -1, 100000000, &i->speed_mbps, err)) < 0)
		return rc;
	v = -1;
	if ((rc = lr_pw_get_i64(j, "softirq_cpu", -1, 1 << 20, &v, err)) < 0)
		return rc;
	i->softirq_cpu = (int)v;
	x = json_object_get(j, "softirq_max_pct");
	if (x && (rc = lr_pw_get_dbl(x, "softirq_max_pct", -1, 100.5, &i->softirq_max_pct, err)) < 0)
		return rc;
	c = json_object_get(j, "c");
	if (!json_is_object(c))
		return lr_pw_fail(err, -EINVAL, "interface \"c\" is not an object");
	for (unsigned k = 0; k < LR_PC__COUNT; k++) {
		rc = lr_pw_get_i64(c, ctr_names[k], 0, INT64_MAX, &v, err);
		if (rc < 0)
			return rc;
		if (rc > 0) {
			i->c[k] = (uint64_t)v;
			i->known |= 1u << k;
		}
	}
	return lr_pw_dec_state(j, i, f, err);
}

static int dec_group(json_t *cpu, const char *key, double *v, size_t n, bool *has,
		     char err[LR_PROTO_ERR_MAX])
{
	json_t *a = json_object_get(cpu, key), *x;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) != n)
		return lr_pw_fail(err, -EINVAL, "CPU \"%s\" is not an array of %zu", key, n);
	json_array_foreach(a, i, x)
	{
		int rc = lr_pw_get_dbl(x, key, 0, MAX_VALUE, &v[i], err);

		if (rc < 0)
			return rc;
	}
	*has = true;
	return 0;
}

static int dec_cpu(json_t *j, struct lr_peer_cpu *k, char err[LR_PROTO_ERR_MAX])
{
	int64_t v = 0;
	int rc;

	if (!json_is_object(j))
		return lr_pw_fail(err, -EINVAL, "CPU entry is not an object");
	memset(k, 0, sizeof(*k));
	if ((rc = lr_pw_get_i64(j, "cpu", 0, 1 << 20, &v, err)) <= 0)
		return rc < 0 ? rc : lr_pw_fail(err, -EINVAL, "missing \"cpu\"");
	k->cpu = (int)v;
	k->node = -1;
	if ((rc = lr_pw_get_int(j, "node", 0, 1 << 16, &k->node, err)) < 0)
		return rc;
	if ((rc = dec_group(j, "t", k->t, 6, &k->has_t, err)) < 0 ||
	    (rc = dec_group(j, "q", k->q, 3, &k->has_q, err)) < 0 ||
	    (rc = dec_group(j, "n", k->n, 4, &k->has_n, err)) < 0)
		return rc;
	return 0;
}

static int dec_top(json_t *o, struct lr_peer_frame *f, char err[LR_PROTO_ERR_MAX])
{
	json_t *x;
	int64_t v = 0;
	int rc;

	if ((rc = lr_pw_get_i64(o, "v", 1, 1000, &v, err)) <= 0)
		return rc < 0 ? rc : lr_pw_fail(err, -EINVAL, "missing \"v\"");
	if ((rc = lr_pw_get_i64(o, "seq", 0, INT64_MAX, &v, err)) <= 0)
		return rc < 0 ? rc : lr_pw_fail(err, -EINVAL, "missing \"seq\"");
	f->seq = (uint64_t)v;
	if ((rc = lr_pw_get_i64(o, "mono_ns", 0, INT64_MAX, &v, err)) <= 0)
		return rc < 0 ? rc : lr_pw_fail(err, -EINVAL, "missing \"mono_ns\"");
	f->mono_ns = (uint64_t)v;
	x = json_object_get(o, "end");
	if (x && !json_is_boolean(x))
		return lr_pw_fail(err, -EINVAL, "\"end\" is not a boolean");
	f->end = json_is_true(x);	/* NULL: false */
	x = json_object_get(o, "host");
	if (!json_is_string(x) || json_string_length(x) >= sizeof(f->host) ||
	    strlen(json_string_value(x)) != json_string_length(x))
		return lr_pw_fail(err, -EINVAL, "bad \"host\"");
	memcpy(f->host, json_string_value(x), json_string_length(x) + 1);
	for (char *p = f->host; *p; p++) /* it goes into CSV and onto a terminal */
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	x = json_object_get(o, "stack");
	if (x) {
		if (!json_is_object(x))
			return lr_pw_fail(err, -EINVAL, "\"stack\" is not an object");
		for (unsigned k = 0; k < LR_PS__COUNT; k++) {
			v = 0;
			if ((rc = lr_pw_get_i64(x, stack_names[k], 0, INT64_MAX, &v, err)) < 0)
				return rc;
			f->stack[k] = (uint64_t)v;
			if (rc > 0)
				f->stack_known |= 1u << k;
		}
		f->has_stack = true;
	}
	x = json_object_get(o, "tuning");
	if (x) {
		if ((rc = lr_pw_dec_tuning(x, &f->tuning, err)) < 0)
			return rc;
		f->has_tuning = true;
	}
	return 0;
}

int lr_peer_frame_decode(const char *buf, size_t len, struct lr_peer_frame *f,
			 char err[LR_PROTO_ERR_MAX])
{
	json_t *o, *ifs, *cpus, *x;
	size_t i, nq = 0, ns = 0;
	int rc;

	err[0] = '\0';
	memset(f, 0, sizeof(*f));
	if (len > LR_PEER_FRAME_MAX)
		return lr_pw_fail(err, -E2BIG, "frame of %zu bytes", len);
	o = load_object(buf, len, err);
	if (!o)
		return -EINVAL;
	rc = dec_top(o, f, err);
	if (rc < 0)
		goto out;
	ifs = json_object_get(o, "ifaces");
	cpus = json_object_get(o, "cpus");
	if (!json_is_array(ifs) || !json_is_array(cpus)) {
		rc = lr_pw_fail(err, -EINVAL, "\"ifaces\" and \"cpus\" must be arrays");
		goto out;
	}
	if (json_array_size(ifs) > LR_PEER_MAX_IFACES || json_array_size(cpus) > LR_PEER_MAX_CPUS) {
		rc = lr_pw_fail(err, -E2BIG, "too many entries: %zu interfaces, %zu CPUs",
			  json_array_size(ifs), json_array_size(cpus));
		goto out;
	}
	if ((rc = lr_pw_count_array(ifs, "queues", LR_PEER_MAX_QUEUES, LR_PEER_MAX_QUEUES_FRAME, &nq,
			      err)) < 0 ||
	    (rc = lr_pw_count_array(ifs, "serving", LR_PEER_MAX_SERVING, LR_PEER_MAX_SERVING_FRAME, &ns,
			      err)) < 0)
		goto out;
	f->ifaces = calloc(json_array_size(ifs) + 1, sizeof(*f->ifaces));
	f->cpus = calloc(json_array_size(cpus) + 1, sizeof(*f->cpus));
	f->queues = calloc(nq + 1, sizeof(*f->queues));
	f->serving = calloc(ns + 1, sizeof(*f->serving));
	if (!f->ifaces || !f->cpus || !f->queues || !f->serving) {
		rc = lr_pw_fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	json_array_foreach(ifs, i, x)
	{
		if ((rc = dec_iface(x, &f->ifaces[i], f, err)) < 0)
			goto out;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(f->ifaces[k].name, f->ifaces[i].name)) {
				rc = lr_pw_fail(err, -EINVAL, "interface %s twice", f->ifaces[i].name);
				goto out;
			}
		f->n_ifaces = i + 1;
	}
	json_array_foreach(cpus, i, x)
	{
		if ((rc = dec_cpu(x, &f->cpus[i], err)) < 0)
			goto out;
		/* strictly rising CPU numbers: no duplicates, and the client can merge in order */
		if (i > 0 && f->cpus[i].cpu <= f->cpus[i - 1].cpu) {
			rc = lr_pw_fail(err, -EINVAL, "CPU numbers not rising");
			goto out;
		}
		f->n_cpus = i + 1;
	}
	rc = 0;
out:
	json_decref(o);
	if (rc < 0)
		lr_peer_frame_free(f);
	return rc;
}

void lr_peer_frame_free(struct lr_peer_frame *f)
{
	if (!f)
		return;
	free(f->ifaces);
	free(f->cpus);
	free(f->queues);
	free(f->serving);
	memset(f, 0, sizeof(*f));
}
