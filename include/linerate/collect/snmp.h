/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/net/snmp and /proc/net/netstat: the stack counters linerate shows (Tcp RetransSegs,
 * Udp InErrors, RcvbufErrors, SndbufErrors) and the drop witnesses of the loss ledger's ip and
 * transport stages (docs/design.md §14). Both files are pairs of lines, a header naming the
 * columns and a value line with the same "Proto:" prefix; columns are looked up by name, so
 * kernels that add or lack columns parse. A column the kernel lacks is unknown (its valid bit
 * clear), never 0. A line that does not parse is warned about once and its counters stay
 * unknown for the rest of the run. Pure parser + a reader that keeps the files open. [sampler] */
#ifndef LINERATE_SNMP_H
#define LINERATE_SNMP_H

#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/core/sysio.h"

enum lr_stack_valid {
	LR_STACKV_TCP_RETRANS = 1,
	LR_STACKV_UDP_IN_ERRORS = 2,
	LR_STACKV_UDP_RCVBUF = 4,
	LR_STACKV_UDP_SNDBUF = 8,
};

/* The drop witnesses of the ledger's ip and transport stages, in the order of drop[]: each
 * counts skbs the receiving stack dropped. Valid bit LR_STACKV_DROP(d). */
enum lr_stack_drop {
	LR_SD_IP_IN_DISCARDS,		/* Ip: InDiscards */
	LR_SD_IP_IN_HDR_ERRORS,		/* Ip: InHdrErrors */
	LR_SD_IP_IN_ADDR_ERRORS,	/* Ip: InAddrErrors */
	LR_SD_IP_REASM_FAILS,		/* Ip: ReasmFails */
	LR_SD_UDP_NO_PORTS,		/* Udp: NoPorts */
	LR_SD_UDP_IN_CSUM_ERRORS,	/* Udp: InCsumErrors (3.10; counted in InErrors too) */
	LR_SD_TCP_BACKLOG_DROP,		/* TcpExt: TCPBacklogDrop */
	LR_SD_TCP_RCVQ_DROP,		/* TcpExt: TCPRcvQDrop (5.0) */
	LR_SD_TCP_ZERO_WINDOW_DROP,	/* TcpExt: TCPZeroWindowDrop (5.0) */
	LR_SD_TCP_OFO_DROP,		/* TcpExt: TCPOFODrop */
	/* not a drop: the sender's retransmits the receiver already had (it said so with a
	 * D-SACK), so spurious, not lost; the ledger takes them off TCP's loss */
	LR_SD_TCP_DSACK_RECV_SEGS,	/* TcpExt: TCPDSACKRecvSegs (5.10) */
	LR_SD__COUNT
};
#define LR_STACKV_DROP(d) (16u << (d))
#define LR_STACKV_IP_DROPS  (LR_STACKV_DROP(LR_SD_IP_IN_DISCARDS) | \
			     LR_STACKV_DROP(LR_SD_IP_IN_HDR_ERRORS) | \
			     LR_STACKV_DROP(LR_SD_IP_IN_ADDR_ERRORS) | LR_STACKV_DROP(LR_SD_IP_REASM_FAILS))
#define LR_STACKV_TCP_DROPS (LR_STACKV_DROP(LR_SD_TCP_BACKLOG_DROP) | \
			     LR_STACKV_DROP(LR_SD_TCP_RCVQ_DROP) | \
			     LR_STACKV_DROP(LR_SD_TCP_ZERO_WINDOW_DROP) | LR_STACKV_DROP(LR_SD_TCP_OFO_DROP))

/* "Ip InDiscards", "TcpExt TCPOFODrop": the counter as the kernel's file names it. */
const char *lr_stack_drop_name(enum lr_stack_drop d);

struct lr_snmp_raw {
	uint32_t valid;		    /* enum lr_stack_valid */
	uint64_t tcp_retrans;	    /* Tcp: RetransSegs */
	uint64_t udp_in_errors;	    /* Udp: InErrors */
	uint64_t udp_rcvbuf_errors; /* Udp: RcvbufErrors (2.6.18) */
	uint64_t udp_sndbuf_errors; /* Udp: SndbufErrors (2.6.18) */
	uint64_t drop[LR_SD__COUNT]; /* enum lr_stack_drop */
	/* the valid bits of the counters on a line that did not parse (a value line shorter than
	 * its header, a counter that is not a number, a header without its value line) */
	uint32_t bad;
};

/* Counters are unsigned long in the kernel: 64-bit on 64-bit kernels. */
#define LR_SNMP_WIDTH 64

/* Parses the text of /proc/net/snmp or /proc/net/netstat (len bytes, NUL not needed) into
 * *out (fully overwritten). Returns the number of known fields; -EINVAL when no header/value
 * pair of Ip, Tcp, Udp or TcpExt is there. */
int lr_snmp_parse(const char *buf, size_t len, struct lr_snmp_raw *out);

struct lr_snmp_reader; /* opaque: the open fd and its buffer */

/* Opens /proc/net/snmp (and /proc/net/netstat when there: without it the TcpExt counters are
 * unknown) and sizes the buffers. 0 or -errno (logged). io must outlive it. */
int lr_snmp_reader_open(struct lr_snmp_reader **out, const struct lr_sysio *io) LR_MUST_CHECK;
/* One pread + parse of each file; no allocation unless a file outgrew its buffer. On error
 * *out has valid = 0. A line that does not parse is one warning naming it, and its counters
 * are unknown from then on (valid bits cleared on every later read). Returns the number of
 * known fields or -errno. */
int lr_snmp_reader_read(struct lr_snmp_reader *r, struct lr_snmp_raw *out);
void lr_snmp_reader_close(struct lr_snmp_reader *r); /* NULL-safe */

#endif
