#!/usr/bin/env bash
# Cluster benchmark (docs/SCALING.md, "Figures"):
#
# 1. Failover: three nodes behind HAProxy (scripts/cluster), `drawserver replay` load through
#    the balancer, and --kills kill -9s, each of the node running --rooms measured games
#    (benchmarks/cluster_failover.py): p50 and p99 of kill -> the room's next relayed frame,
#    as its players see it after reconnecting through the balancer with their tokens.
# 2. Relay cost of the store: `drawserver bench-relay` with no persistence, with SQLite
#    (--persist) and with PostgreSQL (--store, a throwaway scripts/pg-test-cluster), medians
#    of --reps runs of --frames frames each, alternating.
#
# Usage: benchmarks/cluster.sh [--kills N (20)] [--rooms N (3)] [--load-rooms N (24)]
#                              [--frames N (200000)] [--reps N (3)] [--out DIR] [--quick]
#                              [--relay-only] [--pin]
#   --quick: 3 kills, 2 measured rooms, 8 load rooms, 20000 frames, 1 rep (a check that it works).
#   --relay-only: part 2 only.
#   --pin: the benchmark on core 0, PostgreSQL on core 1, and on core 1 a nice-19 spinner in
#      every mode. On a machine whose cores share a physical core (or a VM's host), a busy
#      sibling slows the other, so without the spinner the PostgreSQL runs alone would pay for
#      the database server's load next door; with it every mode has the same busy neighbour,
#      and the database server still runs first (the spinner only takes what it leaves).
# Environment: DRAWSERVER_BIN (default .build/release/drawserver when it exists, else
# .build/debug/drawserver), PYTHON (python3). Needs scripts/setup.d/30-postgres.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

kills=20
rooms=3
load_rooms=24
frames=200000
reps=3
relay_only=0
pin=0
spinner=""
out=/tmp/drawserver-cluster-bench-$(date -u +%Y%m%dT%H%M%SZ)
while [ $# -gt 0 ]; do
    case "$1" in
        --kills) kills=$2; shift 2 ;;
        --rooms) rooms=$2; shift 2 ;;
        --load-rooms) load_rooms=$2; shift 2 ;;
        --frames) frames=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --quick) kills=3; rooms=2; load_rooms=8; frames=20000; reps=1; shift ;;
        --relay-only) relay_only=1; shift ;;
        --pin) pin=1; shift ;;
        *) echo "cluster.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
if [ -z "${DRAWSERVER_BIN:-}" ]; then
    DRAWSERVER_BIN=$root/.build/debug/drawserver
    [ -x "$root/.build/release/drawserver" ] && DRAWSERVER_BIN=$root/.build/release/drawserver
fi
export DRAWSERVER_BIN
python=${PYTHON:-python3}
mkdir -p "$out"
DRAWSERVER_CLUSTER_DIR=$(mktemp -u /tmp/drawserver-cluster-bench.XXXXXX)
export DRAWSERVER_CLUSTER_DIR
pg_dir=""
load_pids=()
stop_load() { # the loops, then their replay processes, by pid
    [ ${#load_pids[@]} -gt 0 ] || return 0
    : >"$out/load.stop"
    kill "${load_pids[@]}" 2>/dev/null || true
    for pidfile in "$out"/load-node*.pid; do
        [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    wait "${load_pids[@]}" 2>/dev/null || true
    load_pids=()
}
cleanup() {
    [ -z "$spinner" ] || kill "$spinner" 2>/dev/null || true
    stop_load
    cp "$DRAWSERVER_CLUSTER_DIR"/*.log "$out"/ 2>/dev/null || true
    scripts/cluster down || true
    [ -z "$pg_dir" ] || scripts/pg-test-cluster stop "$pg_dir" || true
}
trap cleanup EXIT
echo "cluster.sh: binary $DRAWSERVER_BIN, results in $out"

# 1. Failover under load.
if [ "$relay_only" = 0 ]; then
token=bench-cluster
status=$(scripts/cluster up --nodes 3 -- --moderator-token "$token" --max-connections-per-ip 0)
url=$("$python" -c 'import json, sys; print(json.loads(sys.argv[1])["url"])' "$status")
ws=${url/http:/ws:}/ws
# The load: replay rooms through the balancer, a third pinned to each node with ?node=, so
# each node carries a known share (replay follows `redirect` through the balancer too, but
# then rooms gather wherever they were made); each node's share runs 30 s at a time and
# starts again, so the share of a killed node comes back. Each loop keeps its replay's pid
# in a file, so both are stopped by pid.
for node in node1 node2 node3; do
    (
        while [ ! -e "$out/load.stop" ]; do
            "$DRAWSERVER_BIN" replay --url "$ws?node=$node" --rooms $(( (load_rooms + 2) / 3 )) --players 4 --duration 30 \
                --quiet --min-ratio 0 >>"$out/load-$node.log" 2>&1 &
            echo $! >"$out/load-$node.pid"
            wait $! || echo "load on $node ended: $?" >>"$out/load.log"
            sleep 0.2
        done
    ) &
    load_pids+=($!)
done
sleep 3
"$python" benchmarks/cluster_failover.py "$url" "$token" "$kills" "$rooms" "$out/failover.json" | tee "$out/failover.txt"
stop_load
cp "$DRAWSERVER_CLUSTER_DIR"/*.log "$out"/ 2>/dev/null || true
scripts/cluster down
fi

# 2. Relay cost: none, SQLite, PostgreSQL, alternating.
pg_dir=$(mktemp -d /tmp/drawserver-bench-pg.XXXXXX)
store=$(scripts/pg-test-cluster start "$pg_dir")
bench=("$DRAWSERVER_BIN")
if [ "$pin" = 1 ]; then
    postmaster=$(head -n 1 "$pg_dir/data/postmaster.pid")
    # Backends fork from the postmaster and inherit its core.
    for pid in "$postmaster" $(pgrep -P "$postmaster"); do taskset -a -p -c 1 "$pid" >/dev/null; done
    nice -n 19 taskset -c 1 sh -c 'while :; do :; done' &
    spinner=$!
    bench=(taskset -c 0 "$DRAWSERVER_BIN")
fi
: >"$out/relay.txt"
for rep in $(seq 1 "$reps"); do
    for mode in none sqlite postgres; do
        case $mode in
            none) flags=() ;;
            sqlite) flags=(--persist) ;;
            postgres) flags=(--store "$store") ;;
        esac
        cpu=$("${bench[@]}" bench-relay --frames "$frames" "${flags[@]}" 2>&1 | tee -a "$out/relay-$mode.log" |
            awk '/CPU per delivered frame/ { print $(NF-1) }')
        echo "$mode $rep $cpu" | tee -a "$out/relay.txt"
    done
done
"$python" - "$out/relay.txt" <<'PY' | tee "$out/relay-summary.txt"
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
cpu = {m: statistics.median(float(r[2]) for r in rows if r[0] == m) for m in ("none", "sqlite", "postgres")}
for m in ("none", "sqlite", "postgres"):
    print(f"{m:9s} CPU per delivered frame {cpu[m]:.3f} µs (median of {sum(1 for r in rows if r[0] == m)})")
print(f"persistence cost on the relay path: SQLite {100 * (cpu['sqlite'] / cpu['none'] - 1):+.1f} %, "
      f"PostgreSQL {100 * (cpu['postgres'] / cpu['none'] - 1):+.1f} % (PostgreSQL against SQLite {100 * (cpu['postgres'] / cpu['sqlite'] - 1):+.1f} %)")
PY
