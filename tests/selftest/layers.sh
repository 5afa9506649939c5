#!/usr/bin/env bash
# scripts/check-layers.sh must pass on the tree and fail on every kind of breach. The breaches
# are injected, each into a file of its own, into one scratch copy of src/ and include/ (with
# the layers diagnose and run added when the tree has none yet), and the check runs once over
# it, not once per case (25 runs of ~5 s each): each case is its own line of the output, and
# the output has no line no case explains (a bad header is named once, not in every includer).
# Files that include only what the table allows, in the new layers too, must not be named.
. "$(dirname "$0")/../lib.sh"
check_sh=$LR_TOP/scripts/check-layers.sh
scratch=$(mktemp -d)
lr_cleanup_add "rm -rf $scratch"

show() {	# a check's output, under the FAIL lines
	local l
	while IFS= read -r l; do printf '    | %s\n' "$l"; done <<<"$1"
}
if out=$(bash "$check_sh" "$LR_TOP" 2>&1); then
	pass "layers: the tree passes"
else
	fail "layers: the tree passes" "$(wc -l <<<"$out") lines:"
	show "$out"
fi

t=$scratch/t
mkdir -p "$t"
cp -r "$LR_TOP/src" "$LR_TOP/include" "$t/"
names=() expects=()
# add NAME FILE TEXT EXPECT: TEXT appended to FILE (made when missing); the output must have a
# line starting "layers: EXPECT"
add() {
	mkdir -p "$(dirname "$t/$2")"
	printf '%s\n' "$3" >>"$t/$2"
	names+=("$1") expects+=("$4")
}
# ok FILE TEXT: a file the check must not name
oks=()
ok() {
	mkdir -p "$(dirname "$t/$1")"
	printf '%s\n' "$2" >>"$t/$1"
	oks+=("$1")
}

# the layers main is adding, when this tree has none yet: a header and a file each, allowed
ok include/linerate/diagnose/layers_selftest.h '#include "linerate/core/common.h"
#include "linerate/collect/cpu.h"
#include "linerate/sample/rate.h"
#include "linerate/traffic/proto.h"'
ok src/diagnose/layers_selftest.c '#include "linerate/diagnose/layers_selftest.h"'
ok include/linerate/run/layers_selftest.h '#include "linerate/diagnose/layers_selftest.h"'
ok src/run/layers_selftest.c '#include "linerate/run/layers_selftest.h"
#include <linerate/sample/board.h>'
ok src/present/view_hints.c '#include "linerate/diagnose/layers_selftest.h"'
ok src/app/cli.c '#include "linerate/run/layers_selftest.h"
#include "linerate/present/frame.h"'

# an upward include in each spelling (present may not include app)
add "upward include, quoted" src/present/theme.c '#include "linerate/app/config.h"' \
	"src/present/theme.c: present includes app (include/linerate/app/config.h)"
add "upward include, angle brackets" src/present/explain.c '#include <linerate/app/cli.h>' \
	"src/present/explain.c: present includes app (include/linerate/app/cli.h)"
add "upward include, ../ path" src/present/lineout.c \
	'#include "../../include/linerate/app/run.h"' \
	"src/present/lineout.c: present includes app (include/linerate/app/run.h)"
add "upward include, #  include" src/present/runsum.c '#  include "linerate/app/server_app.h"' \
	"src/present/runsum.c: present includes app (include/linerate/app/server_app.h)"
add "upward include, through a macro" src/present/sar_text.c '#define LR_HDR(x) <linerate/app/x>
#include LR_HDR(cli_iperf3.h)' \
	"src/present/sar_text.c: present includes app (include/linerate/app/cli_iperf3.h)"
add "another layer's private header by ../" src/present/matrix_out.c \
	'#include "../app/dashboard_priv.h"' \
	"src/present/matrix_out.c: includes src/app/dashboard_priv.h, private to src/app/"
add "another folder's private header, from app" src/app/mode_report.c \
	'#include "../present/prom_priv.h"' \
	"src/app/mode_report.c: includes src/present/prom_priv.h, private to src/present/"
add "upward include in a header" include/linerate/present/lineout.h \
	'#include "linerate/app/cli.h"' \
	"include/linerate/present/lineout.h: present includes app (include/linerate/app/cli.h)"
# the table's pairs
add "present including run" src/present/view_fmt.c '#include "linerate/run/layers_selftest.h"' \
	"src/present/view_fmt.c: present includes run (include/linerate/run/layers_selftest.h)"
add "run including present" src/run/layers_selftest_bad.c '#include "linerate/present/frame.h"' \
	"src/run/layers_selftest_bad.c: run includes present (include/linerate/present/frame.h)"
add "diagnose including run" src/diagnose/layers_selftest_bad.c \
	'#include "linerate/run/layers_selftest.h"' \
	"src/diagnose/layers_selftest_bad.c: diagnose includes run (include/linerate/run/layers_selftest.h)"
add "collect including sample" src/collect/cpu.c '#include "linerate/sample/board.h"' \
	"src/collect/cpu.c: collect includes sample (include/linerate/sample/board.h)"
add "sample including traffic" src/sample/gencol.c '#include "linerate/traffic/stream.h"' \
	"src/sample/gencol.c: sample includes traffic (include/linerate/traffic/stream.h)"
add "traffic including collect" src/traffic/client.c '#include "linerate/collect/route.h"' \
	"src/traffic/client.c: traffic includes collect (include/linerate/collect/route.h)"
add "core including collect" src/core/clock.c '#include "linerate/collect/nldump.h"' \
	"src/core/clock.c: core includes collect (include/linerate/collect/nldump.h)"
# included by src/core/strutil.c and others: named once, for the header
add "core header including collect" include/linerate/core/strutil.h \
	'#include "linerate/collect/procnet.h"' \
	"include/linerate/core/strutil.h: core includes collect (include/linerate/collect/procnet.h)"
# curses
add "curses outside tui_curses.c" src/present/frame.c '#include <ncurses.h>' \
	"src/present/frame.c: present includes curses ("
add "curses by its ncursesw/ path" src/core/version.c '#include <ncursesw/curses.h>' \
	"src/core/version.c: core includes curses ("
add "curses in a header" include/linerate/present/tui.h '#include <curses.h>' \
	"include/linerate/present/tui.h: present includes curses ("
# the tree's shape
add "a header outside the layer folders" include/linerate/loose.h '' \
	"include/linerate/loose.h: in no layer folder"
add "a header under include/ outside linerate/" include/other.h '' \
	"include/other.h: in no layer folder"
add "including a header outside the layer folders" src/sample/rate.c \
	'#include "linerate/loose.h"' \
	"src/sample/rate.c: sample includes a file in no layer (include/linerate/loose.h)"
add "a src folder that is not a layer" src/extra/x.c '#include "linerate/core/common.h"' \
	"src/extra/: not a layer"
add "an include folder that is not a layer" include/linerate/extra/x.h '' \
	"include/linerate/extra/: not a layer"
add "a file directly in src/" src/stray.c '' "src/stray.c: in no layer folder"
add "an include the compiler cannot find" src/traffic/pacer.c '#include "linerate/rate.h"' \
	"src/traffic/pacer.c: no dependency list ("

fails=$LR_FAILS
if out=$(bash "$check_sh" "$t" 2>&1); then
	fail "layers: the breaches fail the check" "it passed"
else
	pass "layers: the breaches fail the check"
fi
starts() {	# starts PREFIX: a line of $out starts with PREFIX
	local line
	while IFS= read -r line; do [[ $line == "$1"* ]] && return 0; done <<<"$out"
	return 1
}
for i in "${!names[@]}"; do
	if starts "layers: ${expects[i]}"; then
		pass "layers: ${names[i]} is caught"
	else
		fail "layers: ${names[i]} is caught" "no line 'layers: ${expects[i]}'"
	fi
done
named=
for f in "${oks[@]}"; do
	grep -qF -- "layers: $f:" <<<"$out" && named+=" $f"
done
if [ -z "$named" ]; then
	pass "layers: files the table allows are not named"
else
	fail "layers: files the table allows are not named" "named:$named"
fi
extra=$(while IFS= read -r line; do
	for e in "${expects[@]}"; do [[ $line == "layers: $e"* ]] && continue 2; done
	echo "$line"
done <<<"$out")
if [ -z "$extra" ]; then
	pass "layers: no other line"
else
	fail "layers: no other line" "$(wc -l <<<"$extra") more, the first: $(head -n1 <<<"$extra")"
fi
[ "$LR_FAILS" -eq "$fails" ] || show "$out"
lr_summary
