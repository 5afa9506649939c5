// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the command line. The input is split into argv words at NUL and newline
 * bytes, each word in its own heap block (so a parser that keeps a pointer into a previous
 * call's argv is caught by ASan), and parsed by lr_cli_parse twice: the second parse must
 * agree with the first. Every word also goes through the number parsers, whose results are
 * checked against strtod. */
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/app/cli.h"
#include "linerate/app/config.h"
#include "linerate/core/strutil.h"

/* scripts/fuzz.sh links every layer's objects as an archive but not src/app/, so the parser
 * and iperf3's options are compiled in here; weak, so that linking cli.o as well one day costs
 * nothing. */
#pragma weak lr_cli_defaults
#pragma weak lr_cli_parse
#pragma weak lr_cli_usage
#include "../../src/app/cli.c"
#include "../../src/app/cli_iperf3.c"
#include "../../src/app/cli_rr.c"

/* Defined here, this keeps run/metrics_http.o out of the link (the archive's member is never
 * pulled). --listen's address goes through getaddrinfo (a host name may be looked up): not for a fuzzer.
 * The stand-in keeps the contract the parser relies on: 0, or -EINVAL with a message. */
int lr_metrics_listen_parse(const char *spec, struct sockaddr_storage *addr, socklen_t *len,
			    char *err, size_t errlen)
{
	if (!spec[0]) {
		snprintf(err, errlen, "--listen: invalid value ''");
		return -EINVAL;
	}
	memset(addr, 0, sizeof(*addr));
	*len = sizeof(struct sockaddr_in);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 64

/* A scaled parse that succeeded must be within rounding of the decimal value times the
 * suffix multiplier. */
static void check_scaled(const char *w, uint64_t got, double base)
{
	size_t n = strlen(w);
	double mult = 1, v;
	char *end;

	switch (w[n - 1]) {
	case 'k': case 'K': mult = base; break;
	case 'm': case 'M': mult = base * base; break;
	case 'g': case 'G': mult = base * base * base; break;
	case 't': case 'T': mult = base * base * base * base; break;
	default: break;
	}
	v = strtod(w, &end) * mult;
	if (fabs((double)got - v) > 1.0 + v * 1e-12)
		abort();
}

static void check_numbers(const char *w)
{
	uint64_t u;
	double d;

	if (!lr_parse_u64(w, &u)) {
		/* digits only, and the value round-trips through strtoull */
		if (strspn(w, "0123456789") != strlen(w) || strtoull(w, NULL, 10) != u)
			abort();
	}
	if (!lr_parse_double(w, &d) && !isfinite(d))
		abort();
	if (!lr_parse_rate_bps(w, &u))
		check_scaled(w, u, 1000.0);
	if (!lr_parse_size_bytes(w, &u))
		check_scaled(w, u, 1024.0);
}

static void check_config(const struct lr_config *cfg)
{
	if (cfg->mode == LR_MODE_HELP || cfg->mode == LR_MODE_VERSION)
		return;
	if (cfg->interval_ns < 10000000ULL || cfg->interval_ns > 60000000000ULL)
		abort();
	if (cfg->duration_ns > 86400000000000ULL)
		abort();
	if (!cfg->traffic.port || cfg->traffic.parallel < 1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_WORDS + 2];
	struct lr_config a, b;
	char err_a[256], err_b[256];
	int argc = 1, ra, rb, i;
	size_t start = 0, k;

	argv[0] = strdup("linerate");
	if (!argv[0])
		return 0;
	for (k = 0; k <= size && argc <= MAX_WORDS; k++) {
		if (k < size && data[k] != '\0' && data[k] != '\n')
			continue;
		argv[argc] = malloc(k - start + 1);
		if (!argv[argc])
			goto out;
		memcpy(argv[argc], data + start, k - start);
		argv[argc][k - start] = '\0';
		argc++;
		start = k + 1;
	}
	argv[argc] = NULL;

	for (i = 1; i < argc; i++)
		if (argv[i][0])
			check_numbers(argv[i]);

	memset(err_a, 'x', sizeof(err_a));
	ra = lr_cli_parse(argc, argv, true, &a, err_a, sizeof(err_a));
	if (ra) {
		/* one line naming the problem */
		if (ra != -EINVAL || !memchr(err_a, '\0', sizeof(err_a)) || !err_a[0] ||
		    strchr(err_a, '\n'))
			abort();
	} else {
		check_config(&a);
	}
	rb = lr_cli_parse(argc, argv, true, &b, err_b, sizeof(err_b));
	if (ra != rb || (ra && strcmp(err_a, err_b)) ||
	    (!ra && (a.mode != b.mode || a.interval_ns != b.interval_ns)))
		abort();
out:
	for (i = 0; i < argc; i++)
		free(argv[i]);
	return 0;
}
