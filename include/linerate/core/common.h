/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small shared definitions: units, array sizes, attributes. [any] */
#ifndef LINERATE_COMMON_H
#define LINERATE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define LR_NSEC_PER_SEC  1000000000ULL
#define LR_NSEC_PER_MSEC 1000000ULL
#define LR_NSEC_PER_USEC 1000ULL
#define LR_IFNAMSIZ      16	/* IFNAMSIZ, without pulling <net/if.h> into every header */

#define LR_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define LR_MUST_CHECK    __attribute__((warn_unused_result))
#define LR_PRINTF(f, a)  __attribute__((format(printf, f, a)))

const char *lr_version(void); /* `git describe` of the build, "dev" outside git */

#endif
