#!/usr/bin/env bash
# Soak benchmark (docs/BENCHMARKS.md, "Soak: an hour of churn"): one node on SQLite under
# rounds of churn for an hour, sampled every few seconds for what must stay flat.
#
# Each round (--round, default 45 s) opens new connections and new rooms: `drawserver
# replay --reconnect` plays --rooms rooms of --players players (full games: choosing,
# drawing, guessing, turn ends; frames relayed and stored), while a reader fetches the
# gallery and finished drawings (PNG and APNG time-lapse) about once a second. Halfway
# through (--restart-at minutes) the node is restarted with SIGTERM on the same database
# mid-round; the clients reconnect with their tokens.
#
# Every --sample seconds it records the server's resident memory (VmRSS), its open
# descriptors, the database's size (file, WAL and shared memory); each round adds the
# replay's p99 and delivery ratio. It prints a table per round and, with matplotlib (pip
# install matplotlib), plots memory, descriptors, database size and p99 against time.
#
# Usage: benchmarks/soak.sh [--minutes 60] [--round 45] [--rooms 64] [--players 8]
#                           [--restart-at MIN] [--sample 5] [--bin PATH] [--out DIR]
#   --bin: the drawserver binary (default: a release build of this checkout, built first);
#          it needs its resource bundles next to it.
#   --out: where samples.csv, rounds.csv, the replays' JSON, the server logs and soak.png
#          go (default out/soak-DATE).
# Loopback only; the server runs with the per-address limits lifted for the generator.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

minutes=60
round=45
rooms=64
players=8
restart_at=""
sample=5
bin=""
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes) minutes=$2; shift 2 ;;
        --round) round=$2; shift 2 ;;
        --rooms) rooms=$2; shift 2 ;;
        --players) players=$2; shift 2 ;;
        --restart-at) restart_at=$2; shift 2 ;;
        --sample) sample=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "soak: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -n "$restart_at" ] || restart_at=$(( minutes / 2 ))
if [ -z "$bin" ]; then
    swift build -c release --product drawserver >&2
    bin="$root/.build/release/drawserver"
fi
[ -x "$bin" ] || { echo "soak: $bin is not an executable" >&2; exit 2; }
out=${out:-$root/out/soak-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
work=$(mktemp -d)
db="$work/soak.sqlite"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port"

server_pid=""
reader_pid=""
sampler_pid=""
replay_pid=""
cleanup() {
    for pid in $replay_pid $reader_pid $sampler_pid; do kill "$pid" 2>/dev/null || true; done
    [ -z "$server_pid" ] || kill -KILL "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_server() { # $1: log suffix
    "$bin" serve --port "$port" --db "$db" --web-root "$root/web-static" \
        --max-connections-per-ip 0 --ip-room-rate 100000/1s --log-level warning \
        >>"$out/server-$1.log" 2>&1 &
    server_pid=$!
    echo "$server_pid" >"$work/server.pid"
    for _ in $(seq 1 200); do
        curl -fs "$url/readyz" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "soak: the server did not become ready" >&2
    exit 1
}

# Samples: seconds since start, RSS bytes, open descriptors, database bytes.
sampler() {
    local start=$1
    echo "t,rss_bytes,fds,db_bytes" >"$out/samples.csv"
    while true; do
        local pid
        pid=$(cat "$work/server.pid" 2>/dev/null || true)
        if [ -n "$pid" ] && [ -r "/proc/$pid/status" ]; then
            local rss fds size
            rss=$(awk '/^VmRSS:/ {print $2 * 1024}' "/proc/$pid/status" 2>/dev/null || echo "")
            fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
            size=$(cat "$db" "$db-wal" "$db-shm" 2>/dev/null | wc -c)
            [ -z "$rss" ] || echo "$(( $(date +%s) - start )),$rss,$fds,$size" >>"$out/samples.csv"
        fi
        sleep "$sample"
    done
}

# Gallery reads: a page of the gallery, then a finished drawing's PNG and time-lapse.
reader() {
    while true; do
        local page id
        page=$(curl -fs "$url/api/gallery?per=24" 2>/dev/null || true)
        id=$(printf '%s' "$page" | python3 -c 'import json, random, sys
try:
    d = json.load(sys.stdin)["drawings"]
    print(random.choice(d)["id"] if d else "")
except Exception:
    print("")' 2>/dev/null || true)
        if [ -n "$id" ]; then
            curl -fs -o /dev/null "$url/d/$id.png" 2>/dev/null || true
            curl -fs -o /dev/null "$url/d/$id.apng?max=240" 2>/dev/null || true
        fi
        sleep 1
    done
}

start=$(date +%s)
start_server 0
sampler "$start" & sampler_pid=$!
reader & reader_pid=$!
echo "round,start_s,p99_ms,p999_ms,ratio,expected,lost,outages,games" >"$out/rounds.csv"
rounds=$(( minutes * 60 / round ))
restart_round=$(( restart_at * 60 / round ))
echo "soak: $rounds rounds of $round s, $rooms rooms x $players, restart in round $restart_round; $bin; out $out" >&2
for n in $(seq 1 "$rounds"); do
    round_start=$(( $(date +%s) - start ))
    "$bin" replay --url "ws://127.0.0.1:$port/ws" --rooms "$rooms" --players "$players" \
        --duration "${round}s" --ramp 5 --rounds 1 --speed 2 --reconnect --reconnect-timeout 30 \
        --min-ratio 0 --quiet --json "$out/round-$n.json" >"$out/replay-$n.log" 2>&1 &
    replay_pid=$!
    if [ "$n" -eq "$restart_round" ]; then
        sleep $(( round / 2 ))
        old=$server_pid
        kill -TERM "$old"
        wait "$old" 2>/dev/null || true
        start_server "$n"
    fi
    wait "$replay_pid" || true
    replay_pid=""
    python3 - "$out/round-$n.json" "$n" "$round_start" >>"$out/rounds.csv" <<'EOF'
import json, sys
path, n, t = sys.argv[1:4]
try:
    d = json.load(open(path))
except Exception:
    print(f"{n},{t},,,,,,,")
    sys.exit(0)
lat, dl = d.get("latencyMs") or {}, d.get("delivery") or {}
print(",".join(str(x) for x in [n, t, lat.get("p99", ""), lat.get("p999", ""), dl.get("ratio", ""),
                                 dl.get("expected", ""), dl.get("lost", ""), len(d.get("outages") or []), d.get("gamesEnded", "")]))
EOF
    tail -1 "$out/rounds.csv" >&2
done

python3 "$root/benchmarks/soak_report.py" "$out"
