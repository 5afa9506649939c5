#!/usr/bin/env bash
# scripts/check-layers.sh must pass on the tree and fail on every kind of breach: each case
# copies src/ and include/ to a scratch tree, injects one upward include (or curses, or a
# header outside a layer folder) and expects the check to name it.
. "$(dirname "$0")/../lib.sh"
check_sh=$LR_TOP/scripts/check-layers.sh
scratch=$(mktemp -d)
lr_cleanup_add "rm -rf $scratch"

if out=$(bash "$check_sh" "$LR_TOP" 2>&1); then
	pass "layers: the tree passes"
else
	fail "layers: the tree passes" "$out"
fi

# inject FILE LINE: the check over the scratch copy must fail and name FILE
inject() {
	local name=$1 file=$2 line=$3
	rm -rf "$scratch/t"
	mkdir -p "$scratch/t"
	cp -r "$LR_TOP/src" "$LR_TOP/include" "$scratch/t/"
	printf '%s\n' "$line" >>"$scratch/t/$file"
	if out=$(bash "$check_sh" "$scratch/t" 2>&1); then
		fail "layers: $name is caught" "check passed"
	elif grep -q "$file" <<<"$out"; then
		pass "layers: $name is caught"
	else
		fail "layers: $name is caught" "message does not name $file: $out"
	fi
}

inject "collect including sample" src/collect/cpu.c '#include "linerate/sample/snapshot.h"'
inject "sample including traffic" src/sample/gencol.c '#include "linerate/traffic/stream.h"'
inject "traffic including collect" src/traffic/client.c '#include "linerate/collect/cpu.h"'
inject "core including collect" include/linerate/core/common.h '#include "linerate/collect/cpu.h"'
inject "present including app" src/present/csv.c '#include "linerate/app/config.h"'
inject "an include naming no layer" src/sample/rate.c '#include "linerate/rate.h"'
inject "curses outside tui_curses.c" src/present/frame.c '#include <ncurses.h>'
# a header dropped outside the layer folders
rm -rf "$scratch/t"; mkdir -p "$scratch/t"; cp -r "$LR_TOP/src" "$LR_TOP/include" "$scratch/t/"
: >"$scratch/t/include/linerate/loose.h"
if out=$(bash "$check_sh" "$scratch/t" 2>&1); then
	fail "layers: a header outside the layer folders is caught" "check passed"
else
	check "layers: a header outside the layer folders is caught" grep -q loose.h <<<"$out"
fi
lr_summary
