/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dashboard's Matrix pane: the grid's progress (cases done, the running one highlighted,
 * ETA) and the finished rows, newest last. It takes the Streams pane's band of the detail view
 * (lr_view_ctx.streams_pane). Pure drawing. [present] */
#ifndef LINERATE_VIEW_MATRIX_H
#define LINERATE_VIEW_MATRIX_H

#include <stdbool.h>

#include "linerate/present/frame.h"

struct lr_view_ctx;

/* arg: a const struct lr_matrix_progress * (the signature of lr_view_ctx.streams_pane). */
void lr_view_matrix(struct lr_frame *f, struct lr_rect r, const struct lr_view_ctx *ctx, void *arg);

#endif
