// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Theme files: a pure parser for `role = fg [on bg] [attrs]` lines, the built-in default and
 * mono themes, and the loader that searches $XDG_CONFIG_HOME, LR_THEMEDIR and ./themes.
 * Errors come back as -EINVAL with "file:line: message"; nothing here prints or exits.
 * Main thread only; no state beyond the caller's struct lr_theme.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linerate/core/strutil.h"
#include "linerate/present/theme.h"

#ifndef LR_THEMEDIR
#define LR_THEMEDIR "/usr/local/share/linerate/themes"
#endif

#define LINE_MAX_LEN 256
#define MAX_TOKENS 8

static const char *const role_names[LR_ROLE__COUNT] = {
	[LR_ROLE_TITLE] = "title",
	[LR_ROLE_BORDER] = "border",
	[LR_ROLE_LABEL] = "label",
	[LR_ROLE_VALUE] = "value",
	[LR_ROLE_RX] = "rx",
	[LR_ROLE_TX] = "tx",
	[LR_ROLE_GRAPH_RX] = "graph_rx",
	[LR_ROLE_GRAPH_TX] = "graph_tx",
	[LR_ROLE_OK] = "ok",
	[LR_ROLE_WARN] = "warn",
	[LR_ROLE_ALERT] = "alert",
	[LR_ROLE_CPU_USER] = "cpu_user",
	[LR_ROLE_CPU_SYSTEM] = "cpu_system",
	[LR_ROLE_CPU_IRQ] = "cpu_irq",
	[LR_ROLE_CPU_SOFTIRQ] = "cpu_softirq",
	[LR_ROLE_SELECTED] = "selected",
	[LR_ROLE_STATUS] = "status",
	[LR_ROLE_HELP] = "help",
};

static const char *const color_names[8] = {"black", "red",     "green", "yellow",
					   "blue",  "magenta", "cyan",  "white"};

static const struct {
	const char *name;
	uint8_t bit;
} attr_names[] = {
	{"bold", LR_ATTR_BOLD},
	{"dim", LR_ATTR_DIM},
	{"reverse", LR_ATTR_REVERSE},
	{"underline", LR_ATTR_UNDERLINE},
};

const char *lr_role_name(enum lr_role role)
{
	return (unsigned)role < LR_ROLE__COUNT ? role_names[role] : NULL;
}

static void style_set(struct lr_theme *t, enum lr_role r, int fg, int bg, unsigned attrs)
{
	t->role[r].fg = (int16_t)fg;
	t->role[r].bg = (int16_t)bg;
	t->role[r].attrs = (uint8_t)attrs;
}

static void theme_blank(struct lr_theme *t, const char *name)
{
	memset(t, 0, sizeof(*t));
	lr_strlcpy(t->name, name, sizeof(t->name));
	for (int r = 0; r < LR_ROLE__COUNT; r++)
		style_set(t, r, LR_COLOR_DEFAULT, LR_COLOR_DEFAULT, 0);
}

void lr_theme_builtin_default(struct lr_theme *t)
{
	const int D = LR_COLOR_DEFAULT;

	theme_blank(t, "default");
	style_set(t, LR_ROLE_TITLE, 6, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_BORDER, 4, D, 0);
	style_set(t, LR_ROLE_LABEL, D, D, LR_ATTR_DIM);
	style_set(t, LR_ROLE_VALUE, D, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_RX, 2, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_TX, 3, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_GRAPH_RX, 2, D, 0);
	style_set(t, LR_ROLE_GRAPH_TX, 3, D, 0);
	style_set(t, LR_ROLE_OK, 2, D, 0);
	style_set(t, LR_ROLE_WARN, 3, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_ALERT, 1, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_CPU_USER, 2, D, 0);
	style_set(t, LR_ROLE_CPU_SYSTEM, 4, D, 0);
	style_set(t, LR_ROLE_CPU_IRQ, 3, D, 0);
	style_set(t, LR_ROLE_CPU_SOFTIRQ, 1, D, 0);
	style_set(t, LR_ROLE_SELECTED, 0, 6, 0);
	style_set(t, LR_ROLE_STATUS, 0, 4, 0);
	style_set(t, LR_ROLE_HELP, 7, 4, 0);
}

void lr_theme_builtin_mono(struct lr_theme *t)
{
	const int D = LR_COLOR_DEFAULT;

	theme_blank(t, "mono");
	style_set(t, LR_ROLE_TITLE, D, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_LABEL, D, D, LR_ATTR_DIM);
	style_set(t, LR_ROLE_VALUE, D, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_RX, D, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_TX, D, D, LR_ATTR_BOLD);
	style_set(t, LR_ROLE_WARN, D, D, LR_ATTR_BOLD | LR_ATTR_UNDERLINE);
	style_set(t, LR_ROLE_ALERT, D, D, LR_ATTR_BOLD | LR_ATTR_REVERSE);
	style_set(t, LR_ROLE_SELECTED, D, D, LR_ATTR_REVERSE);
	style_set(t, LR_ROLE_STATUS, D, D, LR_ATTR_REVERSE);
	style_set(t, LR_ROLE_HELP, D, D, LR_ATTR_REVERSE);
}

static int LR_PRINTF(5, 6) set_err(char *err, size_t errlen, const char *fname, unsigned line,
				    const char *fmt, ...)
{
	if (err && errlen) {
		char msg[160];
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		snprintf(err, errlen, "%s:%u: %s", fname ? fname : "<theme>", line, msg);
	}
	return -EINVAL;
}

/* A colour token: a name, bright-NAME, or 0-255. Returns -2 when unknown, -3 out of range. */
static int parse_color(const char *tok)
{
	uint64_t v;

	if (!strcmp(tok, "default"))
		return LR_COLOR_DEFAULT;
	for (int i = 0; i < 8; i++) {
		if (!strcmp(tok, color_names[i]))
			return i;
		if (!strncmp(tok, "bright-", 7) && !strcmp(tok + 7, color_names[i]))
			return 8 + i;
	}
	if (tok[0] >= '0' && tok[0] <= '9') {
		if (lr_parse_u64(tok, &v))
			return -2;
		return v <= 255 ? (int)v : -3;
	}
	return -2;
}

static int parse_role(const char *tok)
{
	for (int r = 1; r < LR_ROLE__COUNT; r++)
		if (!strcmp(tok, role_names[r]))
			return r;
	return -1;
}

/* Splits s in place at blanks and '=' (which becomes its own token). */
static int tokenize(char *s, char **tok, int max)
{
	static char eq[] = "=";
	int n = 0;

	while (*s) {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (!*s)
			break;
		if (n == max)
			return max + 1;
		if (*s == '=') {
			*s++ = '\0';
			tok[n++] = eq;
			continue;
		}
		tok[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '=')
			s++;
	}
	return n;
}

static int parse_line(struct lr_theme *t, char *line, const char *fname, unsigned lineno,
		      unsigned *seen_at, char *err, size_t errlen)
{
	char *tok[MAX_TOKENS];
	int n, role, fg, bg = LR_COLOR_DEFAULT, i;
	unsigned attrs = 0;
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	n = tokenize(line, tok, MAX_TOKENS);
	if (n == 0)
		return 0;
	if (n > MAX_TOKENS)
		return set_err(err, errlen, fname, lineno, "too many words");
	if (n < 2 || strcmp(tok[1], "="))
		return set_err(err, errlen, fname, lineno,
			       "expected 'role = colour [on colour] [attributes]'");
	role = parse_role(tok[0]);
	if (role < 0)
		return set_err(err, errlen, fname, lineno, "unknown role '%s'", tok[0]);
	if (seen_at[role]) {
		return set_err(err, errlen, fname, lineno, "role '%s' set twice (first on line %u)",
			       tok[0], seen_at[role]);
	}
	if (n < 3)
		return set_err(err, errlen, fname, lineno, "missing colour after '='");
	fg = parse_color(tok[2]);
	if (fg == -3)
		return set_err(err, errlen, fname, lineno, "colour '%s' out of range 0-255", tok[2]);
	if (fg == -2)
		return set_err(err, errlen, fname, lineno, "unknown colour '%s'", tok[2]);
	i = 3;
	if (i < n && !strcmp(tok[i], "on")) {
		if (i + 1 >= n)
			return set_err(err, errlen, fname, lineno, "missing colour after 'on'");
		bg = parse_color(tok[i + 1]);
		if (bg == -3)
			return set_err(err, errlen, fname, lineno, "colour '%s' out of range 0-255",
				       tok[i + 1]);
		if (bg == -2)
			return set_err(err, errlen, fname, lineno, "unknown colour '%s'", tok[i + 1]);
		i += 2;
	}
	for (; i < n; i++) {
		size_t a;

		for (a = 0; a < LR_ARRAY_SIZE(attr_names); a++)
			if (!strcmp(tok[i], attr_names[a].name))
				break;
		if (a == LR_ARRAY_SIZE(attr_names))
			return set_err(err, errlen, fname, lineno,
				       "unknown attribute '%s' (bold, dim, reverse, underline)",
				       tok[i]);
		attrs |= attr_names[a].bit;
	}
	style_set(t, role, fg, bg, attrs);
	seen_at[role] = lineno;
	return 0;
}

int lr_theme_parse(struct lr_theme *t, const char *buf, size_t len, const char *fname,
		   char *err, size_t errlen)
{
	unsigned seen_at[LR_ROLE__COUNT] = {0};
	unsigned lineno = 0;
	size_t pos = 0;
	const char *base = fname ? strrchr(fname, '/') : NULL;
	char name[LR_THEME_NAME_MAX];
	int rc = 0;

	if (err && errlen)
		err[0] = '\0';
	/* theme name: the file's base name without ".theme" */
	lr_strlcpy(name, base ? base + 1 : (fname ? fname : "theme"), sizeof(name));
	if (strlen(name) > 6 && !strcmp(name + strlen(name) - 6, ".theme"))
		name[strlen(name) - 6] = '\0';
	theme_blank(t, name);
	if (len > LR_THEME_FILE_MAX) {
		rc = set_err(err, errlen, fname, 0, "file larger than 64 KiB");
		goto err_fallback;
	}
	while (pos < len) {
		char line[LINE_MAX_LEN + 1];
		size_t end = pos;

		lineno++;
		while (end < len && buf[end] != '\n')
			end++;
		if (end - pos > LINE_MAX_LEN) {
			rc = set_err(err, errlen, fname, lineno, "line longer than 256 bytes");
			goto err_fallback;
		}
		if (memchr(buf + pos, '\0', end - pos)) {
			rc = set_err(err, errlen, fname, lineno, "NUL byte in line");
			goto err_fallback;
		}
		memcpy(line, buf + pos, end - pos);
		line[end - pos] = '\0';
		if (end > pos && line[end - pos - 1] == '\r')
			line[end - pos - 1] = '\0';
		rc = parse_line(t, line, fname, lineno, seen_at, err, errlen);
		if (rc)
			goto err_fallback;
		pos = end + 1;
	}
	return 0;
err_fallback:
	lr_theme_builtin_default(t);
	return rc;
}

static int read_file(const char *path, char **out, size_t *len)
{
	size_t cap = LR_THEME_FILE_MAX + 1, n = 0;
	char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		err = -ENOMEM;
		goto err_close;
	}
	while (n < cap) {
		ssize_t r = read(fd, buf + n, cap - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			goto err_free;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*out = buf;
	*len = n;
	return 0;
err_free:
	free(buf);
err_close:
	close(fd);
	return err;
}

/* The search directories in order; returns how many were filled. */
struct theme_dir {
	char path[512];
};

static int theme_dirs(struct theme_dir dirs[3])
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int n = 0;

	if (xdg && xdg[0] == '/')
		snprintf(dirs[n++].path, sizeof(dirs[0].path), "%s/linerate/themes", xdg);
	else if (home && home[0] == '/')
		snprintf(dirs[n++].path, sizeof(dirs[0].path), "%s/.config/linerate/themes", home);
	snprintf(dirs[n++].path, sizeof(dirs[0].path), "%s", LR_THEMEDIR);
	snprintf(dirs[n++].path, sizeof(dirs[0].path), "themes");
	return n;
}

static bool is_path(const char *s)
{
	size_t l = strlen(s);

	return strchr(s, '/') || (l > 6 && !strcmp(s + l - 6, ".theme"));
}

static bool valid_name(const char *s)
{
	if (!s[0] || strlen(s) >= LR_THEME_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '_' || *s == '.'))
			return false;
	return true;
}

static int load_path(struct lr_theme *t, const char *path, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = read_file(path, &buf, &len);

	if (rc) {
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		lr_theme_builtin_default(t);
		return rc;
	}
	rc = lr_theme_parse(t, buf, len, path, err, errlen);
	free(buf);
	return rc;
}

int lr_theme_load(struct lr_theme *t, const char *name_or_path, char *err, size_t errlen)
{
	struct theme_dir dirs[3];
	int n;

	if (err && errlen)
		err[0] = '\0';
	if (!name_or_path || !name_or_path[0])
		name_or_path = "default";
	if (is_path(name_or_path))
		return load_path(t, name_or_path, err, errlen);
	if (!valid_name(name_or_path)) {
		if (err && errlen)
			snprintf(err, errlen, "theme '%.64s': not a valid theme name", name_or_path);
		lr_theme_builtin_default(t);
		return -EINVAL;
	}
	n = theme_dirs(dirs);
	for (int i = 0; i < n; i++) {
		char path[sizeof(dirs[0].path) + LR_THEME_NAME_MAX + 8];

		if (snprintf(path, sizeof(path), "%s/%s.theme", dirs[i].path, name_or_path) >=
		    (int)sizeof(path))
			continue;
		if (access(path, R_OK) == 0)
			return load_path(t, path, err, errlen);
	}
	if (!strcmp(name_or_path, "default")) {
		lr_theme_builtin_default(t);
		return 0;
	}
	if (!strcmp(name_or_path, "mono")) {
		lr_theme_builtin_mono(t);
		return 0;
	}
	if (err && errlen)
		snprintf(err, errlen, "theme '%s' not found in %s, %s, %s", name_or_path,
			 dirs[0].path, n > 1 ? dirs[1].path : "", n > 2 ? dirs[2].path : "");
	lr_theme_builtin_default(t);
	return -ENOENT;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

size_t lr_theme_list(char (*names)[LR_THEME_NAME_MAX], size_t max)
{
	struct theme_dir dirs[3];
	int nd = theme_dirs(dirs);
	size_t n = 0;

	if (max == 0)
		return 0;
	lr_strlcpy(names[n++], "default", LR_THEME_NAME_MAX);
	for (int i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i].path);
		struct dirent *e;

		if (!d)
			continue;
		while ((e = readdir(d)) && n < max) {
			char nm[LR_THEME_NAME_MAX];
			size_t l = strlen(e->d_name);
			bool dup = false;

			if (l <= 6 || l - 6 >= sizeof(nm) || strcmp(e->d_name + l - 6, ".theme"))
				continue;
			memcpy(nm, e->d_name, l - 6);
			nm[l - 6] = '\0';
			if (!valid_name(nm))
				continue;
			for (size_t k = 0; k < n; k++)
				dup = dup || !strcmp(names[k], nm);
			if (!dup)
				lr_strlcpy(names[n++], nm, LR_THEME_NAME_MAX);
		}
		closedir(d);
	}
	if (n > 2)
		qsort(names + 1, n - 1, sizeof(names[0]), name_cmp);
	return n;
}
