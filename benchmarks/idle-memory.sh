#!/usr/bin/env bash
# Resident memory per idle connection (docs/BENCHMARKS.md, goal 6), for one binary or a
# before/after pair, without the rest of run.sh.
#
# Each run is run.sh's idle phase: a fresh `BIN serve` with a temporary --db and run.sh's
# serve flags, its VmRSS read 0.5 s after it listens, then
# `BIN replay --idle N --ramp 5 --warmup 3 --duration 15` (N connections that only send
# `hello` and stay open) and the server's VmRSS at the end of that run, with them open.
# Per connection = (VmRSS with them - VmRSS before) / connections welcomed, in KB of 1024
# bytes (VmRSS's unit), as run.sh's idle table prints it. Also printed: the server's CPU
# seconds over the whole run (connecting included). The binaries alternate (A B, B A, ...)
# and the median of each is printed at the end.
#
# Usage: benchmarks/idle-memory.sh --bin A [--baseline B] [--reps N] [--connections N]
#                                  [--threads T] [--pin] [--flags "..."] [--out DIR]
#   --bin, --baseline: drawserver binaries, each with its *.resources folders next to it.
#   --threads T: the server's event-loop threads (default 1: what run.sh's server, pinned to
#                one core, runs with, without pinning anything on a shared machine).
#   --pin: exactly run.sh's setup instead: server on core 0, replay on core 1, and the
#          server's default thread count (one per core it may use, so 1).
#   --flags "...": more serve flags for both binaries (e.g. "--header-timeout 0.1").
#   --out DIR: keeps each run's replay summary (JSON) there.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=""
baseline=""
reps=3
connections=10000
threads=1
pin=0
out=""
flags=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$2; shift 2 ;;
        --baseline) baseline=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --connections) connections=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --pin) pin=1; shift ;;
        --flags) flags=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
[ -n "$bin" ] || { echo "usage: $0 --bin A [--baseline B] [--reps N]" >&2; exit 2; }
out=${out:-$(mktemp -d /tmp/idle-memory.XXXXXX)}
mkdir -p "$out"
# N idle connections need that many descriptors in the server and in the client.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
nice=()
[ "$(id -u)" = 0 ] && nice=(nice -n -15)
server_cpu=() client_cpu=() thread_flags=(--threads "$threads")
if [ "$pin" = 1 ]; then
    server_cpu=(taskset -c 0) client_cpu=(taskset -c 1) thread_flags=()
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }

# One run: prints "label before_kb with_kb connections per_connection_kb cpu_seconds".
run_once() {
    local label=$1 binary=$2 n=$3
    local port dir pid before summary ticks
    port=$(free_port)
    dir=$(mktemp -d /tmp/idle-memory-run.XXXXXX)
    "${nice[@]}" "${server_cpu[@]}" "$binary" serve --port "$port" --db "$dir/db.sqlite" --log-level warning \
        --max-connections-per-ip 0 --ip-room-rate 1000000/1s --turn-end-seconds 0 --game-end-seconds 1 \
        "${thread_flags[@]}" $flags >"$dir/server.log" 2>&1 &
    pid=$!
    for _ in $(seq 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        kill -0 "$pid" 2>/dev/null || { echo "$label did not start: $(tail -5 "$dir/server.log")" >&2; return 1; }
        sleep 0.1
    done
    sleep 0.5
    before=$(rss_kb "$pid")
    summary="$out/summary-$n-$label.json"
    "${nice[@]}" "${client_cpu[@]}" "$binary" replay --url "ws://127.0.0.1:$port/ws" --quiet --idle "$connections" \
        --ramp 5 --warmup 3 --duration 15 --json "$summary" --server-pid "$pid" >"$dir/replay.log" 2>&1 ||
        echo "($label: replay exited $?: $(tail -3 "$dir/replay.log"))" >&2
    ticks=$(cpu_ticks "$pid")
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null || true
    rm -rf "$dir"
    python3 - "$summary" "$label" "$before" "$ticks" "$(getconf CLK_TCK)" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
before, end, n = int(sys.argv[3]), s["server"]["rssKBEnd"], s.get("idleConnections") or 0
print("%s %d %d %d %.2f %.2f" % (sys.argv[2], before, end, n, (end - before) / n if n else float("nan"), int(sys.argv[4]) / int(sys.argv[5])))
PY
}

labels=(bin) binaries=("$bin")
[ -n "$baseline" ] && labels=(baseline bin) binaries=("$baseline" "$bin")
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), nproc $(nproc), Linux $(uname -r), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "bin: $bin${baseline:+, baseline: $baseline}; $connections idle connections; $([ "$pin" = 1 ] && echo "pinned as run.sh" || echo "--threads $threads, unpinned")"
printf '%-4s %-9s %10s %10s %11s %9s %7s\n' run binary "before KB" "with KB" connections "KB/conn" "CPU s"
results="$out/runs.txt"
: >"$results"
for rep in $(seq "$reps"); do
    order=("${!labels[@]}")
    [ $((rep % 2)) = 0 ] && [ ${#labels[@]} = 2 ] && order=(1 0)
    for i in "${order[@]}"; do
        line=$(run_once "${labels[$i]}" "${binaries[$i]}" "$rep")
        echo "$rep $line" >>"$results"
        read -r label before with n per cpu <<<"$line"
        printf '%-4s %-9s %10s %10s %11s %9s %7s\n' "$rep" "$label" "$before" "$with" "$n" "$per" "$cpu"
    done
done
python3 - "$results" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    rep, label, before, with_, n, per, cpu = line.split()
    runs.setdefault(label, []).append(float(per))
for label, values in runs.items():
    print("median %-9s %.2f KB per connection (%s)" % (label, statistics.median(values), ", ".join("%.2f" % v for v in values)))
PY
