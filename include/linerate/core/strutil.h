/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict, locale-independent number parsing and bounded string helpers. Pure. [any] */
#ifndef LINERATE_STRUTIL_H
#define LINERATE_STRUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

/* Whole-string parses: no sign for unsigned, no trailing junk, no overflow. 0 or -EINVAL/-ERANGE. */
int lr_parse_u64(const char *s, uint64_t *out) LR_MUST_CHECK;
int lr_parse_double(const char *s, double *out) LR_MUST_CHECK;	/* finite, '.' decimal point */

/* "10M", "1.5G", "100k", "0": bits/s with SI suffixes (k=1e3, M=1e6, G=1e9, T=1e12), as iperf3's
 * -b. 0 or -EINVAL/-ERANGE. */
int lr_parse_rate_bps(const char *s, uint64_t *out) LR_MUST_CHECK;
/* "1400", "64K", "1M": bytes with binary suffixes (K=1024), as iperf3's -l and -w. */
int lr_parse_size_bytes(const char *s, uint64_t *out) LR_MUST_CHECK;

/* Reads an unsigned decimal at *p, skipping leading blanks; advances *p past it.
 * Returns false when no digit is there or on overflow. For line-oriented proc parsers. */
bool lr_scan_u64(const char **p, const char *end, uint64_t *out);

/* strlcpy semantics: always NUL-terminates when size > 0; returns strlen(src). */
size_t lr_strlcpy(char *dst, const char *src, size_t size);
/* Formats a one-line message into err (len bytes) and returns -EINVAL: the parsers' way of
 * saying what was wrong. */
int lr_err_inval(char *err, size_t len, const char *fmt, ...) LR_PRINTF(3, 4);

/* Formats v with SI prefixes into buf ("38.41G", "531k", "0"); 3-4 significant digits. */
void lr_fmt_si(char *buf, size_t len, double v);

#endif
