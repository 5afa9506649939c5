// SPDX-License-Identifier: GPL-2.0-or-later
/* traffic_probe: drives lr_run_server / lr_run_client without main.c/cli.c, for the interop
 * and hostile-peer scripts. Options (iperf3's letters): -s | -c HOST, -p PORT, -B ADDR, -u,
 * -P N, -b BPS, -l LEN, -t SEC, -R, --bidir, -J, -1. Test tool only. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linerate/config.h"
#include "linerate/run.h"

volatile sig_atomic_t lr_stop_signal;

static void on_signal(int sig)
{
	lr_stop_signal = sig;
}

int main(int argc, char **argv)
{
	struct lr_config cfg = {.mode = LR_MODE_HEADLESS};
	struct lr_traffic_config *tc = &cfg.traffic;
	struct sigaction sa = {.sa_handler = on_signal};
	bool server = false;

	tc->port = 5201;
	tc->parallel = 1;
	tc->affinity = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";

		if (!strcmp(a, "-s"))
			server = true;
		else if (!strcmp(a, "-c"))
			tc->host = argv[++i];
		else if (!strcmp(a, "-p"))
			tc->port = (uint16_t)atoi(v), i++;
		else if (!strcmp(a, "-B"))
			tc->bind = argv[++i];
		else if (!strcmp(a, "-u"))
			tc->udp = true;
		else if (!strcmp(a, "-P"))
			tc->parallel = (unsigned)atoi(v), i++;
		else if (!strcmp(a, "-b"))
			tc->bitrate_bps = strtoull(v, NULL, 10), tc->bitrate_set = true, i++;
		else if (!strcmp(a, "-l"))
			tc->length = strtoull(v, NULL, 10), i++;
		else if (!strcmp(a, "-t"))
			cfg.duration_ns = (uint64_t)(atof(v) * 1e9), cfg.duration_set = true, i++;
		else if (!strcmp(a, "-R"))
			tc->reverse = true;
		else if (!strcmp(a, "--bidir"))
			tc->bidir = true;
		else if (!strcmp(a, "-J"))
			cfg.json = true;
		else if (!strcmp(a, "-1"))
			tc->one_off = true;
		else if (!strcmp(a, "--no-gso"))
			tc->no_gso = true;
		else {
			fprintf(stderr, "traffic_probe: unknown option %s\n", a);
			return 2;
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (server)
		return lr_run_server(&cfg);
	if (!tc->host) {
		fprintf(stderr, "traffic_probe: need -s or -c HOST\n");
		return 2;
	}
	return lr_run_client(&cfg);
}
