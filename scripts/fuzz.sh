#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS]: builds every tests/fuzz/fuzz_<name>.c with clang
# -fsanitize=fuzzer,address,undefined together with the library sources into build-fuzz/, runs
# each target for SECONDS (default 30) on a scratch copy of tests/fuzz/corpus/<name>/ (the
# repository's corpus is never written), and ends with a plain "N passed, N failed" line, one
# count per target. A target that does not build or that crashes is a failure, and so is a
# library source that does not build with the fuzzing flags (one failure each, by name: never
# "left out"); the crashing input's path is printed. Extra libFuzzer flags can be passed in
# FUZZ_FLAGS. The library builds, and the targets run, as many at a time as there are CPUs (each
# target still gets its SECONDS of wall clock). FUZZ_LONG="NAME=SECS ..." runs those targets
# SECS each (or SECONDS if longer) and starts them first, so each holds one lane while the
# other targets share the rest: the stage grows by about SECS / CPUs, not SECS.
set -u
cd "$(dirname "$0")/.."

secs=${1:-30}
case $secs in '' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;; esac
declare -A long=()
for kv in ${FUZZ_LONG:-}; do
	n=${kv%%=*} v=${kv#*=}
	[[ $kv == *=* && $v =~ ^[0-9]+$ ]] || { echo "FUZZ_LONG: '$kv' is not NAME=SECONDS" >&2; exit 2; }
	[ -f "tests/fuzz/fuzz_$n.c" ] || { echo "FUZZ_LONG: no target '$n'" >&2; exit 2; }
	long[$n]=$((v > secs ? v : secs))
done
out=build-fuzz
cc=${FUZZ_CC:-clang}
pkgs="libnl-3.0 libnl-route-3.0 libnl-genl-3.0 jansson libcrypto"

if ! command -v "$cc" >/dev/null; then
	echo "fuzz: $cc not found (Debian: apt-get install clang libclang-rt-dev)"
	echo "0 passed, 1 failed"
	exit 1
fi
pkg_cflags=$(pkg-config --cflags $pkgs 2>/dev/null)
pkg_libs=$(pkg-config --libs $pkgs 2>/dev/null)
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cflags="-std=c11 -D_GNU_SOURCE -Iinclude $pkg_cflags -g -O1 -pthread $san"

mkdir -p "$out/obj" "$out/corpus" "$out/artifacts" "$out/logs"

# The library, once, with the same sanitizers (and -fsanitize=fuzzer-no-link for coverage).
lib_srcs=()
for f in src/core/*.c src/collect/*.c src/sample/*.c src/traffic/*.c src/diagnose/*.c src/run/*.c \
	 src/present/*.c; do
	[ -f "$f" ] || continue
	[ "$f" = src/present/tui_curses.c ] && continue
	lib_srcs+=("$f")
done
passed=0 failed=0
objs=()
jobs_max=$(nproc 2>/dev/null || echo 2)
pool_wait() {	# at most jobs_max jobs at once (both cores: the build and the runs are CPU-bound)
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
}
for f in "${lib_srcs[@]}"; do
	o="$out/obj/$(echo "${f#src/}" | tr / _).o"
	objs+=("$o")
	if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ -n "$(find include -newer "$o" -name '*.h' 2>/dev/null | head -1)" ]; then
		pool_wait
		rm -f "$o"
		$cc $cflags -fsanitize=fuzzer-no-link -c -o "$o" "$f" >"$o.log" 2>&1 &
	fi
done
wait
built=()
for i in "${!lib_srcs[@]}"; do
	f=${lib_srcs[i]} o=${objs[i]}
	if [ -f "$o" ]; then
		built+=("$o")
	else
		# A library source that does not build fails the run, by name.
		echo "FAIL fuzz build $f: does not build with the fuzzing flags"
		sed 's/^/    /' "$o.log" | head -5
		failed=$((failed + 1))
	fi
	rm -f "$o.log"
done
objs=("${built[@]}")
# An archive, as the binary links: a target that defines a stand-in (fuzz_cli's address
# parser) keeps the library's member out of its link.
# Made again only when a member changed or the list did (a prebuild left it current).
lib="$out/liblinerate-fuzz.a"
members=$(printf '%s\n' "${objs[@]}")
if [ ! -f "$lib" ] || [ "$members" != "$(cat "$lib.list" 2>/dev/null)" ] ||
	[ -n "$(find "${objs[@]}" -newer "$lib" 2>/dev/null | head -1)" ]; then
	rm -f "$lib"
	ar rcs "$lib" "${objs[@]}"
	echo "$members" >"$lib.list"
fi

# fuzz_build NAME: links target NAME unless its binary is newer than its source, the library
# and the headers; on failure the FAIL line in $out/logs/NAME.res (returns 1)
fuzz_build() {
	local src="tests/fuzz/fuzz_$1.c" bin="$out/fuzz_$1" log="$out/logs/$1.log"
	if [ -x "$bin" ] && [ "$bin" -nt "$src" ] && [ "$bin" -nt "$lib" ] &&
		[ -z "$(find include -newer "$bin" -name '*.h' 2>/dev/null | head -1)" ]; then
		return 0
	fi
	rm -f "$bin"
	$cc $cflags -fsanitize=fuzzer -o "$bin" "$src" "$lib" $pkg_libs -lm >"$log" 2>&1 && return 0
	rm -f "$bin"
	{ echo "FAIL fuzz_$1: does not build (see $log)"
	  sed 's/^/    /' "$log" | head -10; } >"$out/logs/$1.res"
	return 1
}

# fuzz_one NAME SECS: builds (when stale) and runs one target; its verdict (PASS/FAIL lines) in
# $out/logs/NAME.res
fuzz_one() {
	local name=$1 secs=$2 bin="$out/fuzz_$1" log="$out/logs/$1.log"
	local res="$out/logs/$1.res" work="$out/corpus/$1" art="$out/artifacts/$1/" rc crash runs
	fuzz_build "$name" || return
	rm -rf "$work" "$art"
	mkdir -p "$work" "$art"
	[ -d "tests/fuzz/corpus/$name" ] && cp -R "tests/fuzz/corpus/$name/." "$work/"
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$art" ${FUZZ_FLAGS:-} "$work" >"$log" 2>&1
	rc=$?
	crash=$(find "$art" -type f 2>/dev/null | head -1)
	if [ "$rc" -ne 0 ] || [ -n "$crash" ]; then
		{ echo "FAIL fuzz_$name: exit $rc${crash:+, crashing input: $crash}"
		  grep -E 'ERROR|SUMMARY|runtime error|==[0-9]+==' "$log" | head -8 | sed 's/^/    /'; } >"$res"
	else
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		echo "PASS fuzz_$name: ${runs:-?} runs in ${secs}s" >"$res"
	fi
}
# Two targets at a time on two cores: each still gets its SECONDS of wall clock; FUZZ_LONG's
# first.
names=()
for src in tests/fuzz/fuzz_*.c; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .c)
	names+=("${name#fuzz_}")
done
order=()
for name in "${names[@]}"; do [ -n "${long[$name]:-}" ] && order+=("$name"); done
for name in "${names[@]}"; do [ -z "${long[$name]:-}" ] && order+=("$name"); done
# FUZZ_BUILD_ONLY=1: the library and every target built, nothing run and nothing counted; the
# run that follows builds only what failed or went stale, and reports it
if [ -n "${FUZZ_BUILD_ONLY:-}" ]; then
	for name in "${names[@]}"; do
		pool_wait
		fuzz_build "$name" &
	done
	wait
	exit 0
fi
for name in "${order[@]}"; do
	rm -f "$out/logs/$name.res"
	pool_wait
	fuzz_one "$name" "${long[$name]:-$secs}" &
done
wait
for name in "${names[@]}"; do
	res="$out/logs/$name.res"
	[ -s "$res" ] || echo "FAIL fuzz_$name: no result (the job died)" >"$res"
	cat "$res"
	if head -n 1 "$res" | grep -q '^PASS '; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
