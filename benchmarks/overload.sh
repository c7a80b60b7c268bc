#!/usr/bin/env bash
# Overload (issue 26): drawserver against uWebSockets from 256 to 768 busy rooms x 8 players,
# alternated, 3 runs a step (benchmarks/run.sh does the runs and prints p50 / p99 / p99.9,
# deliveries per second and the server's CPU per step), then a plot of p99 against load for
# both servers (overload.png in the results folder).
#
# Every run opens and joins all of its connections before drawing starts (run.sh's default
# connect phase, `replay --connect-first`), so both servers hold the same connections when
# measured; --no-connect-first turns it off.
#
# Usage: benchmarks/overload.sh [run.sh options, e.g. --bin PATH, --no-connect-first]
# Environment: LEVELS (rooms per step, default "256 384 512 640 768"), REPS (3), DURATION (12).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/drawserver-overload-$(date -u +%Y%m%d-%H%M%S)}
benchmarks/run.sh --servers "drawserver uws" --no-search --levels "${LEVELS:-256 384 512 640 768}" \
    --reps "${REPS:-3}" --duration "${DURATION:-12}" --out "$out" "$@"
.venv-bench/bin/pip install -q matplotlib
.venv-bench/bin/python benchmarks/overload_plot.py "$out/runs.json" "$out/overload.png"
