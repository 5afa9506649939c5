// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3 control protocol's JSON messages: the params and results codecs. Pure and strict:
 * exact types, bounded values, 2^64-1 from old peers read back as -1 (the framing and I/O
 * that carry them are in proto.c). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "linerate/traffic/proto.h"

/* ---- JSON helpers ---- */

static int seterr(char err[LR_PROTO_ERR_MAX], const char *fmt, ...) LR_PRINTF(2, 3);
static int seterr(char err[LR_PROTO_ERR_MAX], const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, LR_PROTO_ERR_MAX, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* iperf3 <= 3.13 prints negative ints as unsigned 64-bit (-1 -> 18446744073709551615), which
 * jansson refuses as "too big". Rewrite such tokens (outside strings) in a copy as their signed
 * value, padded with spaces so offsets stay the same. */
static char *fix_unsigned_ints(const char *in, size_t len)
{
	char *s = malloc(len + 1);
	bool in_str = false;

	if (!s)
		return NULL;
	memcpy(s, in, len);
	s[len] = '\0';
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		size_t j;

		if (in_str) {
			if (ch == '\\')
				i++;
			else if (ch == '"')
				in_str = false;
			continue;
		}
		if (ch == '"') {
			in_str = true;
			continue;
		}
		if (ch < '0' || ch > '9')
			continue;
		if (i > 0 &&
		    (s[i - 1] == '-' || s[i - 1] == '.' || s[i - 1] == 'e' || s[i - 1] == 'E' ||
		     s[i - 1] == '+' || (s[i - 1] >= '0' && s[i - 1] <= '9')))
			continue;
		for (j = i; j < len && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (j - i >= 19 && j - i <= 20 &&
		    (j == len || (s[j] != '.' && s[j] != 'e' && s[j] != 'E'))) {
			char tok[24], rep[24];
			unsigned long long v;
			int n;

			memcpy(tok, s + i, j - i);
			tok[j - i] = '\0';
			errno = 0;
			v = strtoull(tok, NULL, 10);
			if (errno == 0 && v > (unsigned long long)INT64_MAX) {
				n = snprintf(rep, sizeof(rep), "%" PRId64, (int64_t)v);
				if (n > 0 && (size_t)n <= j - i) {
					memcpy(s + i, rep, (size_t)n);
					memset(s + i + n, ' ', j - i - (size_t)n);
				}
			}
		}
		i = j - 1;
	}
	return s;
}

static json_t *load(const char *buf, size_t len, char err[LR_PROTO_ERR_MAX])
{
	json_error_t jerr;
	json_t *root;
	char *fixed = fix_unsigned_ints(buf, len);

	if (!fixed) {
		seterr(err, "out of memory");
		return NULL;
	}
	root = json_loadb(fixed, len, JSON_REJECT_DUPLICATES, &jerr);
	free(fixed);
	if (!root) {
		seterr(err, "bad JSON: %s", jerr.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		seterr(err, "JSON is not an object");
		return NULL;
	}
	return root;
}

/* 0 absent, 1 found (stored), -EINVAL wrong type/range (err set). */
static int get_int(json_t *o, const char *key, int64_t lo, int64_t hi, int64_t *v,
		   char err[LR_PROTO_ERR_MAX])
{
	json_t *j = json_object_get(o, key);
	json_int_t x;

	if (!j)
		return 0;
	if (!json_is_integer(j))
		return seterr(err, "\"%s\" is not an integer", key);
	x = json_integer_value(j);
	if (x < lo || x > hi)
		return seterr(err, "\"%s\" out of range: %lld", key, (long long)x);
	*v = x;
	return 1;
}

static int get_num(json_t *o, const char *key, double lo, double hi, double *v,
		   char err[LR_PROTO_ERR_MAX])
{
	json_t *j = json_object_get(o, key);
	double x;

	if (!j)
		return 0;
	if (!json_is_number(j))
		return seterr(err, "\"%s\" is not a number", key);
	x = json_number_value(j);
	if (!(x >= lo && x <= hi))
		return seterr(err, "\"%s\" out of range: %g", key, x);
	*v = x;
	return 1;
}

static int get_flag(json_t *o, const char *key, bool *v, char err[LR_PROTO_ERR_MAX])
{
	json_t *j = json_object_get(o, key);

	if (!j)
		return 0;
	if (!json_is_boolean(j))
		return seterr(err, "\"%s\" is not a boolean", key);
	*v = json_is_true(j);
	return 1;
}

/* Keys iperf3 sends as int 1 when enabled. */
static int get_intflag(json_t *o, const char *key, bool *v, char err[LR_PROTO_ERR_MAX])
{
	int64_t x = 0;
	int rc = get_int(o, key, INT64_MIN, INT64_MAX, &x, err);

	if (rc > 0)
		*v = x != 0;
	return rc;
}

static int get_str(json_t *o, const char *key, char *dst, size_t size, char err[LR_PROTO_ERR_MAX])
{
	json_t *j = json_object_get(o, key);

	if (!j)
		return 0;
	if (!json_is_string(j))
		return seterr(err, "\"%s\" is not a string", key);
	if (dst) {
		if (json_string_length(j) >= size)
			return seterr(err, "\"%s\" too long", key);
		memcpy(dst, json_string_value(j), json_string_length(j) + 1);
	}
	return 1;
}

/* ---- params ---- */

void lr_proto_params_init(struct lr_proto_params *p)
{
	memset(p, 0, sizeof(*p));
	p->time_s = 10;
	p->parallel = 1;
	p->len = LR_PROTO_TCP_DEF_LEN;
	p->pacing_timer_us = 1000;
	p->server_affinity = -1;
}

static int set_int(json_t *o, const char *key, int64_t v)
{
	return json_object_set_new(o, key, json_integer(v)) ? -ENOMEM : 0;
}

int lr_proto_params_encode(const struct lr_proto_params *p, char **out, size_t *out_len)
{
	json_t *o;
	int rc = 0;

	if (p->parallel < 1 || p->parallel > LR_PROTO_MAX_STREAMS || p->len == 0 ||
	    p->len > LR_PROTO_TCP_MAX_LEN || p->bandwidth_bps > INT64_MAX ||
	    p->window_bytes > INT64_MAX || p->num_bytes > INT64_MAX)
		return -EINVAL;
	o = json_object();
	if (!o)
		return -ENOMEM;
	rc |= json_object_set_new(o, p->udp ? "udp" : "tcp", json_true());
	rc |= set_int(o, "omit", p->omit_s);
	rc |= set_int(o, "time", p->time_s);
	rc |= set_int(o, "num", (int64_t)p->num_bytes);
	rc |= set_int(o, "blockcount", (int64_t)p->blockcount);
	if (p->server_affinity >= 0)
		rc |= set_int(o, "server_affinity", p->server_affinity);
	if (p->mss)
		rc |= set_int(o, "MSS", p->mss);
	if (p->nodelay)
		rc |= json_object_set_new(o, "nodelay", json_true());
	if (p->mptcp)
		rc |= json_object_set_new(o, "mptcp", json_true());
	rc |= set_int(o, "parallel", p->parallel);
	if (p->reverse)
		rc |= json_object_set_new(o, "reverse", json_true());
	if (p->bidir)
		rc |= json_object_set_new(o, "bidirectional", json_true());
	if (p->window_bytes)
		rc |= set_int(o, "window", (int64_t)p->window_bytes);
	rc |= set_int(o, "len", (int64_t)p->len);
	if (p->bandwidth_bps)
		rc |= set_int(o, "bandwidth", (int64_t)p->bandwidth_bps);
	if (p->fqrate_bps)
		rc |= set_int(o, "fqrate", (int64_t)p->fqrate_bps);
	if (p->pacing_timer_us)	/* iperf3 leaves a 0 out */
		rc |= set_int(o, "pacing_timer", p->pacing_timer_us);
	if (p->burst)
		rc |= set_int(o, "burst", p->burst);
	if (p->tos)
		rc |= set_int(o, "TOS", p->tos);
	if (p->flowlabel)
		rc |= set_int(o, "flowlabel", p->flowlabel);
	if (p->congestion[0])
		rc |= json_object_set_new(o, "congestion", json_string(p->congestion));
	if (p->udp_64bit)
		rc |= set_int(o, "udp_counters_64bit", 1);
	if (p->repeating_payload)
		rc |= set_int(o, "repeating_payload", 1);
	if (p->get_server_output)
		rc |= set_int(o, "get_server_output", 1);
	if (p->zerocopy)
		rc |= set_int(o, "zerocopy", 1);
	if (p->dont_fragment)
		rc |= set_int(o, "dont_fragment", 1);
	if (p->skip_rx_copy)
		rc |= set_int(o, "skip_rx_copy", 1);
	if (p->extra_data[0])
		rc |= json_object_set_new(o, "extra_data", json_string(p->extra_data));
	if (p->client_version[0])
		rc |= json_object_set_new(o, "client_version", json_string(p->client_version));
	if (p->authtoken[0])
		rc |= json_object_set_new(o, "authtoken", json_string(p->authtoken));
	if (p->peer_stats && p->probe)
		rc |= json_object_set_new(o, "linerate_peer_stats",
					  json_pack("{s:i,s:i,s:i}", "v", 1, "interval_ms",
						    (int)p->peer_interval_ms, "probe", 1));
	else if (p->peer_stats)
		rc |= json_object_set_new(o, "linerate_peer_stats",
					  json_pack("{s:i,s:i}", "v", 1, "interval_ms",
						    (int)p->peer_interval_ms));
	return lr_proto_json_text(o, rc, out, out_len);
}

/* The peer-stats request is an optional extension: anything but the documented shape is
 * "not asked", never a reason to refuse the test. */
static void peer_stats_ask(json_t *o, struct lr_proto_params *p)
{
	json_t *j = json_object_get(o, "linerate_peer_stats");
	json_t *v = json_object_get(j, "v"), *iv = json_object_get(j, "interval_ms");
	json_t *pr = json_object_get(j, "probe");

	if (!json_is_object(j) || !json_is_integer(v) || json_integer_value(v) < 1 ||
	    !json_is_integer(iv) || json_integer_value(iv) < 1 ||
	    json_integer_value(iv) > LR_PROTO_MAX_TIME_S * 1000LL)
		return;
	p->peer_stats = true;
	p->peer_interval_ms = (unsigned)json_integer_value(iv);
	p->probe = json_is_integer(pr) && json_integer_value(pr) == 1;
}

int lr_proto_params_decode(const char *buf, size_t len, struct lr_proto_params *p,
			   char err[LR_PROTO_ERR_MAX])
{
	json_t *o;
	bool tcp = false, sctp = false;
	int64_t v;
	int rc = 0;

	err[0] = '\0';
	lr_proto_params_init(p);
	o = load(buf, len, err);
	if (!o)
		return -EINVAL;
#define TRY(expr)                                                                                  \
	do {                                                                                       \
		if ((rc = (expr)) < 0)                                                             \
			goto out;                                                                  \
	} while (0)
	TRY(get_flag(o, "tcp", &tcp, err));
	TRY(get_flag(o, "udp", &p->udp, err));
	TRY(get_flag(o, "sctp", &sctp, err));
	if (sctp) {	/* no sctp module: as iperf3's server, whose SCTP listener fails */
		seterr(err, "SCTP is not supported");
		rc = -EPROTONOSUPPORT;
		goto out;
	}
	if (p->udp && tcp) {
		rc = seterr(err, "both \"tcp\" and \"udp\" set");
		goto out;
	}
	TRY(get_flag(o, "reverse", &p->reverse, err));
	TRY(get_flag(o, "bidirectional", &p->bidir, err));
	TRY(get_flag(o, "nodelay", &p->nodelay, err));
	TRY(get_flag(o, "mptcp", &p->mptcp, err));
	TRY(get_intflag(o, "udp_counters_64bit", &p->udp_64bit, err));
	TRY(get_intflag(o, "repeating_payload", &p->repeating_payload, err));
	TRY(get_intflag(o, "get_server_output", &p->get_server_output, err));
	TRY(get_intflag(o, "zerocopy", &p->zerocopy, err));
	TRY(get_int(o, "omit", 0, 600, &p->omit_s, err));
	TRY(get_int(o, "time", 0, LR_PROTO_MAX_TIME_S, &p->time_s, err));
	v = 0;
	if ((rc = get_int(o, "num", 0, INT64_MAX, &v, err)) < 0)
		goto out;
	p->num_bytes = (uint64_t)v;
	v = 0;
	TRY(get_int(o, "blockcount", 0, INT64_MAX, &v, err));
	p->blockcount = (uint64_t)v;
	v = 1;
	TRY(get_int(o, "parallel", 1, LR_PROTO_MAX_STREAMS, &v, err));
	p->parallel = (unsigned)v;
	v = 0;
	TRY(get_int(o, "MSS", 0, 32767, &v, err));
	p->mss = (unsigned)v;
	v = 0;
	TRY(get_int(o, "window", 0, 512LL << 20, &v, err));
	p->window_bytes = (uint64_t)v;
	v = 0;
	rc = get_int(o, "len", 1, INT64_MAX, &v, err);
	if (rc < 0)
		goto out;
	if (rc > 0) {
		if (p->udp && (v < LR_PROTO_UDP_MIN_LEN || v > LR_PROTO_UDP_MAX_LEN)) {
			rc = seterr(err, "\"len\" %lld out of range for UDP", (long long)v);
			goto out;
		}
		if (!p->udp && v > LR_PROTO_TCP_MAX_LEN) {
			rc = seterr(err, "\"len\" %lld out of range for TCP", (long long)v);
			goto out;
		}
		p->len = (uint64_t)v;
	} else if (p->udp) {
		p->len = LR_PROTO_UDP_DEF_LEN;
	}
	v = 0;
	TRY(get_int(o, "bandwidth", 0, INT64_MAX, &v, err));
	p->bandwidth_bps = (uint64_t)v;
	v = 0;
	TRY(get_int(o, "fqrate", 0, INT64_MAX, &v, err));
	p->fqrate_bps = (uint64_t)v;
	TRY(get_int(o, "pacing_timer", 0, 1000000000, &p->pacing_timer_us, err));
	TRY(get_int(o, "burst", 1, 1000, &p->burst, err));	/* iperf3: IEBURST outside */
	v = -1;
	TRY(get_int(o, "server_affinity", -1, 1024, &v, err));
	p->server_affinity = (int)v;
	v = 0;
	TRY(get_int(o, "TOS", 0, 255, &v, err));
	p->tos = (int)v;
	v = 0;
	TRY(get_int(o, "flowlabel", 0, 0xfffff, &v, err));
	p->flowlabel = (uint32_t)v;
	TRY(get_str(o, "congestion", p->congestion, sizeof(p->congestion), err));
	TRY(get_str(o, "client_version", p->client_version, sizeof(p->client_version), err));
	TRY(get_str(o, "title", NULL, 0, err));
	TRY(get_str(o, "extra_data", p->extra_data, sizeof(p->extra_data), err));
	TRY(get_intflag(o, "dont_fragment", &p->dont_fragment, err));
	TRY(get_intflag(o, "skip_rx_copy", &p->skip_rx_copy, err));
	TRY(get_str(o, "congestion_used", NULL, 0, err));
	/* checked by the server when it has keys (auth.c); ignored otherwise, as iperf3 does */
	TRY(get_str(o, "authtoken", p->authtoken, sizeof(p->authtoken), err));
	peer_stats_ask(o, p);
	rc = 0;
out:
	json_decref(o);
	return rc < 0 ? rc : 0;
}

/* ---- results ---- */

int lr_proto_results_encode(const struct lr_proto_results *r, char **out, size_t *out_len)
{
	json_t *o = json_object(), *arr = json_array();
	int rc = 0;

	if (!o || !arr || r->n_streams > LR_PROTO_MAX_RESULTS) {
		json_decref(o);
		json_decref(arr);
		return o && arr ? -EINVAL : -ENOMEM;
	}
	rc |= json_object_set_new(o, "cpu_util_total", json_real(r->cpu_total));
	rc |= json_object_set_new(o, "cpu_util_user", json_real(r->cpu_user));
	rc |= json_object_set_new(o, "cpu_util_system", json_real(r->cpu_system));
	rc |= set_int(o, "sender_has_retransmits", r->sender_has_retransmits);
	if (r->congestion_used[0])
		rc |= json_object_set_new(o, "congestion_used", json_string(r->congestion_used));
	for (unsigned i = 0; i < r->n_streams; i++) {
		const struct lr_proto_stream_result *s = &r->streams[i];
		json_t *js = json_object();

		if (!js || json_array_append_new(arr, js)) {
			rc = -1;
			break;
		}
		rc |= set_int(js, "id", s->id);
		rc |= set_int(js, "bytes", s->bytes > INT64_MAX ? INT64_MAX : (int64_t)s->bytes);
		rc |= set_int(js, "retransmits", s->retransmits);
		rc |= json_object_set_new(js, "jitter", json_real(s->jitter_s));
		rc |= set_int(js, "errors", s->errors);
		rc |= set_int(js, "omitted_errors", s->omitted_errors);
		rc |= set_int(js, "packets", s->packets);
		rc |= set_int(js, "omitted_packets", s->omitted_packets);
		rc |= json_object_set_new(js, "start_time", json_real(s->start_time_s));
		rc |= json_object_set_new(js, "end_time", json_real(s->end_time_s));
	}
	rc |= json_object_set_new(o, "streams", arr);
	if (r->server_output && r->server_output_json) {
		json_t *j = json_loads(r->server_output, 0, NULL);

		rc |= j ? json_object_set_new(o, "server_output_json", j) : -1;
	} else if (r->server_output) {
		rc |= json_object_set_new(o, "server_output_text", json_string(r->server_output));
	}
	return lr_proto_json_text(o, rc, out, out_len);
}

static int need(int rc, const char *key, char err[LR_PROTO_ERR_MAX])
{
	if (rc == 0)
		return seterr(err, "missing \"%s\"", key);
	return rc;
}

static int decode_stream(json_t *js, struct lr_proto_stream_result *s, char err[LR_PROTO_ERR_MAX])
{
	int64_t v = 0;	/* need() refuses an absent key before v is read */
	int rc, a, b;

	if (!json_is_object(js))
		return seterr(err, "stream entry is not an object");
	memset(s, 0, sizeof(*s));
	if ((rc = need(get_int(js, "id", 1, INT32_MAX, &v, err), "id", err)) < 0)
		return rc;
	s->id = (int)v;
	if ((rc = need(get_int(js, "bytes", 0, INT64_MAX, &v, err), "bytes", err)) < 0)
		return rc;
	s->bytes = (uint64_t)v;
	if ((rc = need(get_int(js, "retransmits", -1, INT64_MAX, &s->retransmits, err),
		       "retransmits", err)) < 0)
		return rc;
	if ((rc = need(get_num(js, "jitter", 0, 1e9, &s->jitter_s, err), "jitter", err)) < 0)
		return rc;
	if ((rc = need(get_int(js, "errors", -1, INT64_MAX, &s->errors, err), "errors", err)) < 0)
		return rc;
	if ((rc = need(get_int(js, "packets", -1, INT64_MAX, &s->packets, err), "packets", err)) <
	    0)
		return rc;
	a = get_int(js, "omitted_errors", -1, INT64_MAX, &s->omitted_errors, err);
	if (a < 0)
		return a;
	b = get_int(js, "omitted_packets", -1, INT64_MAX, &s->omitted_packets, err);
	if (b < 0)
		return b;
	if (a != b)
		return seterr(err, "\"omitted_errors\" and \"omitted_packets\" must come together");
	if ((rc = get_num(js, "start_time", 0, 1e9, &s->start_time_s, err)) < 0)
		return rc;
	if ((rc = get_num(js, "end_time", 0, 1e9, &s->end_time_s, err)) < 0)
		return rc;
	return 0;
}

void lr_proto_results_release(struct lr_proto_results *r)
{
	free(r->server_output);
	r->server_output = NULL;
}

int lr_proto_results_decode(const char *buf, size_t len, struct lr_proto_results *r,
			    char err[LR_PROTO_ERR_MAX])
{
	json_t *o, *arr, *j;
	int64_t v = 0;	/* as in decode_stream */
	size_t i;
	int rc;

	err[0] = '\0';
	memset(r, 0, sizeof(*r));
	o = load(buf, len, err);
	if (!o)
		return -EINVAL;
	if ((rc = need(get_num(o, "cpu_util_total", -1e6, 1e6, &r->cpu_total, err),
		       "cpu_util_total", err)) < 0 ||
	    (rc = need(get_num(o, "cpu_util_user", -1e6, 1e6, &r->cpu_user, err), "cpu_util_user",
		       err)) < 0 ||
	    (rc = need(get_num(o, "cpu_util_system", -1e6, 1e6, &r->cpu_system, err),
		       "cpu_util_system", err)) < 0 ||
	    (rc = need(get_int(o, "sender_has_retransmits", -1, 1, &v, err),
		       "sender_has_retransmits", err)) < 0)
		goto out;
	r->sender_has_retransmits = (int)v;
	if ((rc = get_str(o, "congestion_used", r->congestion_used, sizeof(r->congestion_used),
			  err)) < 0)
		goto out;
	if ((rc = get_str(o, "server_output_text", NULL, 0, err)) < 0)
		goto out;
	j = json_object_get(o, "server_output_json");
	if (j && !json_is_object(j)) {
		rc = seterr(err, "\"server_output_json\" is not an object");
		goto out;
	}
	r->server_output_json = j != NULL;
	r->server_output = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER)
		: rc > 0 ? strdup(json_string_value(json_object_get(o, "server_output_text")))
			 : NULL;
	arr = json_object_get(o, "streams");
	if (!arr || !json_is_array(arr)) {
		rc = seterr(err, arr ? "\"streams\" is not an array" : "missing \"streams\"");
		goto out;
	}
	if (json_array_size(arr) > LR_PROTO_MAX_RESULTS) {
		seterr(err, "too many streams: %zu", json_array_size(arr));
		rc = -E2BIG;
		goto out;
	}
	json_array_foreach(arr, i, j)
	{
		rc = decode_stream(j, &r->streams[i], err);
		if (rc < 0)
			goto out;
		for (size_t k = 0; k < i; k++)
			if (r->streams[k].id == r->streams[i].id) {
				rc = seterr(err, "duplicate stream id %d", r->streams[i].id);
				goto out;
			}
		r->n_streams = (unsigned)i + 1;
	}
	rc = 0;
out:
	if (rc < 0)
		lr_proto_results_release(r);
	json_decref(o);
	return rc;
}
