// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Command-line parsing into struct lr_config. iperf3's letters and meanings where iperf3
 * has the same idea. Every bad option or value comes back as one line naming it; main.c
 * prints it with a hint to --help and exits 2. [main]
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "linerate/app/cli.h"
#include "linerate/app/cli_iperf3.h"
#include "linerate/app/cli_rr.h"
#include "linerate/app/config.h"
#include "linerate/diagnose/expect.h"
#include "linerate/run/matrix_spec.h"
#include "linerate/run/metrics_http.h"
#include "linerate/collect/numa.h"
#include "linerate/sample/sampler.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"
#include "linerate/core/sysio.h"
#include "linerate/traffic/proto.h"

#define CPU_MAX 1023 /* the stream threads' CPU_SETSIZE */

enum {
	OPT_ASCII = 256,
	OPT_GRAPH,
	OPT_SOURCE,
	OPT_PROCFS,
	OPT_SYSFS,
	OPT_HEADLESS,
	OPT_CSV,
	OPT_CPU_CSV,
	OPT_STREAMS_CSV,
	OPT_QUEUES_CSV,
	OPT_LEDGER_CSV,
	OPT_EXPLAIN,
	OPT_DEMO,
	OPT_BIDIR,
	OPT_NO_GSO,
	OPT_NO_START,
	OPT_THEME,
	OPT_TIMESTAMPS,
	OPT_LOGFILE,
	OPT_FORCEFLUSH,
	OPT_PIDFILE,
	OPT_CONNECT_TIMEOUT,
	OPT_RCV_TIMEOUT,
	OPT_SND_TIMEOUT,
	OPT_MATRIX,
	OPT_MATRIX_CSV,
	OPT_NO_PEER_STATS,
	OPT_NO_LATENCY,
	OPT_REPORT,
	OPT_LISTEN,
	OPT_REPLAY,
	OPT_EXPECT,
	OPT_RR,
};

static const struct option long_opts[] = {
	{"interval", required_argument, NULL, 'i'},
	{"iface", required_argument, NULL, 'I'},
	{"theme", required_argument, NULL, OPT_THEME},
	{"title", required_argument, NULL, 'T'},
	{"timestamps", optional_argument, NULL, OPT_TIMESTAMPS},
	{"logfile", required_argument, NULL, OPT_LOGFILE},
	{"forceflush", no_argument, NULL, OPT_FORCEFLUSH},
	{"pidfile", required_argument, NULL, OPT_PIDFILE},
	{"daemon", no_argument, NULL, 'D'},
	{"format", required_argument, NULL, 'f'},
	{"verbose", no_argument, NULL, 'V'},
	{"ascii", no_argument, NULL, OPT_ASCII},
	{"graph", required_argument, NULL, OPT_GRAPH},
	{"source", required_argument, NULL, OPT_SOURCE},
	{"procfs", required_argument, NULL, OPT_PROCFS},
	{"sysfs", required_argument, NULL, OPT_SYSFS},
	{"headless", no_argument, NULL, OPT_HEADLESS},
	{"time", required_argument, NULL, 't'},
	{"csv", required_argument, NULL, OPT_CSV},
	{"cpu-csv", required_argument, NULL, OPT_CPU_CSV},
	{"streams-csv", required_argument, NULL, OPT_STREAMS_CSV},
	{"queues-csv", required_argument, NULL, OPT_QUEUES_CSV},
	{"ledger-csv", required_argument, NULL, OPT_LEDGER_CSV},
	{"listen", required_argument, NULL, OPT_LISTEN},
	{"json", no_argument, NULL, 'J'},
	{"explain", required_argument, NULL, OPT_EXPLAIN},
	{"report", required_argument, NULL, OPT_REPORT},
	{"replay", no_argument, NULL, OPT_REPLAY},
	{"demo", no_argument, NULL, OPT_DEMO},
	{"client", required_argument, NULL, 'c'},
	{"server", no_argument, NULL, 's'},
	{"port", required_argument, NULL, 'p'},
	{"bind", required_argument, NULL, 'B'},
	{"one-off", no_argument, NULL, '1'},
	{"udp", no_argument, NULL, 'u'},
	{"parallel", required_argument, NULL, 'P'},
	{"bitrate", required_argument, NULL, 'b'},
	{"bandwidth", required_argument, NULL, 'b'},	/* iperf3's old name */
	{"length", required_argument, NULL, 'l'},
	{"reverse", no_argument, NULL, 'R'},
	{"bidir", no_argument, NULL, OPT_BIDIR},
	{"set-mss", required_argument, NULL, 'M'},
	{"window", required_argument, NULL, 'w'},
	{"affinity", required_argument, NULL, 'A'},
	{"congestion", required_argument, NULL, 'C'},
	{"no-gso", no_argument, NULL, OPT_NO_GSO},
	{"no-start", no_argument, NULL, OPT_NO_START},
	{"connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT},
	{"rcv-timeout", required_argument, NULL, OPT_RCV_TIMEOUT},
	{"snd-timeout", required_argument, NULL, OPT_SND_TIMEOUT},
	{"matrix", required_argument, NULL, OPT_MATRIX},
	{"matrix-csv", required_argument, NULL, OPT_MATRIX_CSV},
	{"omit", required_argument, NULL, 'O'},
	{"no-peer-stats", no_argument, NULL, OPT_NO_PEER_STATS},
	{"no-latency", no_argument, NULL, OPT_NO_LATENCY},
	{"expect", required_argument, NULL, OPT_EXPECT},
	{"rr", no_argument, NULL, OPT_RR},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'v'},
	{NULL, 0, NULL, 0},
};

/* cli.c's options, then cli_iperf3.c's: getopt_long needs one table. Room for 64 of
 * cli_iperf3.c's; one past the room would be an unknown option (the unit tests parse the last). */
static const struct option *all_opts(void)
{
	static struct option all[LR_ARRAY_SIZE(long_opts) + 64];
	size_t n = LR_ARRAY_SIZE(long_opts) - 1, k;

	if (all[0].name)
		return all;
	memcpy(all, long_opts, n * sizeof(*all));
	for (k = 0; lr_cli_iperf3_opts[k].name && n + k + 1 < LR_ARRAY_SIZE(all); k++)
		all[n + k] = lr_cli_iperf3_opts[k];
	return all;
}

static const char usage[] =
	"usage: linerate [OPTIONS]                  dashboard of all interfaces\n"
	"       linerate -c HOST [TRAFFIC]          dashboard + traffic to HOST (linerate -s or iperf3 -s)\n"
	"       linerate -s [-p PORT] [-B ADDR] [-1] traffic server, iperf3 wire-compatible: the\n"
	"                                           dashboard on a terminal, iperf3 -s's lines with\n"
	"                                           --headless or when piped\n"
	"       linerate --demo                     dashboard + traffic on loopback, no peer needed\n"
	"       linerate --explain DUMP [DUMP2]     classify saved `ethtool -S` output\n"
	"       linerate -c HOST --matrix SPEC      a grid of tests, one table (P=1,2;u=tcp,udp)\n"
	"       linerate --report OUT.html CSV...   one self-contained HTML report of recorded CSVs\n"
	"       linerate --replay CSV...            the dashboard, played from recorded CSVs\n"
	"\n"
	"Sampling and display:\n"
	"  -i, --interval SEC     sampling interval, 0.01 to 60 (default 0.5)\n"
	"  -I, --iface LIST       comma-separated interfaces (default: all)\n"
	"      --theme NAME|PATH  colour theme; --ascii for ASCII graphs and borders\n"
	"      --graph braille|block|ascii   graph style (default braille, ascii without UTF-8)\n"
	"      --source netlink|proc   counter source (default netlink)\n"
	"      --procfs DIR, --sysfs DIR   read a captured tree instead of /proc and /sys\n"
	"Headless:\n"
	"      --headless         no dashboard; log samples as CSV (stdout without --csv); implied by\n"
	"                         -J, --json-stream, --logfile and by no terminal on stdin/stdout\n"
	"  -t, --time SEC         stop after SEC seconds; with traffic the test's length (headless\n"
	"                         default 10 s; the dashboard runs a test until s or q without -t)\n"
	"      --csv FILE         per-interface CSV ('-' = stdout); --cpu-csv FILE per-CPU CSV\n"
	"      --streams-csv FILE per-stream traffic CSV;  -J, --json  final results as JSON\n"
	"      --queues-csv FILE  per-queue CSV (qstats-get, else the driver's per-queue names)\n"
	"      --ledger-csv FILE  the test's loss ledger per interval (headless -c)\n"
	"      --listen [ADDR:]PORT  Prometheus /metrics (PORT alone: 127.0.0.1; [::]:PORT: all)\n"
	"Traffic (iperf3's meanings):\n"
	"  -p PORT (5201)  -u UDP  -P N streams  -b RATE[KMG] per stream (0 = unlimited)\n"
	"  -l BYTES  -R reverse  --bidir  -M MSS  -w WINDOW  -C ALGO  -B ADDR  -1 one-off\n"
	"  -A N[,M]  stream threads on CPU N (server: M); N = node:K: NUMA node K's CPUs\n"
	"  --no-gso  plain sendmmsg/recvmmsg UDP path    --no-start  wait for `s` in the dashboard\n"
	"Output (iperf3's): -T, --title STR  prefix every line with STR;  --timestamps[=FORMAT]\n"
	"  --logfile FILE  output to FILE;  --forceflush  flush each line;  --pidfile FILE;  -D daemon\n"
	"  -f a|A|k|m|g|t|K|M|G|T  bitrate unit (A: bytes);  -V, --verbose  more detail\n"
	"  --connect-timeout MS (5000)  --rcv-timeout MS (120000)  --snd-timeout MS (system)\n"
	"  -O SEC omit  -n BYTES | -k BLOCKS  -N nodelay  -S TOS | --dscp V  -4 | -6  -Z zerocopy\n"
	"  --get-server-output  --json-stream [--json-stream-full-output]  --fq-rate RATE\n"
	"  --dont-fragment  --cport PORT\n"
	"  -L, --flowlabel N  IPv6 flow label on the data streams (-c, IPv6 tests only)\n"
	"  -b RATE/BURST  BURST blocks back to back per pacing step;  -m, --mptcp  MPTCP data streams\n"
	"  --bind-dev DEV (or -c HOST%DEV, -B ADDR%DEV)  SO_BINDTODEVICE;  --pacing-timer US\n"
	"  --sctp, -X, --nstreams  refused: TCP and UDP only;  -d, --debug[=N]  iperf3's, on stderr\n"
	"  --repeating-payload  --extra-data STR  --udp-counters-64bit  --skip-rx-copy  --gsro\n"
	"  --cntl-ka[=IDLE/INTV/CNT];  -s: --idle-timeout SEC  --server-bitrate-limit RATE[/SEC]\n"
	"  -s: --server-max-duration N  refuse a test with -t + -O over N s (or no -t)\n"
	"  -F, --file FILE  TCP payload read from FILE (sender) or written to it (receiver)\n"
	"  -c: --username USER --rsa-public-key-path PEM (password: IPERF3_PASSWORD, no prompt)\n"
	"  -s: --rsa-private-key-path PEM --authorized-users-path FILE --time-skew-threshold SEC\n"
	"  --use-pkcs1-padding  RSA padding of iperf3 <= 3.16 (else OAEP, as 3.17+), both sides\n"
	"Matrix: --matrix SPEC  key=v1,v2,... joined by ';', keys P l u R b w M C (R=0,1,bidir)\n"
	"  --matrix-csv FILE  the rows as CSV;  -O SEC  run each case SEC s before measuring it\n"
	"  --no-peer-stats  -s: share no samples with a linerate client; -c: do not ask for them\n"
	"  --no-latency  -c: no latency probes beside the test (a linerate server answers them)\n"
	"  --expect COND[,COND]  headless -c: exit 3 unless each holds: loss<=0.1% rate>=9.4G\n"
	"                   retr<=100 cpu<90% (<= < >= >; rate k M G T)\n"
	"  --rr  headless -c: netperf's TCP_RR (-u: UDP_RR) against a linerate server; -l REQ[,RESP]\n"
	"        bytes (1,1), -P flows, -t SEC: transactions/s, latency, service demand (exit 4:\n"
	"        the server is no linerate)\n"
	"  -h, --help   -v, --version\n";

const char *lr_cli_usage(void)
{
	return usage;
}

void lr_cli_defaults(struct lr_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = LR_MODE_DASHBOARD;
	cfg->format = 'a';
	cfg->interval_ns = 500 * LR_NSEC_PER_MSEC;
	cfg->source = LR_SOURCE_NETLINK;
	cfg->traffic.port = 5201;
	cfg->traffic.parallel = 1;
	cfg->traffic.affinity = -1;
	cfg->traffic.server_affinity = -1;
	cfg->traffic.affinity_node = -1;
	cfg->debug = LR_DEBUG_OFF;
}

static int parse_seconds(const char *s, double lo, double hi, uint64_t *out_ns)
{
	double v;

	if (lr_parse_double(s, &v) || v < lo || v > hi)
		return -EINVAL;
	*out_ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

static int parse_uint(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v;

	if (lr_parse_u64(s, &v) || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

/* --procfs/--sysfs DIR: an input named on the command line that is not there is bad usage. */
static int check_tree(const char *opt, const char *dir, char *err, size_t len)
{
	struct stat st;

	if (stat(dir, &st))
		return lr_err_inval(err, len, "%s %s: %s", opt, dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return lr_err_inval(err, len, "%s %s: not a directory", opt, dir);
	return 0;
}

/* iperf3's -A n[,m]: n for this side, m asked of the server; n may be node:N (the CPUs of NUMA
 * node N here). -EINVAL bad syntax; lr_numa_node_cpuset's -ENOENT/-ENODEV for a node. */
static int parse_affinity(const char *arg, struct lr_traffic_config *t)
{
	const char *comma = strchr(arg, ',');
	char first[24];
	uint64_t n, m = 0;

	if (!comma)
		comma = arg + strlen(arg);
	if ((size_t)(comma - arg) >= sizeof(first))
		return -EINVAL;
	memcpy(first, arg, (size_t)(comma - arg));
	first[comma - arg] = '\0';
	if (*comma && parse_uint(comma + 1, 0, CPU_MAX, &m))
		return -EINVAL;
	if (!strncmp(first, "node:", 5)) {
		struct lr_sysio io;
		int rc;

		if (parse_uint(first + 5, 0, LR_NUMA_MAX_NODES - 1, &n))
			return -EINVAL;
		/* the live /sys whatever --sysfs says: the threads run here */
		if (lr_sysio_real_init(&io, NULL, NULL))
			return -ENAMETOOLONG;
		rc = lr_numa_node_cpuset(&io, (int)n, &t->affinity_cpus);
		if (rc < 0)
			return rc;
		t->affinity_node = (int)n;
		t->affinity = -1;
	} else {
		if (parse_uint(first, 0, CPU_MAX, &n))
			return -EINVAL;
		t->affinity = (int)n;
		t->affinity_node = -1;
	}
	t->server_affinity = *comma ? (int)m : -1;
	return 0;
}

/* A server takes its test options from the client: one given to -s would be dropped, so it is
 * an error naming it (as iperf3's "some option you are trying to set is client only"). */
static const char *server_drops(const struct lr_config *cfg)
{
	const struct lr_traffic_config *t = &cfg->traffic;

	return t->udp ? "-u" : t->parallel != 1 ? "-P" : t->bitrate_set ? "-b" : t->length ? "-l"
	       : t->reverse ? "-R" : t->bidir ? "--bidir" : t->mss ? "-M" : t->window ? "-w"
	       : t->congestion ? "-C" : t->no_start ? "--no-start"
	       : t->connect_timeout_ms ? "--connect-timeout" : t->server_affinity >= 0 ? "-A n,m"
	       : cfg->duration_set ? "-t" : cfg->omit_ns ? "-O" : cfg->matrix ? "--matrix"
	       : cfg->matrix_csv ? "--matrix-csv" : cfg->expect.n ? "--expect" : NULL;
}

/* --matrix SPEC against the options it varies: a bad one is bad usage, refused before any
 * mode starts (no screen, no sampler, no traffic). */
static int matrix_spec_valid(const struct lr_config *cfg, char *err, size_t len)
{
	struct lr_matrix_spec *ms = calloc(1, sizeof(*ms));
	int rc;

	if (!ms)
		return -ENOMEM;
	rc = lr_matrix_spec_parse(cfg->matrix, ms, err, len) ||
			     lr_matrix_spec_check(ms, &cfg->traffic, err, len)
		     ? -EINVAL
		     : 0;
	free(ms);
	return rc;
}

/* No dashboard where iperf3 has none (-J, --json-stream, --logfile; -T, --timestamps and
 * --forceflush shape iperf3's text lines) or where there is no terminal to draw on: -c, -s
 * and plain sampling take their headless form, as --rr always does. --demo has none: a run of it without a terminal,
 * or asking it for iperf3's output, is bad usage (--replay says so once its files are read). */
static int pick_headless(struct lr_config *cfg, bool tty, char *err, size_t len)
{
	const char *o = cfg->json_stream ? "--json-stream" : cfg->json ? "-J"
			: cfg->debug != LR_DEBUG_OFF ? "-d" : cfg->logfile ? "--logfile" : cfg->title ? "-T"
			: cfg->timestamps ? "--timestamps" : cfg->forceflush ? "--forceflush" : NULL;

	if (cfg->mode != LR_MODE_DASHBOARD && cfg->mode != LR_MODE_HEADLESS &&
	    cfg->mode != LR_MODE_SERVER)
		return 0;
	if (cfg->traffic.demo && (cfg->headless || o))
		return lr_err_inval(err, len, "--demo runs in the dashboard: it has no %s (run linerate -s "
				    "and linerate -c 127.0.0.1)", cfg->headless ? "--headless" : o);
	if (cfg->traffic.demo && !tty)
		return lr_err_inval(err, len, "--demo runs in the dashboard: it needs a terminal on "
				    "stdin and stdout");
	/* --rr is netperf's test: a table at its end, nothing to watch while it runs */
	if (o || cfg->daemon || !tty || (cfg->rr && cfg->mode == LR_MODE_DASHBOARD)) {
		cfg->headless = true;
		if (cfg->mode == LR_MODE_DASHBOARD)
			cfg->mode = LR_MODE_HEADLESS;
	}
	return 0;
}

/* Checks that need every option seen. */
static int validate(struct lr_config *cfg, bool traffic_opt, const char *opt_name, char *err,
		    size_t len)
{
	struct lr_traffic_config *t = &cfg->traffic;
	int rc;

	if (traffic_opt && !t->host && !t->demo && cfg->mode != LR_MODE_SERVER)
		return lr_err_inval(err, len, "%s needs -c HOST or --demo", opt_name);
	if (t->host && cfg->mode == LR_MODE_SERVER)
		return lr_err_inval(err, len, "-c and -s exclude each other");
	if (t->demo && (t->host || cfg->mode == LR_MODE_SERVER))
		return lr_err_inval(err, len, "--demo excludes -c and -s");
	if (t->reverse && t->bidir)
		return lr_err_inval(err, len, "-R and --bidir exclude each other");
	if (cfg->listen && cfg->mode != LR_MODE_DASHBOARD && cfg->mode != LR_MODE_HEADLESS)
		return lr_err_inval(err, len, "--listen serves the samples of the dashboard or --headless");
	/* the look of a screen, where there is none: an error, never dropped (issue 21); -s
	 * without its dashboard says so itself (mode_server.c) */
	if ((cfg->theme || cfg->ascii || cfg->graph) && cfg->mode != LR_MODE_DASHBOARD &&
	    cfg->mode != LR_MODE_SERVER && cfg->mode != LR_MODE_REPLAY)
		return lr_err_inval(err, len, "%s: only the dashboard and --replay draw (this run has no "
				    "screen: --headless, -J, --logfile, or no terminal)",
				    cfg->theme ? "--theme" : cfg->ascii ? "--ascii" : "--graph");
	if (t->no_start && cfg->mode == LR_MODE_HEADLESS)
		return lr_err_inval(err, len, "--no-start waits for s in the dashboard (this run has no "
				    "screen: --headless, -J, --logfile, or no terminal)");
	if (cfg->ledger_csv && (cfg->mode != LR_MODE_HEADLESS || !t->host || cfg->matrix))
		return lr_err_inval(err, len, "--ledger-csv writes a headless test's ledger: it needs "
				    "-c HOST and --headless (no --matrix)");
	if (cfg->daemon && cfg->mode != LR_MODE_SERVER)
		return lr_err_inval(err, len, "-D runs a server in the background: it needs -s");
	if ((cfg->title || cfg->timestamps || cfg->logfile || cfg->forceflush) &&
	    cfg->mode != LR_MODE_SERVER && !(cfg->mode == LR_MODE_HEADLESS && t->host))
		return lr_err_inval(err, len, "%s shapes iperf3's text output: it needs -s or -c",
			    cfg->title ? "-T" : cfg->timestamps ? "--timestamps"
			    : cfg->logfile ? "--logfile" : "--forceflush");
	rc = lr_cli_rr_valid(cfg, err, len);
	if (rc)
		return rc;
	if (t->length) {
		if (t->udp && (t->length < 16 || t->length > 65507))
			return lr_err_inval(err, len, "-l: %llu is out of range for UDP (16 to 65507)",
				    (unsigned long long)t->length);
		if (!t->udp && t->length > 1024 * 1024)
			return lr_err_inval(err, len, "-l: %llu is out of range for TCP (1 to 1M)",
				    (unsigned long long)t->length);
	}
	if (cfg->matrix && (!t->host || cfg->mode == LR_MODE_SERVER))
		return lr_err_inval(err, len, "--matrix needs -c HOST");
	if (cfg->expect.n && (cfg->matrix || cfg->mode != LR_MODE_HEADLESS))
		return lr_err_inval(err, len, "--expect judges one headless test (-c HOST with "
				    "--headless, -J or no terminal; not --matrix)");
	if (cfg->matrix_csv && !cfg->matrix)
		return lr_err_inval(err, len, "--matrix-csv needs --matrix");
	if (cfg->omit_ns && cfg->mode == LR_MODE_SERVER)
		return lr_err_inval(err, len, "-O is the client's: a server takes it from each test");
	if (cfg->omit_ns) {	/* the engine omits, for a single test and each matrix case */
		if (cfg->omit_ns % LR_NSEC_PER_SEC)
			return lr_err_inval(err, len, "-O: whole seconds only, as iperf3 sends them");
		t->omit_s = (unsigned)(cfg->omit_ns / LR_NSEC_PER_SEC);
	}
	if (t->udp && !t->bitrate_set)
		t->bitrate_bps = LR_PROTO_UDP_DEF_RATE;	/* iperf3's UDP default, as the engine paces */
	rc = lr_cli_iperf3_validate(cfg, err, len);
	return rc || !cfg->matrix ? rc : matrix_spec_valid(cfg, err, len);
}

int lr_cli_parse(int argc, char **argv, bool tty, struct lr_config *cfg, char *err, size_t len)
{
	struct lr_traffic_config *t = &cfg->traffic;
	const char *traffic_opt = NULL;
	bool replay = false;
	uint64_t v;
	int c;

	lr_cli_defaults(cfg);
	/* 0, not 1: glibc then also forgets the position inside a "-abc" cluster that a
	 * previous call stopped in (it would go on reading the old argv). */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv,
				":i:I:T:t:Jc:sp:B:1uP:b:l:RM:w:A:C:O:Df:Vhv" LR_CLI_IPERF3_SHORT,
				all_opts(), NULL)) != -1) {
		int rc = lr_cli_iperf3_opt(c, optarg, cfg, &traffic_opt, err, len);

		if (rc <= 0) {
			if (rc < 0)
				return rc;
			continue;
		}
		switch (c) {
		case 'i':
			if (parse_seconds(optarg, 0.01, 60, &cfg->interval_ns))
				return lr_err_inval(err, len, "-i: invalid interval '%s' (0.01 to 60 seconds)",
					    optarg);
			cfg->interval_set = true;
			break;
		case 'I':
			if (!*optarg)
				return lr_err_inval(err, len, "-I: empty interface list");
			cfg->ifaces = optarg;
			break;
		case OPT_THEME:
			cfg->theme = optarg;
			break;
		case 'T':
			cfg->title = optarg;
			break;
		case OPT_TIMESTAMPS: {
			/* an optional value comes as --timestamps=FORMAT in the same word */
			const char *eq = strchr(argv[optind - 1], '=');

			cfg->timestamps = eq && eq[1] ? eq + 1 : "%c ";	/* iperf3's default */
			break;
		}
		case OPT_LOGFILE:
			if (!*optarg)
				return lr_err_inval(err, len, "--logfile: empty file name");
			cfg->logfile = optarg;
			break;
		case OPT_FORCEFLUSH:
			cfg->forceflush = true;
			break;
		case OPT_PIDFILE:
			if (!*optarg)
				return lr_err_inval(err, len, "--pidfile: empty file name");
			cfg->pidfile = optarg;
			break;
		case 'D':
			cfg->daemon = true;
			break;
		case 'f':
			if (strlen(optarg) != 1 || !strchr("aAkmgtKMGT", optarg[0]))
				return lr_err_inval(err, len, "-f: invalid format '%s' (one of a A k m g t K M G T)",
					    optarg);
			cfg->format = optarg[0];
			break;
		case 'V':
			cfg->verbose = true;
			break;
		case OPT_ASCII:
			cfg->ascii = true;
			break;
		case OPT_GRAPH:
			if (!strcmp(optarg, "braille"))
				cfg->graph = LR_CFG_GRAPH_BRAILLE;
			else if (!strcmp(optarg, "block"))
				cfg->graph = LR_CFG_GRAPH_BLOCK;
			else if (!strcmp(optarg, "ascii"))
				cfg->graph = LR_CFG_GRAPH_ASCII;
			else
				return lr_err_inval(err, len, "--graph: '%s' is not braille, block or ascii",
					    optarg);
			break;
		case OPT_SOURCE:
			if (!strcmp(optarg, "netlink"))
				cfg->source = LR_SOURCE_NETLINK;
			else if (!strcmp(optarg, "proc"))
				cfg->source = LR_SOURCE_PROC;
			else
				return lr_err_inval(err, len, "--source: '%s' is not netlink or proc", optarg);
			break;
		case OPT_PROCFS:
		case OPT_SYSFS:
			if (check_tree(c == OPT_PROCFS ? "--procfs" : "--sysfs", optarg, err, len))
				return -EINVAL;
			*(c == OPT_PROCFS ? &cfg->procfs : &cfg->sysfs) = optarg;
			break;
		case OPT_HEADLESS:
			cfg->headless = true;
			if (cfg->mode == LR_MODE_DASHBOARD)
				cfg->mode = LR_MODE_HEADLESS;
			break;
		case 't':
			if (parse_seconds(optarg, 0, 86400, &cfg->duration_ns))
				return lr_err_inval(err, len, "-t: invalid time '%s' (0 to 86400 seconds)",
					    optarg);
			cfg->duration_set = true;
			break;
		case OPT_CSV:
			cfg->csv = optarg;
			break;
		case OPT_CPU_CSV:
			cfg->cpu_csv = optarg;
			break;
		case OPT_STREAMS_CSV:
			cfg->streams_csv = optarg;
			break;
		case OPT_QUEUES_CSV:
			cfg->queues_csv = optarg;
			break;
		case OPT_LEDGER_CSV:
			cfg->ledger_csv = optarg;
			break;
		case OPT_LISTEN: {
			struct sockaddr_storage a;
			socklen_t alen;

			if (lr_metrics_listen_parse(optarg, &a, &alen, err, len))
				return -EINVAL;
			cfg->listen = optarg;
			break;
		}
		case 'J':
			cfg->json = true;
			break;
		case OPT_EXPLAIN:
			cfg->mode = LR_MODE_EXPLAIN;
			cfg->explain[0] = optarg;
			break;
		case OPT_REPORT:
			if (!*optarg)
				return lr_err_inval(err, len, "--report: empty file name");
			cfg->mode = LR_MODE_REPORT;
			cfg->report_out = optarg;
			break;
		case OPT_REPLAY:
			replay = true;
			break;
		case OPT_DEMO:
			t->demo = true;
			break;
		case 'c':
			if (!*optarg)
				return lr_err_inval(err, len, "-c: empty host");
			t->host = lr_cli_iperf3_host_dev(optarg, cfg->host_part,
							 sizeof(cfg->host_part), t);
			if (!t->host)
				return lr_err_inval(err, len, "-c: invalid HOST%%DEV '%s'", optarg);
			break;
		case 's':
			cfg->mode = LR_MODE_SERVER;
			break;
		case 'p':
			if (parse_uint(optarg, 1, 65535, &v))
				return lr_err_inval(err, len, "-p: invalid port '%s' (1 to 65535)", optarg);
			t->port = (uint16_t)v;
			break;
		case 'B':
			t->bind = lr_cli_iperf3_host_dev(optarg, cfg->bind_part,
							 sizeof(cfg->bind_part), t);
			if (!t->bind)
				return lr_err_inval(err, len, "-B: invalid ADDR%%DEV '%s'", optarg);
			break;
		case '1':
			t->one_off = true;
			break;
		case 'u':
			t->udp = true;
			traffic_opt = "-u";
			break;
		case 'P':
			if (parse_uint(optarg, 1, LR_MAX_STREAMS, &v))
				return lr_err_inval(err, len, "-P: invalid stream count '%s' (1 to %d)",
					    optarg, LR_MAX_STREAMS);
			t->parallel = (unsigned)v;
			traffic_opt = "-P";
			break;
		case 'b':
			if (lr_cli_iperf3_bitrate(optarg, t))
				return lr_err_inval(err, len, "-b: invalid bitrate '%s' (e.g. 100M, 1.5G, 0; "
					    "RATE/BURST: BURST 1 to 1000)", optarg);
			t->bitrate_set = true;
			traffic_opt = "-b";
			break;
		case 'l':
			if (strchr(optarg, ',')) {	/* --rr's REQ,RESP */
				if (lr_cli_rr_sizes(optarg, t))
					return lr_err_inval(err, len, "-l: invalid REQ,RESP '%s' "
						    "(bytes, e.g. 1,1 or 64,1K)", optarg);
				traffic_opt = "-l";
				break;
			}
			if (lr_parse_size_bytes(optarg, &t->length) || !t->length)
				return lr_err_inval(err, len, "-l: invalid length '%s' (bytes, e.g. 1400, 128K)",
					    optarg);
			traffic_opt = "-l";
			break;
		case 'R':
			t->reverse = true;
			traffic_opt = "-R";
			break;
		case OPT_BIDIR:
			t->bidir = true;
			traffic_opt = "--bidir";
			break;
		case 'M':
			if (parse_uint(optarg, 88, 32767, &v))
				return lr_err_inval(err, len, "-M: invalid MSS '%s' (88 to 32767)", optarg);
			t->mss = (unsigned)v;
			traffic_opt = "-M";
			break;
		case 'w':
			if (lr_parse_size_bytes(optarg, &t->window) || !t->window ||
			    t->window > 512ULL * 1024 * 1024)
				return lr_err_inval(err, len, "-w: invalid window '%s' (bytes up to 512M)",
					    optarg);
			traffic_opt = "-w";
			break;
		case 'A':
			switch (parse_affinity(optarg, t)) {
			case 0:
				break;
			case -ENOENT:
				return lr_err_inval(err, len, "-A %s: no such NUMA node here", optarg);
			case -ENODEV:
				return lr_err_inval(err, len, "-A %s: that NUMA node has no CPUs", optarg);
			default:
				return lr_err_inval(err, len, "-A: invalid CPU '%s' (n, n,m or node:N)",
					    optarg);
			}
			break;
		case 'C':
			t->congestion = optarg;
			traffic_opt = "-C";
			break;
		case OPT_NO_GSO:
			t->no_gso = true;
			break;
		case OPT_NO_PEER_STATS:
			t->no_peer_stats = true;
			break;
		case OPT_RR:
			cfg->rr = true;
			traffic_opt = "--rr";
			break;
		case OPT_NO_LATENCY:
			t->no_latency = true;
			traffic_opt = "--no-latency";
			break;
		case OPT_NO_START:
			t->no_start = true;
			traffic_opt = "--no-start";
			break;
		case OPT_CONNECT_TIMEOUT: /* iperf3's ranges: MS, MS >= 100, MS >= 0 */
		case OPT_RCV_TIMEOUT:
		case OPT_SND_TIMEOUT: {
			const char *nm = c == OPT_CONNECT_TIMEOUT ? "--connect-timeout"
					 : c == OPT_RCV_TIMEOUT	  ? "--rcv-timeout"
								  : "--snd-timeout";
			uint64_t lo = c == OPT_CONNECT_TIMEOUT ? 1 : c == OPT_RCV_TIMEOUT ? 100 : 0;

			if (parse_uint(optarg, lo, 86400000, &v))
				return lr_err_inval(err, len, "%s: invalid time '%s' (%llu to 86400000 ms)",
					    nm, optarg, (unsigned long long)lo);
			*(c == OPT_CONNECT_TIMEOUT ? &t->connect_timeout_ms
			  : c == OPT_RCV_TIMEOUT   ? &t->rcv_timeout_ms
						   : &t->snd_timeout_ms) = (uint32_t)v;
			traffic_opt = nm;
			break;
		}
		case OPT_MATRIX:	/* the SPEC is parsed by the matrix run: exit 2 there */
			cfg->matrix = optarg;
			traffic_opt = "--matrix";
			break;
		case OPT_MATRIX_CSV:
			cfg->matrix_csv = optarg;
			break;
		case OPT_EXPECT:	/* before any traffic: a bad COND is exit 2 */
			if (lr_expect_parse(optarg, &cfg->expect, err, len))
				return -EINVAL;
			traffic_opt = "--expect";
			break;
		case 'O':
			if (parse_seconds(optarg, 0, 600, &cfg->omit_ns))
				return lr_err_inval(err, len, "-O: invalid omit '%s' (0 to 600 seconds)", optarg);
			break;
		case 'h':
			cfg->mode = LR_MODE_HELP;
			return 0;
		case 'v':
			cfg->mode = LR_MODE_VERSION;
			return 0;
		/* A short option is named by optopt: inside a "-1Z" cluster optind has not
		 * moved past the word yet. Long options set optopt to 0 or to their value. */
		case ':':
			if (optopt > 0 && optopt < 256)
				return lr_err_inval(err, len, "-%c needs a value", optopt);
			return lr_err_inval(err, len, "%s needs a value", argv[optind - 1]);
		default:
			if (optopt > 0 && optopt < 256)
				return lr_err_inval(err, len, "unknown option '-%c'", optopt);
			return lr_err_inval(err, len, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (cfg->mode == LR_MODE_EXPLAIN && optind < argc)
		cfg->explain[1] = argv[optind++];
	if (cfg->mode == LR_MODE_REPORT) {
		if (optind == argc)
			return lr_err_inval(err, len, "--report %s: name the CSVs to read", cfg->report_out);
		if (t->host || t->demo)
			return lr_err_inval(err, len, "--report reads recorded CSVs: it excludes -c and --demo");
		cfg->report_files = argv + optind;
		cfg->n_report_files = argc - optind;
		optind = argc;
	}
	if (replay) {
		/* the recording sets what is shown: only display options go with it */
		if (cfg->mode != LR_MODE_DASHBOARD)
			return lr_err_inval(err, len, "--replay plays the dashboard: it excludes --headless, -s, "
				    "--report and --explain");
		if (t->host || t->demo || traffic_opt || cfg->matrix)
			return lr_err_inval(err, len, "--replay plays recorded CSVs: it excludes traffic options");
		if (cfg->csv || cfg->cpu_csv || cfg->streams_csv || cfg->listen)
			return lr_err_inval(err, len, "--replay writes no CSV and serves no metrics");
		if (optind == argc)
			return lr_err_inval(err, len, "--replay: name the CSVs to play");
		cfg->mode = LR_MODE_REPLAY;
		cfg->report_files = argv + optind;
		cfg->n_report_files = argc - optind;
		optind = argc;
	}
	if (optind < argc)
		return lr_err_inval(err, len, "unexpected argument '%s'", argv[optind]);
	if (cfg->mode == LR_MODE_SERVER) {
		const char *o = server_drops(cfg);

		if (o)
			return lr_err_inval(err, len, "%s is a client option: a server takes it from the "
				    "client (-c)", o);
		traffic_opt = NULL;
	}
	cfg->traffic.peer_interval_ns = cfg->interval_ns;	/* the peer samples at our pace */
	cfg->traffic.report_interval_ns = cfg->interval_set ? cfg->interval_ns : 0;	/* -J */
	if (pick_headless(cfg, tty, err, len))
		return -EINVAL;
	return validate(cfg, traffic_opt != NULL, traffic_opt ? traffic_opt : "", err, len);
}
