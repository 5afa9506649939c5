// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ethtool through SIOCETHTOOL for one interface, every ioctl through struct lr_sysio.
 * Driver stats: names from GSSET_INFO + GSTRINGS, cached and classified; each tick one
 * GSTATS into a guarded buffer, the count and names re-read only when its answer says the
 * count moved. Link (GLINKSETTINGS, GSET fallback), driver, rings and features on
 * demand. Run by the sampler thread; owns one socket and its buffers, no globals.
 */
#include <errno.h>
#include <limits.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "linerate/collect/ethtool.h"
#include "linerate/core/log.h"
#include "linerate/core/strutil.h"
#include "linerate/core/sysio.h"

/* The kernel writes as many strings/values as the driver has *now*, whatever length we
 * pass (net/ethtool/ioctl.c), so the buffers keep room for a count that grew since we
 * last counted, and end in a PROT_NONE page: a count that outgrew even that faults
 * (EFAULT) instead of overrunning our memory. So a tick needs no GSSET_INFO of its own.
 * Untouched headroom costs no resident memory. */
#define HEADROOM(n) ((n)*2 + 64)
#define MAX_STATS   (1u << 20) /* no driver comes near; guards the size arithmetic */
#define RETRIES	    3

struct feat_map {
	const char *name; /* ETH_SS_FEATURES string */
	bool prefix;
	uint32_t bit; /* enum lr_feature */
};

static const struct feat_map feat_map[] = {
	{"tx-scatter-gather", false, LR_FEAT_SG},
	{"tx-checksum-", true, LR_FEAT_TX_CSUM},
	{"rx-checksum", false, LR_FEAT_RX_CSUM},
	{"tx-tcp-segmentation", false, LR_FEAT_TSO},
	{"tx-tcp6-segmentation", false, LR_FEAT_TSO},
	{"tx-generic-segmentation", false, LR_FEAT_GSO},
	{"rx-gro", false, LR_FEAT_GRO},
	{"rx-lro", false, LR_FEAT_LRO},
};

struct feat_idx { /* a feature string we care about: its bit index in GFEATURES */
	uint32_t index;
	uint32_t bit;
};

struct lr_ethtool {
	const struct lr_sysio *io;
	int fd;
	char ifname[IFNAMSIZ];
	char driver[32];   /* GDRVINFO at open; "" unknown (classification) */
	bool no_sset_info; /* kernel without GSSET_INFO: count from GDRVINFO */

	uint32_t n_stats;
	uint32_t cap;			    /* entries the buffers below hold, at least */
	struct ethtool_gstrings *strings;   /* + cap * ETH_GSTRING_LEN, guarded */
	struct ethtool_stats *stats;	    /* + cap * u64, guarded */
	size_t strings_len, stats_len;	    /* their mappings, guard page included */
	char (*names)[LR_ETH_NAME_LEN + 1]; /* NUL-terminated copies */
	struct lr_counter_class *classes;
	int err_stats;

	bool feat_loaded;
	int feat_err;
	uint32_t n_feat_words; /* GFEATURES blocks */
	struct ethtool_gfeatures *gf; /* sized once: info refreshes do not allocate */
	struct feat_idx *feats;
	size_t n_feats;
};

static int et_ioctl(struct lr_ethtool *et, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, et->ifname, sizeof(ifr.ifr_name));
	ifr.ifr_data = cmd;
	return et->io->ioctl(et->io, et->fd, SIOCETHTOOL, &ifr);
}

static void copy_str(char *dst, size_t dlen, const char *src, size_t slen)
{
	size_t n = strnlen(src, slen);

	if (n >= dlen)
		n = dlen - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int get_drvinfo(struct lr_ethtool *et, struct ethtool_drvinfo *di)
{
	memset(di, 0, sizeof(*di));
	di->cmd = ETHTOOL_GDRVINFO;
	return et_ioctl(et, di);
}

/* Number of strings in a string set; -EOPNOTSUPP when the device has none of that set. */
static int get_count(struct lr_ethtool *et, uint32_t sset, uint32_t *n)
{
	uint64_t buf[(sizeof(struct ethtool_sset_info) + sizeof(uint32_t) + 7) / 8];
	struct ethtool_sset_info *si = (struct ethtool_sset_info *)buf;
	int err;

	if (!et->no_sset_info) {
		memset(buf, 0, sizeof(buf));
		si->cmd = ETHTOOL_GSSET_INFO;
		si->sset_mask = 1ULL << sset;
		err = et_ioctl(et, si);
		if (!err) {
			if (!(si->sset_mask & (1ULL << sset)))
				return -EOPNOTSUPP;
			*n = si->data[0];
			return *n > MAX_STATS ? -E2BIG : 0;
		}
		if (err != -EOPNOTSUPP || sset != ETH_SS_STATS)
			return err;
		et->no_sset_info = true; /* pre-2.6.34 kernel */
	}
	if (sset == ETH_SS_STATS) {
		struct ethtool_drvinfo di;

		err = get_drvinfo(et, &di);
		if (err)
			return err;
		*n = di.n_stats;
		return *n > MAX_STATS ? -E2BIG : 0;
	}
	return -EOPNOTSUPP;
}

/* len bytes (rounded up to pages) of zeroed memory followed by one inaccessible page;
 * *map_len is what guarded_free needs. */
static void *guarded_alloc(size_t len, size_t *map_len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t body = (len + page - 1) / page * page;
	char *p = mmap(NULL, body + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + body, page, PROT_NONE)) {
		munmap(p, body + page);
		return NULL;
	}
	*map_len = body + page;
	return p;
}

static void guarded_free(void *p, size_t map_len)
{
	if (p)
		munmap(p, map_len);
}

static void free_bufs(struct lr_ethtool *et)
{
	guarded_free(et->strings, et->strings_len);
	guarded_free(et->stats, et->stats_len);
	free(et->names);
	free(et->classes);
}

static int grow(struct lr_ethtool *et, uint32_t n)
{
	uint32_t cap = HEADROOM(n);
	struct ethtool_gstrings *s;
	struct ethtool_stats *v;
	char(*names)[LR_ETH_NAME_LEN + 1];
	struct lr_counter_class *cls;
	size_t s_len = 0, v_len = 0;

	if (cap <= et->cap)
		return 0;
	s = guarded_alloc(sizeof(*s) + (size_t)cap * ETH_GSTRING_LEN, &s_len);
	v = guarded_alloc(sizeof(*v) + (size_t)cap * sizeof(uint64_t), &v_len);
	names = calloc(cap, sizeof(*names));
	cls = calloc(cap, sizeof(*cls));
	if (!s || !v || !names || !cls) {
		guarded_free(s, s_len);
		guarded_free(v, v_len);
		free(names);
		free(cls);
		return -ENOMEM;
	}
	free_bufs(et);
	et->strings = s;
	et->strings_len = s_len;
	et->stats = v;
	et->stats_len = v_len;
	et->names = names;
	et->classes = cls;
	et->cap = cap;
	return 0;
}

/* GSTRINGS for n names into the (grown) buffers; classifies them. On any failure the
 * view is left empty (n_stats 0) rather than half-updated. */
static int load_names(struct lr_ethtool *et, uint32_t n)
{
	uint32_t i;
	int err;

	et->n_stats = 0;
	if (n == 0)
		return 0;
	err = grow(et, n);
	if (err)
		return err;
	memset(et->strings, 0, sizeof(*et->strings));
	et->strings->cmd = ETHTOOL_GSTRINGS;
	et->strings->string_set = ETH_SS_STATS;
	et->strings->len = n;
	err = et_ioctl(et, et->strings);
	if (err == -EFAULT)
		return -EAGAIN; /* grew past the guard since we counted: count again */
	if (err)
		return err;
	if (et->strings->len != n)
		return -EAGAIN; /* changed under us: count again */
	for (i = 0; i < n; i++) {
		copy_str(et->names[i], sizeof(et->names[i]),
			 (const char *)et->strings->data + (size_t)i * ETH_GSTRING_LEN,
			 ETH_GSTRING_LEN);
		et->classes[i] = lr_classify(et->driver[0] ? et->driver : NULL, et->names[i]);
	}
	et->n_stats = n;
	return 0;
}

static int get_values(struct lr_ethtool *et, uint32_t n)
{
	et->stats->cmd = ETHTOOL_GSTATS;
	et->stats->n_stats = n;
	return et_ioctl(et, et->stats);
}

int lr_ethtool_read_stats(struct lr_ethtool *et, bool *names_changed)
{
	int tries, err = -EAGAIN;

	*names_changed = false;
	/* The steady tick: GSTATS answers with the driver's count now; the same count means the
	 * same names. A moved count (or one past the guard: EFAULT) takes the long way. */
	if (et->n_stats && !get_values(et, et->n_stats) && et->stats->n_stats == et->n_stats) {
		et->err_stats = 0;
		return 0;
	}
	for (tries = 0; tries < RETRIES; tries++) {
		uint32_t n, old = et->n_stats;

		err = get_count(et, ETH_SS_STATS, &n);
		if (err) {
			if (et->n_stats) {
				et->n_stats = 0;
				*names_changed = true;
			}
			break;
		}
		if (n != et->n_stats) {
			err = load_names(et, n);
			*names_changed = true;
			if (err == -EAGAIN)
				continue;
			if (err)
				break;
			lr_log(LR_LOG_INFO, "%s: %u driver stats (was %u)", et->ifname, n, old);
		}
		if (n == 0) {
			err = 0;
			break;
		}
		err = get_values(et, n);
		if (!err && et->stats->n_stats == n)
			break;
		if (err && err != -EFAULT)
			break;
		/* the count moved since GSSET_INFO, within the buffer or past its guard */
		et->n_stats = UINT32_MAX; /* force a names reload on the next try */
		err = -EAGAIN;
	}
	if (et->n_stats == UINT32_MAX) {
		et->n_stats = 0;
		*names_changed = true;
	}
	et->err_stats = err;
	return err;
}

int lr_ethtool_open(struct lr_ethtool **out, const char *ifname, const struct lr_sysio *io)
{
	struct ethtool_drvinfo di;
	struct lr_ethtool *et;
	bool changed;
	int err;

	if (!ifname || !*ifname || strlen(ifname) >= IFNAMSIZ)
		return -EINVAL;
	et = calloc(1, sizeof(*et));
	if (!et)
		return -ENOMEM;
	et->io = io;
	lr_strlcpy(et->ifname, ifname, sizeof(et->ifname));
	et->fd = io->socket(io, AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (et->fd < 0) /* a kernel without IPv4 still has AF_UNIX */
		et->fd = io->socket(io, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (et->fd < 0) {
		err = et->fd;
		goto err_free;
	}
	/* GDRVINFO works on every netdev (the core fills it when the driver does not), so
	 * its failure means the interface is gone. */
	err = get_drvinfo(et, &di);
	if (err == -ENODEV || err == -ENXIO)
		goto err_close;
	if (!err)
		copy_str(et->driver, sizeof(et->driver), di.driver, sizeof(di.driver));
	err = lr_ethtool_read_stats(et, &changed);
	if (err == -ENODEV)
		goto err_close;
	if (err == -ENOMEM)
		goto err_close;
	*out = et;
	return 0;
err_close:
	io->close(io, et->fd);
err_free:
	free_bufs(et);
	free(et);
	return err;
}

void lr_ethtool_close(struct lr_ethtool *et)
{
	if (!et)
		return;
	et->io->close(et->io, et->fd);
	free_bufs(et);
	free(et->feats);
	free(et->gf);
	free(et);
}

uint32_t lr_ethtool_n_stats(const struct lr_ethtool *et)
{
	return et->n_stats;
}

const char *lr_ethtool_stat_name(const struct lr_ethtool *et, uint32_t i)
{
	return i < et->n_stats ? et->names[i] : NULL;
}

const uint64_t *lr_ethtool_stat_values(const struct lr_ethtool *et)
{
	return et->n_stats ? (const uint64_t *)et->stats->data : NULL;
}

struct lr_counter_class lr_ethtool_stat_class(const struct lr_ethtool *et, uint32_t i)
{
	struct lr_counter_class other = {.cat = LR_CAT_OTHER, .per_queue = false};

	return i < et->n_stats ? et->classes[i] : other;
}

static int64_t speed_of(uint32_t mbps)
{
	/* SPEED_UNKNOWN is (u32)-1; 0 and the old u16 -1 (65535) are what drivers report
	 * with the link down. */
	if (mbps == 0 || mbps == (uint32_t)SPEED_UNKNOWN || mbps == 65535 || mbps > INT_MAX)
		return -1;
	return mbps;
}

static int duplex_of(uint8_t d)
{
	return d == DUPLEX_HALF ? 0 : d == DUPLEX_FULL ? 1 : -1;
}

/* GLINKSETTINGS: a first call with nwords 0 makes the kernel answer how many 32-bit words
 * each link-mode mask has (as a negative number); the second call passes that back. */
static int read_link(struct lr_ethtool *et, struct lr_ethtool_info *out)
{
	uint64_t buf[(sizeof(struct ethtool_link_settings) + 3 * 127 * sizeof(uint32_t) + 7) / 8];
	struct ethtool_link_settings *ls = (struct ethtool_link_settings *)buf;
	struct ethtool_cmd ec;
	int nwords, err;

	memset(buf, 0, sizeof(buf));
	ls->cmd = ETHTOOL_GLINKSETTINGS;
	err = et_ioctl(et, ls);
	if (!err && ls->link_mode_masks_nwords < 0 && ls->cmd == ETHTOOL_GLINKSETTINGS) {
		nwords = -ls->link_mode_masks_nwords;
		memset(buf, 0, sizeof(buf));
		ls->cmd = ETHTOOL_GLINKSETTINGS;
		ls->link_mode_masks_nwords = (int8_t)nwords;
		err = et_ioctl(et, ls);
		if (!err && ls->link_mode_masks_nwords != nwords)
			err = -EPROTO;
		if (!err) {
			out->speed_mbps = speed_of(ls->speed);
			out->duplex = duplex_of(ls->duplex);
			return 0;
		}
		return err;
	}
	if (!err)
		err = -EPROTO; /* no handshake answer: try the old call */
	if (err != -EOPNOTSUPP && err != -EPROTO)
		return err;
	memset(&ec, 0, sizeof(ec));
	ec.cmd = ETHTOOL_GSET;
	err = et_ioctl(et, &ec);
	if (err)
		return err;
	out->speed_mbps = speed_of((uint32_t)ec.speed | ((uint32_t)ec.speed_hi << 16));
	out->duplex = duplex_of(ec.duplex);
	return 0;
}

static int read_rings(struct lr_ethtool *et, struct lr_ethtool_info *out)
{
	struct ethtool_ringparam rp;
	int err;

	memset(&rp, 0, sizeof(rp));
	rp.cmd = ETHTOOL_GRINGPARAM;
	err = et_ioctl(et, &rp);
	if (err)
		return err;
	/* 0 is "not reported" (no driver runs a ring of 0 descriptors) */
	out->ring_rx = rp.rx_pending ? (int64_t)rp.rx_pending : -1;
	out->ring_rx_max = rp.rx_max_pending ? (int64_t)rp.rx_max_pending : -1;
	out->ring_tx = rp.tx_pending ? (int64_t)rp.tx_pending : -1;
	out->ring_tx_max = rp.tx_max_pending ? (int64_t)rp.tx_max_pending : -1;
	return 0;
}

/* Feature names (ETH_SS_FEATURES) do not change while the device exists: read them once
 * and keep the bit index of each name we map. */
static int load_features(struct lr_ethtool *et)
{
	struct ethtool_gstrings *gs;
	uint32_t n, i;
	size_t j;
	int err;

	et->feat_loaded = true;
	err = get_count(et, ETH_SS_FEATURES, &n);
	if (err)
		return et->feat_err = err;
	if (n == 0 || n > 4096)
		return et->feat_err = -EOPNOTSUPP;
	gs = calloc(1, sizeof(*gs) + (size_t)HEADROOM(n) * ETH_GSTRING_LEN);
	et->feats = calloc(n, sizeof(*et->feats));
	if (!gs || !et->feats) {
		free(gs);
		free(et->feats);
		et->feats = NULL;
		return et->feat_err = -ENOMEM;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = n;
	err = et_ioctl(et, gs);
	if (!err && gs->len != n)
		err = -EPROTO;
	for (i = 0; !err && i < n; i++) {
		char name[ETH_GSTRING_LEN + 1];

		copy_str(name, sizeof(name), (const char *)gs->data + (size_t)i * ETH_GSTRING_LEN,
			 ETH_GSTRING_LEN);
		for (j = 0; j < LR_ARRAY_SIZE(feat_map); j++) {
			const struct feat_map *m = &feat_map[j];

			if (m->prefix ? !strncmp(name, m->name, strlen(m->name))
				      : !strcmp(name, m->name)) {
				et->feats[et->n_feats].index = i;
				et->feats[et->n_feats].bit = m->bit;
				et->n_feats++;
				break;
			}
		}
	}
	free(gs);
	et->n_feat_words = (n + 31) / 32;
	et->gf = calloc(1, sizeof(*et->gf) + et->n_feat_words * sizeof(et->gf->features[0]));
	if (!et->gf && !err)
		err = -ENOMEM;
	return et->feat_err = err;
}

static int read_features(struct lr_ethtool *et, struct lr_ethtool_info *out)
{
	struct ethtool_gfeatures *gf;
	size_t i;
	int err;

	if (!et->feat_loaded)
		load_features(et);
	if (et->feat_err)
		return et->feat_err;
	gf = et->gf;
	memset(gf, 0, sizeof(*gf) + et->n_feat_words * sizeof(gf->features[0]));
	gf->cmd = ETHTOOL_GFEATURES;
	gf->size = et->n_feat_words;
	err = et_ioctl(et, gf);
	for (i = 0; !err && i < et->n_feats; i++) {
		uint32_t idx = et->feats[i].index;

		if (idx / 32 >= gf->size || idx / 32 >= et->n_feat_words)
			continue;
		out->features_known |= et->feats[i].bit;
		if (gf->features[idx / 32].active & (1u << (idx % 32)))
			out->features |= et->feats[i].bit;
	}
	return err;
}

int lr_ethtool_read_info(struct lr_ethtool *et, struct lr_ethtool_info *out)
{
	struct ethtool_drvinfo di;

	memset(out, 0, sizeof(*out));
	out->speed_mbps = -1;
	out->duplex = -1;
	out->ring_rx = out->ring_rx_max = out->ring_tx = out->ring_tx_max = -1;

	out->err_drvinfo = get_drvinfo(et, &di);
	if (out->err_drvinfo == -ENODEV)
		return -ENODEV;
	if (!out->err_drvinfo) {
		copy_str(out->driver, sizeof(out->driver), di.driver, sizeof(di.driver));
		copy_str(out->version, sizeof(out->version), di.version, sizeof(di.version));
		copy_str(out->fw_version, sizeof(out->fw_version), di.fw_version,
			 sizeof(di.fw_version));
		copy_str(out->bus_info, sizeof(out->bus_info), di.bus_info, sizeof(di.bus_info));
		if (!et->driver[0] && out->driver[0]) { /* learnt late: classify again */
			uint32_t i;

			lr_strlcpy(et->driver, out->driver, sizeof(et->driver));
			for (i = 0; i < et->n_stats; i++)
				et->classes[i] = lr_classify(et->driver, et->names[i]);
		}
	}
	out->err_link = read_link(et, out);
	out->err_rings = read_rings(et, out);
	out->err_features = read_features(et, out);
	out->err_stats = et->err_stats;
	return 0;
}
