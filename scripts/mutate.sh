#!/usr/bin/env bash
# scripts/mutate.sh [LIST]: mutation testing (docs/design.md §15; `make mutate MUTATIONS=LIST`,
# default tests/mutations.tsv). A list line is `path<TAB>exact text<TAB>replacement<TAB>why`
# ('#' lines and blank lines are comments; `\n`, `\t` and `\\` in the text and the replacement
# stand for a newline, a tab and a backslash). The text must occur exactly once in the file.
#
# The working tree is copied once per run, without .git and with its build/ (so a mutant
# rebuilds incrementally: only what the mutated file touches), into a scratch directory. Each
# mutation is applied there, `make -j2 build/linerate` and the unit binaries its checks need
# are built, and the checks that cover the file (tests/mutations.map, LR_MUTATE_MAP: every
# matching glob's checks, unit binaries first) run one by one, each under a timeout, until one
# fails; then the file is restored. A check that fails on the unmutated copy would kill every
# mutant: every check the list uses runs once on the unmutated copy first, and any failure
# there stops the run (exit 2). The copy has no .git: a check that needs the repository's history
# (lr_build_at) cannot be mapped.
#
# One line per mutation: `killed` (a check failed: a cmocka binary with failures, no summary
# or a non-zero exit, a script with a FAIL line or a non-zero exit, or a check that hit its
# timeout) with the check that killed it, `survived` (every check passed; a check that only
# skipped is named as skipped), or `invalid` (the text is not in the file exactly once, the
# line is malformed, no check covers the file, or the mutant does not build). The last line is
# `N killed, N survived` (`, N invalid` when any); the exit status is 0 only when every
# mutation was killed.
#
# LR_MUTATE_UNIT_TIMEOUT (s, default 120) and LR_MUTATE_SCRIPT_TIMEOUT (default 600) bound
# each check, LR_MUTATE_BUILD_TIMEOUT (default 900) each build; LR_MUTATE_KEEP=1 keeps the
# scratch copy (its path is printed).
set -u
# a list or map named relative to where we were started
list=${1:+$(realpath -m -- "$1")}
map=${LR_MUTATE_MAP:+$(realpath -m -- "$LR_MUTATE_MAP")}
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
top=$PWD
source scripts/count.sh

list=${list:-tests/mutations.tsv}
map=${map:-tests/mutations.map}
unit_to=${LR_MUTATE_UNIT_TIMEOUT:-120}
script_to=${LR_MUTATE_SCRIPT_TIMEOUT:-600}
build_to=${LR_MUTATE_BUILD_TIMEOUT:-900}
t_run=$SECONDS

for f in "$list" "$map"; do
	[ -r "$f" ] || { echo "mutate: cannot read $f" >&2; exit 2; }
done
# the copy has no .git: give make the version the tree has, so version.o is not rebuilt
version=$(git describe --always --dirty 2>/dev/null || echo 0.1)

scratch=$(mktemp -d "${TMPDIR:-/tmp}/linerate-mutate.XXXXXX") || exit 2
if [ "${LR_MUTATE_KEEP:-0}" = 1 ]; then
	echo "mutate: scratch copy kept in $scratch"
else
	trap 'rm -rf "$scratch"' EXIT
fi
trap 'exit 130' INT TERM

# --- the map: glob<TAB>checks -------------------------------------------------------------
map_globs=() map_checks=()
while IFS=$'\t' read -r glob checks || [ -n "$glob" ]; do
	case $glob in '' | '#'*) continue ;; esac
	map_globs+=("$glob")
	map_checks+=("$checks")
done <"$map"

# checks_for PATH: the checks of every glob that matches PATH, unit binaries first, each once
checks_for() {
	local i c units=() scripts=()
	for i in "${!map_globs[@]}"; do
		# shellcheck disable=SC2254 # the glob is the map's pattern
		case $1 in ${map_globs[i]}) ;; *) continue ;; esac
		for c in ${map_checks[i]}; do
			case " ${units[*]} ${scripts[*]} " in *" $c "*) continue ;; esac
			case $c in test_*) units+=("$c") ;; *) scripts+=("$c") ;; esac
		done
	done
	echo "${units[*]} ${scripts[*]}"
}

# targets_for CHECKS...: the make targets those checks run (unit binaries; the C tools a
# script names as tools/NAME)
targets_for() {
	local c t out=()
	for c in "$@"; do
		case $c in
		test_*) out+=("build/tests/$c") ;;
		*)
			# shellcheck disable=SC2013 # the names are words
			for t in $(grep -oE 'tools/[a-z_0-9]+' "$scratch/$c" 2>/dev/null | sort -u); do
				[ -f "tests/${t}.c" ] && out+=("build/$t")
			done
			;;
		esac
	done
	echo "${out[*]}"
}

build() {	# build LOG TARGETS...: 0 when the tree and the targets built
	local log=$1; shift
	timeout --kill-after=10 "$build_to" make -C "$scratch" -j2 VERSION="$version" \
		build/linerate "$@" >"$log" 2>&1
}

# run_check CHECK LOG: runs one check in the copy; sets check_res to fail, skip or pass and
# check_why to what it printed (the project's counting rules, scripts/count.sh)
run_check() {
	local c=$1 log=$2 rc f0=$LR_CNT_FAIL s0=$LR_CNT_SKIP
	case $c in
	test_*)
		(cd "$scratch" && timeout --kill-after=10 "$unit_to" "build/tests/$c") >"$log" 2>&1
		rc=$?
		lr_count "$c" "$log" "$rc" cmocka
		;;
	*)
		(cd "$scratch" && LR_BUILD=build timeout --kill-after=10 "$script_to" bash "$c") \
			>"$log" 2>&1
		rc=$?
		lr_count "$c" "$log" "$rc"
		;;
	esac
	check_why=$_LR_LAST
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		check_res=fail check_why="timed out"
	elif [ "$LR_CNT_FAIL" -gt "$f0" ]; then
		check_res=fail
		local what at
		case $c in
		test_*)	# the failed tests by name, and where the first assertion fired
			what=$(sed -n 's/^\[  FAILED  \] \([A-Za-z_0-9]*\)$/\1/p' "$log" | sort -u | xargs)
			at=$(grep -o -m1 -E '\[   LINE   \] --- [^:]+:[0-9]+' "$log" | sed 's/.* //')
			what="$what${at:+ at $at}"
			;;
		*) what=$(grep -m1 '^FAIL ' "$log" | cut -c1-200) ;;
		esac
		[ -n "$what" ] && check_why="$check_why: $what"
	elif [ "$LR_CNT_SKIP" -gt "$s0" ]; then
		check_res=skip
	else
		check_res=pass
	fi
}

# apply FILE TEXT REPLACEMENT: rewrites FILE when TEXT (escapes \n \t \\) occurs exactly once;
# prints the line it starts on, or "N" (the count) on stderr and fails
apply() {
	python3 - "$@" <<-'EOF'
	import sys
	def unesc(s):
	    out, i = [], 0
	    while i < len(s):
	        if s[i] == '\\' and i + 1 < len(s) and s[i + 1] in 'nt\\':
	            out.append({'n': '\n', 't': '\t', '\\': '\\'}[s[i + 1]])
	            i += 2
	        else:
	            out.append(s[i])
	            i += 1
	    return ''.join(out)
	path, text, repl = sys.argv[1], unesc(sys.argv[2]), unesc(sys.argv[3])
	src = open(path, encoding='utf-8').read()
	n = src.count(text)
	if n != 1 or not text:
	    sys.stderr.write('%d' % n)
	    sys.exit(1)
	at = src.index(text)
	open(path, 'w', encoding='utf-8').write(src.replace(text, repl, 1))
	print(src.count('\n', 0, at) + 1)
	EOF
}

# --- the list --------------------------------------------------------------------------------
m_path=() m_text=() m_repl=() m_why=() m_lineno=() m_bad=()
n=0
while IFS= read -r line || [ -n "$line" ]; do
	n=$((n + 1))
	case $line in '' | '#'*) continue ;; esac
	# split by hand: read would fold the two tabs around an empty replacement into one
	tabs=${line//[^$'\t']/}
	p=${line%%$'\t'*} rest=${line#*$'\t'}
	t=${rest%%$'\t'*} rest=${rest#*$'\t'}
	r=${rest%%$'\t'*} w=${rest#*$'\t'}
	bad=
	if [ ${#tabs} -ne 3 ] || [ -z "$w" ] || [ -z "$t" ]; then
		bad="not path<TAB>text<TAB>replacement<TAB>why"
	elif [ ! -f "$p" ]; then
		bad="no file $p"
	fi
	m_path+=("$p") m_text+=("$t") m_repl+=("$r") m_why+=("$w") m_lineno+=("$n")
	m_bad+=("$bad")
done <"$list"
total=${#m_path[@]}
[ "$total" -gt 0 ] || { echo "mutate: no mutation in $list" >&2; exit 2; }

echo "mutate: $total mutations from $list; copying the tree to $scratch"
tar -C "$top" --exclude=./.git --exclude='./build-*' --exclude='./build/at-*' -cf - . |
	tar -C "$scratch" -xf - || exit 2

# --- baseline: every check the list uses, on the unmutated copy -----------------------------
all_checks=()
for ((i = 0; i < total; i++)); do
	[ -z "${m_bad[i]}" ] || continue
	for c in $(checks_for "${m_path[i]}"); do
		case " ${all_checks[*]} " in *" $c "*) ;; *) all_checks+=("$c") ;; esac
	done
done
log=$scratch/.mutate.log
t0=$SECONDS
# shellcheck disable=SC2046 # targets are words
if ! build "$log" $(targets_for "${all_checks[@]}"); then
	echo "mutate: the unmutated tree does not build:"
	grep -m5 -E 'error|Error' "$log"
	exit 2
fi
base_fail=0
for c in "${all_checks[@]}"; do
	run_check "$c" "$log"
	if [ "$check_res" != pass ]; then
		echo "mutate: baseline: $c does not pass on the unmutated tree ($check_res: $check_why)"
		base_fail=1
	fi
done
echo "mutate: baseline: ${#all_checks[@]} checks pass on the unmutated tree ($((SECONDS - t0)) s)"
[ "$base_fail" -eq 0 ] || exit 2

# --- each mutation ---------------------------------------------------------------------------
killed=0 survived=0 invalid=0
orig=$scratch/.mutate.orig
for ((i = 0; i < total; i++)); do
	t0=$SECONDS
	p=${m_path[i]}
	tag="#$((i + 1)) $p"
	if [ -n "${m_bad[i]}" ]; then
		echo "invalid  $tag (list line ${m_lineno[i]}): ${m_bad[i]}"
		invalid=$((invalid + 1))
		continue
	fi
	read -r -a checks <<<"$(checks_for "$p")"
	if [ ${#checks[@]} -eq 0 ]; then
		echo "invalid  $tag: no check in $map covers it"
		invalid=$((invalid + 1))
		continue
	fi
	cp "$scratch/$p" "$orig"
	if ! at=$(apply "$scratch/$p" "${m_text[i]}" "${m_repl[i]}" 2>"$log"); then
		echo "invalid  $tag (list line ${m_lineno[i]}): the text occurs $(cat "$log") times, not once"
		invalid=$((invalid + 1))
		continue
	fi
	tag="#$((i + 1)) $p:$at"
	# shellcheck disable=SC2046
	if ! build "$log" $(targets_for "${checks[@]}"); then
		echo "invalid  $tag: the mutant does not build: $(grep -m1 -E 'error' "$log" | cut -c1-160)"
		invalid=$((invalid + 1))
	else
		res=survived ran=()
		for c in "${checks[@]}"; do
			run_check "$c" "$log"
			case $check_res in
			fail) res="killed   $tag by $c ($check_why)"; break ;;
			skip) ran+=("$c (skipped: $check_why)") ;;
			*) ran+=("$c") ;;
			esac
		done
		if [ "$res" = survived ]; then
			survived=$((survived + 1))
			res="survived $tag; passed: $(printf '%s, ' "${ran[@]}")"
			res=${res%, }
		else
			killed=$((killed + 1))
		fi
		echo "$res [$((SECONDS - t0)) s]: ${m_why[i]}"
	fi
	# back to the original text; its new mtime rebuilds it with the next mutant
	cat "$orig" >"$scratch/$p"
done

echo "mutate: $total mutations in $((SECONDS - t_run)) s"
line="$killed killed, $survived survived"
[ "$invalid" -gt 0 ] && line="$line, $invalid invalid"
echo "$line"
[ "$survived" -eq 0 ] && [ "$invalid" -eq 0 ]
