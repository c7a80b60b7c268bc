#!/usr/bin/env bash
# Reconnect storm (issue 35; docs/SCALING.md, "Figures"): three nodes behind HAProxy
# (scripts/cluster), `drawserver replay --reconnect` through the balancer with --rooms x
# --players drawing, and after --warm seconds the balancer is killed and started again
# (`scripts/cluster restart-balancer`): every connection of the cluster drops at once and
# every player comes back through the balancer with its token. Prints, from the replay's
# JSON: players back (resumed) and refused (seat lost), reconnect p50/p99/max from the drop
# to the resumed `welcome`, connection attempts per player (admission control must not turn
# the storm into a loop of refusals), operations lost, and the resumed handshakes per second
# the cluster took (players / the slowest player's reconnect time) with the nodes' CPU over
# the storm's seconds.
#
# Usage: benchmarks/reconnect-storm.sh [--nodes N (3)] [--rooms N (100)] [--players N (10)]
#                                      [--warm S (8)] [--after S (8)] [--out DIR]
# Environment: DRAWSERVER_BIN (default .build/release/drawserver when it exists, else
# .build/debug/drawserver), PYTHON (python3). Needs scripts/setup.d/30-postgres.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nodes=3 rooms=100 players=10 warm=8 after=8 out=""
options="nodes rooms players warm after out" usage_end=17
. "$root/benchmarks/cluster-options.sh"
cluster_options "$@"
. "$root/benchmarks/cluster-replay.sh"
echo "reconnect-storm: $nodes nodes behind $url, $rooms rooms x $players players, $DRAWSERVER_BIN" >&2

cpu_ticks() { # the nodes' utime+stime, in clock ticks
    local total=0 pid
    for pid in $pids; do
        total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
    done
    echo "$total"
}

"$DRAWSERVER_BIN" replay --url "${url/http:/ws:}/ws" --rooms "$rooms" --players "$players" --reconnect \
    --connect-first --duration $((warm + after + 2)) --warmup 0 --drain 2 --min-ratio 0 --quiet \
    --json "$out/replay.json" >"$out/replay.txt" 2>&1 &
replay=$!
# The connect phase first (every seat joined: the nodes' connection gauges add up), then
# --warm seconds of drawing.
wait_connected $((rooms * players)) $replay "$out/replay.txt"
sleep "$warm"
before=$(cpu_ticks)
started=$(date +%s.%N)
"$root/scripts/cluster" restart-balancer >/dev/null
sleep "$after"
ticks=$(( $(cpu_ticks) - before ))
elapsed=$($python -c "import time; print(time.time() - $started)")
wait $replay || true

$python - "$out/replay.json" "$ticks" "$(getconf CLK_TCK)" "$elapsed" "$nodes" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
ticks, hz, elapsed, nodes = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
outages = summary.get("outages") or []
if not outages:
    sys.exit("reconnect-storm: the replay saw no outage")
o = max(outages, key=lambda e: e["clients"])
rate = o["recovered"] / (o["reconnectMsMax"] / 1000) if o["reconnectMsMax"] > 0 else 0
cpu = ticks / hz
print(f"players dropped      {o['clients']}")
print(f"back (resumed)       {o['recovered']}, refused (seat lost) {o['refused']}")
print(f"reconnect            p50 {o['reconnectMsP50']:.0f} ms, p99 {o['reconnectMsP99']:.0f} ms, max {o['reconnectMsMax']:.0f} ms")
print(f"attempts per player  {o['attempts'] / max(1, o['clients']):.2f} ({o['attempts']} in all)")
print(f"operations lost      {o['opsLost']}")
print(f"resumed handshakes   {rate:.0f} per second over the storm ({rate / nodes:.0f} per node)")
print(f"nodes' CPU           {cpu:.1f} s over the {elapsed:.1f} s after the drop, drawing included ({cpu / elapsed:.2f} cores)")
print(f"server errors        {summary.get('serverErrors') or summary.get('counters', {}).get('serverErrors', 'none')}")
PY
echo "reconnect-storm: files in $out" >&2
