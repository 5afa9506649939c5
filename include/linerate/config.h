/* SPDX-License-Identifier: GPL-2.0-or-later */
/* struct lr_config: the parsed command line (DESIGN.md section 1), filled by cli.c and read by
 * the run_* entry points. Plain data. [main] */
#ifndef LINERATE_CONFIG_H
#define LINERATE_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "linerate/common.h"

enum lr_source { LR_SOURCE_NETLINK, LR_SOURCE_PROC };	/* --source */

enum lr_mode {
	LR_MODE_DASHBOARD,	/* default; with -c also drives traffic */
	LR_MODE_HEADLESS,	/* --headless */
	LR_MODE_SERVER,		/* -s */
	LR_MODE_EXPLAIN,	/* --explain DUMP [DUMP2] */
	LR_MODE_HELP,
	LR_MODE_VERSION,
};

#define LR_MAX_STREAMS 128	/* iperf3's MAX_STREAMS */

struct lr_traffic_config {	/* iperf3's options, same meanings */
	const char *host;	/* -c HOST, NULL = no traffic */
	uint16_t port;		/* -p, 5201 */
	const char *bind;	/* -B */
	bool udp;		/* -u */
	unsigned parallel;	/* -P, 1..128 */
	uint64_t bitrate_bps;	/* -b per stream; 0 unlimited; UDP default 1 Mbit/s as iperf3 */
	bool bitrate_set;
	uint64_t length;	/* -l; 0 = iperf3's default (TCP 128 KiB, UDP from the MSS) */
	bool reverse;		/* -R */
	bool bidir;		/* --bidir */
	unsigned mss;		/* -M, 0 unset */
	uint64_t window;	/* -w bytes, 0 unset */
	int affinity;		/* -A n: this side's stream threads on CPU n, -1 unset */
	int server_affinity;	/* -A n,m: asks the server for CPU m, -1 unset */
	const char *congestion;	/* -C */
	bool one_off;		/* -1 (server) */
	bool no_gso;		/* --no-gso: plain sendmmsg/recvmmsg path */
	bool no_start;		/* --no-start: dashboard waits for `s` */
	bool demo;		/* --demo: in-process server on loopback */
	uint32_t connect_timeout_ms;	/* --connect-timeout: control connect and each data
					 * stream's setup (UDP retried); 0 = 5000 */
	uint32_t rcv_timeout_ms;	/* --rcv-timeout: no data received for this long ends
					 * the test; 0 = iperf3's 120000 */
	uint32_t snd_timeout_ms;	/* --snd-timeout: TCP_USER_TIMEOUT, 0 = the system's */
};

struct lr_config {
	enum lr_mode mode;
	uint64_t interval_ns;	/* -i, 0.01..60 s, default 0.5 s */
	uint64_t duration_ns;	/* -t, 0 = until stopped (headless/dashboard); traffic: 10 s */
	bool duration_set;
	const char *ifaces;	/* -I comma list, NULL = all */
	const char *theme;	/* -T NAME|PATH */
	bool ascii;		/* --ascii */
	enum lr_source source;	/* --source netlink|proc */
	const char *procfs;	/* --procfs DIR */
	const char *sysfs;	/* --sysfs DIR */
	const char *csv;	/* --csv FILE, "-" = stdout */
	const char *cpu_csv;	/* --cpu-csv FILE */
	const char *streams_csv;	/* --streams-csv FILE */
	bool json;		/* -J */
	const char *explain[2];	/* --explain DUMP [DUMP2] */
	struct lr_traffic_config traffic;
};

#endif
