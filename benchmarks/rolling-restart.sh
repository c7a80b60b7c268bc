#!/usr/bin/env bash
# Rolling restart under load (issue 35; docs/SCALING.md): three nodes behind HAProxy
# (scripts/cluster), `drawserver replay --reconnect` through the balancer with --rooms x
# --players drawing, and after --warm seconds each node in turn restarted with SIGTERM
# (`scripts/cluster restart NODE`: it closes its rooms' drawers first, hands its rooms over
# and exits; a new process starts on the same port), --gap seconds apart. A planned restart
# must lose nothing, so the replay demands every operation delivered (--min-ratio 1).
# Prints, per restart: players dropped, back, reconnect p50/p99/max, operations lost; then
# the run's delivery (expected, delivered, lost) and the replay's exit status.
#
# Usage: benchmarks/rolling-restart.sh [--nodes N (3)] [--rooms N (24)] [--players N (4)]
#                                      [--warm S (6)] [--gap S (6)] [--out DIR]
# Environment: DRAWSERVER_BIN (default .build/release/drawserver when it exists, else
# .build/debug/drawserver), PYTHON (python3). Needs scripts/setup.d/30-postgres.
# Exits non-zero when an operation was lost or a player did not come back. The nodes' logs
# are kept in OUT/logs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nodes=3 rooms=24 players=4 warm=6 gap=6 out=""
options="nodes rooms players warm gap out" usage_end=15
. "$root/benchmarks/cluster-options.sh"
cluster_options "$@"
. "$root/benchmarks/cluster-replay.sh"
echo "rolling-restart: $nodes nodes behind $url, $rooms rooms x $players players, $DRAWSERVER_BIN" >&2

duration=$((warm + nodes * gap + 4))
"$DRAWSERVER_BIN" replay --url "${url/http:/ws:}/ws" --rooms "$rooms" --players "$players" --reconnect \
    --connect-first --duration "$duration" --warmup 0 --drain 3 --min-ratio 1 --quiet \
    --json "$out/replay.json" >"$out/replay.txt" 2>&1 &
replay=$!
wait_connected $((rooms * players)) $replay "$out/replay.txt"
sleep "$warm"
for k in $(seq 1 "$nodes"); do
    "$root/scripts/cluster" restart "node$k" >/dev/null
    echo "rolling-restart: node$k restarted" >&2
    sleep "$gap"
done
status=0
wait $replay || status=$?

$python - "$out/replay.json" "$status" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1]))
replay_status = int(sys.argv[2])
outages = summary.get("outages") or []
lost = 0
missing = 0
for i, o in enumerate(outages, 1):
    print(f"restart {i}: {o['clients']} players dropped, {o['recovered']} back, {o['refused']} refused; "
          f"reconnect p50 {o['reconnectMsP50']:.0f} ms, p99 {o['reconnectMsP99']:.0f} ms, max {o['reconnectMsMax']:.0f} ms; "
          f"operations lost {o['opsLost']}; close codes {o['closeCodes']}")
    lost += o["opsLost"]
    missing += o["clients"] - o["recovered"]
d = summary["delivery"]
print(f"delivery: {d['expected']} expected, {d['delivered']} delivered, {d['lost']} lost")
print(f"redirects followed: {summary.get('redirects', 0)}; clients closed early: {summary.get('unexpectedCloses', 0)} {summary.get('closeCodes') or ''}")
print(f"replay exit status {replay_status} (--min-ratio 1)")
ok = outages and lost == 0 and missing == 0 and d["lost"] == 0 and replay_status == 0
sys.exit(0 if ok else 1)
PY
echo "rolling-restart: files in $out" >&2
