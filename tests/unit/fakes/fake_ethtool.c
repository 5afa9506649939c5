// SPDX-License-Identifier: GPL-2.0-or-later
/* The scripted SIOCETHTOOL device of fake_ethtool.h. */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cmocka.h>

#include "fakes/fake_ethtool.h"

struct fake_eth fake_eth;
struct fake_sysio fake_eth_sys;
char fake_eth_ixgbe[FAKE_ETH_MAX_NAMES][ETH_GSTRING_LEN];
uint32_t fake_eth_n_ixgbe;

static void load_ixgbe(void)
{
	FILE *f = fopen("tests/fixtures/ethtool/ixgbe.txt", "r");
	char line[256];

	assert_non_null(f);
	fake_eth_n_ixgbe = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		assert_true(fake_eth_n_ixgbe < FAKE_ETH_MAX_NAMES);
		assert_true(strlen(line) <= ETH_GSTRING_LEN);
		memcpy(fake_eth_ixgbe[fake_eth_n_ixgbe++], line, strlen(line));
	}
	fclose(f);
	assert_int_equal(fake_eth_n_ixgbe, 104);
}

void fake_eth_add_name(const char *name)
{
	assert_true(fake_eth.n < FAKE_ETH_MAX_NAMES);
	memset(fake_eth.names[fake_eth.n], 0, ETH_GSTRING_LEN);
	memcpy(fake_eth.names[fake_eth.n], name, strnlen(name, ETH_GSTRING_LEN));
	fake_eth.n++;
}

void fake_eth_add_queue(unsigned q)
{
	char buf[ETH_GSTRING_LEN];

	snprintf(buf, sizeof(buf), "tx_queue_%u_packets", q);
	fake_eth_add_name(buf);
	snprintf(buf, sizeof(buf), "tx_queue_%u_bytes", q);
	fake_eth_add_name(buf);
	snprintf(buf, sizeof(buf), "rx_queue_%u_packets", q);
	fake_eth_add_name(buf);
	snprintf(buf, sizeof(buf), "rx_queue_%u_bytes", q);
	fake_eth_add_name(buf);
}

static void race(struct fake_eth *s)
{
	for (int j = 0; j < s->race_add; j++)
		fake_eth_add_queue(s->race_from + (unsigned)j);
}

/* The kernel's copy_to_user: memory we may not write is EFAULT, not a crash. A write to
 * our own process through process_vm_writev fails the same way. */
static int copy_out(struct fake_eth *s, void *dst, const void *src, size_t len)
{
	struct iovec from = {.iov_base = (void *)src, .iov_len = len};
	struct iovec to = {.iov_base = dst, .iov_len = len};

	if (process_vm_writev(getpid(), &from, 1, &to, 1, 0) == (ssize_t)len)
		return 0;
	s->n_faults++;
	return -EFAULT;
}

static int fake_ethtool(void *arg, unsigned long req, void *data)
{
	struct fake_eth *s = arg;
	struct ifreq *ifr = data;
	uint32_t cmd, i;

	if (req != SIOCETHTOOL)
		return -ENOTTY;
	if (strcmp(ifr->ifr_name, FAKE_ETH_IFNAME) || s->gone)
		return -ENODEV;
	memcpy(&cmd, ifr->ifr_data, sizeof(cmd));
	switch (cmd) {
	case ETHTOOL_GDRVINFO: {
		struct ethtool_drvinfo *di = (void *)ifr->ifr_data;

		s->n_drvinfo++;
		memset(di, 0, sizeof(*di));
		di->cmd = cmd;
		memcpy(di->driver, s->driver, strnlen(s->driver, sizeof(di->driver)));
		strcpy(di->version, "5.19.6-k");
		strcpy(di->fw_version, "0x800009e0, 1.3429.0");
		strcpy(di->bus_info, "0000:3b:00.0");
		di->n_stats = s->no_stats ? 0 : s->n;
		return 0;
	}
	case ETHTOOL_GSSET_INFO: {
		struct ethtool_sset_info *si = (void *)ifr->ifr_data;
		uint64_t asked = si->sset_mask;
		int k = 0;

		s->n_sset++;
		if (s->no_sset_info)
			return -EOPNOTSUPP;
		si->sset_mask = 0;
		if ((asked & (1ULL << ETH_SS_STATS)) && !s->no_stats) {
			si->sset_mask |= 1ULL << ETH_SS_STATS;
			si->data[k++] = s->n;
		}
		if ((asked & (1ULL << ETH_SS_FEATURES)) && s->n_feat) {
			si->sset_mask |= 1ULL << ETH_SS_FEATURES;
			si->data[k++] = s->n_feat;
		}
		if (s->n_sset == s->race_at_sset)
			race(s);
		return 0;
	}
	case ETHTOOL_GSTRINGS: {
		struct ethtool_gstrings *gs = (void *)ifr->ifr_data;

		s->n_gstrings++;
		/* the kernel writes the current count, whatever len says */
		if (gs->string_set == ETH_SS_STATS && !s->no_stats) {
			int err;

			gs->len = s->n;
			err = copy_out(s, gs->data, s->names, (size_t)s->n * ETH_GSTRING_LEN);
			if (s->n_gstrings == s->race_at_gstrings)
				race(s);
			return err;
		}
		if (gs->string_set == ETH_SS_FEATURES && s->n_feat) {
			gs->len = s->n_feat;
			memcpy(gs->data, s->feat_names, (size_t)s->n_feat * ETH_GSTRING_LEN);
			return 0;
		}
		return -EOPNOTSUPP;
	}
	case ETHTOOL_GSTATS: {
		struct ethtool_stats *st = (void *)ifr->ifr_data;

		s->n_gstats++;
		if (s->no_stats)
			return -EOPNOTSUPP;
		if (s->err_gstats)
			return s->err_gstats;
		{
			static uint64_t v[FAKE_ETH_MAX_NAMES];

			st->n_stats = s->n;
			for (i = 0; i < s->n; i++)
				v[i] = s->vals ? s->vals[i] : s->base + i;
			return copy_out(s, st->data, v, (size_t)s->n * sizeof(v[0]));
		}
	}
	case ETHTOOL_GLINKSETTINGS: {
		struct ethtool_link_settings *ls = (void *)ifr->ifr_data;

		if (s->n_glink < 4)
			s->glink_nwords_seen[s->n_glink] = ls->link_mode_masks_nwords;
		s->n_glink++;
		if (s->err_glink)
			return s->err_glink;
		if (ls->link_mode_masks_nwords != s->nwords) {
			/* handshake: tell the caller how many words, touch nothing else */
			memset(ls, 0, sizeof(*ls));
			ls->cmd = ETHTOOL_GLINKSETTINGS;
			ls->link_mode_masks_nwords = (int8_t)-s->nwords;
			return 0;
		}
		ls->speed = s->speed;
		ls->duplex = s->duplex;
		for (i = 0; i < 3u * (uint32_t)s->nwords; i++) /* supported/advertising/lp */
			ls->link_mode_masks[i] = 0xffffffffu;
		return 0;
	}
	case ETHTOOL_GSET: {
		struct ethtool_cmd *ec = (void *)ifr->ifr_data;

		s->n_gset++;
		if (s->err_gset)
			return s->err_gset;
		ec->speed = (uint16_t)(s->gset_speed & 0xffff);
		ec->speed_hi = (uint16_t)(s->gset_speed >> 16);
		ec->duplex = s->duplex;
		return 0;
	}
	case ETHTOOL_GRINGPARAM: {
		struct ethtool_ringparam *rp = (void *)ifr->ifr_data;

		if (s->err_ring)
			return s->err_ring;
		rp->rx_pending = s->ring_rx;
		rp->rx_max_pending = s->ring_rx_max;
		rp->tx_pending = s->ring_tx;
		rp->tx_max_pending = s->ring_tx_max;
		return 0;
	}
	case ETHTOOL_GFEATURES: {
		struct ethtool_gfeatures *gf = (void *)ifr->ifr_data;
		uint32_t words = (s->n_feat + 31) / 32;

		if (s->err_feat)
			return s->err_feat;
		for (i = 0; i < words && i < gf->size; i++) {
			gf->features[i].available = 0xffffffffu;
			gf->features[i].active = s->feat_active[i];
		}
		gf->size = words;
		return 0;
	}
	default:
		return -EOPNOTSUPP;
	}
}

int fake_eth_setup(void **state)
{
	uint32_t i;

	(void)state;
	memset(&fake_eth, 0, sizeof(fake_eth));
	memset(fake_eth_ixgbe, 0, sizeof(fake_eth_ixgbe));
	load_ixgbe();
	for (i = 0; i < fake_eth_n_ixgbe; i++)
		fake_eth_add_name(fake_eth_ixgbe[i]);
	fake_eth.driver = "ixgbe";
	fake_eth.base = 1000;
	fake_eth.nwords = 3;
	fake_eth.speed = 10000;
	fake_eth.duplex = DUPLEX_FULL;
	fake_eth.ring_rx = 512;
	fake_eth.ring_rx_max = 4096;
	fake_eth.ring_tx = 512;
	fake_eth.ring_tx_max = 4096;
	fake_sysio_init(&fake_eth_sys, FIXTURES "/this-host");
	fake_eth_sys.ioctl_cb = fake_ethtool;
	fake_eth_sys.ioctl_arg = &fake_eth;
	return 0;
}
