// SPDX-License-Identifier: GPL-2.0-or-later
/* iperf3's remaining client and server options with iperf3's meanings (docs/design.md §9): each one
 * is carried to the engine, which applies it. [main] */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "linerate/app/cli_iperf3.h"
#include "linerate/app/config.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"

enum {
	OPT_DSCP = LR_CLI_IPERF3_BASE,
	OPT_DONT_FRAGMENT,
	OPT_FQ_RATE,
	OPT_CPORT,
	OPT_REPEATING_PAYLOAD,
	OPT_EXTRA_DATA,
	OPT_UDP_64BIT,
	OPT_CNTL_KA,
	OPT_IDLE_TIMEOUT,
	OPT_SERVER_RATE_LIMIT,
	OPT_SKIP_RX_COPY,
	OPT_JSON_STREAM,
	OPT_GET_SERVER_OUTPUT,
	OPT_GSRO,
	OPT_USERNAME,
	OPT_RSA_PUBLIC_KEY,
	OPT_RSA_PRIVATE_KEY,
	OPT_AUTHORIZED_USERS,
	OPT_SKEW_THRESHOLD,
	OPT_PKCS1,
	OPT_BIND_DEV,
	OPT_PACING_TIMER,
	OPT_SCTP,
	OPT_NSTREAMS,
	OPT_SERVER_MAX_DURATION,
	OPT_JSON_STREAM_FULL,
};

const struct option lr_cli_iperf3_opts[] = {
	{"bytes", required_argument, NULL, 'n'},
	{"blockcount", required_argument, NULL, 'k'},
	{"no-delay", no_argument, NULL, 'N'},
	{"tos", required_argument, NULL, 'S'},
	{"dscp", required_argument, NULL, OPT_DSCP},
	{"version4", no_argument, NULL, '4'},
	{"version6", no_argument, NULL, '6'},
	{"zerocopy", no_argument, NULL, 'Z'},
	{"flowlabel", required_argument, NULL, 'L'},
	{"dont-fragment", no_argument, NULL, OPT_DONT_FRAGMENT},
	{"fq-rate", required_argument, NULL, OPT_FQ_RATE},
	{"cport", required_argument, NULL, OPT_CPORT},
	{"repeating-payload", no_argument, NULL, OPT_REPEATING_PAYLOAD},
	{"extra-data", required_argument, NULL, OPT_EXTRA_DATA},
	{"udp-counters-64bit", no_argument, NULL, OPT_UDP_64BIT},
	{"cntl-ka", optional_argument, NULL, OPT_CNTL_KA},
	{"idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT},
	{"server-bitrate-limit", required_argument, NULL, OPT_SERVER_RATE_LIMIT},
	{"skip-rx-copy", no_argument, NULL, OPT_SKIP_RX_COPY},
	{"json-stream", no_argument, NULL, OPT_JSON_STREAM},
	{"json-stream-full-output", no_argument, NULL, OPT_JSON_STREAM_FULL},
	{"get-server-output", no_argument, NULL, OPT_GET_SERVER_OUTPUT},
	{"gsro", no_argument, NULL, OPT_GSRO},
	{"username", required_argument, NULL, OPT_USERNAME},
	{"rsa-public-key-path", required_argument, NULL, OPT_RSA_PUBLIC_KEY},
	{"rsa-private-key-path", required_argument, NULL, OPT_RSA_PRIVATE_KEY},
	{"authorized-users-path", required_argument, NULL, OPT_AUTHORIZED_USERS},
	{"time-skew-threshold", required_argument, NULL, OPT_SKEW_THRESHOLD},
	{"use-pkcs1-padding", no_argument, NULL, OPT_PKCS1},
	{"bind-dev", required_argument, NULL, OPT_BIND_DEV},
	{"mptcp", no_argument, NULL, 'm'},
	{"pacing-timer", required_argument, NULL, OPT_PACING_TIMER},
	{"sctp", no_argument, NULL, OPT_SCTP},
	{"xbind", required_argument, NULL, 'X'},
	{"nstreams", required_argument, NULL, OPT_NSTREAMS},
	{"server-max-duration", required_argument, NULL, OPT_SERVER_MAX_DURATION},
	{"debug", optional_argument, NULL, 'd'},
	{"file", required_argument, NULL, 'F'},
	{NULL, 0, NULL, 0},
};

/* An integer as iperf3 reads it (strtol base 0: 0x10, 020, 16) within lo..hi. */
static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* --dscp: a number 0..63 or a name (EF, CS0..CS7, AF11..AF43, as iperf3's). */
static int parse_dscp(const char *s, long *out)
{
	if (!strcasecmp(s, "ef")) {
		*out = 46;
		return 0;
	}
	if (!strncasecmp(s, "cs", 2) && s[2] >= '0' && s[2] <= '7' && !s[3]) {
		*out = 8 * (s[2] - '0');
		return 0;
	}
	if (!strncasecmp(s, "af", 2) && s[2] >= '1' && s[2] <= '4' && s[3] >= '1' &&
	    s[3] <= '3' && !s[4]) {
		*out = 8 * (s[2] - '0') + 2 * (s[3] - '0');
		return 0;
	}
	return parse_int(s, 0, 63, out);
}

/* --cntl-ka[=IDLE/INTERVAL/COUNT], each part optional (iperf3's form). */
static int parse_ka(const char *arg, struct lr_traffic_config *t)
{
	int *dst[3] = {&t->ka_idle, &t->ka_intv, &t->ka_cnt};
	const char *p = arg;

	t->cntl_ka = true;
	for (int i = 0; p && *p && i < 3; i++) {
		char part[16];
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		long v;

		if (n >= sizeof(part))
			return -EINVAL;
		memcpy(part, p, n);
		part[n] = '\0';
		if (n && parse_int(part, 1, 86400, &v))
			return -EINVAL;
		*dst[i] = n ? (int)v : 0;
		p = slash ? slash + 1 : NULL;
	}
	return p && *p ? -EINVAL : 0;
}

/* --server-bitrate-limit RATE[/SECONDS]: SECONDS within iperf3's 0.1 to 60 (its report interval
 * bounds), fractions allowed; no /SECONDS is iperf3's 5 s. iperf3 also takes /0, which ends
 * every test at its first interval (an average over no intervals): refused here. */
static int parse_limit(const char *arg, struct lr_traffic_config *t)
{
	char rate[32], *end;
	const char *slash = strchr(arg, '/');
	size_t n = slash ? (size_t)(slash - arg) : strlen(arg);
	double secs = 5;

	if (n >= sizeof(rate))
		return -EINVAL;
	memcpy(rate, arg, n);
	rate[n] = '\0';
	if (lr_parse_rate_bps(rate, &t->server_rate_limit_bps) || !t->server_rate_limit_bps)
		return -EINVAL;
	if (slash) {
		errno = 0;
		secs = strtod(slash + 1, &end);
		if (errno || end == slash + 1 || *end || !(secs >= 0.1 && secs <= 60))
			return -EINVAL;
	}
	t->server_rate_limit_ms = (uint32_t)(secs * 1000 + 0.5);
	return 0;
}

static int set_bind_dev(struct lr_traffic_config *t, const char *dev)
{
	if (!*dev || strlen(dev) >= IFNAMSIZ || strlen(dev) >= sizeof(t->bind_dev))
		return -EINVAL;
	snprintf(t->bind_dev, sizeof(t->bind_dev), "%s", dev);
	return 0;
}

const char *lr_cli_iperf3_host_dev(const char *arg, char *buf, size_t len,
				   struct lr_traffic_config *t)
{
	const char *pct = strchr(arg, '%');
	struct in6_addr a6;
	size_t n;

	if (!pct)
		return arg;
	n = (size_t)(pct - arg);
	if (n >= len)
		return NULL;
	memcpy(buf, arg, n);
	buf[n] = '\0';
	if (inet_pton(AF_INET6, buf, &a6) == 1 && IN6_IS_ADDR_LINKLOCAL(&a6))
		return arg;
	return set_bind_dev(t, pct + 1) ? NULL : buf;
}

int lr_cli_iperf3_bitrate(const char *arg, struct lr_traffic_config *t)
{
	const char *slash = strchr(arg, '/');
	char rate[32];
	long burst = 0;
	size_t n = slash ? (size_t)(slash - arg) : strlen(arg);

	if (n >= sizeof(rate))
		return -EINVAL;
	memcpy(rate, arg, n);
	rate[n] = '\0';
	if (lr_parse_rate_bps(rate, &t->bitrate_bps))
		return -EINVAL;
	if (slash && parse_int(slash + 1, 1, 1000, &burst))	/* iperf3's MAX_BURST */
		return -EINVAL;
	t->burst = (unsigned)burst;
	return 0;
}

int lr_cli_iperf3_opt(int c, const char *arg, struct lr_config *cfg, const char **traffic_opt,
		      char *err, size_t len)
{
	struct lr_traffic_config *t = &cfg->traffic;
	uint64_t u;
	long v;

	switch (c) {
	case 'n':
		if (lr_parse_size_bytes(arg, &t->num_bytes) || !t->num_bytes)
			return lr_err_inval(err, len, "-n: invalid byte count '%s' (e.g. 100M)", arg);
		*traffic_opt = "-n";
		return 0;
	case 'k':
		if (lr_parse_size_bytes(arg, &t->blockcount) || !t->blockcount)
			return lr_err_inval(err, len, "-k: invalid block count '%s' (e.g. 1000, 10K)", arg);
		*traffic_opt = "-k";
		return 0;
	case 'N':
		t->nodelay = true;
		*traffic_opt = "-N";
		return 0;
	case 'S':
		if (parse_int(arg, 0, 255, &v))
			return lr_err_inval(err, len, "-S: invalid TOS '%s' (0 to 255, e.g. 0x10)", arg);
		t->tos = (int)v;
		*traffic_opt = "-S";
		return 0;
	case OPT_DSCP:
		if (parse_dscp(arg, &v))
			return lr_err_inval(err, len, "--dscp: invalid DSCP '%s' (0 to 63, EF, CSn, AFxy)", arg);
		t->tos = (int)(v << 2);
		*traffic_opt = "--dscp";
		return 0;
	case '4':
	case '6':
		t->family = c == '4' ? AF_INET : AF_INET6;
		return 0;
	case 'Z':
		t->zerocopy = true;
		*traffic_opt = "-Z";
		return 0;
	case 'L':	/* iperf3's range; a test to an IPv4 address fails (client_net.c) */
		if (parse_int(arg, 1, 0xfffff, &v))
			return lr_err_inval(err, len,
				    "-L/--flowlabel: invalid flow label '%s' (1 to 0xfffff)", arg);
		t->flowlabel = (uint32_t)v;
		*traffic_opt = "-L";
		return 0;
	case OPT_DONT_FRAGMENT:
		t->dont_fragment = true;
		*traffic_opt = "--dont-fragment";
		return 0;
	case OPT_FQ_RATE:
		if (lr_parse_rate_bps(arg, &t->fq_rate_bps) || !t->fq_rate_bps)
			return lr_err_inval(err, len, "--fq-rate: invalid rate '%s' (e.g. 100M)", arg);
		*traffic_opt = "--fq-rate";
		return 0;
	case OPT_CPORT:
		if (lr_parse_u64(arg, &u) || u < 1 || u > 65535)
			return lr_err_inval(err, len, "--cport: invalid port '%s' (1 to 65535)", arg);
		t->cport = (uint16_t)u;
		*traffic_opt = "--cport";
		return 0;
	case OPT_REPEATING_PAYLOAD:
		t->repeating_payload = true;
		*traffic_opt = "--repeating-payload";
		return 0;
	case OPT_EXTRA_DATA:
		if (strlen(arg) > 1000)
			return lr_err_inval(err, len, "--extra-data: longer than 1000 bytes");
		t->extra_data = arg;
		*traffic_opt = "--extra-data";
		return 0;
	case OPT_UDP_64BIT:
		t->udp_64bit = true;
		*traffic_opt = "--udp-counters-64bit";
		return 0;
	case OPT_CNTL_KA:
		if (parse_ka(arg, t))
			return lr_err_inval(err, len, "--cntl-ka: invalid '%s' (IDLE/INTERVAL/COUNT seconds)",
				    arg);
		*traffic_opt = "--cntl-ka";
		return 0;
	case OPT_IDLE_TIMEOUT:
		if (parse_int(arg, 1, 86400, &v))
			return lr_err_inval(err, len, "--idle-timeout: invalid seconds '%s' (1 to 86400)", arg);
		t->idle_timeout_s = (uint32_t)v;
		return 0;
	case OPT_SERVER_RATE_LIMIT:
		if (parse_limit(arg, t))
			return lr_err_inval(err, len,
				    "--server-bitrate-limit: invalid '%s' (RATE[/SECONDS], "
				    "SECONDS 0.1 to 60, e.g. 1G/5)",
				    arg);
		return 0;
	case OPT_SERVER_MAX_DURATION:	/* iperf3's 0 (none) to MAX_TIME */
		if (parse_int(arg, 0, 86400, &v))
			return lr_err_inval(err, len, "--server-max-duration: invalid seconds '%s' (0 to "
				    "86400)", arg);
		t->server_max_duration_s = (uint32_t)v;
		return 0;
	case OPT_SKIP_RX_COPY:
		t->skip_rx_copy = true;
		*traffic_opt = "--skip-rx-copy";
		return 0;
	case OPT_JSON_STREAM:
		cfg->json_stream = true;
		cfg->json = true;
		return 0;
	case OPT_JSON_STREAM_FULL:	/* as iperf3: nothing without --json-stream */
		cfg->json_stream_full = true;
		return 0;
	case OPT_GET_SERVER_OUTPUT:
		t->get_server_output = true;
		*traffic_opt = "--get-server-output";
		return 0;
	case OPT_GSRO:	/* UDP GSO/GRO: linerate's default path; undoes --no-gso */
		t->no_gso = false;
		return 0;
	case OPT_USERNAME:	/* the password: IPERF3_PASSWORD, read in validate */
		t->auth.username = arg;
		*traffic_opt = "--username";
		return 0;
	case OPT_RSA_PUBLIC_KEY:
		t->auth.public_key = arg;
		*traffic_opt = "--rsa-public-key-path";
		return 0;
	case OPT_RSA_PRIVATE_KEY:
		t->auth.private_key = arg;
		return 0;
	case OPT_AUTHORIZED_USERS:
		t->auth.users = arg;
		return 0;
	case OPT_SKEW_THRESHOLD:
		if (parse_int(arg, 1, 86400 * 366, &v))
			return lr_err_inval(err, len, "--time-skew-threshold: invalid seconds '%s' (1 or more)",
				    arg);
		t->auth.skew_s = (int)v;
		return 0;
	case OPT_PKCS1:
		t->auth.pkcs1 = true;
		return 0;
	case OPT_BIND_DEV:
		if (set_bind_dev(t, arg))
			return lr_err_inval(err, len, "--bind-dev: invalid interface name '%s'", arg);
		return 0;
	case 'm':
		t->mptcp = true;
		return 0;
	case OPT_PACING_TIMER:	/* iperf3's K/M/G; it sends it, its 3.22 server ignores it */
		if (lr_parse_size_bytes(arg, &u) || u > INT32_MAX)
			return lr_err_inval(err, len, "--pacing-timer: invalid microseconds '%s'", arg);
		t->pacing_timer_us = (int)u;
		t->pacing_timer_set = true;
		*traffic_opt = "--pacing-timer";
		return 0;
	case 'F':
		t->file = arg;
		*traffic_opt = "-F";
		return 0;
	case 'd':	/* iperf3's: no level is the most; a negative one too */
		if (arg && parse_int(arg, INT_MIN, INT_MAX, &v))
			return lr_err_inval(err, len, "-d/--debug: invalid level '%s' (0 to 4)", arg);
		cfg->debug = !arg || v < 0 || v > LR_DEBUG_MAX ? LR_DEBUG_MAX : (int)v;
		return 0;
	case OPT_SCTP:
	case 'X':
	case OPT_NSTREAMS:
		return lr_err_inval(err, len, "%s: no SCTP in linerate: it runs TCP and UDP only (its "
			    "test kernels have no sctp module to check SCTP against)",
			    c == 'X' ? "-X/--xbind" : c == OPT_SCTP ? "--sctp" : "--nstreams");
	default:
		return 1;
	}
}

/* iperf3's authentication (auth.h): each option on its side, the keys and the users file
 * read now so that a bad one is a usage error before any traffic. */
static int validate_auth(struct lr_config *cfg, char *err, size_t len)
{
	struct lr_auth_opts *a = &cfg->traffic.auth;
	bool server = cfg->mode == LR_MODE_SERVER;
	char aerr[LR_AUTH_ERR_MAX];

	if (server && lr_auth_client_wanted(a))
		return lr_err_inval(err, len, "%s is a client option: it needs -c",
			    a->username ? "--username" : "--rsa-public-key-path");
	if (!server && (lr_auth_server_wanted(a) || a->skew_s))
		return lr_err_inval(err, len, "%s is a server option: it needs -s",
			    a->private_key ? "--rsa-private-key-path"
			    : a->users	   ? "--authorized-users-path"
					   : "--time-skew-threshold");
	if (!lr_auth_client_wanted(a) && !lr_auth_server_wanted(a)) {
		if (a->skew_s || a->pkcs1)
			return lr_err_inval(err, len, "%s needs --rsa-private-key-path (-s) or --username (-c)",
				    a->skew_s ? "--time-skew-threshold" : "--use-pkcs1-padding");
		return 0;
	}
	/* iperf3 prompts when the variable is unset; linerate never reads the terminal */
	if (!server)
		a->password = getenv("IPERF3_PASSWORD");
	if (lr_auth_opts_check(a, server, aerr) < 0)
		return lr_err_inval(err, len, "%s", aerr);
	return 0;
}

int lr_cli_iperf3_validate(struct lr_config *cfg, char *err, size_t len)
{
	struct lr_traffic_config *t = &cfg->traffic;
	bool server = cfg->mode == LR_MODE_SERVER;

	/* iperf3 -s prints its object after the "end" event; linerate -s's events come from
	 * another thread than its report: not ordered yet, so refused rather than misplaced */
	if (cfg->json_stream_full && server)
		return lr_err_inval(err, len, "--json-stream-full-output is a client option in linerate");
	if (t->flowlabel && server)	/* iperf3: "client only"; its server never applies it */
		return lr_err_inval(err, len, "-L/--flowlabel is a client option: it needs -c");
	if ((t->idle_timeout_s || t->server_rate_limit_bps || t->server_max_duration_s) && !server)
		return lr_err_inval(err, len, "%s is a server option: it needs -s",
			    t->idle_timeout_s ? "--idle-timeout"
			    : t->server_rate_limit_bps ? "--server-bitrate-limit"
						       : "--server-max-duration");
	if (t->file && t->udp)	/* iperf3's IEUDPFILETRANSFER */
		return lr_err_inval(err, len, "-F: cannot transfer a file using UDP");
	if (t->file && !server) {
		struct stat st;	/* iperf3: no -t/-n/-k: -n the file's size; unreadable: -t */
		bool sized = stat(t->file, &st) == 0 && st.st_size > 0;

		/* a -t or a larger -n ends earlier: at the file's end (client.c's file_sent) */
		if (sized && !t->num_bytes && !t->blockcount && !cfg->duration_set)
			t->num_bytes = (uint64_t)st.st_size;
	}
	if (t->num_bytes && t->blockcount)
		return lr_err_inval(err, len, "-n and -k exclude each other");
	if ((t->num_bytes || t->blockcount) && cfg->duration_set)
		return lr_err_inval(err, len, "%s and -t exclude each other", t->num_bytes ? "-n" : "-k");
	if ((t->num_bytes || t->blockcount) && cfg->matrix)
		return lr_err_inval(err, len, "--matrix runs each case for -t seconds: no -n/-k");
	if (t->udp_64bit && !t->udp && !server)
		return lr_err_inval(err, len, "--udp-counters-64bit needs -u");
	if (t->mptcp && t->udp)
		return lr_err_inval(err, len, "-m/--mptcp is TCP's: it excludes -u");
	return validate_auth(cfg, err, len);
}
