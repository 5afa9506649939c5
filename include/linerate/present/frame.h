/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A frame: a grid of cells {codepoint, style role} that views draw into and the curses blitter
 * copies to the terminal. Drawing clips to the frame; every cell is one column wide (views only
 * draw narrow characters; anything else is replaced by '?'). Pure, no curses. [main] */
#ifndef LINERATE_FRAME_H
#define LINERATE_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"

/* Style roles: the closed list of docs/design.md §5. LR_ROLE_NONE is the terminal's own
 * colours and is not settable in a theme. Order is the theme file's role-name order. */
enum lr_role {
	LR_ROLE_NONE,
	LR_ROLE_TITLE,
	LR_ROLE_BORDER,
	LR_ROLE_LABEL,
	LR_ROLE_VALUE,
	LR_ROLE_RX,
	LR_ROLE_TX,
	LR_ROLE_GRAPH_RX,
	LR_ROLE_GRAPH_TX,
	LR_ROLE_OK,
	LR_ROLE_WARN,
	LR_ROLE_ALERT,
	LR_ROLE_CPU_USER,
	LR_ROLE_CPU_SYSTEM,
	LR_ROLE_CPU_IRQ,
	LR_ROLE_CPU_SOFTIRQ,
	LR_ROLE_SELECTED,
	LR_ROLE_STATUS,
	LR_ROLE_HELP,
	LR_ROLE__COUNT
};

struct lr_cell {
	uint32_t cp;	/* Unicode code point, ' ' when empty */
	uint8_t role;	/* enum lr_role */
};

struct lr_frame {
	int w, h;
	struct lr_cell *cells;	/* w * h, row-major; owned by lr_frame_* */
	size_t cap;		/* cells allocated */
	/* Text drawn since the last clear that did not fit whole (maxw or the frame's edge): how
	 * many times, and where the first one started. Views leave out or mark what does not
	 * fit; tests check these stay 0. */
	unsigned clipped;
	int clip_x, clip_y;
};

struct lr_rect {
	int x, y, w, h;
};

/* A run of changed cells on one row: [x0, x1). */
struct lr_frame_run {
	int y, x0, x1;
};

void lr_frame_init(struct lr_frame *f);		/* an empty 0x0 frame */
void lr_frame_free(struct lr_frame *f);		/* NULL-safe; leaves an empty frame */
/* Sets the size and clears every cell; allocates only when growing. 0 or -ENOMEM/-EINVAL. */
int lr_frame_resize(struct lr_frame *f, int w, int h) LR_MUST_CHECK;
/* Copies src into dst (size and cells). 0 or -ENOMEM. */
int lr_frame_copy(struct lr_frame *dst, const struct lr_frame *src) LR_MUST_CHECK;
void lr_frame_clear(struct lr_frame *f);

/* Cell access; NULL / no-op outside the frame. */
const struct lr_cell *lr_frame_at(const struct lr_frame *f, int x, int y);
void lr_frame_put(struct lr_frame *f, int x, int y, uint32_t cp, enum lr_role role);
void lr_frame_fill(struct lr_frame *f, struct lr_rect r, uint32_t cp, enum lr_role role);
void lr_frame_set_role(struct lr_frame *f, struct lr_rect r, enum lr_role role);

/* Draws UTF-8 text at (x, y), at most maxw columns (maxw < 0: to the frame's edge); control
 * characters and malformed bytes become '?'. Returns the columns drawn (clipped ones included,
 * so callers can advance x). Text cut short by maxw or the edge counts in f->clipped. */
int lr_frame_text(struct lr_frame *f, int x, int y, int maxw, enum lr_role role, const char *s);
int lr_frame_printf(struct lr_frame *f, int x, int y, int maxw, enum lr_role role,
		    const char *fmt, ...) LR_PRINTF(6, 7);
/* Right-aligns s so its last column is at x + w - 1 (truncating on the left when too long,
 * counted in f->clipped). */
int lr_frame_text_right(struct lr_frame *f, int x, int y, int w, enum lr_role role, const char *s);
/* Number of columns s takes (code points). */
int lr_utf8_width(const char *s);

/* The frame as UTF-8 text, one line per row, trailing blanks trimmed, each ending '\n'.
 * Returns a malloc'd string the caller frees, or NULL on -ENOMEM. For golden tests. */
char *lr_frame_to_text(const struct lr_frame *f);

/* Iterates the runs of cells that differ between prev and cur (codepoint or role), row by
 * row. *pos starts at 0. A prev of another size (or NULL) yields every row whole. Returns
 * true and fills *run while there is one. */
bool lr_frame_diff_next(const struct lr_frame *prev, const struct lr_frame *cur, size_t *pos,
			struct lr_frame_run *run);
/* Number of cells that differ (every cell of cur when sizes differ). */
size_t lr_frame_diff_count(const struct lr_frame *prev, const struct lr_frame *cur);

#endif
