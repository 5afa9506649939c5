// SPDX-License-Identifier: GPL-2.0-or-later
/* The version string lives in this one object, rebuilt whenever `git describe` changes
 * (Makefile: version.stamp), so an incremental build never reports an older commit. */
#include "linerate/core/common.h"

#ifndef LR_VERSION
#define LR_VERSION "dev"
#endif

const char *lr_version(void)
{
	return LR_VERSION;
}
