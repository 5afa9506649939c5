// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test helper for tests/integration/ethtool_veth.sh: reads one interface through the
 * ethtool collector (lr_ethtool_*) on the real syscalls and prints what it saw in the layout
 * of `ethtool -S`, so the script can diff the two. With -i it prints the link/driver info
 * instead; with -w it prints a dump, waits for a line on stdin, reads again and prints
 * "names_changed=0|1" and the second dump.
 */
#include <stdio.h>
#include <string.h>

#include "linerate/collect/ethtool.h"
#include "linerate/core/sysio.h"

static void dump(const struct lr_ethtool *et)
{
	const uint64_t *v = lr_ethtool_stat_values(et);
	uint32_t i;

	printf("NIC statistics:\n");
	for (i = 0; i < lr_ethtool_n_stats(et); i++)
		printf("     %s: %llu\n", lr_ethtool_stat_name(et, i), (unsigned long long)v[i]);
	fflush(stdout);
}

static void info(struct lr_ethtool *et)
{
	struct lr_ethtool_info in;

	if (lr_ethtool_read_info(et, &in)) {
		fprintf(stderr, "read_info failed\n");
		return;
	}
	printf("driver=%s\nspeed=%lld\nduplex=%d\nring_rx=%lld\nring_rx_max=%lld\n"
	       "features=%#x\nfeatures_known=%#x\nerr_stats=%d\nerr_link=%d\nerr_drvinfo=%d\n"
	       "err_rings=%d\nerr_features=%d\n",
	       in.driver, (long long)in.speed_mbps, in.duplex, (long long)in.ring_rx,
	       (long long)in.ring_rx_max, in.features, in.features_known, in.err_stats, in.err_link,
	       in.err_drvinfo, in.err_rings, in.err_features);
}

int main(int argc, char **argv)
{
	struct lr_ethtool *et;
	struct lr_sysio io;
	const char *mode = argc == 3 ? argv[1] : "";
	const char *ifname = argv[argc - 1];
	bool changed;
	char line[16];
	int err;

	if (argc < 2 || argc > 3 || lr_sysio_real_init(&io, NULL, NULL)) {
		fprintf(stderr, "usage: ethtool_probe [-i|-w] IFACE\n");
		return 2;
	}
	err = lr_ethtool_open(&et, ifname, &io);
	if (err) {
		fprintf(stderr, "ethtool_probe: %s: %s\n", ifname, strerror(-err));
		return 1;
	}
	if (!strcmp(mode, "-i")) {
		info(et);
	} else {
		dump(et);
		if (!strcmp(mode, "-w") && fgets(line, sizeof(line), stdin)) {
			err = lr_ethtool_read_stats(et, &changed);
			printf("names_changed=%d err=%d\n", changed, err);
			dump(et);
		}
	}
	lr_ethtool_close(et);
	return 0;
}
