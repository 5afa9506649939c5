#!/usr/bin/env bash
# The layering of docs/design.md §2, enforced: a file in src/LAYER/ or include/linerate/LAYER/
# may include only the headers of the layers below it (and its own). Every project include
# names its layer ("linerate/collect/cpu.h"); a header outside a layer folder fails too. Only
# src/present/tui_curses.c includes curses. Usage: check-layers.sh [ROOT]; exit 1 on any breach.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
declare -A allowed=(
	[core]="core"
	[collect]="core collect"
	[sample]="core collect sample"
	[traffic]="core traffic"
	[diagnose]="core collect sample traffic diagnose"
	[run]="core collect sample traffic diagnose run"
	[present]="core collect sample traffic diagnose present"
	[app]="core collect sample traffic diagnose run present app"
)
bad=0
breach() { echo "layers: $*"; bad=1; }

for h in "$root"/include/linerate/*.h; do
	[ -e "$h" ] && breach "${h#"$root"/} is in no layer folder"
done
# one grep over the tree (a grep per file made the layering selftest's 9 runs take 40 s)
while IFS=: read -r rel line inc; do
	layer=${rel#src/}; layer=${layer#include/linerate/}; layer=${layer%%/*}
	[ -n "${allowed[$layer]:-}" ] || continue	# src/LAYER/ itself is checked below
	dep=	# a bash match, not a sed per line
	[[ $inc =~ \"linerate/([a-z]+)/[a-z0-9_]+\.h\" ]] && dep=${BASH_REMATCH[1]}
	if [ -z "$dep" ]; then
		breach "$rel:$line: $inc names no layer"
	elif [[ " ${allowed[$layer]} " != *" $dep "* ]]; then
		breach "$rel:$line: $layer includes $dep ($inc)"
	fi
done < <(cd "$root" && grep -rnE --include='*.[ch]' '^#include *"linerate/' src include/linerate)
for d in "$root"/src/*/; do
	l=$(basename "$d")
	[ -n "${allowed[$l]:-}" ] || breach "src/$l/ is not a layer of docs/design.md §2"
done
while read -r f; do
	[ "${f#"$root"/}" = src/present/tui_curses.c ] || breach "${f#"$root"/} includes curses"
done < <(grep -rlE '#include *[<"](n?curses|ncursesw/)' "$root/src" "$root/include")
[ "$bad" -eq 0 ] && echo "layers ok"
exit "$bad"
