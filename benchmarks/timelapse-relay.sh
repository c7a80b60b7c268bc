#!/usr/bin/env bash
# Relay latency with and without drawing images rendering at the same time (issue 22):
# a release drawserver, one finished turn drawn with benchmarks/logs/sample-seed1.ndjson
# (its drawing id from turnEnd), then `drawserver replay` runs alternately without and
# with a client that keeps asking for a never-cached time-lapse of that drawing
# (/d/ID.apng?scale=4&max=N, a new N each time: a 3200x2400 APNG per request).
# Prints each run's p50/p99/max and the renders served. Usage:
#   benchmarks/timelapse-relay.sh [ROOMS] [PLAYERS] [SECONDS] [PAIRS]
# With PIN=1 the server (event loops and render thread) runs on core 0 and the load
# generator and image client on core 1, so the generator never competes with the loops.
set -euo pipefail
cd "$(dirname "$0")/.."
rooms=${1:-16}
players=${2:-4}
seconds=${3:-20}
pairs=${4:-2}
bin=${DRAWSERVER_BIN:-.build/release/drawserver}
[ -x "$bin" ] || { echo "timelapse-relay: $bin is missing (swift build -c release)"; exit 1; }
work=$(mktemp -d)
server=""
renderer=""
cleanup() {
    [ -n "$renderer" ] && kill "$renderer" 2>/dev/null || true
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

server_cpus=()
client_cpus=()
if [ "${PIN:-0}" = 1 ]; then server_cpus=(taskset -c 0); client_cpus=(taskset -c 1); fi
"${server_cpus[@]}" "$bin" serve --port 0 --db "$work/db.sqlite" --turn-end-seconds 1 --game-end-seconds 1 \
    --max-connections-per-ip 0 --ip-room-rate 1000/1s >"$work/server.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 200); do
    port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/server.log" 2>/dev/null | head -1 | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "timelapse-relay: the server did not start"; cat "$work/server.log"; exit 1; }

# One finished turn with the sample drawing; prints its drawing id.
id=$(python3 - "$port" benchmarks/logs/sample-seed1.ndjson <<'PY'
import base64, json, sys, time
from websockets.sync.client import connect
port, log = sys.argv[1], sys.argv[2]
lines = [json.loads(l) for l in open(log) if l.strip()][1:]
url = "ws://127.0.0.1:%s/ws" % port
a, b = connect(url), connect(url)
def until(ws, t):
    while True:
        m = ws.recv()
        if isinstance(m, str):
            m = json.loads(m)
            if m.get("t") == t: return m
for ws, name in ((a, "Ada"), (b, "Bob")):
    ws.send(json.dumps({"t": "hello", "name": name})); until(ws, "welcome")
a.send(json.dumps({"t": "create", "name": "bench", "public": False, "settings": {"rounds": 1}}))
code = until(a, "room")["code"]
b.send(json.dumps({"t": "join", "code": code})); until(b, "room")
a.send(json.dumps({"t": "start"}))
m = None
drawer = guesser = None
while drawer is None:
    for ws, other in ((a, b), (b, a)):
        try:
            m = ws.recv(timeout=0.2)
        except TimeoutError:
            continue
        if isinstance(m, str) and json.loads(m).get("t") == "choose":
            drawer, guesser = ws, other
drawer.send(json.dumps({"t": "choose", "index": 0}))
word = until(drawer, "turn")["word"]
for line in lines:
    drawer.send(base64.b64decode(line["ops"]))
    time.sleep(0.012)
guesser.send(json.dumps({"t": "chat", "text": word}))
end = until(guesser, "turnEnd")
print(end["drawing"]["id"])
PY
)
echo "timelapse-relay: drawing $id on port $port"

render_loop() {
    exec "${client_cpus[@]}" python3 - "$port" "$id" <<'PY'
import sys, time, urllib.request
port, id = sys.argv[1], sys.argv[2]
n, started = 8192, time.time()
while True:
    with urllib.request.urlopen("http://127.0.0.1:%s/d/%s.apng?scale=4&max=%d" % (port, id, n), timeout=120) as r:
        r.read()
    n -= 1
    print(8192 - n, "%.1f" % (time.time() - started), flush=True)
PY
}

run() {
    timeout $((seconds + 60)) "${client_cpus[@]}" "$bin" replay --url "ws://127.0.0.1:$port/ws" --log benchmarks/logs/sample-seed3-60fps.ndjson \
        --rooms "$rooms" --players "$players" --duration "$seconds" --warmup 2 --quiet --json "$work/$1.json" || true
    python3 - "$work/$1.json" "$1" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); l = s["latencyMs"]; d = s["delivery"]
print("%-12s p50 %.2f ms, p99 %.2f ms, max %.0f ms, delivered %d (ratio %.6f)" % (sys.argv[2], l["p50"], l["p99"], l["max"], d["delivered"], d["ratio"]))
PY
}

for pair in $(seq 1 "$pairs"); do
    run "quiet-$pair"
    render_loop >"$work/renders.txt" 2>&1 &
    renderer=$!
    sleep 1
    run "renders-$pair"
    kill "$renderer" 2>/dev/null || true; wait "$renderer" 2>/dev/null || true; renderer=""
    echo "             renders served meanwhile: $(tail -1 "$work/renders.txt" | cut -d' ' -f1) (count, seconds: $(tail -1 "$work/renders.txt"))"
done
