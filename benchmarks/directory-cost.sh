#!/usr/bin/env bash
# What the room directory costs (issue 35; docs/SCALING.md): every node refreshes the other
# nodes' rooms from PostgreSQL every 0.5 s. With --rooms synthetic rooms of another node in
# the store (copies of a real room's snapshot, their leases held far ahead), --nodes idle
# nodes run for --seconds; prints the CPU the nodes and PostgreSQL spent per second, and the
# rows PostgreSQL read per second (tup_returned + tup_fetched).
# --churn makes the synthetic rooms live: every second their holder renews every lease (as a
# node does) and a tenth of the rooms are written (a turn, a join...), so each room's row
# changes every 10 s on average. That load is the same whatever the directory does.
#
# --nodes 0 measures what the store does with no node at all (with --churn: the churn alone).
#
# Usage: benchmarks/directory-cost.sh [--rooms N (10000)] [--nodes N (1)] [--seconds S (20)]
#                                     [--churn] [--bin PATH (DRAWSERVER_BIN or .build/release/drawserver)]
# Needs scripts/setup.d/30-postgres.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rooms=10000 nodes=1 seconds=20 churn=0 bin=${DRAWSERVER_BIN:-$root/.build/release/drawserver}
while [ $# -gt 0 ]; do
    case "$1" in
        --rooms) rooms=$2; shift 2 ;;
        --nodes) nodes=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --churn) churn=1; shift ;;
        --bin) bin=$2; shift 2 ;;
        *) sed -n '2,10p' "$0"; exit 2 ;;
    esac
done
dir=$(mktemp -d /tmp/directory-cost.XXXXXX)
chmod 755 "$dir"
url=$("$root/scripts/pg-test-cluster" start "$dir/pg")
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; "$root/scripts/pg-test-cluster" stop "$dir/pg" >/dev/null 2>&1 || true' EXIT
pg() { psql "$url" -XAtq -c "$1"; }

# One real room, stored by a node that then stops, is the template.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --port "$port" --store "$url" --node-id template --log-level error >"$dir/template.log" 2>&1 &
template=$!
pids+=("$template")
until curl -fsS -o /dev/null "http://127.0.0.1:$port/readyz" 2>/dev/null; do sleep 0.2; done
python3 - "$port" <<'PY'
import json, sys
from websockets.sync.client import connect
port = sys.argv[1]
ws = [connect(f"ws://127.0.0.1:{port}/ws", origin=f"http://127.0.0.1:{port}") for _ in range(4)]
for i, w in enumerate(ws):
    w.send(json.dumps({"t": "hello", "name": f"P{i}"}))
ws[0].send(json.dumps({"t": "create", "public": True, "settings": {}}))
code = None
while code is None:
    m = json.loads(ws[0].recv())
    if m.get("t") == "room": code = m["code"]
for w in ws[1:]:
    w.send(json.dumps({"t": "join", "code": code}))
import time; time.sleep(1)
PY
kill "$template"; wait "$template" 2>/dev/null || true
# (A build from before migration 6 leaves these columns out: added for the copy, unused.)
pg "ALTER TABLE room ADD COLUMN IF NOT EXISTS language TEXT, ADD COLUMN IF NOT EXISTS round INTEGER, ADD COLUMN IF NOT EXISTS rounds INTEGER, ADD COLUMN IF NOT EXISTS bots INTEGER"
pg "INSERT INTO node (id, alive_at) VALUES ('ghost', (extract(epoch from now()) * 1000)::bigint + 86400000) ON CONFLICT (id) DO UPDATE SET alive_at = excluded.alive_at"
pg "INSERT INTO room (code, name, public, players, max_players, phase, canvas_generation, state, updated_at, node_id, epoch, connected, members, language, round, rounds, bots)
    SELECT 'S' || lpad(to_hex(g), 5, '0'), r.name, true, r.players, r.max_players, r.phase, r.canvas_generation, r.state, r.updated_at, 'ghost', 1, r.connected, r.members,
           r.language, r.round, r.rounds, r.bots
    FROM room r, generate_series(1, $rooms) g LIMIT $rooms"
pg "INSERT INTO room_leases (code, node_id, epoch, expires_at) SELECT code, 'ghost', 1, now() + interval '1 day' FROM room WHERE node_id = 'ghost'"
pg "DELETE FROM room WHERE node_id = 'template'; DELETE FROM room_leases WHERE node_id = 'template'"
# Statistics, as autovacuum keeps them on a live store: without them the planner guesses.
pg "ANALYZE room; ANALYZE room_leases"
echo "directory-cost: $(pg "SELECT count(*) FROM room") synthetic rooms of another node, $nodes node(s), $bin" >&2

if [ "$churn" = 1 ]; then
    ( while true; do
        pg "UPDATE room_leases SET expires_at = now() + interval '1 day' WHERE node_id = 'ghost';
            UPDATE room SET connected = connected WHERE code IN (SELECT code FROM room WHERE node_id = 'ghost' ORDER BY random() LIMIT $((rooms / 10)))" >/dev/null
        sleep 1
    done ) &
    pids+=("$!")
fi
nodepids=()
for k in $(seq 1 "$nodes"); do
    "$bin" serve --port 0 --store "$url" --node-id "n$k" --log-level error >"$dir/n$k.log" 2>&1 &
    pids+=("$!")
    nodepids+=("$!")
done
sleep 5
if pg "SELECT 1 FROM information_schema.columns WHERE table_name = 'room' AND column_name = 'dir_xid'" | grep -q 1; then
    echo "directory-cost: the read of changes is planned as: $(pg "EXPLAIN SELECT code FROM room WHERE dir_xid >= pg_snapshot_xmin(pg_current_snapshot())" | head -1)" >&2
fi
ticks() { local t=0 p; for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done; echo "$t"; }
pgpids=$(pgrep -u postgres -f "postgres" | tr '\n' ' ')
reads() { pg "SELECT sum(tup_returned + tup_fetched) FROM pg_stat_database"; }
n0=$(ticks "${nodepids[@]}"); p0=$(ticks $pgpids); r0=$(reads); s0=$(date +%s.%N)
sleep "$seconds"
n1=$(ticks "${nodepids[@]}"); p1=$(ticks $(pgrep -u postgres -f "postgres" | tr '\n' ' ')); r1=$(reads); s1=$(date +%s.%N)
python3 - "$n0" "$n1" "$p0" "$p1" "$r0" "$r1" "$s0" "$s1" "$(getconf CLK_TCK)" "$nodes" "$rooms" <<'PY'
import sys
n0, n1, p0, p1, r0, r1 = (int(x) for x in sys.argv[1:7])
s0, s1, hz, nodes, rooms = float(sys.argv[7]), float(sys.argv[8]), int(sys.argv[9]), int(sys.argv[10]), int(sys.argv[11])
secs = s1 - s0
each = f"{100 * (n1 - n0) / hz / secs / nodes:.1f} % of a core each" if nodes else "none (the load alone)"
print(f"{rooms} rooms, {nodes} node(s), {secs:.1f} s: nodes {each}, "
      f"PostgreSQL {100 * (p1 - p0) / hz / secs:.1f} % of a core, {(r1 - r0) / secs:,.0f} rows read/s")
PY
