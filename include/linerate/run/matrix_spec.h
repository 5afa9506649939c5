/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `--matrix SPEC` (docs/design.md §10): `key=v1,v2,...` groups joined by `;`, keys P l u R
 * b w M C with iperf3's meanings (`u=tcp,udp`, `R=0,1,bidir`), and `rr=0,1` (--rr: a case
 * runs netperf's request/response test, `l` its request and response size, 1 unset). The cases are the cartesian
 * product in the order the keys are written, the last key fastest; a key not in SPEC keeps
 * the command line's value (or iperf3's default). Pure: no I/O, no allocation. [main] */
#ifndef LINERATE_MATRIX_SPEC_H
#define LINERATE_MATRIX_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/traffic/traffic.h"

enum lr_mkey {
	LR_MK_P, LR_MK_L, LR_MK_U, LR_MK_R, LR_MK_B, LR_MK_W, LR_MK_M, LR_MK_C,
	LR_MK_RR, /* "rr": its letter in the keys' string is 'r' */
	LR_MK__COUNT
};

#define LR_MATRIX_MAX_VALUES 64	/* per key */
#define LR_MATRIX_MAX_CASES 4096
#define LR_MATRIX_CC_LEN 16	/* TCP_CA_NAME_MAX */

enum lr_mdir { LR_MDIR_UP, LR_MDIR_REVERSE, LR_MDIR_BIDIR };

struct lr_matrix_spec {
	unsigned n_keys;			/* keys in SPEC, in written order */
	enum lr_mkey order[LR_MK__COUNT];
	unsigned n_values[LR_MK__COUNT];	/* 0: not in SPEC */
	uint64_t values[LR_MK__COUNT][LR_MATRIX_MAX_VALUES];	/* u: 1 = udp; R: enum lr_mdir */
	char cc[LR_MATRIX_MAX_VALUES][LR_MATRIX_CC_LEN];	/* C's values */
	unsigned n_cases;
};

/* The key's letter ('P', 'l', ..., 'r' for rr). */
char lr_matrix_key_letter(enum lr_mkey k);
/* Parses spec into *out. 0, or -EINVAL with one line in err naming the bad key or value. */
int lr_matrix_spec_parse(const char *spec, struct lr_matrix_spec *out, char *err, size_t len)
	LR_MUST_CHECK;
/* Case i (0-based) as a traffic config: base with the case's values put in. congestion
 * points into *s. */
void lr_matrix_case(const struct lr_matrix_spec *s, const struct lr_traffic_config *base,
		    unsigned i, struct lr_traffic_config *out);
/* Checks every case against the limits that depend on two keys (UDP length, -R/--bidir):
 * 0, or -EINVAL with one line naming the case and the value. */
int lr_matrix_spec_check(const struct lr_matrix_spec *s, const struct lr_traffic_config *base,
			 char *err, size_t len) LR_MUST_CHECK;

#endif
