/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Themes: a colour and attribute per style role, read from `themes/NAME.theme` files
 * (docs/design.md §5): lines `role = fg [on bg] [bold|dim|reverse|underline]...`, `#`
 * comments; colours default black red green yellow blue magenta cyan white bright-* or 0-255.
 * The parser is pure; the loader searches the theme directories. [main] */
#ifndef LINERATE_THEME_H
#define LINERATE_THEME_H

#include <stddef.h>
#include <stdint.h>

#include "linerate/core/common.h"
#include "linerate/present/frame.h"

#define LR_COLOR_DEFAULT (-1)	/* the terminal's own foreground/background */
#define LR_THEME_NAME_MAX 64
#define LR_THEME_ERR_MAX 320	/* "file:line: message" */
#define LR_THEME_FILE_MAX 65536	/* larger theme files are rejected */

enum lr_attr {
	LR_ATTR_BOLD = 1,
	LR_ATTR_DIM = 2,
	LR_ATTR_REVERSE = 4,
	LR_ATTR_UNDERLINE = 8,
};

struct lr_style {
	int16_t fg, bg;	/* 0-255 or LR_COLOR_DEFAULT */
	uint8_t attrs;	/* enum lr_attr bits */
};

struct lr_theme {
	char name[LR_THEME_NAME_MAX];
	struct lr_style role[LR_ROLE__COUNT];	/* LR_ROLE_NONE is always default/default */
};

/* "title", "border", ... NULL for LR_ROLE_NONE or out of range. */
const char *lr_role_name(enum lr_role role);

/* Built-in themes: the default colours (the same as themes/default.theme) and mono
 * (attributes only, for NO_COLOR and terminals without colours). */
void lr_theme_builtin_default(struct lr_theme *t);
void lr_theme_builtin_mono(struct lr_theme *t);

/* Parses a theme file's text (len bytes, need not be NUL-terminated). Roles the file does not
 * name keep the terminal's default colours and no attributes. fname is used only for messages.
 * 0, or -EINVAL with err = "fname:line: message" (err may be NULL); *t is then the built-in
 * default. */
int lr_theme_parse(struct lr_theme *t, const char *buf, size_t len, const char *fname,
		   char *err, size_t errlen) LR_MUST_CHECK;

/* Loads NAME (searched as NAME.theme in $XDG_CONFIG_HOME/linerate/themes (else
 * ~/.config/linerate/themes), LR_THEMEDIR, ./themes) or PATH (contains '/' or ends ".theme").
 * 0, -ENOENT (not found; err says where it looked), -EINVAL (parse error, err has file:line),
 * other -errno. On any error *t is the built-in default. */
int lr_theme_load(struct lr_theme *t, const char *name_or_path, char *err, size_t errlen)
	LR_MUST_CHECK;

/* Names of the themes found in the search directories (deduplicated, "default" first, then
 * sorted), for the `t` key. Fills names[0..max) and returns how many (always >= 1: "default"
 * is listed even when no file exists, and loading it then gives the built-in). */
size_t lr_theme_list(char (*names)[LR_THEME_NAME_MAX], size_t max);

#endif
