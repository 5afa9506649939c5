#!/usr/bin/env bash
# Every libFuzzer target for a bounded time in CI (FUZZ_SECONDS each, default 5 in CI); longer
# runs: `make fuzz FUZZ_SECONDS=300`.
cd "$(dirname "$0")/.." && exec scripts/fuzz.sh "${FUZZ_SECONDS:-5}"
