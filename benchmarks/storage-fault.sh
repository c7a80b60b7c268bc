#!/usr/bin/env bash
# Storage fault figures for docs/PERSISTENCE.md ("Storage faults"): how fast a busy server's
# held changes grow while its database is full, and how long recovery takes.
#
# Starts `drawserver serve` on a temporary database with the test-only page limit hook
# (DRAWSERVER_TEST_PAGE_LIMIT_FILE), plays ROOMS rooms of PLAYERS with `drawserver replay`
# at the sample drawings' own pace, fills the "disk" after WARM seconds, samples
# GET /api/health every 10 s for FAULT seconds, lifts the limit and times how long until
# /readyz answers 200 again, then kill -9 and checks the restart restores every room.
#
# Usage: benchmarks/storage-fault.sh [--rooms N] [--players P] [--fault S] [--bin PATH] [--queue-bytes B]
set -euo pipefail
cd "$(dirname "$0")/.."

rooms=1
players=8
fault=60
warm=5
bin=.build/debug/drawserver
queue=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rooms) rooms=$2; shift 2 ;;
        --players) players=$2; shift 2 ;;
        --fault) fault=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        --queue-bytes) queue="--storage-queue-bytes $2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

dir=$(mktemp -d)
db=$dir/fault.sqlite
limit=$dir/pages
token=storage-fault
port=$((20000 + RANDOM % 20000))
serve() {
    DRAWSERVER_TEST_PAGE_LIMIT_FILE=$limit "$bin" serve --port "$port" --db "$db" --moderator-token $token \
        --max-connections-per-ip 0 --ip-room-rate 100000/1s $queue --log-level notice >>"$dir/server.log" 2>&1 &
    pid=$!
    for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && return; sleep 0.05; done
    echo "server did not start" >&2; cat "$dir/server.log" >&2; exit 1
}
health() { curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/health"; }
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['storage'].get('$1'))"; }

serve
"$bin" replay --url "ws://127.0.0.1:$port/ws" --rooms "$rooms" --players "$players" \
    --duration $((warm + fault + 30)) --warmup 1 --quiet --json "$dir/replay.json" >"$dir/replay.log" 2>&1 &
replay=$!
sleep "$warm"
echo 1 >"$limit"
echo "disk full at +${warm}s ($rooms rooms x $players players)"
start=$(date +%s.%N)
for t in $(seq 10 10 "$fault"); do
    sleep 10
    h=$(health)
    echo "  +${t}s held $(echo "$h" | field heldBytes) bytes in $(echo "$h" | field heldChanges) changes, $(echo "$h" | field commitFailures) failed commits, refusing new rooms: $(echo "$h" | field refusingNewRooms), /readyz $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")"
done
held=$(health | field heldBytes)
rm -f "$limit"
lifted=$(date +%s.%N)
until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz")" = 200 ]; do sleep 0.01; done
back=$(date +%s.%N)
python3 -c "print(f'recovered {($back - $lifted):.2f} s after the limit was lifted, writing {$held} held bytes')"
rooms_live=$(curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/rooms" | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")
sleep 1
kill -9 "$pid"; wait "$pid" 2>/dev/null || true
kill "$replay" 2>/dev/null || true; wait "$replay" 2>/dev/null || true
serve
rooms_back=$(curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/rooms" | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")
echo "rooms before kill -9: $rooms_live, after restart: $rooms_back"
grep -E "storage (failing|recovered|queue)" "$dir/server.log" | cut -c1-240
kill "$pid"; wait "$pid" 2>/dev/null || true
rm -rf "$dir"
