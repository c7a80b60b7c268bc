#!/usr/bin/env bash
# The figures a capacity plan rests on (issue 35; docs/SCALING.md, "Capacity plan"): three
# nodes on one PostgreSQL behind HAProxy (scripts/cluster), `drawserver replay` through the
# balancer with --rooms x --players playing whole games (each turn a drawer replaying a
# stroke log at its own pace, guessers guessing once the drawing has arrived, turns and
# games ending as they do), and over --measure seconds of the steady state:
# - the nodes' CPU (utime + stime of their processes), so players per core;
# - PostgreSQL's write load: commits, rows written (inserted, updated, deleted) and WAL
#   bytes per second (pg_stat_database, pg_current_wal_lsn), per 1,000 active rooms;
# - the nodes' commit latency (drawserver_db_commit_seconds) and batch size.
#
# Usage: benchmarks/capacity.sh [--nodes N (3)] [--rooms N (300)] [--players N (8)]
#                               [--warm S (10)] [--measure S (30)] [--out DIR]
# Environment: DRAWSERVER_BIN (default .build/release/drawserver when it exists, else
# .build/debug/drawserver), PYTHON (python3). Needs scripts/setup.d/30-postgres.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nodes=3 rooms=300 players=8 warm=10 measure=30 out=""
options="nodes rooms players warm measure out" usage_end=15
. "$root/benchmarks/cluster-options.sh"
cluster_options "$@"
. "$root/benchmarks/cluster-replay.sh"
store=$($python -c 'import json, sys; print(json.loads(sys.argv[1])["postgres"])' "$status")
echo "capacity: $nodes nodes behind $url, $rooms rooms x $players players, $DRAWSERVER_BIN" >&2

cpu_ticks() { # the nodes' utime+stime, in clock ticks
    local total=0 pid
    for pid in $pids; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done
    echo "$total"
}
pg() { psql "$store" -XAtq -c "$1"; }
pg_counters() { # commits, rows written, WAL bytes since the start of the cluster
    pg "SELECT sum(xact_commit), sum(tup_inserted + tup_updated + tup_deleted), pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint FROM pg_stat_database" | tr '|' ' '
}
commit_stats() { # the nodes' commits and commit seconds, summed
    local u c=0 s=0 line
    for u in $node_urls; do
        line=$(curl -fsS "$u/metrics" | awk '$1 == "drawserver_db_commit_seconds_count" {c=$2} $1 == "drawserver_db_commit_seconds_sum" {s=$2} $1 == "drawserver_db_stroke_frames_total" {f=$2} END {print c, s, f}')
        echo "$line"
    done | awk '{c += $1; s += $2; f += $3} END {print c, s, f}'
}

"$DRAWSERVER_BIN" replay --url "${url/http:/ws:}/ws" --rooms "$rooms" --players "$players" \
    --connect-first --duration $((warm + measure + 5)) --warmup 0 --drain 3 --quiet \
    --json "$out/replay.json" >"$out/replay.txt" 2>&1 &
replay=$!
wait_connected $((rooms * players)) $replay "$out/replay.txt"
sleep "$warm"
read -r c0 r0 w0 <<<"$(pg_counters)"
read -r n0 s0 f0 <<<"$(commit_stats)"
t0=$(cpu_ticks); start=$(date +%s.%N)
sleep "$measure"
t1=$(cpu_ticks); end=$(date +%s.%N)
read -r c1 r1 w1 <<<"$(pg_counters)"
read -r n1 s1 f1 <<<"$(commit_stats)"
status=0
wait $replay || status=$?

$python - "$out/replay.json" "$status" "$rooms" "$players" "$nodes" "$(getconf CLK_TCK)" \
    "$t0" "$t1" "$start" "$end" "$c0" "$c1" "$r0" "$r1" "$w0" "$w1" "$n0" "$n1" "$s0" "$s1" "$f0" "$f1" <<'PY'
import json, sys
a = sys.argv
summary = json.load(open(a[1]))
status, rooms, players, nodes, hz = int(a[2]), int(a[3]), int(a[4]), int(a[5]), int(a[6])
t0, t1, start, end = int(a[7]), int(a[8]), float(a[9]), float(a[10])
c0, c1, r0, r1, w0, w1 = (int(x) for x in a[11:17])
n0, n1, s0, s1, f0, f1 = (float(x) for x in a[17:23])
secs = end - start
cores = (t1 - t0) / hz / secs
total = rooms * players
print(f"measured {secs:.1f} s of steady play: {rooms} rooms x {players} players ({total} players) on {nodes} nodes")
print(f"nodes' CPU: {cores:.2f} cores in all, so {total / cores:,.0f} players per core "
      f"({summary['opsDeliveredPerSecond']:,.0f} operation deliveries/s, {summary['opsSentPerSecond']:,.0f} operations drawn/s)")
k = rooms / 1000
print(f"PostgreSQL: {(c1 - c0) / secs:,.1f} commits/s, {(r1 - r0) / secs:,.0f} rows written/s, {(w1 - w0) / secs / 1024:,.0f} KiB WAL/s "
      f"= per 1,000 active rooms {(c1 - c0) / secs / k:,.0f} commits/s, {(r1 - r0) / secs / k:,.0f} rows/s, {(w1 - w0) / secs / k / 1024:,.0f} KiB WAL/s")
if n1 > n0:
    print(f"nodes' commits: {(n1 - n0) / secs:,.1f}/s, mean {(s1 - s0) / (n1 - n0) * 1000:.1f} ms each, "
          f"{(f1 - f0) / secs:,.0f} stroke frames stored/s")
d = summary["delivery"]
print(f"delivery {d['delivered']} of {d['expected']} (lost {d['lost']}); replay exit status {status}; "
      f"turns ended {summary.get('turnsEnded')}; games ended {summary.get('gamesEnded')}")
PY
