#!/usr/bin/env bash
# CI's short soak: scripts/soak.sh for SOAK_SECONDS (default 60 in CI).
# The full 10-minute soak: scripts/soak.sh 600.
cd "$(dirname "$0")/.." && exec scripts/soak.sh "${SOAK_SECONDS:-60}"
