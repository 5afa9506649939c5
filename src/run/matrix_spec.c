// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The `--matrix SPEC` grammar: `key=v1,v2,...` groups joined by `;`. Every value is checked
 * here with the same limits as the single-test option of that letter, so a bad SPEC is one
 * line and exit 2 before any traffic. Pure string work.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "linerate/run/matrix_spec.h"
#include "linerate/core/strutil.h"
#include "linerate/traffic/proto.h"

#define SPEC_MAX_LEN 4096

static const char letters[LR_MK__COUNT] = {'P', 'l', 'u', 'R', 'b', 'w', 'M', 'C', 'r'};

/* The key as SPEC writes it: its letter, or "rr". */
static const char *kname(enum lr_mkey k)
{
	static const char names[LR_MK__COUNT][3] = {"P", "l", "u", "R", "b", "w", "M", "C", "rr"};

	return (unsigned)k < LR_MK__COUNT ? names[k] : "?";
}

char lr_matrix_key_letter(enum lr_mkey k)
{
	return (unsigned)k < LR_MK__COUNT ? letters[k] : '?';
}

/* A value as it appears in an error: printable, cut short. */
static void shown(char *dst, size_t size, const char *s, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 1 < size; i++)
		dst[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (n >= size && size > 4)
		memcpy(dst + size - 4, "...", 3), k = size - 1;
	dst[k] = '\0';
}

static bool cc_name_ok(const char *v)
{
	size_t n = strlen(v);

	return n > 0 && n < LR_MATRIX_CC_LEN &&
	       strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* One value of key k (NUL-terminated). 0 or -EINVAL with the reason's range in why. */
static int parse_value(struct lr_matrix_spec *s, enum lr_mkey k, const char *v, uint64_t *out,
		       const char **why)
{
	uint64_t x;

	switch (k) {
	case LR_MK_P:
		*why = "1 to 128 streams";
		if (lr_parse_u64(v, &x) || x < 1 || x > LR_MAX_STREAMS)
			return -EINVAL;
		break;
	case LR_MK_L:
		*why = "bytes, e.g. 1400, 128K";
		if (lr_parse_size_bytes(v, &x) || !x || x > 1024 * 1024)
			return -EINVAL;
		break;
	case LR_MK_U:
		*why = "tcp or udp";
		if (!strcmp(v, "tcp"))
			x = 0;
		else if (!strcmp(v, "udp"))
			x = 1;
		else
			return -EINVAL;
		break;
	case LR_MK_R:
		*why = "0, 1 or bidir";
		if (!strcmp(v, "0"))
			x = LR_MDIR_UP;
		else if (!strcmp(v, "1"))
			x = LR_MDIR_REVERSE;
		else if (!strcmp(v, "bidir"))
			x = LR_MDIR_BIDIR;
		else
			return -EINVAL;
		break;
	case LR_MK_B:
		*why = "a rate, e.g. 100M, 1.5G, 0";
		if (lr_parse_rate_bps(v, &x))
			return -EINVAL;
		break;
	case LR_MK_W:
		*why = "bytes up to 512M";
		if (lr_parse_size_bytes(v, &x) || !x || x > 512ULL * 1024 * 1024)
			return -EINVAL;
		break;
	case LR_MK_M:
		*why = "88 to 32767";
		if (lr_parse_u64(v, &x) || x < 88 || x > 32767)
			return -EINVAL;
		break;
	case LR_MK_RR:
		*why = "0 or 1";
		if (strcmp(v, "0") && strcmp(v, "1"))
			return -EINVAL;
		x = v[0] == '1';
		break;
	case LR_MK_C:
	default:
		*why = "an algorithm name, e.g. cubic";
		if (!cc_name_ok(v))
			return -EINVAL;
		x = s->n_values[LR_MK_C];
		lr_strlcpy(s->cc[x], v, sizeof(s->cc[x]));	/* fits: cc_name_ok */
		break;
	}
	*out = x;
	return 0;
}

static int parse_group(struct lr_matrix_spec *s, const char *g, size_t n, char *err, size_t len)
{
	const char *eq = memchr(g, '=', n), *p, *end = g + n;
	char name[24], val[64];
	enum lr_mkey k = LR_MK__COUNT;

	if (!n)
		return lr_err_inval(err, len, "--matrix: empty group (groups are key=v1,v2,... joined by ';')");
	if (!eq) {
		shown(name, sizeof(name), g, n);
		return lr_err_inval(err, len, "--matrix: '%s' is not key=v1,v2,...", name);
	}
	shown(name, sizeof(name), g, (size_t)(eq - g));
	for (int i = 0; i < LR_MK__COUNT; i++)
		if ((size_t)(eq - g) == strlen(kname((enum lr_mkey)i)) &&
		    !memcmp(g, kname((enum lr_mkey)i), (size_t)(eq - g)))
			k = (enum lr_mkey)i;
	if (k == LR_MK__COUNT)
		return lr_err_inval(err, len, "--matrix: unknown key '%s' (keys: P l u R b w M C rr)",
			    name);
	if (s->n_values[k])
		return lr_err_inval(err, len, "--matrix: key '%s' given twice", kname(k));
	s->order[s->n_keys++] = k;
	for (p = eq + 1;; ) {
		const char *c = memchr(p, ',', (size_t)(end - p)), *why = "";
		size_t vn = (size_t)((c ? c : end) - p);
		uint64_t x;

		if (!vn)
			return lr_err_inval(err, len, "--matrix: %s: empty value", kname(k));
		if (vn >= sizeof(val)) {
			shown(val, 24, p, vn);
			return lr_err_inval(err, len, "--matrix: %s: value '%s' is too long", kname(k), val);
		}
		memcpy(val, p, vn);
		val[vn] = '\0';
		if (s->n_values[k] >= LR_MATRIX_MAX_VALUES)
			return lr_err_inval(err, len, "--matrix: %s: more than %d values", kname(k),
				    LR_MATRIX_MAX_VALUES);
		if (parse_value(s, k, val, &x, &why)) {
			shown(val, 24, p, vn);
			return lr_err_inval(err, len, "--matrix: %s: bad value '%s' (%s)", kname(k), val,
				    why);
		}
		s->values[k][s->n_values[k]++] = x;
		if (!c)
			break;
		p = c + 1;
	}
	return 0;
}

int lr_matrix_spec_parse(const char *spec, struct lr_matrix_spec *out, char *err, size_t len)
{
	size_t n = strlen(spec);
	uint64_t cases = 1;
	const char *p = spec;

	memset(out, 0, sizeof(*out));
	if (!n)
		return lr_err_inval(err, len, "--matrix: empty SPEC (e.g. P=1,2,4;u=tcp,udp)");
	if (n > SPEC_MAX_LEN)
		return lr_err_inval(err, len, "--matrix: SPEC longer than %d characters", SPEC_MAX_LEN);
	for (;;) {
		const char *semi = strchr(p, ';');
		size_t gn = semi ? (size_t)(semi - p) : strlen(p);
		int rc;

		if (!semi && !gn && p != spec)
			break;	/* a trailing ';' */
		rc = parse_group(out, p, gn, err, len);
		if (rc)
			return rc;
		if (!semi)
			break;
		p = semi + 1;
	}
	for (unsigned i = 0; i < out->n_keys; i++) {
		cases *= out->n_values[out->order[i]];
		if (cases > LR_MATRIX_MAX_CASES)
			return lr_err_inval(err, len, "--matrix: more than %d cases", LR_MATRIX_MAX_CASES);
	}
	out->n_cases = (unsigned)cases;
	return 0;
}

void lr_matrix_case(const struct lr_matrix_spec *s, const struct lr_traffic_config *base,
		    unsigned i, struct lr_traffic_config *out)
{
	*out = *base;
	for (unsigned j = s->n_keys; j-- > 0;) {	/* the last key fastest */
		enum lr_mkey k = s->order[j];
		unsigned n = s->n_values[k], pick = i % n;
		uint64_t v = s->values[k][pick];

		i /= n;
		switch (k) {
		case LR_MK_P:
			out->parallel = (unsigned)v;
			break;
		case LR_MK_L:
			out->length = v;
			break;
		case LR_MK_U:
			out->udp = v == 1;
			break;
		case LR_MK_R:
			out->reverse = v == LR_MDIR_REVERSE;
			out->bidir = v == LR_MDIR_BIDIR;
			break;
		case LR_MK_B:
			out->bitrate_bps = v;
			out->bitrate_set = true;
			break;
		case LR_MK_W:
			out->window = v;
			break;
		case LR_MK_M:
			out->mss = (unsigned)v;
			break;
		case LR_MK_RR:
			out->rr_req_bytes = (uint32_t)v; /* sized below, once l is known */
			break;
		case LR_MK_C:
		default:
			out->congestion = s->cc[pick];
			break;
		}
	}
	if (out->rr_req_bytes) {	/* as --rr -l SIZE: SIZE both ways, netperf's 1 unset */
		out->rr_req_bytes = out->rr_resp_bytes = out->length ? (uint32_t)out->length : 1;
		out->length = out->udp && out->rr_req_bytes < 16 ? 16 : out->rr_req_bytes;
	}
	/* -u's 1 Mbit/s default is iperf3's (1024 x 1024 bit/s, what the client paces at and tells
	 * the server) for UDP only; TCP without -b is unlimited */
	if (!out->bitrate_set)
		out->bitrate_bps = out->udp ? LR_PROTO_UDP_DEF_RATE : 0;
}

int lr_matrix_spec_check(const struct lr_matrix_spec *s, const struct lr_traffic_config *base,
			 char *err, size_t len)
{
	for (unsigned i = 0; i < s->n_cases; i++) {
		struct lr_traffic_config tc;

		lr_matrix_case(s, base, i, &tc);
		if (tc.udp && tc.length && (tc.length < 16 || tc.length > 65507))
			return lr_err_inval(err, len,
				    "--matrix: l=%llu is out of range for UDP (16 to 65507), case %u",
				    (unsigned long long)tc.length, i + 1);
		if (tc.rr_req_bytes && (tc.reverse || tc.bidir || tc.bitrate_set))
			return lr_err_inval(err, len, "--matrix: rr=1 excludes %s, case %u",
				    tc.reverse ? "R=1" : tc.bidir ? "R=bidir" : "b", i + 1);
	}
	return 0;
}
