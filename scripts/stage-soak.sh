#!/usr/bin/env bash
# CI's short soak: scripts/soak.sh for SOAK_SECONDS (default 120 in CI: two minutes of both soaks,
# the one long test and both ends, which run side by side). The full 10-minute soak: make soak.
cd "$(dirname "$0")/.." && exec scripts/soak.sh "${SOAK_SECONDS:-120}"
