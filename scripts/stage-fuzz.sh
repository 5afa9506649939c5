#!/usr/bin/env bash
# Every libFuzzer target for a bounded time in CI (FUZZ_SECONDS each, default 3 in CI: the 21 short targets share one lane while peer_frame holds the other for 60 s), and the
# peer-stats decoders (remote input read by threads; issue 32) 60 s in a lane of their own,
# started first; longer runs: `make fuzz FUZZ_SECONDS=300`.
cd "$(dirname "$0")/.." && FUZZ_LONG=${FUZZ_LONG-peer_frame=60} exec scripts/fuzz.sh "${FUZZ_SECONDS:-3}"
