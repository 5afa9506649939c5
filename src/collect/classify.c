// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Driver counter classification: an `ethtool -S` name -> fifo|drop|error|pause|traffic|other
 * plus a per-queue flag. The name is split into lower-case words, queue/priority/TC indices
 * are taken out (and remembered as per_queue), then an ordered rule table over those words
 * decides: the first rule that matches wins. A few rules are driver-specific. Pure: no
 * globals, no allocation. [any]
 */
#include <stdbool.h>
#include <string.h>

#include "linerate/collect/classify.h"
#include "linerate/core/common.h"

#define MAX_WORDS 16
#define WORD_LEN  32

struct words {
	char w[MAX_WORDS][WORD_LEN];
	size_t len[MAX_WORDS];
	unsigned n;
	bool per_queue;
};

/*
 * A rule matches when every term of `all` is a word of the name and no term of `none` is.
 * Terms are space-separated; a term may offer alternatives with '|' ("drop|drops"), and an
 * alternative ending in '*' matches every word starting with it ("err*"). `driver`, when
 * set, is a '|' list of GDRVINFO driver names the rule is limited to.
 */
struct rule {
	const char *driver;
	const char *all;
	const char *none;
	enum lr_counter_cat cat;
};

/* clang-format off */
#define R(all, none, c)     { NULL, all, none, LR_CAT_##c }
#define RD(d, all, none, c) { d, all, none, LR_CAT_##c }
/* clang-format on */

static const struct rule rules[] = {
	/* igb/igc rx_queue_N_drops is RQDPC: that queue had no free descriptor. On veth and
	 * virtio_net the same name is a driver drop. */
	RD("igb|igc", "rx queue drops", NULL, FIFO),

	/* Bookkeeping whose words would otherwise read as a loss: page_pool, flow director,
	 * aRFS, timestamps, EEE, admin queues, interrupts and polling, queue stop/wake,
	 * resets, allocation events, FEC-corrected bits, offload internals. */
	R("uncorrect*", NULL, ERROR),
	R("link down", "drop*", OTHER),
	R("ifindex|pp|fdir|arfs|atr|hwtstamp|timestamps|lpi|eee|arq|admin|module|recovery|"
	  "recover|congst|umr|filler|inlnw|mpwqe|nop|nops|more|kicks|notifications|doorbells|"
	  "napi|poll|arm|rearm|aff|force|irq|irqs|interrupts|int|reset|resets|restart|busy|"
	  "timeout|timeouts|linearize|wake|wakeup|stop|stops|stopped|compress|ecn|marked|"
	  "added|removed|hds|noseg|copybreak|refil|alloc|seg|ok|lane|corrected",
	  NULL, OTHER),

	/* kTLS offload (mlx5) has its own vocabulary. */
	R("tls drop*", NULL, DROP),
	R("tls err*", NULL, ERROR),
	R("tls encrypted|decrypted", NULL, TRAFFIC),
	R("tls", NULL, OTHER),

	/* Flow control: 802.3x and PFC frames, pause durations, transitions, storms. */
	R("pause*|xon|xoff|pxon|pxoff|pfc", NULL, PAUSE),
	R("flow control", NULL, PAUSE),

	/* Checksums: bad is an error; good/none/complete/partial is offload status. */
	R("csum|checksum|cso err*|bad", NULL, ERROR),
	R("csum|checksum|cso", NULL, OTHER),

	/* Completion/work queue entries: an error entry is an error, the rest bookkeeping. */
	R("cqe*|wqe* err*", NULL, ERROR),
	R("cqe*|wqe*", NULL, OTHER),

	/* XDP / AF_XDP: a drop, error or full ring loses the frame; a full xsk send queue
	 * holds the application's frames back (mlx5 counters.rst: doorbell rung while the SQ
	 * was full): the ring had no room, as a NIC ring without descriptors. */
	R("xsk full", NULL, FIFO),
	R("xdp|xsk drop*|err*|full", NULL, DROP),

	/* FIFO: the NIC had nowhere to put a frame (packet buffer full, no descriptor, ring
	 * empty), incl. pre-overflow threshold counters. On tx, a FIFO counter is an underrun. */
	R("tx fifo*", NULL, ERROR),
	R("fifo*", NULL, FIFO),
	R("missed", "tx|steer", FIFO),
	R("overflow*|oob", NULL, FIFO),
	R("over err*", NULL, FIFO),
	R("no buffer|buf|buff|pbuf|desc|descr|descs|dma|frags|rxd", NULL, FIFO),
	R("nodesc|nobuf|nobuffer", NULL, FIFO),
	R("out of buffer", NULL, FIFO),
	R("buffer passed", NULL, FIFO),
	R("empty", "tx", FIFO),
	/* rx discards counted by the port/MAC (i40e port.rx_discards, mlx5 rx_discards_phy,
	 * ice rx_dropped.nic, bnxt ring rx_discards) are packet-buffer or ring exhaustion;
	 * a VEB's and a congestion discard are not. */
	R("rx discard*|drop*|dropped port|phy|nic", NULL, FIFO),
	R("rx discard*", "veb|cong", FIFO),

	/* Frame errors that some drivers count as "drops" (be2net rx_dropped_runt). */
	R("crc|fcs|runt|runts|align|alignment|symbol|jabber|jabbers|jbr|fragments|undersize|"
	  "undrsz|length|len|mtu|range|malformed|illegal|fault|faults|collisions|collision|coll|"
	  "carrier|heartbeat|window|underrun*|parity|integrity",
	  NULL, ERROR),
	R("too small|short|long", NULL, ERROR),
	R("tx abort*", NULL, ERROR),
	R("abort*", NULL, OTHER),

	/* Drops: filters, unknown protocol, link down, rate limits, driver drops. */
	R("oversize buffer", NULL, DROP),
	R("if down", NULL, DROP),
	R("unknown protocol|proto", NULL, DROP),
	R("dma map*", NULL, DROP),
	R("drop|drops|dropped|discard|discards|filtered|steer|spoof|ratelimit|allowance", NULL,
	  DROP),

	R("err*|bad|oversize|ovrsz|invalid|corrupt*", NULL, ERROR),

	/* Traffic: packet/byte counts, size histograms, offload aggregates. */
	R("xdp|xsk", NULL, TRAFFIC),
	R("control*|ctrl", NULL, OTHER),
	R("gro skbs", NULL, OTHER),
	R("cnt rx|tx", NULL, TRAFFIC),
	R("packets|packet|pkts|pkt|bytes|byte|octets|frames|frame|dwords|unicast|multicast|"
	  "broadcast|ucast|mcast|bcast|reqs|xmit|redirect|redirects|tso|lro|gro|tpa|smbus|"
	  "os2bmc|ipsec|size|segments|bits",
	  NULL, TRAFFIC),
};

/* Index words that make the word (or a number after it) a per-queue/priority/TC index. */
static const char *const queue_bases[] = {
	"rx",	"tx",  "rxq", "txq", "ch", "cq",       "rq",   "sq",   "q",   "queue",
	"prio", "pri", "cos", "tc",  "pb", "priority", "lane", "ring", "cpu",
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_queue_base(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < LR_ARRAY_SIZE(queue_bases); i++)
		if (strlen(queue_bases[i]) == len && !strncmp(queue_bases[i], w, len))
			return true;
	return false;
}

static void add_word(struct words *ws, const char *s, size_t len)
{
	char *d;
	size_t i;

	if (ws->n >= MAX_WORDS)
		return;
	if (len >= WORD_LEN)
		len = WORD_LEN - 1;
	ws->len[ws->n] = len;
	d = ws->w[ws->n++];
	for (i = 0; i < len; i++)
		d[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
	d[len] = '\0';
}

/* "rx3_missed" -> {rx, missed} per_queue; "tx-1.bytes" -> {tx, bytes} per_queue;
 * "[2]: rx_discards" -> {rx, discards} per_queue; "rx_size_64" keeps its 64. */
static void split_words(const char *name, struct words *ws)
{
	const char *p = name;
	char prev_sep = '\0';

	memset(ws, 0, sizeof(*ws));
	while (*p) {
		const char *s;
		size_t len, digits = 0;

		if (!is_alnum(*p)) {
			prev_sep = *p++;
			continue;
		}
		s = p;
		while (is_alnum(*p))
			p++;
		len = (size_t)(p - s);
		while (digits < len && is_digit(s[len - 1 - digits]))
			digits++;
		if (digits == len) {
			const char *prev = ws->n ? ws->w[ws->n - 1] : NULL;
			bool index = !prev || ((!strcmp(prev, "rx") || !strcmp(prev, "tx"))
						       ? prev_sep == '-'
						       : is_queue_base(prev, ws->len[ws->n - 1]));

			if (index) {
				ws->per_queue = true;
				prev_sep = '\0';
				continue;
			}
		} else if (digits && is_queue_base(s, len - digits)) {
			ws->per_queue = true;
			len -= digits;
			if (len == 3 && s[2] == 'q') /* rxq0 / txq0 -> rx / tx */
				len = 2;
		}
		add_word(ws, s, len);
		prev_sep = '\0';
	}
}

/* Does one '|' alternative list (ending at end) match any word? */
static bool term_matches(const struct words *ws, const char *t, const char *end)
{
	while (t < end) {
		const char *bar = memchr(t, '|', (size_t)(end - t));
		const char *alt_end = bar ? bar : end;
		size_t len = (size_t)(alt_end - t);
		bool prefix = len && t[len - 1] == '*';
		unsigned i;

		if (prefix)
			len--;
		for (i = 0; i < ws->n; i++) {
			if (prefix ? ws->len[i] >= len : ws->len[i] == len) {
				if (!memcmp(ws->w[i], t, len))
					return true;
			}
		}
		t = bar ? bar + 1 : end;
	}
	return false;
}

/* all_of: every space-separated term matches; otherwise: some term matches. */
static bool terms_match(const struct words *ws, const char *list, bool all_of)
{
	const char *t = list;

	while (*t) {
		const char *sp = strchr(t, ' ');
		const char *end = sp ? sp : t + strlen(t);
		bool m = term_matches(ws, t, end);

		if (all_of && !m)
			return false;
		if (!all_of && m)
			return true;
		t = sp ? sp + 1 : end;
	}
	return all_of;
}

static bool driver_matches(const char *list, const char *driver)
{
	size_t dlen;
	const char *t = list;

	if (!driver)
		return false;
	dlen = strlen(driver);
	while (*t) {
		const char *bar = strchr(t, '|');
		size_t len = bar ? (size_t)(bar - t) : strlen(t);

		if (len == dlen && !strncmp(t, driver, len))
			return true;
		if (!bar)
			break;
		t = bar + 1;
	}
	return false;
}

/*
 * A name that says a FIFO, a full queue, no buffer or an empty ring reports that something had
 * nowhere to go: never bury it in `other`, whatever bookkeeping word it also carries ("timeout",
 * "stop", "alloc"). Page-pool recycling ("pp") is the exception: its ring or cache being full
 * means pages were plentiful (mlx5 counters.rst), not that a frame was lost.
 */
static bool says_no_room(const struct words *ws)
{
	if (terms_match(ws, "pp", false))
		return false;
	return terms_match(ws, "fifo*|full|nobuf|nobuff|nobuffer|nobuffers|nodesc", false) ||
	       terms_match(ws, "no buf|buff|buffer|buffers", true) ||
	       terms_match(ws, "empty ring|rings", true);
}

struct lr_counter_class lr_classify(const char *driver, const char *name)
{
	struct lr_counter_class c = {.cat = LR_CAT_OTHER, .per_queue = false};
	struct words ws;
	size_t i;

	if (!name)
		return c;
	split_words(name, &ws);
	c.per_queue = ws.per_queue;
	for (i = 0; i < LR_ARRAY_SIZE(rules); i++) {
		const struct rule *r = &rules[i];

		if (r->driver && !driver_matches(r->driver, driver))
			continue;
		if (!terms_match(&ws, r->all, true))
			continue;
		if (r->none && terms_match(&ws, r->none, false))
			continue;
		c.cat = r->cat;
		break;
	}
	if (c.cat == LR_CAT_OTHER && says_no_room(&ws))
		c.cat = terms_match(&ws, "tx fifo*", true) ? LR_CAT_ERROR : LR_CAT_FIFO;
	return c;
}

const char *lr_counter_cat_name(enum lr_counter_cat cat)
{
	static const char *const names[LR_CAT__COUNT] = {
		[LR_CAT_FIFO] = "fifo",	  [LR_CAT_DROP] = "drop",	[LR_CAT_ERROR] = "error",
		[LR_CAT_PAUSE] = "pause", [LR_CAT_TRAFFIC] = "traffic", [LR_CAT_OTHER] = "other",
	};

	return (unsigned)cat < LR_CAT__COUNT ? names[cat] : "?";
}
