# linerate — plain Makefile (STYLE.md). `make help` lists the targets.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
CC      ?= cc
CFLAGS  ?= -O2 -g	# users and asan/tsan override this; the project's own flags stay in LR_CFLAGS
LDFLAGS ?=
B       ?= build
WERROR  ?= 1
FUZZ_SECONDS ?= 30
MUTATIONS ?= tests/mutations.tsv

PKGS      = libnl-3.0 libnl-route-3.0 libnl-genl-3.0 jansson libmicrohttpd libcrypto
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) ncursesw 2>/dev/null)
# libmicrohttpd and libcrypto are dlopen()ed when --listen or authentication first needs them
# (src/run/metrics_http.c, src/traffic/crypto_dl.c): headers only, not linked
PKG_LIBS   := $(shell pkg-config --libs $(filter-out libmicrohttpd libcrypto,$(PKGS)) 2>/dev/null)
CURSES_LIBS := $(shell pkg-config --libs ncursesw 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

WARN = -Wall -Wextra -Wvla -Wshadow -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes \
       -Wformat=2 -Wundef -Wwrite-strings -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN += -Werror
endif
LR_CFLAGS = -std=c11 -D_GNU_SOURCE -Iinclude $(PKG_CFLAGS) $(WARN) -pthread \
	    -DLR_THEMEDIR='"$(DATADIR)/linerate/themes"'
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)
ifeq ($(V),1)
Q =
else
Q = @
endif

# The binary's glue and the only curses file stay out of the library: test binaries link
# liblinerate.a without -lncursesw, so curses leaking into data code breaks their link.
APP_SRCS = src/app/main.c src/app/mode_dashboard.c src/app/mode_replay.c src/present/tui_curses.c
ALL_SRCS = $(wildcard src/*.c src/*/*.c)
LIB_SRCS = $(filter-out $(APP_SRCS),$(ALL_SRCS))
LIB_OBJS = $(LIB_SRCS:src/%.c=$(B)/%.o)
APP_OBJS = $(patsubst src/%.c,$(B)/%.o,$(filter $(APP_SRCS),$(ALL_SRCS)))
LIB      = $(B)/liblinerate.a

TEST_SRCS  = $(wildcard tests/unit/test_*.c)
FAKE_SRCS  = $(wildcard tests/unit/fakes/*.c)
FAKE_OBJS  = $(FAKE_SRCS:tests/unit/%.c=$(B)/tests/%.o)
TEST_BINS  = $(TEST_SRCS:tests/unit/%.c=$(B)/tests/%)
# Small programs the shell tests drive (built with the same flags, sanitizers included).
TOOL_BINS  = $(patsubst tests/tools/%.c,$(B)/tools/%,$(wildcard tests/tools/*.c))
FUZZ_SRCS  = $(wildcard tests/fuzz/fuzz_*.c)

.PHONY: all test test-unit test-all asan tsan fuzz bench lint check-layers install uninstall \
	clean help valgrind clang soak format-check
.PHONY: bench-classify bench-queues mutate bins
all: linerate

linerate: $(B)/linerate
	@cp $< $@

$(B)/linerate: $(APP_OBJS) $(LIB)
	@$(if $(Q),echo '  LD      $@')
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $(APP_OBJS) $(LIB) $(PKG_LIBS) $(CURSES_LIBS) -lm

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

# Only version.o carries the version; it is rebuilt when `git describe` changes.
$(B)/version.stamp: FORCE
	@mkdir -p $(@D)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@
$(B)/core/version.o: $(B)/version.stamp
$(B)/core/version.o: LR_CFLAGS += -DLR_VERSION='"$(VERSION)"'
.PHONY: FORCE
FORCE:

$(B)/%.o: src/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo '  CC      $<')
	$(Q)$(CC) $(LR_CFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tests/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo '  CC      $<')
	$(Q)$(CC) $(LR_CFLAGS) -Itests/unit $(CFLAGS) -MMD -MP -c -o $@ $<

# Test binaries: liblinerate.a + libnl + jansson + cmocka, by design no -lncursesw.
$(B)/tests/test_%: $(B)/tests/test_%.o $(FAKE_OBJS) $(LIB)
	@$(if $(Q),echo '  LD      $@')
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $< $(FAKE_OBJS) $(LIB) $(PKG_LIBS) $(CMOCKA_LIBS) -lm

$(B)/tools/%: tests/tools/%.c $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo '  LD      $@')
	$(Q)$(CC) $(LR_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) -lm

test-unit: $(TEST_BINS) $(B)/linerate
	@LR_BUILD=$(B) tests/run.sh --unit $(TEST_BINS)

# Unit tests, then the integration, tui and interop scripts (root-only ones skip when not root).
# UNIT= builds the unit binaries without running them (test-all's gcc stage: ASan runs them).
UNIT ?= $(TEST_BINS)
test: $(TEST_BINS) $(TOOL_BINS) $(B)/linerate
	@LR_BUILD=$(B) tests/run.sh $(UNIT)

# Everything CI runs: gcc and clang with -Werror, the suite, sanitizers, valgrind, fuzz, lint.
test-all:
	@scripts/test-all.sh

asan:
	$(MAKE) B=build-asan CFLAGS='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
		LDFLAGS='-fsanitize=address,undefined' $(if $(T),$(T),test)
# (sanitizer builds never touch ./linerate: scripts run $(B)/linerate through LR_BUILD)

tsan:
	$(MAKE) B=build-tsan CC=clang CFLAGS='-O1 -g -fsanitize=thread' LDFLAGS='-fsanitize=thread' \
		$(if $(T),$(T),test-unit)

clang:
	$(MAKE) B=build-clang CC=clang all $(TEST_BINS:$(B)/%=build-clang/%)

# The binary and every unit binary, nothing run (test-all's clang -Werror stage: `make tsan
# T=bins` is that build with TSan's flags, which stage-tsan then reuses).
bins: $(B)/linerate $(TEST_BINS)

fuzz:
	@scripts/fuzz.sh $(FUZZ_SECONDS)

bench: linerate
	@bench/run.sh

# The classifier's score on driver counter names its rules were not written from (a benchmark,
# never asserted: tests/fixtures/ethtool-unseen2/README.md); both sets, section of RESULTS.md.
$(B)/bench/classify_unseen: bench/classify_unseen.c $(LIB)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LR_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) -lm

bench-classify: $(B)/bench/classify_unseen
	@LR_CLASSIFY_BIN=$< bench/classify_unseen.sh

# The per-queue view's cost at 1152 CPUs, 4 x 94 queues, mlx5-sized counter sets (issue 15).
$(B)/bench/queues_scale: bench/queues_scale.c $(LIB) $(B)/tests/fakes/fake_sysio.o
	@mkdir -p $(@D)
	$(Q)$(CC) $(LR_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/tests/fakes/fake_sysio.o $(LIB) \
		$(PKG_LIBS) -lm

bench-queues: $(B)/bench/queues_scale
	@$<

# The sampler's CPU per tick on generated trees of 2..1024 CPUs x 1..64 interfaces (issue 33);
# bench/run.sh builds and runs it (part "scale").
$(B)/bench/sampler_scale: bench/sampler_scale.c $(LIB)
	@mkdir -p $(@D)
	$(Q)$(CC) $(LR_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) -lm

# Mutation testing (docs/design.md §15): each mutation of MUTATIONS applied to a scratch copy of
# the tree and its build/, rebuilt, and the checks tests/mutations.map gives the file run until
# one fails: killed or survived, then "N killed, N survived". `make test-all` runs the whole
# tests/mutations.tsv (scripts/stage-mutate.sh); under CI=true (.ci/run) only the sample
# tests/mutations-ci.tsv, which the 30-minute budget holds.
mutate:
	@scripts/mutate.sh $(MUTATIONS)

valgrind:
	@LR_BUILD=$(B) scripts/stage-valgrind.sh

# 10 minutes at -i 0.01 with traffic and interfaces churning (CI runs 120 s of it, scripts/stage-soak.sh).
soak: $(B)/linerate
	@LR_BUILD=$(B) LR_SOAK_RESULTS=$(SOAK_RESULTS) scripts/soak.sh $(or $(SOAK_SECONDS),600)

# What CI gates: cppcheck and clang-tidy with the checks listed in .clang-tidy.
lint:
	@scripts/stage-lint.sh && scripts/stage-tidy.sh

# Kernel formatting per .clang-format (not gated: the tree predates part of it).
format-check:
	clang-format --dry-run -Werror $(ALL_SRCS) $(wildcard include/linerate/*/*.h)

# docs/design.md §2's layer table (core <- collect <- sample <- diagnose <- run <- app,
# diagnose <- present <- app, core <- traffic), read from the compiler's own dependency lists:
# any dependency against the table, a header outside a layer folder or curses outside
# tui_curses.c fails. tests/selftest/layers.sh proves it catches each spelling.
check-layers:
	@scripts/check-layers.sh

install: all
	install -Dm755 linerate $(DESTDIR)$(BINDIR)/linerate
	install -d $(DESTDIR)$(DATADIR)/linerate/themes
	install -m644 themes/*.theme $(DESTDIR)$(DATADIR)/linerate/themes/
	install -Dm644 man/linerate.1 $(DESTDIR)$(MANDIR)/man1/linerate.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/linerate $(DESTDIR)$(MANDIR)/man1/linerate.1
	rm -rf $(DESTDIR)$(DATADIR)/linerate

clean:
	rm -rf build build-* linerate

help:
	@echo 'all          build ./linerate'
	@echo 'test         unit tests + integration/tui/interop scripts (root-only parts skip otherwise)'
	@echo 'test-unit    cmocka unit tests only'
	@echo 'test-all     what CI runs: gcc+clang -Werror, test, asan, tsan, valgrind, fuzz, lint'
	@echo 'asan / tsan  sanitizer builds in build-asan/ build-tsan/, then their tests (T=target)'
	@echo 'bins         the binary and every unit binary, nothing run (make tsan T=bins)'
	@echo 'fuzz         libFuzzer targets, FUZZ_SECONDS=$(FUZZ_SECONDS) each'
	@echo 'bench        side-by-side benchmarks, results in bench/RESULTS.md'
	@echo 'bench-classify  classifier score on driver counter names it was not written from'
	@echo 'soak         10 minutes: -i 0.01 with churn, and both ends (dashboard -s, a --matrix client) (SOAK_SECONDS=600)'
	@echo 'valgrind     memcheck on headless and client/server runs'
	@echo 'lint         cppcheck and clang-tidy (what CI gates); format-check: clang-format'
	@echo 'check-layers the layer table of docs/design.md §2, from the compiler'
	@echo 'mutate       each mutation of MUTATIONS=$(MUTATIONS) killed by a check, or not'
	@echo 'install      PREFIX=$(PREFIX) DESTDIR= ; uninstall'
	@echo 'V=1          print the full compiler commands'

.SECONDARY:

-include $(shell find $(B) -name '*.d' 2>/dev/null)
