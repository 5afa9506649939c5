#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS]: builds every tests/fuzz/fuzz_<name>.c with clang
# -fsanitize=fuzzer,address,undefined together with the library sources into build-fuzz/, runs
# each target for SECONDS (default 30) on a scratch copy of tests/fuzz/corpus/<name>/ (the
# repository's corpus is never written), and ends with a plain "N passed, N failed" line, one
# count per target. A target that does not build or that crashes is a failure, and so is a
# library source that does not build with the fuzzing flags (one failure each, by name: never
# "left out"); the crashing input's path is printed. Extra libFuzzer flags can be passed in
# FUZZ_FLAGS.
set -u
cd "$(dirname "$0")/.."

secs=${1:-30}
case $secs in '' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;; esac
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
for f in "${lib_srcs[@]}"; do
	o="$out/obj/$(echo "${f#src/}" | tr / _).o"
	if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ -n "$(find include -newer "$o" -name '*.h' 2>/dev/null | head -1)" ]; then
		if ! $cc $cflags -fsanitize=fuzzer-no-link -c -o "$o" "$f" 2>"$out/logs/build-lib.log.tmp"; then
			# A library source that does not build fails the run, by name.
			echo "FAIL fuzz build $f: does not build with the fuzzing flags"
			sed 's/^/    /' "$out/logs/build-lib.log.tmp" | head -5
			failed=$((failed + 1))
			continue
		fi
	fi
	objs+=("$o")
done
rm -f "$out/logs/build-lib.log.tmp"
# An archive, as the binary links: a target that defines a stand-in (fuzz_cli's address
# parser) keeps the library's member out of its link.
lib="$out/liblinerate-fuzz.a"
rm -f "$lib"
ar rcs "$lib" "${objs[@]}"

for src in tests/fuzz/fuzz_*.c; do
	[ -f "$src" ] || continue
	name=$(basename "$src" .c)
	name=${name#fuzz_}
	bin="$out/fuzz_$name"
	log="$out/logs/$name.log"
	if ! $cc $cflags -fsanitize=fuzzer -o "$bin" "$src" "$lib" $pkg_libs -lm \
			>"$log" 2>&1; then
		echo "FAIL fuzz_$name: does not build (see $log)"
		sed 's/^/    /' "$log" | head -10
		failed=$((failed + 1))
		continue
	fi
	work="$out/corpus/$name"
	rm -rf "$work"
	mkdir -p "$work"
	[ -d "tests/fuzz/corpus/$name" ] && cp -R "tests/fuzz/corpus/$name/." "$work/"
	art="$out/artifacts/$name/"
	rm -rf "$art"
	mkdir -p "$art"
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$art" ${FUZZ_FLAGS:-} "$work" >"$log" 2>&1
	rc=$?
	crash=$(find "$art" -type f 2>/dev/null | head -1)
	if [ "$rc" -ne 0 ] || [ -n "$crash" ]; then
		echo "FAIL fuzz_$name: exit $rc${crash:+, crashing input: $crash}"
		grep -E 'ERROR|SUMMARY|runtime error|==[0-9]+==' "$log" | head -8 | sed 's/^/    /'
		failed=$((failed + 1))
	else
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		echo "PASS fuzz_$name: ${runs:-?} runs in ${secs}s"
		passed=$((passed + 1))
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
