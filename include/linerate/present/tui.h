/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The terminal: the only module that talks curses (src/present/tui_curses.c). It sets the
 * terminal up, turns a theme into colour pairs (mono when the terminal has no colours or
 * NO_COLOR is set), blits frames redrawing only the cells that changed, and maps keys to
 * enum lr_action. Not linked into liblinerate.a. [main] */
#ifndef LINERATE_TUI_H
#define LINERATE_TUI_H

#include <stdbool.h>

#include "linerate/present/ui.h"
#include "linerate/core/common.h"

struct lr_tui;	/* opaque: the curses screen, colour pairs and the last frame drawn */
struct lr_theme;
struct lr_frame;

/* Takes over the terminal on stdin/stdout (newterm: never exits on failure). Registers the
 * restore hook: lr_tui_restore() runs at exit() and on fatal signals (SEGV, BUS, FPE, ILL,
 * ABRT). The caller has called setlocale(LC_CTYPE, ""). 0, -ENOTTY (stdin or stdout is not a
 * terminal), -ENOENT (TERM is unknown), -EOPNOTSUPP (TERM cannot address the cursor), -ENOMEM. */
int lr_tui_open(struct lr_tui **out) LR_MUST_CHECK;
/* Restores the terminal and frees; NULL-safe. */
void lr_tui_close(struct lr_tui *t);
/* Restores the terminal if a TUI is open (idempotent; what main.c or a fatal path calls). */
void lr_tui_restore(void);

/* Applies a theme's colours and attributes; falls back to the built-in mono theme when the
 * terminal lacks colours (or pairs for every role) or NO_COLOR is set. Forces a full
 * redraw. Returns true when colours are in use. */
bool lr_tui_set_theme(struct lr_tui *t, const struct lr_theme *theme);
/* True when the locale's character set is UTF-8 (else views must draw ASCII). */
bool lr_tui_utf8(void);

void lr_tui_size(const struct lr_tui *t, int *w, int *h);
/* Draws f, sending only cells that differ from the previous blit (everything after a size
 * change or lr_tui_invalidate). Returns the number of cells written. */
int lr_tui_blit(struct lr_tui *t, const struct lr_frame *f);
void lr_tui_invalidate(struct lr_tui *t);	/* next blit repaints the whole screen */

/* The fd to poll for input. */
int lr_tui_input_fd(const struct lr_tui *t);
/* Reads one pending key without blocking: returns true and sets *act (LR_ACT_NONE for an
 * unbound key), false when no key is pending. */
bool lr_tui_read_key(struct lr_tui *t, enum lr_action *act);

#endif
