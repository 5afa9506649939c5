// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The only file that includes curses. It does three things: terminal setup with colour pairs
 * from a theme (mono without colours or with NO_COLOR), blitting frames by sending only the
 * cells that changed since the last blit, and mapping keys to enum lr_action. Main thread.
 * Owns the curses screen; one static pointer lets the exit/fatal-signal hook restore it.
 */
#include <errno.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>
#include <term.h>

#include "linerate/present/frame.h"
#include "linerate/present/theme.h"
#include "linerate/present/tui.h"

#define RUN_MAX 512	/* cells per addnwstr call */

struct lr_tui {
	SCREEN *screen;
	int in_fd, out_fd;
	bool colors;		/* the terminal can do colour pairs for every role */
	bool default_colors;	/* use_default_colors() worked: -1 means the terminal's own */
	attr_t attr[LR_ROLE__COUNT];
	short pair[LR_ROLE__COUNT];
	struct lr_frame prev;	/* what the terminal shows now */
	bool full;		/* repaint everything at the next blit */
};

/* The restore hook's view of the open TUI (atexit and fatal signals take no argument). */
static struct lr_tui *lr_tui_active;
static struct termios lr_tui_saved_tios;
static bool lr_tui_saved_ok;

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

void lr_tui_restore(void)
{
	if (!lr_tui_active)
		return;
	endwin();
	lr_tui_active = NULL;
}

static void at_exit_restore(void)
{
	lr_tui_restore();
}

/* Async-signal-safe: put the tty modes back and leave the alternate screen, then die as the
 * signal meant. */
static void on_fatal(int sig)
{
	static const char seq[] = "\033[0m\033[?25h\033[?1049l\r\n";

	if (lr_tui_saved_ok) {
		tcsetattr(STDIN_FILENO, TCSANOW, &lr_tui_saved_tios);
		if (write(STDOUT_FILENO, seq, sizeof(seq) - 1) < 0)
			_exit(128 + sig);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

bool lr_tui_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

/* The dashboard draws by moving the cursor: a terminal without cursor addressing cannot. */
static bool can_address_cursor(void)
{
	char cap[] = "cup";
	const char *cup = tigetstr(cap);

	return cup && cup != (const char *)-1;
}

int lr_tui_open(struct lr_tui **out)
{
	static bool hooked;
	struct lr_tui *t;
	const char *no_color = getenv("NO_COLOR");

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -ENOTTY;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->in_fd = STDIN_FILENO;
	t->out_fd = STDOUT_FILENO;
	lr_frame_init(&t->prev);
	lr_tui_saved_ok = tcgetattr(STDIN_FILENO, &lr_tui_saved_tios) == 0;
	t->screen = newterm(NULL, stdout, stdin);
	if (!t->screen) {	/* TERM names no terminal in the terminfo database */
		free(t);
		return -ENOENT;
	}
	set_term(t->screen);
	if (!can_address_cursor()) {	/* TERM=dumb and the like: a blank screen otherwise */
		endwin();
		delscreen(t->screen);
		free(t);
		return -EOPNOTSUPP;
	}
	/* Until a screen has been through one endwin/doupdate cycle, ncurses flushes its output
	 * after every cursor move (its "never suspended" state is also how a bare terminfo
	 * program is told apart): ~40 write()s a frame to the terminal instead of one. One
	 * endwin now puts it in the running state at the first frame's doupdate. */
	endwin();
	lr_tui_active = t;
	if (!hooked) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal;
		sa.sa_flags = (int)SA_RESETHAND;
		sigemptyset(&sa.sa_mask);
		for (size_t i = 0; i < LR_ARRAY_SIZE(fatal_signals); i++)
			sigaction(fatal_signals[i], &sa, NULL);
		atexit(at_exit_restore);
		hooked = true;
	}
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	/* no typeahead check during an update: ncurses would poll() the keyboard about three
	 * times a frame to abandon a refresh for a key, and the main loop reads keys anyway */
	typeahead(-1);
	set_escdelay(25);
	curs_set(0);
	if (has_colors() && !(no_color && no_color[0])) {
		start_color();
		t->default_colors = use_default_colors() == OK;
		t->colors = COLOR_PAIRS > LR_ROLE__COUNT && COLORS >= 8;
	}
	t->full = true;
	*out = t;
	return 0;
}

void lr_tui_close(struct lr_tui *t)
{
	if (!t)
		return;
	if (lr_tui_active == t)
		lr_tui_restore();
	delscreen(t->screen);
	lr_frame_free(&t->prev);
	free(t);
}

static attr_t attrs_of(uint8_t a)
{
	attr_t r = A_NORMAL;

	if (a & LR_ATTR_BOLD)
		r |= A_BOLD;
	if (a & LR_ATTR_DIM)
		r |= A_DIM;
	if (a & LR_ATTR_REVERSE)
		r |= A_REVERSE;
	if (a & LR_ATTR_UNDERLINE)
		r |= A_UNDERLINE;
	return r;
}

/* A theme colour on this terminal: bright colours beyond COLORS become bold base colours,
 * 256-colour entries on an 8-colour terminal the default. */
static short map_color(const struct lr_tui *t, int c, bool fg, attr_t *extra)
{
	if (c < 0)
		return t->default_colors ? -1 : (short)(fg ? COLOR_WHITE : COLOR_BLACK);
	if (c < COLORS)
		return (short)c;
	if (c < 16) {
		if (fg)
			*extra |= A_BOLD;
		return (short)(c - 8);
	}
	return t->default_colors ? -1 : (short)(fg ? COLOR_WHITE : COLOR_BLACK);
}

bool lr_tui_set_theme(struct lr_tui *t, const struct lr_theme *theme)
{
	struct lr_theme mono;

	if (!t->colors) {
		lr_theme_builtin_mono(&mono);
		theme = &mono;
	}
	for (int r = 0; r < LR_ROLE__COUNT; r++) {
		const struct lr_style *s = &theme->role[r];
		attr_t extra = A_NORMAL;

		t->attr[r] = attrs_of(s->attrs);
		t->pair[r] = 0;
		if (t->colors && r != LR_ROLE_NONE) {
			short fg = map_color(t, s->fg, true, &extra);
			short bg = map_color(t, s->bg, false, &extra);

			init_pair((short)r, fg, bg);
			t->pair[r] = (short)r;
			t->attr[r] |= extra;
		}
	}
	lr_tui_invalidate(t);
	return t->colors;
}

void lr_tui_size(const struct lr_tui *t, int *w, int *h)
{
	int y, x;

	(void)t;
	getmaxyx(stdscr, y, x);
	*w = x;
	*h = y;
}

void lr_tui_invalidate(struct lr_tui *t)
{
	t->full = true;
}

/* Writes cells [x0, x1) of row y, one addnwstr per run of the same role. */
static void put_run(struct lr_tui *t, const struct lr_frame *f, int y, int x0, int x1)
{
	wchar_t buf[RUN_MAX + 1];

	while (x0 < x1) {
		const struct lr_cell *c = lr_frame_at(f, x0, y);
		uint8_t role = c->role < LR_ROLE__COUNT ? c->role : LR_ROLE_NONE;
		int n = 0;

		while (x0 + n < x1 && n < RUN_MAX) {
			const struct lr_cell *d = lr_frame_at(f, x0 + n, y);

			if (d->role != c->role)
				break;
			buf[n++] = (wchar_t)d->cp;
		}
		buf[n] = L'\0';
		attr_set(t->attr[role], t->pair[role], NULL);
		/* the bottom-right cell makes curses report ERR (the cursor cannot move on);
		 * the cell is still drawn */
		mvaddnwstr(y, x0, buf, n);
		x0 += n;
	}
}

int lr_tui_blit(struct lr_tui *t, const struct lr_frame *f)
{
	struct lr_frame_run run;
	size_t pos = 0;
	int cells = 0;
	bool full = t->full || t->prev.w != f->w || t->prev.h != f->h;

	if (full) {
		clearok(curscr, TRUE);
		erase();
	}
	while (lr_frame_diff_next(full ? NULL : &t->prev, f, &pos, &run)) {
		put_run(t, f, run.y, run.x0, run.x1);
		cells += run.x1 - run.x0;
	}
	attr_set(A_NORMAL, 0, NULL);
	wnoutrefresh(stdscr);
	doupdate();
	if (lr_frame_copy(&t->prev, f))
		t->full = true;	/* no memory for the copy: repaint all next time */
	else
		t->full = false;
	return cells;
}

int lr_tui_input_fd(const struct lr_tui *t)
{
	return t->in_fd;
}

bool lr_tui_read_key(struct lr_tui *t, enum lr_action *act)
{
	int ch = getch();

	(void)t;
	if (ch == ERR)
		return false;
	switch (ch) {
	case KEY_RIGHT:
		*act = LR_ACT_NEXT_IFACE;
		break;
	case KEY_LEFT:
	case KEY_BTAB:
		*act = LR_ACT_PREV_IFACE;
		break;
	case KEY_UP:
		*act = LR_ACT_UP;
		break;
	case KEY_DOWN:
		*act = LR_ACT_DOWN;
		break;
	case KEY_ENTER:
		*act = LR_ACT_ENTER;
		break;
	case KEY_RESIZE:
		*act = LR_ACT_RESIZE;
		break;
	default:
		*act = ch >= 0 && ch < 128 ? lr_ui_key(ch) : LR_ACT_NONE;
		break;
	}
	return true;
}
