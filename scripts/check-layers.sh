#!/usr/bin/env bash
# The layering of docs/design.md §2, enforced from the compiler's own dependency lists, so no
# spelling of an include slips past (<...> or "...", "../" paths, "#  include", a macro): every
# .c and .h under src/ and include/ is preprocessed with the build's include flags (`$CC -M`,
# headers as `-x c`), and every file of the list that lies in src/LAYER/ or
# include/linerate/LAYER/ must be of a layer the table below lets the file's layer include.
# -M, not -MM: the full list names the system headers too, so the same pass sees curses
# (curses.h, ncurses.h, ncurses_dll.h, .../ncursesw/...), which only src/present/tui_curses.c
# may reach. A header in src/LAYER/ (a _priv.h) is reached only from its own folder.
# A file under include/ outside include/linerate/LAYER/, a file directly in src/, a
# folder of src/ or include/linerate/ that is not a layer, or a file the compiler cannot list
# (a missing header: named once, by the file that has the bad include) fails too.
# The lists are transitive: a file is not blamed for a dependency that a project header it
# includes has too (that header, or the file's include of it, is the breach and is named), so
# one bad header yields one line, not one per file that includes it.
# Usage: check-layers.sh [ROOT]; prints "layers ok", or one "layers: ..." line per breach and
# exits 1. CC (default cc) is the compiler.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
root=$(pwd -P)
if [ ! -d src ] || [ ! -d include/linerate ]; then
	echo "layers: $root has no src/ and include/linerate/" >&2
	exit 2
fi

# layer: the layers it may include (run and present never include each other)
table='core:core
collect:core collect
sample:core collect sample
traffic:core traffic
diagnose:core collect sample traffic diagnose
run:core collect sample traffic diagnose run
present:core collect sample traffic diagnose present
app:core collect sample traffic diagnose run present app'
layers=" $(cut -d: -f1 <<<"$table" | tr "\n" " ")"	# " core collect ... app "
curses_ok=src/present/tui_curses.c

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
breach() { echo "layers: $*" >>"$tmp/breaches"; }

# the tree's shape: layer folders only
for d in src/*/ include/linerate/*/; do
	[ -d "$d" ] || continue
	l=$(basename "$d")
	[[ $layers == *" $l "* ]] || breach "${d%/}/: not a layer (the layers:${layers% })"
done
while IFS= read -r -d '' f; do
	case $f in
	src/*/*) ;;
	src/*.[ch]) breach "$f: in no layer folder (src/LAYER/)" ;;
	src/*) ;;
	include/linerate/*/*) ;;
	*) breach "$f: in no layer folder (include/linerate/LAYER/)" ;;
	esac
done < <(find src include \( -type f -o -type l \) -print0 2>/dev/null)

# the dependency lists, in parallel batches, each batch into a file of its own (the lists of
# parallel compilers written into one pipe could interleave)
if ! pkgflags=$(pkg-config --cflags libnl-3.0 libnl-route-3.0 libnl-genl-3.0 jansson \
	libmicrohttpd libcrypto ncursesw 2>&1); then
	echo "layers: pkg-config: $pkgflags" >&2
	exit 2
fi
export LAYERS_CC=${CC:-cc} LAYERS_TMP=$tmp
export LAYERS_FLAGS="-std=c11 -D_GNU_SOURCE -Iinclude $pkgflags -w -M -x c"
# shellcheck disable=SC2086 # CC and the flags are words
if ! err=$($LAYERS_CC $LAYERS_FLAGS /dev/null 2>&1 >/dev/null); then
	echo "layers: $LAYERS_CC cannot list dependencies: $err" >&2
	exit 2
fi
deps() {	# FILE...: their rules into a new $LAYERS_TMP/d.*; FILE<tab>error into .../fail.*
	local f out err
	out=$(mktemp "$LAYERS_TMP/d.XXXXXX") && err=$(mktemp "$LAYERS_TMP/e.XXXXXX") || return
	# shellcheck disable=SC2086 # CC and the flags are words
	$LAYERS_CC $LAYERS_FLAGS "$@" >"$out" 2>/dev/null && { rm -f "$err"; return; }
	: >"$out"	# a file failed: redo one by one to name it
	for f; do
		# shellcheck disable=SC2086
		if $LAYERS_CC $LAYERS_FLAGS "$f" >"$out.1" 2>"$err"; then
			cat "$out.1" >>"$out"
		else
			f+=$'\t'$(grep -m1 -E ': (fatal )?error: ' "$err" || head -n1 "$err")
			echo "$f" >>"$LAYERS_TMP/fail.${out##*/d.}"
		fi
	done
	rm -f "$out.1" "$err"
}
export -f deps
find src include \( -type f -o -type l \) -name '*.[ch]' -print0 2>/dev/null | sort -z >"$tmp/list"
xargs -0 -r -n 16 -P "$(nproc 2>/dev/null || echo 2)" bash -c 'deps "$@"' deps <"$tmp/list"
tr '\0' '\n' <"$tmp/list" >"$tmp/files"
: >"$tmp/fail.none"

# shellcheck disable=SC2016 # awk's own $
cat "$tmp"/d.* 2>/dev/null | awk -v table="$table" -v root="$root" -v curses_ok="$curses_ok" '
function norm(p,	n, i, k, part, out, s) {	# lexical: a/./b/../c -> a/c; root/x -> x
	if (index(p, root "/") == 1) p = substr(p, length(root) + 2)
	n = split(p, part, "/"); k = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "." || (part[i] == "" && i > 1)) continue
		if (part[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
		out[++k] = part[i]
	}
	s = ""
	for (i = 1; i <= k; i++) s = s (i > 1 ? "/" : "") out[i]
	return s
}
function layer(p,	q) {	# "" when p is not a project file; "-" when in no layer folder
	if (p ~ /^src\//) {
		q = substr(p, 5); return q ~ /\// ? substr(q, 1, index(q, "/") - 1) : "-"
	}
	if (p ~ /^include\/linerate\/[^\/]+\//) {
		q = substr(p, 18); return substr(q, 1, index(q, "/") - 1)
	}
	if (p ~ /^include\//) return "-"
	return ""
}
function iscurses(p) {
	return p ~ /^\// && (p ~ /\/ncursesw?\// || p ~ /\/n?curses[a-z_]*\.h$/)
}
BEGIN {
	n = split(table, row, "\n")
	for (i = 1; i <= n; i++) {
		c = index(row[i], ":"); l = substr(row[i], 1, c - 1)
		m = split(substr(row[i], c + 1), may, " ")
		for (j = 1; j <= m; j++) ok[l, may[j]] = 1
		known[l] = 1
	}
}
FILENAME ~ /\/files$/ { want[$0] = 1; next }
FILENAME ~ /\/fail\.[^\/]*$/ {	# FILE<tab>the compiler'"'"'s first error, "WHERE:LINE:COL: ..."
	c = index($0, "\t"); f = substr($0, 1, c - 1); failed[f] = substr($0, c + 1)
	c = index(failed[f], ":")	# where the error is
	where[f] = failed[f] ~ /^[^ :]+:[0-9]+:/ ? norm(substr(failed[f], 1, c - 1)) : ""
	next
}
{	# a rule "x.o: FILE DEP DEP \" continued over lines
	gsub(/\\ /, "\001")
	if (sub(/\\$/, "")) { text = text $0 " "; next }
	text = text $0
	sub(/^[^:]*:/, "", text)
	m = split(text, w, " ")
	text = ""
	if (m == 0) next
	f = norm(w[1]); files[++nf] = f; isfile[f] = 1
	for (j = 1; j <= m; j++) {
		gsub(/\001/, " ", w[j]); d = norm(w[j])
		if (d == f) continue
		k = iscurses(d) ? "curses" : layer(d) != "" ? d : ""	# dep[f, k]: the path
		if (k != "" && !((f, k) in dep)) { dep[f, k] = d; dl[f, ++ndep[f]] = k }
	}
}
function via(f, d,	j, h) {	# a project header f includes has d too: that edge is named instead
	for (j = 1; j <= ndep[f]; j++) {
		h = dl[f, j]
		if (h != d && h != "curses" && (h in isfile) && ((h, d) in dep)) return 1
	}
	return 0
}
END {
	for (f in want) {
		if (f in isfile) continue
		if (!(f in failed)) {
			print "layers: " f ": no dependency list (the compiler gave none)"
			continue
		}
		# a header that breaks the files including it is named once, by its own run
		if (where[f] != f && (where[f] in failed) && where[where[f]] == where[f]) continue
		print "layers: " f ": no dependency list (" failed[f] ")"
	}
	for (i = 1; i <= nf; i++) {
		f = files[i]; lf = layer(f)
		for (j = 1; j <= ndep[f]; j++) {
			d = dl[f, j]
			if (d == "curses") {
				if (f != curses_ok && !via(f, d))
					print "layers: " f ": " (lf == "-" ? "a file in no layer" : lf) \
						" includes curses (" dep[f, d] ")"
				continue
			}
			if (!(lf in known)) continue	# its folder is the breach, named above
			ld = layer(d)
			# a header in src/L/ belongs to that folder: no other folder reaches it
			if (d ~ /^src\/[^\/]+\/[^\/]+\.h$/ && index(f, "src/" ld "/") != 1 &&
			    !via(f, d)) {
				print "layers: " f ": includes " d ", private to src/" ld "/"
				continue
			}
			if ((lf, ld) in ok || via(f, d)) continue
			print "layers: " f ": " lf " includes " \
				(ld == "-" ? "a file in no layer" : ld) " (" d ")"
		}
	}
}' "$tmp/files" "$tmp"/fail.* - >>"$tmp/breaches"

if [ -s "$tmp/breaches" ]; then
	sort -u "$tmp/breaches"
	exit 1
fi
echo "layers ok"
