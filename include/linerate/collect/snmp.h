/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/net/snmp: the stack counters linerate shows (Tcp RetransSegs, Udp InErrors,
 * RcvbufErrors, SndbufErrors). The file is pairs of lines, a header naming the columns and a
 * value line with the same "Proto:" prefix; columns are looked up by name, so kernels that
 * add or lack columns parse. A column the kernel lacks is unknown (its valid bit clear),
 * never 0. Pure parser + a reader that keeps the file open. [sampler] */
#ifndef LINERATE_SNMP_H
#define LINERATE_SNMP_H

#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/sample/snapshot.h" /* enum lr_stack_valid: LR_STACKV_* */
#include "linerate/core/sysio.h"

struct lr_snmp_raw {
	uint32_t valid;		    /* enum lr_stack_valid */
	uint64_t tcp_retrans;	    /* Tcp: RetransSegs */
	uint64_t udp_in_errors;	    /* Udp: InErrors */
	uint64_t udp_rcvbuf_errors; /* Udp: RcvbufErrors (2.6.18) */
	uint64_t udp_sndbuf_errors; /* Udp: SndbufErrors (2.6.18) */
};

/* Counters are unsigned long in the kernel: 64-bit on 64-bit kernels. */
#define LR_SNMP_WIDTH 64

/* Parses the text of /proc/net/snmp (len bytes, NUL not needed) into *out (fully
 * overwritten). Returns the number of known fields (0..4); -EINVAL when neither a Tcp nor
 * a Udp header/value pair is there. */
int lr_snmp_parse(const char *buf, size_t len, struct lr_snmp_raw *out);

struct lr_snmp_reader; /* opaque: the open fd and its buffer */

/* Opens /proc/net/snmp and sizes the buffer. 0 or -errno (logged). io must outlive it. */
int lr_snmp_reader_open(struct lr_snmp_reader **out, const struct lr_sysio *io) LR_MUST_CHECK;
/* One pread + parse; no allocation unless the file outgrew the buffer. On error *out has
 * valid = 0. Returns lr_snmp_parse's value or -errno. */
int lr_snmp_reader_read(struct lr_snmp_reader *r, struct lr_snmp_raw *out);
void lr_snmp_reader_close(struct lr_snmp_reader *r); /* NULL-safe */

#endif
