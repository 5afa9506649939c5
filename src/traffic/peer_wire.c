// SPDX-License-Identifier: GPL-2.0-or-later
/* Codecs of the peer-stats extension (docs/peer-stats.md): the offer and the sample frames,
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

static const char *const ctr_names[LR_PC__COUNT] = {
	"rx_bytes",   "tx_bytes",  "rx_packets", "tx_packets", "rx_dropped",
	"tx_dropped", "rx_errors", "tx_errors",	 "rx_fifo",    "rx_missed",
	"rx_over",    "nic_fifo",  "nic_drop",
};
static const char *const stack_names[LR_PS__COUNT] = {"tcp_retrans", "udp_in_errors",
						      "udp_rcvbuf_errors", "udp_sndbuf_errors"};

#define MAX_VALUE 1e15 /* cumulative seconds / events: far above any real run */

const char *lr_peer_ctr_name(enum lr_peer_ctr c)
{
	return (unsigned)c < LR_PC__COUNT ? ctr_names[c] : "?";
}

void lr_peer_iface_unknown(struct lr_peer_iface *i)
{
	memset(i, 0, sizeof(*i));
	i->mtu = i->speed_mbps = -1;
	i->duplex = -1;
	i->ring_rx = i->ring_rx_max = i->ring_tx = i->ring_tx_max = -1;
	i->numa_node = -1;
	i->softirq_max_pct = -1;
	i->softirq_cpu = -1;
}

void lr_peer_tuning_unknown(struct lr_peer_tuning *t)
{
	memset(t, 0, sizeof(*t));
	t->rmem_max = t->wmem_max = t->netdev_max_backlog = -1;
	for (int k = 0; k < 3; k++)
		t->tcp_rmem[k] = t->tcp_wmem[k] = -1;
	t->tcp_window_scaling = t->tcp_timestamps = t->tcp_sack = -1;
}

static int fail(char err[LR_PROTO_ERR_MAX], int rc, const char *fmt, ...) LR_PRINTF(3, 4);
static int fail(char err[LR_PROTO_ERR_MAX], int rc, const char *fmt, ...)
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
		fail(err, -EINVAL, "bad JSON: %s", jerr.text);
		return NULL;
	}
	if (!json_is_object(o)) {
		json_decref(o);
		fail(err, -EINVAL, "not a JSON object");
		return NULL;
	}
	return o;
}

/* 1 found, 0 absent, -EINVAL wrong type or range. */
static int get_i64(json_t *o, const char *key, int64_t lo, int64_t hi, int64_t *v,
		   char err[LR_PROTO_ERR_MAX])
{
	json_t *j = json_object_get(o, key);

	if (!j)
		return 0;
	if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi)
		return fail(err, -EINVAL, "\"%s\" is not an integer in range", key);
	*v = json_integer_value(j);
	return 1;
}

static int get_dbl(json_t *j, const char *what, double lo, double hi, double *v,
		   char err[LR_PROTO_ERR_MAX])
{
	double x;

	if (!json_is_number(j))
		return fail(err, -EINVAL, "\"%s\" is not a number", what);
	x = json_number_value(j);
	if (!(x >= lo && x <= hi))
		return fail(err, -EINVAL, "\"%s\" out of range", what);
	*v = x;
	return 1;
}

/* ---- offer ---- */

int lr_peer_offer_encode(const struct lr_peer_offer *o, char **out, size_t *len)
{
	json_t *j = json_pack("{s:i,s:i,s:I}", "v", (int)o->version, "interval_ms",
			      (int)o->interval_ms, "max_frame", (json_int_t)o->max_frame);

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
	int64_t v = 0, iv = 0, mf = 0;
	int rc;

	err[0] = '\0';
	memset(o, 0, sizeof(*o));
	j = load_object(buf, len, err);
	if (!j)
		return -EINVAL;
	rc = get_i64(j, "v", 1, 1000, &v, err);
	if (rc == 0)
		rc = fail(err, -EINVAL, "missing \"v\"");
	if (rc > 0)
		rc = get_i64(j, "interval_ms", LR_PEER_INTERVAL_MIN_MS, LR_PEER_INTERVAL_MAX_MS,
			     &iv, err);
	if (rc == 0)
		rc = fail(err, -EINVAL, "missing \"interval_ms\"");
	if (rc > 0)
		rc = get_i64(j, "max_frame", 1, LR_PEER_FRAME_MAX, &mf, err);
	if (rc == 0)
		mf = LR_PEER_FRAME_MAX;
	json_decref(j);
	if (rc < 0)
		return rc;
	o->version = (unsigned)v;
	o->interval_ms = (unsigned)iv;
	o->max_frame = (uint32_t)mf;
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

/* key: v when known (>= 0); unknown stays absent */
static int set_known(json_t *o, const char *key, int64_t v)
{
	return v >= 0 ? json_object_set_new(o, key, json_integer((json_int_t)v)) : 0;
}

static json_t *enc_queue(const struct lr_peer_queue *q)
{
	json_t *o = json_object(), *c = json_array();
	int rc = 0;

	if (!o || !c) {
		json_decref(o);
		json_decref(c);
		return NULL;
	}
	for (int f = 0; f < 6; f++)
		rc |= json_array_append_new(
			c, json_integer((q->known & (1u << f)) ? (json_int_t)(q->c[f] & INT64_MAX)
							      : 0));
	rc |= json_object_set_new(o, "q", json_integer(q->queue));
	rc |= json_object_set_new(o, "k", json_integer(q->known & 0x3f));
	rc |= json_object_set_new(o, "b", json_integer((json_int_t)(q->base_ns & INT64_MAX)));
	rc |= json_object_set_new(o, "c", c);
	rc |= set_known(o, "cpu", q->cpu);
	if (isfinite(q->cpu_softirq_pct) && q->cpu_softirq_pct >= 0)
		rc |= json_object_set_new(o, "sq", json_real(q->cpu_softirq_pct));
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The link state fields added within version 1 (docs/peer-stats.md §4.1). */
static int enc_link(json_t *o, const struct lr_peer_iface *i, const struct lr_peer_queue *qs)
{
	int rc = 0;

	rc |= set_known(o, "duplex", i->duplex);
	rc |= set_known(o, "ring_rx", i->ring_rx);
	rc |= set_known(o, "ring_rx_max", i->ring_rx_max);
	rc |= set_known(o, "ring_tx", i->ring_tx);
	rc |= set_known(o, "ring_tx_max", i->ring_tx_max);
	if (i->driver[0])
		rc |= json_object_set_new(o, "driver", json_string(i->driver));
	if (i->features_known) {
		rc |= json_object_set_new(o, "features", json_integer(i->features));
		rc |= json_object_set_new(o, "features_known", json_integer(i->features_known));
	}
	rc |= set_known(o, "numa_node", i->numa_node);
	if (i->n_q) {
		json_t *a = json_array();

		rc |= json_object_set_new(o, "qsrc", json_integer(i->queue_source));
		for (size_t k = 0; a && k < i->n_q; k++)
			rc |= json_array_append_new(a, enc_queue(&qs[i->q_first + k]));
		rc |= a ? json_object_set_new(o, "queues", a) : -1;
	}
	return rc;
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
	rc |= enc_link(o, i, f->queues);
	if (i->n_s) {
		json_t *a = json_array();

		for (size_t k = 0; a && k < i->n_s; k++)
			rc |= json_array_append_new(a, json_integer(f->serving[i->s_first + k]));
		rc |= a ? json_object_set_new(o, "serving", a) : -1;
	}
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
	rc |= set_known(o, "node", k->node);
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *i64_array(const int64_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_integer(v[i] >= 0 ? (json_int_t)v[i] : -1))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *enc_tuning(const struct lr_peer_tuning *t)
{
	json_t *o = json_object();
	int rc = 0;

	if (!o)
		return NULL;
	rc |= set_known(o, "rmem_max", t->rmem_max);
	rc |= set_known(o, "wmem_max", t->wmem_max);
	rc |= set_known(o, "netdev_max_backlog", t->netdev_max_backlog);
	rc |= json_object_set_new(o, "tcp_rmem", i64_array(t->tcp_rmem, 3));
	rc |= json_object_set_new(o, "tcp_wmem", i64_array(t->tcp_wmem, 3));
	rc |= set_known(o, "tcp_window_scaling", t->tcp_window_scaling);
	rc |= set_known(o, "tcp_timestamps", t->tcp_timestamps);
	rc |= set_known(o, "tcp_sack", t->tcp_sack);
	if (t->tcp_congestion[0])
		rc |= json_object_set_new(o, "tcp_congestion", json_string(t->tcp_congestion));
	if (rc) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Every interface's queues lie inside f->queues, each within the bounds. */
static bool queues_fit(const struct lr_peer_frame *f)
{
	const struct lr_peer_iface *i;

	if (f->n_queues > LR_PEER_MAX_QUEUES_FRAME || f->n_serving > LR_PEER_MAX_SERVING_FRAME)
		return false;
	for (i = f->ifaces; i < f->ifaces + f->n_ifaces; i++)
		if (i->n_q > LR_PEER_MAX_QUEUES || i->q_first > f->n_queues ||
		    i->n_q > f->n_queues - i->q_first || i->n_s > LR_PEER_MAX_SERVING ||
		    i->s_first > f->n_serving || i->n_s > f->n_serving - i->s_first)
			return false;
	return true;
}

int lr_peer_frame_encode(const struct lr_peer_frame *f, char **out, size_t *len)
{
	json_t *o, *ifs, *cpus, *st;
	int rc = 0;

	if (f->n_ifaces > LR_PEER_MAX_IFACES || f->n_cpus > LR_PEER_MAX_CPUS || !queues_fit(f))
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
		rc |= json_object_set_new(o, "tuning", enc_tuning(&f->tuning));
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

/* A short string into out (size includes the NUL): 1 found, 0 absent, -EINVAL too long, not
 * a string or with a NUL inside. Control characters become '?': it reaches CSV and terminals. */
static int get_str(json_t *o, const char *key, char *out, size_t size,
		   char err[LR_PROTO_ERR_MAX])
{
	json_t *x = json_object_get(o, key);

	if (!x)
		return 0;
	if (!json_is_string(x) || json_string_length(x) >= size ||
	    strlen(json_string_value(x)) != json_string_length(x))
		return fail(err, -EINVAL, "bad \"%s\"", key);
	memcpy(out, json_string_value(x), json_string_length(x) + 1);
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return 1;
}

static int get_int(json_t *o, const char *key, int64_t lo, int64_t hi, int *v,
		   char err[LR_PROTO_ERR_MAX])
{
	int64_t x = *v;
	int rc = get_i64(o, key, lo, hi, &x, err);

	*v = (int)x;
	return rc;
}

static int dec_queue(json_t *j, struct lr_peer_queue *q, char err[LR_PROTO_ERR_MAX])
{
	json_t *c, *x;
	int64_t v = 0;
	size_t k;
	int rc;

	if (!json_is_object(j))
		return fail(err, -EINVAL, "queue entry is not an object");
	memset(q, 0, sizeof(*q));
	q->cpu = -1;
	q->cpu_softirq_pct = -1;
	if ((rc = get_i64(j, "q", 0, 65535, &v, err)) <= 0)
		return rc < 0 ? rc : fail(err, -EINVAL, "missing queue \"q\"");
	q->queue = (unsigned)v;
	v = 0;
	if ((rc = get_i64(j, "k", 0, 0x3f, &v, err)) < 0)
		return rc;
	q->known = (uint32_t)v;
	v = 0;
	if ((rc = get_i64(j, "b", 0, INT64_MAX, &v, err)) <= 0)
		return rc < 0 ? rc : fail(err, -EINVAL, "missing queue \"b\"");
	q->base_ns = (uint64_t)v;
	c = json_object_get(j, "c");
	if (!json_is_array(c) || json_array_size(c) != 6)
		return fail(err, -EINVAL, "queue \"c\" is not an array of 6");
	json_array_foreach(c, k, x)
	{
		if (!json_is_integer(x) || json_integer_value(x) < 0)
			return fail(err, -EINVAL, "queue counter is not a count");
		q->c[k] = (uint64_t)json_integer_value(x);
	}
	if ((rc = get_int(j, "cpu", 0, 1 << 20, &q->cpu, err)) < 0)
		return rc;
	x = json_object_get(j, "sq");
	if (x && (rc = get_dbl(x, "sq", 0, 100.5, &q->cpu_softirq_pct, err)) < 0)
		return rc;
	return 0;
}

/* The interface's queues into f->queues from f->n_queues on (room checked by the caller's
 * count), indices strictly rising. */
static int dec_queues(json_t *j, struct lr_peer_iface *i, struct lr_peer_frame *f,
		      char err[LR_PROTO_ERR_MAX])
{
	json_t *a = json_object_get(j, "queues"), *x;
	size_t k;
	int rc;

	if ((rc = get_int(j, "qsrc", 0, 2, &i->queue_source, err)) < 0)
		return rc;
	if (!a)
		return 0;
	i->q_first = f->n_queues;
	json_array_foreach(a, k, x)
	{
		struct lr_peer_queue *q = &f->queues[f->n_queues];

		if ((rc = dec_queue(x, q, err)) < 0)
			return rc;
		if (k > 0 && q->queue <= q[-1].queue)
			return fail(err, -EINVAL, "queue numbers not rising");
		f->n_queues++;
		i->n_q++;
	}
	return 0;
}

static int dec_link(json_t *j, struct lr_peer_iface *i, char err[LR_PROTO_ERR_MAX])
{
	int64_t v = 0;
	int rc;

	if ((rc = get_int(j, "duplex", 0, 1, &i->duplex, err)) < 0 ||
	    (rc = get_i64(j, "ring_rx", -1, 1 << 24, &i->ring_rx, err)) < 0 ||
	    (rc = get_i64(j, "ring_rx_max", -1, 1 << 24, &i->ring_rx_max, err)) < 0 ||
	    (rc = get_i64(j, "ring_tx", -1, 1 << 24, &i->ring_tx, err)) < 0 ||
	    (rc = get_i64(j, "ring_tx_max", -1, 1 << 24, &i->ring_tx_max, err)) < 0 ||
	    (rc = get_str(j, "driver", i->driver, sizeof(i->driver), err)) < 0 ||
	    (rc = get_int(j, "numa_node", 0, 1 << 16, &i->numa_node, err)) < 0)
		return rc;
	if ((rc = get_i64(j, "features", 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	i->features = (uint32_t)v;
	v = 0;
	if ((rc = get_i64(j, "features_known", 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	i->features_known = (uint32_t)v;
	i->features &= i->features_known;
	return 0;
}

static int dec_iface(json_t *j, struct lr_peer_iface *i, struct lr_peer_frame *f,
		     char err[LR_PROTO_ERR_MAX])
{
	json_t *name, *c, *x;
	int64_t v;
	int rc;

	if (!json_is_object(j))
		return fail(err, -EINVAL, "interface entry is not an object");
	lr_peer_iface_unknown(i);
	name = json_object_get(j, "name");
	if (!json_is_string(name) || json_string_length(name) == 0 ||
	    json_string_length(name) >= sizeof(i->name) ||
	    strlen(json_string_value(name)) != json_string_length(name))
		return fail(err, -EINVAL, "bad interface \"name\"");
	memcpy(i->name, json_string_value(name), json_string_length(name) + 1);
	v = 0;
	if ((rc = get_i64(j, "gen", 0, UINT32_MAX, &v, err)) < 0)
		return rc;
	i->gen = (uint32_t)v;
	v = 0;
	if ((rc = get_i64(j, "base_ns", 0, INT64_MAX, &v, err)) <= 0)
		return rc < 0 ? rc : fail(err, -EINVAL, "missing \"base_ns\"");
	i->base_ns = (uint64_t)v;
	if ((rc = get_i64(j, "mtu", -1, 1 << 24, &i->mtu, err)) < 0 ||
	    (rc = get_i64(j, "speed_mbps", -1, 100000000, &i->speed_mbps, err)) < 0)
		return rc;
	v = -1;
	if ((rc = get_i64(j, "softirq_cpu", -1, 1 << 20, &v, err)) < 0)
		return rc;
	i->softirq_cpu = (int)v;
	x = json_object_get(j, "softirq_max_pct");
	if (x && (rc = get_dbl(x, "softirq_max_pct", -1, 100.5, &i->softirq_max_pct, err)) < 0)
		return rc;
	c = json_object_get(j, "c");
	if (!json_is_object(c))
		return fail(err, -EINVAL, "interface \"c\" is not an object");
	for (unsigned k = 0; k < LR_PC__COUNT; k++) {
		rc = get_i64(c, ctr_names[k], 0, INT64_MAX, &v, err);
		if (rc < 0)
			return rc;
		if (rc > 0) {
			i->c[k] = (uint64_t)v;
			i->known |= 1u << k;
		}
	}
	if ((rc = dec_link(j, i, err)) < 0)
		return rc;
	x = json_object_get(j, "serving"); /* counted and bounded by count_arrays */
	i->s_first = f->n_serving;
	for (size_t k = 0; x && k < json_array_size(x); k++) {
		json_t *e = json_array_get(x, k);

		if (!json_is_integer(e) || json_integer_value(e) < 0 ||
		    json_integer_value(e) > (1 << 20))
			return fail(err, -EINVAL, "a serving CPU is not a CPU number");
		f->serving[f->n_serving++] = (int)json_integer_value(e);
		i->n_s++;
	}
	return dec_queues(j, i, f, err);
}

/* The entries of array `key` over every interface, bounded per interface (each) and per frame
 * (all) before any is stored. */
static int count_array(json_t *ifs, const char *key, size_t each, size_t all, size_t *total,
		       char err[LR_PROTO_ERR_MAX])
{
	json_t *x;
	size_t i;

	*total = 0;
	json_array_foreach(ifs, i, x)
	{
		json_t *a = json_is_object(x) ? json_object_get(x, key) : NULL;

		if (!a)
			continue;
		if (!json_is_array(a))
			return fail(err, -EINVAL, "\"%s\" is not an array", key);
		if (json_array_size(a) > each)
			return fail(err, -E2BIG, "%zu %s on one interface", json_array_size(a),
				    key);
		*total += json_array_size(a);
		if (*total > all)
			return fail(err, -E2BIG, "more than %zu %s in a frame", all, key);
	}
	return 0;
}

static int dec_tuning(json_t *o, struct lr_peer_tuning *t, char err[LR_PROTO_ERR_MAX])
{
	static const char *const arrays[2] = {"tcp_rmem", "tcp_wmem"};
	const int64_t big = INT64_C(1) << 48; /* bytes, packets: far above a real setting */
	int rc;

	lr_peer_tuning_unknown(t);
	if (!json_is_object(o))
		return fail(err, -EINVAL, "\"tuning\" is not an object");
	if ((rc = get_i64(o, "rmem_max", -1, big, &t->rmem_max, err)) < 0 ||
	    (rc = get_i64(o, "wmem_max", -1, big, &t->wmem_max, err)) < 0 ||
	    (rc = get_i64(o, "netdev_max_backlog", -1, big, &t->netdev_max_backlog, err)) < 0 ||
	    (rc = get_i64(o, "tcp_window_scaling", -1, 16, &t->tcp_window_scaling, err)) < 0 ||
	    (rc = get_i64(o, "tcp_timestamps", -1, 16, &t->tcp_timestamps, err)) < 0 ||
	    (rc = get_i64(o, "tcp_sack", -1, 16, &t->tcp_sack, err)) < 0 ||
	    (rc = get_str(o, "tcp_congestion", t->tcp_congestion, sizeof(t->tcp_congestion),
			  err)) < 0)
		return rc;
	for (int a = 0; a < 2; a++) {
		json_t *x = json_object_get(o, arrays[a]), *e;
		int64_t *dst = a ? t->tcp_wmem : t->tcp_rmem;
		size_t k;

		if (!x)
			continue;
		if (!json_is_array(x) || json_array_size(x) != 3)
			return fail(err, -EINVAL, "\"%s\" is not an array of 3", arrays[a]);
		json_array_foreach(x, k, e)
		{
			if (!json_is_integer(e) || json_integer_value(e) < -1 ||
			    json_integer_value(e) > big)
				return fail(err, -EINVAL, "\"%s\" out of range", arrays[a]);
			dst[k] = json_integer_value(e);
		}
	}
	return 0;
}

static int dec_group(json_t *cpu, const char *key, double *v, size_t n, bool *has,
		     char err[LR_PROTO_ERR_MAX])
{
	json_t *a = json_object_get(cpu, key), *x;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) != n)
		return fail(err, -EINVAL, "CPU \"%s\" is not an array of %zu", key, n);
	json_array_foreach(a, i, x)
	{
		int rc = get_dbl(x, key, 0, MAX_VALUE, &v[i], err);

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
		return fail(err, -EINVAL, "CPU entry is not an object");
	memset(k, 0, sizeof(*k));
	if ((rc = get_i64(j, "cpu", 0, 1 << 20, &v, err)) <= 0)
		return rc < 0 ? rc : fail(err, -EINVAL, "missing \"cpu\"");
	k->cpu = (int)v;
	k->node = -1;
	if ((rc = get_int(j, "node", 0, 1 << 16, &k->node, err)) < 0)
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

	if ((rc = get_i64(o, "v", 1, 1000, &v, err)) <= 0)
		return rc < 0 ? rc : fail(err, -EINVAL, "missing \"v\"");
	if ((rc = get_i64(o, "seq", 0, INT64_MAX, &v, err)) <= 0)
		return rc < 0 ? rc : fail(err, -EINVAL, "missing \"seq\"");
	f->seq = (uint64_t)v;
	if ((rc = get_i64(o, "mono_ns", 0, INT64_MAX, &v, err)) <= 0)
		return rc < 0 ? rc : fail(err, -EINVAL, "missing \"mono_ns\"");
	f->mono_ns = (uint64_t)v;
	x = json_object_get(o, "end");
	if (x && !json_is_boolean(x))
		return fail(err, -EINVAL, "\"end\" is not a boolean");
	f->end = json_is_true(x);	/* NULL: false */
	x = json_object_get(o, "host");
	if (!json_is_string(x) || json_string_length(x) >= sizeof(f->host) ||
	    strlen(json_string_value(x)) != json_string_length(x))
		return fail(err, -EINVAL, "bad \"host\"");
	memcpy(f->host, json_string_value(x), json_string_length(x) + 1);
	for (char *p = f->host; *p; p++) /* it goes into CSV and onto a terminal */
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	x = json_object_get(o, "stack");
	if (x) {
		if (!json_is_object(x))
			return fail(err, -EINVAL, "\"stack\" is not an object");
		for (unsigned k = 0; k < LR_PS__COUNT; k++) {
			v = 0;
			if ((rc = get_i64(x, stack_names[k], 0, INT64_MAX, &v, err)) < 0)
				return rc;
			f->stack[k] = (uint64_t)v;
			if (rc > 0)
				f->stack_known |= 1u << k;
		}
		f->has_stack = true;
	}
	x = json_object_get(o, "tuning");
	if (x) {
		if ((rc = dec_tuning(x, &f->tuning, err)) < 0)
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
		return fail(err, -E2BIG, "frame of %zu bytes", len);
	o = load_object(buf, len, err);
	if (!o)
		return -EINVAL;
	rc = dec_top(o, f, err);
	if (rc < 0)
		goto out;
	ifs = json_object_get(o, "ifaces");
	cpus = json_object_get(o, "cpus");
	if (!json_is_array(ifs) || !json_is_array(cpus)) {
		rc = fail(err, -EINVAL, "\"ifaces\" and \"cpus\" must be arrays");
		goto out;
	}
	if (json_array_size(ifs) > LR_PEER_MAX_IFACES || json_array_size(cpus) > LR_PEER_MAX_CPUS) {
		rc = fail(err, -E2BIG, "too many entries: %zu interfaces, %zu CPUs",
			  json_array_size(ifs), json_array_size(cpus));
		goto out;
	}
	if ((rc = count_array(ifs, "queues", LR_PEER_MAX_QUEUES, LR_PEER_MAX_QUEUES_FRAME, &nq,
			      err)) < 0 ||
	    (rc = count_array(ifs, "serving", LR_PEER_MAX_SERVING, LR_PEER_MAX_SERVING_FRAME, &ns,
			      err)) < 0)
		goto out;
	f->ifaces = calloc(json_array_size(ifs) + 1, sizeof(*f->ifaces));
	f->cpus = calloc(json_array_size(cpus) + 1, sizeof(*f->cpus));
	f->queues = calloc(nq + 1, sizeof(*f->queues));
	f->serving = calloc(ns + 1, sizeof(*f->serving));
	if (!f->ifaces || !f->cpus || !f->queues || !f->serving) {
		rc = fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	json_array_foreach(ifs, i, x)
	{
		if ((rc = dec_iface(x, &f->ifaces[i], f, err)) < 0)
			goto out;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(f->ifaces[k].name, f->ifaces[i].name)) {
				rc = fail(err, -EINVAL, "interface %s twice", f->ifaces[i].name);
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
			rc = fail(err, -EINVAL, "CPU numbers not rising");
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
