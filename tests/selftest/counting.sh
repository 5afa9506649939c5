#!/usr/bin/env bash
# The counting rules (scripts/count.sh) on fake stages, binaries and scripts whose right totals
# are known: tests/run.sh with cmocka-like binaries (passes; skips; a crash with no summary) and
# scripts (passes; a whole script skipped when not root, counted by its planned check names; a
# non-zero exit without a FAIL line), and scripts/test-all.sh's stage() with a stage that passes,
# one that only printed SKIP, a build that fails, a nested runner with skips and a stage whose
# closing line says 0 failed but that exited 1. In CI (CI=true) the same skips are failures,
# each named, in run.sh's report and in test-all's (a nested runner's counted once); outside CI
# (CI unset or false) they stay skips. A second or so, no root, no build.
set -u
source "$(dirname "$0")/../lib.sh"
unset CI	# each case below says where it runs: outside CI unless it sets CI itself
cd "$LR_TOP"
t=$(mktemp -d); lr_cleanup_add "rm -rf $t"
mkdir -p "$t/scripts"

# cmocka-like unit binaries
printf '#!/bin/sh\necho "[==========] 3 test(s) run."\necho "[  PASSED  ] 3 test(s)."\n' >"$t/unit_ok"
cat >"$t/unit_skip" <<'X'
#!/bin/sh
echo "[ RUN      ] test_a"; echo "[       OK ] test_a"
echo "[ RUN      ] test_b"; echo "[  SKIPPED ] test_b"
echo "[ RUN      ] test_c"; echo "[  SKIPPED ] test_c"
echo "[==========] 3 test(s) run."
echo "[  PASSED  ] 1 test(s)."
echo "[  SKIPPED ] 2 test(s), listed below:" >&2
echo "[  SKIPPED ] test_b" >&2
echo "[  SKIPPED ] test_c" >&2
X
printf '#!/bin/sh\necho "[ RUN      ] test_x"\nexit 139\n' >"$t/unit_crash"
chmod +x "$t"/unit_*

# scripts
printf 'echo "PASS one"\necho "PASS two"\n' >"$t/scripts/a_pass.sh"
cat >"$t/scripts/b_notroot.sh" <<X
source "$LR_TOP/tests/lib.sh"
id() { echo 1000; }	# as a user that is not root
lr_plan "first check" "second check" "third check"
need_root b_notroot
echo "PASS never reached"
X
printf 'echo "PASS before the crash"\nexit 3\n' >"$t/scripts/c_dies.sh"

LR_SCRIPT_DIRS="$t/scripts" tests/run.sh "$t/unit_ok" "$t/unit_skip" "$t/unit_crash" >"$t/run.out" 2>&1
rc=$?
last=$(tail -n1 "$t/run.out")
check "run.sh: totals count cmocka skips, planned skips, a crash and a silent non-zero exit ($last)" \
	test "$last" = "7 passed, 2 failed, 5 skipped"
check "run.sh: exits non-zero when a check failed (rc $rc)" test "$rc" -ne 0
check "run.sh: the skipped cmocka tests are named" grep -qx 'SKIPPED unit_skip: test_b: cmocka skip()' "$t/run.out"
check "run.sh: a whole script skipped when not root names each planned check" \
	test "$(grep -c '^SKIPPED b_notroot.sh: b_notroot: .*: needs root' "$t/run.out")" -eq 3
check "run.sh: the skip block comes before the closing line, the closing line alone" \
	awk '/^skipped \(5\):$/ { b = NR } END { exit !(b && b < NR) }' "$t/run.out"
rm -f "$t/scripts/c_dies.sh"
LR_SCRIPT_DIRS="$t/scripts" tests/run.sh "$t/unit_ok" "$t/unit_skip" >"$t/run2.out" 2>&1
rc=$?
check "run.sh: skips alone do not fail the run ($(tail -n1 "$t/run2.out"), rc $rc)" \
	test "$(tail -n1 "$t/run2.out")" = "6 passed, 0 failed, 5 skipped" -a "$rc" -eq 0

# the same runs in CI: every skip is a failure, named, and the run exits non-zero
CI=true LR_SCRIPT_DIRS="$t/scripts" tests/run.sh "$t/unit_ok" "$t/unit_skip" >"$t/ci.out" 2>&1
rc=$?
last=$(tail -n1 "$t/ci.out")
check "run.sh in CI: each skip is a failure, the closing line has no skipped ($last, rc $rc)" \
	test "$last" = "6 passed, 5 failed" -a "$rc" -ne 0
check "run.sh in CI: the skipped checks are named as failures" \
	test "$(grep -c '^FAIL (skipped in CI) b_notroot.sh: b_notroot: .*: needs root' "$t/ci.out")" -eq 3 -a \
	"$(grep -c '^FAIL (skipped in CI) unit_skip: test_[bc]: cmocka skip()$' "$t/ci.out")" -eq 2
check "run.sh in CI: no skip block, the places that skipped are failures" \
	test "$(grep -c '^SKIPPED \|^skipped (' "$t/ci.out")" -eq 0 -a \
	"$(grep -x 'failures in: .*' "$t/ci.out")" = "failures in: unit_skip; b_notroot.sh"
CI=false LR_SCRIPT_DIRS="$t/scripts" tests/run.sh "$t/unit_ok" "$t/unit_skip" >"$t/noci.out" 2>&1
rc=$?
check "run.sh with CI=false: skips stay skips ($(tail -n1 "$t/noci.out"), rc $rc)" \
	test "$(tail -n1 "$t/noci.out")" = "6 passed, 0 failed, 5 skipped" -a "$rc" -eq 0

# test-all.sh's stage(), sourced without running the real stages
(
	LR_TEST_ALL_SOURCED=1 source scripts/test-all.sh
	stage "passes" bash -c 'echo "layers ok"'
	stage "only SKIP" bash -c 'echo "SKIP soak: needs root"'
	stage "build fails" bash -c 'echo "foo.c:1: error: bar"; exit 2'
	stage "nested runner" env LR_SCRIPT_DIRS=/nonexistent tests/run.sh "$t/unit_skip"
	stage "says 0 failed, exits 1" bash -c 'echo "PASS a"; echo "3 passed, 0 failed"; exit 1'
	lr_count_report
	echo "report rc $?"
) >"$t/all.out" 2>&1
last=$(grep -E '^[0-9]+ passed' "$t/all.out" | tail -n1)
check "test-all: a SKIP-only stage is a skip, a failed build and a failing exit are failures ($last)" \
	test "$last" = "5 passed, 2 failed, 3 skipped"
check "test-all: a failure fails the run" grep -qx 'report rc 1' "$t/all.out"
check "test-all: a stage that only printed SKIP is named in the skip block" \
	grep -qx 'SKIPPED only SKIP: soak: needs root' "$t/all.out"
check "test-all: a nested runner's skips keep their names, listed once" \
	test "$(grep -c 'test_c: cmocka skip()' "$t/all.out")" -eq 1
check "test-all: the failures are named" grep -q '^failures in: build fails; says 0 failed, exits 1$' "$t/all.out"

# test-all in CI: a SKIP-only stage and a nested runner's skips (which it already listed as
# failures, exiting 1) are each one failure of the whole run, named once
(
	export CI=true
	LR_TEST_ALL_SOURCED=1 source scripts/test-all.sh
	stage "passes" bash -c 'echo "layers ok"'
	stage "only SKIP" bash -c 'echo "SKIP soak: needs root"'
	stage "nested runner" env LR_SCRIPT_DIRS=/nonexistent tests/run.sh "$t/unit_skip"
	lr_count_report
	echo "report rc $?"
) >"$t/allci.out" 2>&1
last=$(grep -E '^[0-9]+ passed' "$t/allci.out" | tail -n1)
check "test-all in CI: skips, nested ones too, are failures counted once ($last)" \
	test "$last" = "2 passed, 3 failed"
check "test-all in CI: the run fails" grep -qx 'report rc 1' "$t/allci.out"
check "test-all in CI: each skip named once as a failure" \
	test "$(grep -c '^FAIL (skipped in CI) only SKIP: soak: needs root$' "$t/allci.out")" -eq 1 -a \
	"$(grep -c '^FAIL (skipped in CI) nested runner: unit_skip: test_c: cmocka skip()$' "$t/allci.out")" -eq 1

# failed checks are named again at the end (CI shows only a long run's tail): a script's FAIL
# line and a cmocka test's name, and through a nested runner the same lines, once each
mkdir -p "$t/failing"
printf 'echo "PASS fine"\necho "FAIL udp_peer: the receiver counted loss (0)"\nexit 1\n' >"$t/failing/d_fails.sh"
cat >"$t/unit_fails" <<'X'
#!/bin/sh
echo "[ RUN      ] test_good"; echo "[       OK ] test_good"
echo "[ RUN      ] test_bad"; echo "[  FAILED  ] test_bad"
echo "[==========] 2 test(s) run."
echo "[  PASSED  ] 1 test(s)."
echo "[  FAILED  ] 1 test(s), listed below:"
echo "[  FAILED  ] test_bad"
X
chmod +x "$t/unit_fails"
(
	LR_TEST_ALL_SOURCED=1 source scripts/test-all.sh
	stage "nested runner" env LR_SCRIPT_DIRS="$t/failing" tests/run.sh "$t/unit_fails"
	lr_count_report
) >"$t/fails.out" 2>&1
check "test-all: the last lines name each failed check once, the script's and the unit's" \
	test "$(tail -n5 "$t/fails.out" | head -n3)" = "failed checks (2):
FAILED unit_fails: test_bad
FAILED d_fails.sh: udp_peer: the receiver counted loss (0)"

# tests/lib.sh on its own (a CI stage script): its closing line carries the skips
out=$(bash -c "source '$LR_TOP/tests/lib.sh'; pass a; skip b why; lr_summary")
check "lib.sh: lr_summary counts skips" test "$(echo "$out" | tail -n1)" = "1 passed, 0 failed, 1 skipped"
[ -n "${LR_SELFTEST_KEEP:-}" ] && cat "$t/run.out" "$t/all.out" "$t/ci.out" "$t/allci.out"
lr_summary
