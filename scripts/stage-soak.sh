#!/usr/bin/env bash
# CI's short soak: scripts/soak.sh for SOAK_SECONDS (default 90; about 95 s of wall time).
# The full 10-minute soak: scripts/soak.sh 600.
cd "$(dirname "$0")/.." && exec scripts/soak.sh "${SOAK_SECONDS:-90}"
