// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Theme files: every shipped theme parses, themes/default.theme matches the built-in
 * default, broken files give exact "file:line: message" errors and fall back to the default,
 * and the loader searches $XDG_CONFIG_HOME, then LR_THEMEDIR, then ./themes.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "linerate/present/theme.h"

static int parse(struct lr_theme *t, const char *text, char *err, size_t errlen)
{
	return lr_theme_parse(t, text, strlen(text), "x.theme", err, errlen);
}

static void assert_same_theme(const struct lr_theme *a, const struct lr_theme *b)
{
	for (int r = 0; r < LR_ROLE__COUNT; r++) {
		if (a->role[r].fg != b->role[r].fg || a->role[r].bg != b->role[r].bg ||
		    a->role[r].attrs != b->role[r].attrs)
			fail_msg("role %s differs", r ? lr_role_name(r) : "none");
	}
}

static void test_shipped_themes_parse(void **state)
{
	DIR *d = opendir("themes");
	struct dirent *e;
	int n = 0;

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[300], err[LR_THEME_ERR_MAX], *buf;
		struct lr_theme t;
		FILE *f;
		long len;
		int set = 0;

		if (!strstr(e->d_name, ".theme"))
			continue;
		snprintf(path, sizeof(path), "themes/%s", e->d_name);
		f = fopen(path, "rb");
		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		buf = malloc((size_t)len);
		assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
		fclose(f);
		if (lr_theme_parse(&t, buf, (size_t)len, path, err, sizeof(err)))
			fail_msg("%s: %s", path, err);
		free(buf);
		/* every role is spelled out in every shipped theme */
		for (int r = 1; r < LR_ROLE__COUNT; r++)
			set += t.role[r].fg != LR_COLOR_DEFAULT || t.role[r].bg != LR_COLOR_DEFAULT ||
			       t.role[r].attrs || strstr(path, "mono") != NULL;
		assert_true(set > LR_ROLE__COUNT / 2);
		assert_int_equal(strncmp(t.name, e->d_name, strlen(t.name)), 0);
		n++;
	}
	closedir(d);
	assert_true(n >= 5);
}

static void test_default_file_matches_builtin(void **state)
{
	struct lr_theme file, builtin;
	char err[LR_THEME_ERR_MAX];

	(void)state;
	assert_int_equal(lr_theme_load(&file, "themes/default.theme", err, sizeof(err)), 0);
	lr_theme_builtin_default(&builtin);
	assert_same_theme(&file, &builtin);
	assert_int_equal(lr_theme_load(&file, "themes/mono.theme", err, sizeof(err)), 0);
	lr_theme_builtin_mono(&builtin);
	assert_same_theme(&file, &builtin);
	assert_string_equal(file.name, "mono");
}

static void test_syntax(void **state)
{
	struct lr_theme t;
	char err[LR_THEME_ERR_MAX];

	(void)state;
	assert_int_equal(parse(&t,
			       "# comment\n\n  title = bright-white on 17 bold underline # why\r\n"
			       "alert=red reverse\nborder = 244\nlabel = default dim\n",
			       err, sizeof(err)),
			 0);
	assert_int_equal(t.role[LR_ROLE_TITLE].fg, 15);
	assert_int_equal(t.role[LR_ROLE_TITLE].bg, 17);
	assert_int_equal(t.role[LR_ROLE_TITLE].attrs, LR_ATTR_BOLD | LR_ATTR_UNDERLINE);
	assert_int_equal(t.role[LR_ROLE_ALERT].fg, 1);
	assert_int_equal(t.role[LR_ROLE_ALERT].attrs, LR_ATTR_REVERSE);
	assert_int_equal(t.role[LR_ROLE_BORDER].fg, 244);
	assert_int_equal(t.role[LR_ROLE_BORDER].bg, LR_COLOR_DEFAULT);
	assert_int_equal(t.role[LR_ROLE_LABEL].attrs, LR_ATTR_DIM);
	/* roles not named keep the terminal's colours */
	assert_int_equal(t.role[LR_ROLE_RX].fg, LR_COLOR_DEFAULT);
	assert_int_equal(t.role[LR_ROLE_RX].attrs, 0);
	assert_string_equal(t.name, "x");
	/* empty and comment-only files are fine */
	assert_int_equal(parse(&t, "", err, sizeof(err)), 0);
	assert_int_equal(parse(&t, "# nothing\n", err, sizeof(err)), 0);
	assert_string_equal(lr_role_name(LR_ROLE_GRAPH_TX), "graph_tx");
	assert_null(lr_role_name(LR_ROLE_NONE));
}

static void test_errors_are_exact(void **state)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"title = cyan\nfoo = red\n", "x.theme:2: unknown role 'foo'"},
		{"title cyan\n", "x.theme:1: expected 'role = colour [on colour] [attributes]'"},
		{"\n\ntitle =\n", "x.theme:3: missing colour after '='"},
		{"title = purple\n", "x.theme:1: unknown colour 'purple'"},
		{"title = 256\n", "x.theme:1: colour '256' out of range 0-255"},
		{"title = red on\n", "x.theme:1: missing colour after 'on'"},
		{"title = red on pink\n", "x.theme:1: unknown colour 'pink'"},
		{"title = red blink\n", "x.theme:1: unknown attribute 'blink' (bold, dim, reverse, "
					"underline)"},
		{"title = red\n# x\ntitle = blue\n",
		 "x.theme:3: role 'title' set twice (first on line 1)"},
		{"title = red bold dim reverse underline bold dim\n", "x.theme:1: too many words"},
		{"rx = -1\n", "x.theme:1: unknown colour '-1'"},
		{"rx = bright-\n", "x.theme:1: unknown colour 'bright-'"},
		{"Title = red\n", "x.theme:1: unknown role 'Title'"},
	};
	struct lr_theme t, def;
	char err[LR_THEME_ERR_MAX];

	(void)state;
	lr_theme_builtin_default(&def);
	for (size_t i = 0; i < LR_ARRAY_SIZE(cases); i++) {
		assert_int_equal(parse(&t, cases[i].text, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, cases[i].msg);
		assert_same_theme(&t, &def);	/* the default theme, not half a theme */
	}
	/* a NUL byte, an overlong line and a huge file */
	assert_int_equal(lr_theme_parse(&t, "title = red\nrx\0= red\n", 21, "n.theme", err,
					sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "n.theme:2: NUL byte in line");
	{
		char line[400];

		memset(line, 'a', sizeof(line) - 1);
		line[sizeof(line) - 1] = '\0';
		assert_int_equal(parse(&t, line, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "x.theme:1: line longer than 256 bytes");
	}
	assert_int_equal(lr_theme_parse(&t, "", LR_THEME_FILE_MAX + 1, "big.theme", err,
					sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "big.theme:0: file larger than 64 KiB");
	/* err may be NULL */
	assert_int_equal(parse(&t, "bogus\n", NULL, 0), -EINVAL);
}

static void test_load_broken_file(void **state)
{
	struct lr_theme t, def;
	char err[LR_THEME_ERR_MAX];

	(void)state;
	lr_theme_builtin_default(&def);
	assert_int_equal(lr_theme_load(&t, "tests/fixtures/themes/broken.theme", err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "tests/fixtures/themes/broken.theme:4: unknown colour 'purple'");
	assert_same_theme(&t, &def);
	assert_int_equal(lr_theme_load(&t, "tests/fixtures/themes/none.theme", err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, "tests/fixtures/themes/none.theme: No such file or directory");
	assert_int_equal(lr_theme_load(&t, "nosuchtheme", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "theme 'nosuchtheme' not found in "));
	assert_int_equal(lr_theme_load(&t, "bad name!", err, sizeof(err)), -EINVAL);
	assert_same_theme(&t, &def);
}

static void test_search_order(void **state)
{
	char dir[] = "/tmp/lr_theme_XXXXXX", sub[128], path[160], err[LR_THEME_ERR_MAX];
	char names[16][LR_THEME_NAME_MAX];
	struct lr_theme t;
	size_t n;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/linerate", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/linerate/themes", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(path, sizeof(path), "%s/light.theme", sub);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("title = magenta\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/mine.theme", sub);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("title = 200\n", f);
	fclose(f);

	/* ./themes when XDG has nothing */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	assert_int_equal(lr_theme_load(&t, "light", err, sizeof(err)), 0);
	assert_int_equal(t.role[LR_ROLE_TITLE].fg, 4);
	/* XDG first */
	setenv("XDG_CONFIG_HOME", dir, 1);
	assert_int_equal(lr_theme_load(&t, "light", err, sizeof(err)), 0);
	assert_int_equal(t.role[LR_ROLE_TITLE].fg, 5);
	assert_int_equal(lr_theme_load(&t, "mine", err, sizeof(err)), 0);
	assert_int_equal(t.role[LR_ROLE_TITLE].fg, 200);
	/* the list: default first, then sorted, each name once */
	n = lr_theme_list(names, 16);
	assert_true(n >= 6);
	assert_string_equal(names[0], "default");
	for (size_t i = 2; i < n; i++)
		assert_true(strcmp(names[i - 1], names[i]) < 0);
	assert_int_equal(lr_theme_list(names, 1), 1);

	unlink(path);
	snprintf(path, sizeof(path), "%s/light.theme", sub);
	unlink(path);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/linerate", dir);
	rmdir(sub);
	rmdir(dir);
	unsetenv("XDG_CONFIG_HOME");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_themes_parse),
		cmocka_unit_test(test_default_file_matches_builtin),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_errors_are_exact),
		cmocka_unit_test(test_load_broken_file),
		cmocka_unit_test(test_search_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
