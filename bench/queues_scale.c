// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench helper: the per-queue view's cost at scale (issue 15). 4 interfaces with mlx5's
 * counter set widened to 94 channels (every ch0_/rx0_/tx0_/qos_tx0_ name of the mlx5 fixture
 * repeated per channel: ~13k counters each), served by a fake ethtool ioctl; a 1152-CPU
 * /proc/interrupts with 4 x 94 mlx5_comp IRQs and their effective affinity in a generated
 * tree. Times, as CPU time of this thread: opening the driver view (names read, classified
 * and parsed into queues: once per counter-set change), one sampler tick of the four
 * (GSTATS deltas, moved list, queue table), the per-queue CPU fill against a 1152-CPU
 * snapshot, and one IRQ-map rebuild (one interface per call, every 5 s). Counts the GSTRINGS
 * ioctls over the ticks: names are read (and parsed) again only when the set changes.
 * Prints "name<TAB>value<TAB>note" lines. `make bench-queues`.
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../tests/unit/fakes/fake_sysio.h"
#include "linerate/collect/irqmap.h"
#include "linerate/sample/drvstats.h"
#include "linerate/sample/queuecpu.h"
#include "linerate/sample/queuetab.h"
#include "linerate/sample/snapshot.h"

#define NIF   4
#define NCH   94
#define NCPU  1152
#define TICKS 200
#define MAXN  20000

static char names[MAXN][ETH_GSTRING_LEN];
static unsigned n_names;
static uint64_t values[NIF][MAXN];
static int gstrings_calls;

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void add_name(const char *s)
{
	size_t n = strlen(s);

	if (n_names >= MAXN)
		return;
	memset(names[n_names], 0, ETH_GSTRING_LEN);
	memcpy(names[n_names++], s, n < ETH_GSTRING_LEN ? n : ETH_GSTRING_LEN); /* NUL not needed */
}

/* The mlx5 fixture's names; its per-channel ones (prefix + "0_") for channels 0..NCH-1. */
static int load_names(const char *path)
{
	static const char *const per_ch[] = {"ch", "rx", "tx", "qos_tx"};
	char line[256], name[128];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		bool done = false;

		if (*p == '#')
			continue;
		while (*p == ' ')
			p++;
		p[strcspn(p, ": \t\n")] = '\0'; /* "name" or "name: value" */
		if (!*p || strlen(p) >= sizeof(name))
			continue;
		memcpy(name, p, strlen(p) + 1);
		for (size_t k = 0; k < 4 && !done; k++) {
			size_t pl = strlen(per_ch[k]);
			char rest[128];

			if (strncmp(name, per_ch[k], pl) || !strchr("0123456789", name[pl]))
				continue;
			done = true; /* a per-channel name: only channel 0's is the template */
			if (strncmp(name + pl, "0_", 2))
				continue;
			memcpy(rest, name + pl + 2, strlen(name + pl + 2) + 1);
			for (int c = 0; c < NCH; c++) {
				char full[160];

				snprintf(full, sizeof(full), "%s%d_%s", per_ch[k], c, rest);
				add_name(full);
			}
		}
		if (!done)
			add_name(name);
	}
	fclose(f);
	return 0;
}

static int ifindex_of(const char *ifname)
{
	return ifname[3] - '0'; /* "mlx0".."mlx3" */
}

static int fake_ethtool(void *arg, unsigned long req, void *data)
{
	struct ifreq *ifr = data;
	uint32_t cmd;
	int i;

	(void)arg;
	if (req != SIOCETHTOOL)
		return -EOPNOTSUPP;
	i = ifindex_of(ifr->ifr_name);
	memcpy(&cmd, ifr->ifr_data, sizeof(cmd));
	switch (cmd) {
	case ETHTOOL_GDRVINFO: {
		struct ethtool_drvinfo *di = (void *)ifr->ifr_data;

		snprintf(di->driver, sizeof(di->driver), "mlx5_core");
		di->n_stats = n_names;
		return 0;
	}
	case ETHTOOL_GSSET_INFO: {
		struct ethtool_sset_info *si = (void *)ifr->ifr_data;

		if (si->sset_mask != 1ULL << ETH_SS_STATS)
			return -EOPNOTSUPP;
		si->data[0] = n_names;
		return 0;
	}
	case ETHTOOL_GSTRINGS: {
		struct ethtool_gstrings *gs = (void *)ifr->ifr_data;

		gstrings_calls++;
		gs->len = n_names;
		memcpy(gs->data, names, (size_t)n_names * ETH_GSTRING_LEN);
		return 0;
	}
	case ETHTOOL_GSTATS: {
		struct ethtool_stats *st = (void *)ifr->ifr_data;

		for (unsigned k = 0; k < n_names; k++)
			values[i][k] += 1 + k % 13;
		st->n_stats = n_names;
		memcpy(st->data, values[i], (size_t)n_names * sizeof(uint64_t));
		return 0;
	}
	default: return -EOPNOTSUPP;
	}
}

static int mkdirs(const char *path)
{
	char tmp[512];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(tmp, 0755);
			*p = '/';
		}
	return mkdir(tmp, 0755) && errno != EEXIST ? -errno : 0;
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

/* root/proc/interrupts (1152 CPUs, 4 x 94 mlx5_comp rows + the usual named rows),
 * root/proc/irq/N/effective_affinity_list, root/sys/class/net/mlxI/device/msi_irqs/N. */
static void make_tree(const char *root)
{
	char path[512], buf[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc", root);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/proc/interrupts", root);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs("    ", f);
	for (int c = 0; c < NCPU; c++)
		fprintf(f, "       CPU%d", c);
	fputs("\n", f);
	for (int i = 0; i < NIF; i++) {
		for (int q = 0; q <= NCH; q++) {
			int irq = 200 + i * 100 + q, cpu = (i * NCH + q) % NCPU;

			fprintf(f, "%4d:", irq);
			for (int c = 0; c < NCPU; c++)
				fprintf(f, " %10d", c == cpu ? 123456 : 0);
			if (q == 0)
				fprintf(f,
					"  IR-PCI-MSIX-0000:%02x:00.0 0-edge "
					"mlx5_async0@pci:0000:%02x:00.0\n",
					i + 16, i + 16);
			else
				fprintf(f,
					"  IR-PCI-MSIX-0000:%02x:00.0 %d-edge "
					"mlx5_comp%d@pci:0000:%02x:00.0\n",
					i + 16, q, q - 1, i + 16);
			snprintf(path, sizeof(path), "%s/proc/irq/%d", root, irq);
			mkdirs(path);
			snprintf(path, sizeof(path), "%s/proc/irq/%d/effective_affinity_list", root,
				 irq);
			snprintf(buf, sizeof(buf), "%d\n", cpu);
			write_file(path, buf);
			snprintf(path, sizeof(path), "%s/sys/class/net/mlx%d/device/msi_irqs", root,
				 i);
			mkdirs(path);
			snprintf(path, sizeof(path), "%s/sys/class/net/mlx%d/device/msi_irqs/%d",
				 root, i, irq);
			write_file(path, "msix\n");
		}
	}
	snprintf(path, sizeof(path), "%s/sys/class/net/veth0", root); /* virtual: no device */
	mkdirs(path);
	fputs(" NMI:", f);
	for (int c = 0; c < NCPU; c++)
		fputs("          0", f);
	fputs("   Non-maskable interrupts\nERR:          0\n", f);
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *fixture = argc > 1 ? argv[1] : "tests/fixtures/ethtool/mlx5.txt";
	char root[] = "/tmp/lr_qscale.XXXXXX", cmd[600];
	struct lr_drvstats *d[NIF];
	struct lr_iface_snap s[NIF];
	struct lr_snapshot snap;
	struct lr_irqmap m;
	struct lr_queuecpus *qc = lr_queuecpus_new();
	struct fake_sysio f;
	double t0, open_us, tick_us, fake_us, cpus_us, map_us, vmap_us;
	int calls0;
	size_t nq = 0;

	if (load_names(fixture) || !qc || !mkdtemp(root)) {
		fprintf(stderr, "queues_scale: cannot read %s or make a temp dir\n", fixture);
		return 1;
	}
	make_tree(root);
	fake_sysio_init(&f, root);
	f.ioctl_cb = fake_ethtool;
	memset(s, 0, sizeof(s));

	t0 = cpu_us();
	for (int i = 0; i < NIF; i++) {
		char name[24];

		snprintf(name, sizeof(name), "mlx%d", i);
		d[i] = lr_drvstats_open(name, &f.io);
		if (!d[i])
			return 1;
	}
	open_us = (cpu_us() - t0) / NIF;
	calls0 = gstrings_calls;
	for (int i = 0; i < NIF; i++) /* the baseline read */
		lr_drvstats_read(d[i], false, 1, 0, &s[i]);
	t0 = cpu_us();
	for (int t = 0; t < TICKS; t++)
		for (int i = 0; i < NIF; i++)
			lr_drvstats_read(d[i], true, (uint64_t)(t + 2) * 500000000ULL, 500000000ULL,
					 &s[i]);
	tick_us = (cpu_us() - t0) / TICKS;
	/* the fake's own share of that: bumping and copying every value, as a GSTATS */
	{
		struct ethtool_stats *st = malloc(sizeof(*st) + (size_t)n_names * sizeof(uint64_t));
		struct ifreq ifr;

		if (!st)
			return 1;
		t0 = cpu_us();
		for (int t = 0; t < TICKS; t++)
			for (int i = 0; i < NIF; i++) {
				memset(&ifr, 0, sizeof(ifr));
				snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "mlx%d", i);
				st->cmd = ETHTOOL_GSTATS;
				ifr.ifr_data = (void *)st;
				fake_ethtool(NULL, SIOCETHTOOL, &ifr);
			}
		fake_us = (cpu_us() - t0) / TICKS;
		free(st);
	}

	/* the per-queue CPUs: maps from the 1152-CPU tree, a 1152-CPU snapshot */
	lr_irqmap_init(&m);
	t0 = cpu_us();
	for (int i = 0; i < NIF; i++) {
		char name[24];

		snprintf(name, sizeof(name), "mlx%d", i);
		if (lr_irqmap_build(&f.io, name, &m) || lr_queuecpus_set(qc, name, &m))
			return 1;
	}
	map_us = (cpu_us() - t0) / NIF;
	t0 = cpu_us();
	if (lr_irqmap_build(&f.io, "veth0", &m))
		return 1;
	vmap_us = cpu_us() - t0;
	lr_snapshot_init(&snap);
	snap.cpus = calloc(NCPU, sizeof(*snap.cpus));
	snap.n_cpus = NCPU;
	for (int c = 0; c < NCPU; c++) {
		snap.cpus[c].cpu = c;
		snap.cpus[c].valid = LR_CPUV_TIMES;
		snap.cpus[c].softirq_pct = c % 100;
	}
	t0 = cpu_us();
	for (int t = 0; t < TICKS; t++)
		for (int i = 0; i < NIF; i++) {
			char name[24];
			const int *map;

			snprintf(name, sizeof(name), "mlx%d", i);
			map = lr_queuecpus_get(qc, name, &nq);
			lr_queuetab_cpus(&s[i], &snap, map, nq);
		}
	cpus_us = (cpu_us() - t0) / TICKS;

	printf("counters_per_iface\t%u\tmlx5 fixture names, per-channel ones x %d channels\n",
	       n_names, NCH);
	printf("queues_per_iface\t%zu\tqueue table rows published (of %d channels)\n",
	       s[0].n_queues, NCH);
	printf("queue_cpu_known\t%s\tqueue 93 of mlx3 on cpu %d (IRQ mlx5_comp93)\n",
	       s[3].n_queues > 93 && s[3].queues[93].cpu >= 0 ? "yes" : "no",
	       s[3].n_queues > 93 ? s[3].queues[93].cpu : -1);
	printf("open_us_per_iface\t%.0f\tnames read, classified, parsed into queues (once per "
	       "set)\n",
	       open_us);
	printf("tick_us_4_ifaces\t%.0f\tGSTATS deltas + moved list + queue table, %d ticks\n",
	       tick_us, TICKS);
	printf("fake_gstats_us_4_ifaces\t%.0f\tthe fake ioctl's own part of tick_us (the kernel's "
	       "copy instead)\n",
	       fake_us);
	printf("queue_cpus_us_4_ifaces\t%.1f\teach queue's CPU + softirq %% from a %d-CPU "
	       "snapshot\n",
	       cpus_us, NCPU);
	printf("irqmap_us_per_build\t%.0f\t%d-CPU /proc/interrupts, one interface per call\n",
	       map_us, NCPU);
	printf("irqmap_us_virtual\t%.0f\ta veth (no parent device): /proc/interrupts skipped\n",
	       vmap_us);
	printf("gstrings_during_ticks\t%d\tGSTRINGS ioctls over %d ticks x %d ifaces (0: names "
	       "parsed once)\n",
	       gstrings_calls - calls0, TICKS, NIF);

	for (int i = 0; i < NIF; i++)
		lr_drvstats_close(d[i]);
	lr_irqmap_free(&m);
	lr_queuecpus_free(qc);
	lr_snapshot_free(&snap);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) == 0 ? 0 : 1;
}
