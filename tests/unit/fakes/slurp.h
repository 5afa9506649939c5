/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A recorded fixture (kernel replies as bytes) read whole into a test's buffer. */
#ifndef LINERATE_TEST_SLURP_H
#define LINERATE_TEST_SLURP_H

#include <stddef.h>

/* Reads path into buf (at most cap bytes) and returns the length; fails the test when the
 * file cannot be opened. */
size_t slurp(const char *path, char *buf, size_t cap);

#endif
