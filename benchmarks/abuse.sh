#!/usr/bin/env bash
# Does an abusive client raise the latency of other rooms? (docs/RELIABILITY.md)
#
# The same `drawserver replay` load (ROOMS rooms x 8 players, drawers at 60 frames/s) runs
# against a release drawserver alone and with benchmarks/abuse/flooder.py attacking the same
# server, alternating (alone, flood, flood, alone, ...), and the medians are compared. The
# server is pinned to core 0, the replay client and the flooder to core 1 (the flooder at
# normal priority, the replay client at nice -15 so the flood cannot starve the measurement).
#
# The attacker connects from 127.0.0.2, so it meets the default per-address limits like
# any one client would, while the measured load from 127.0.0.1 is exempt
# (--unlimited-addresses). --attacker-unlimited exempts the attacker too: the worst case
# of many attacking addresses at once.
#
# Usage: benchmarks/abuse.sh [--rooms N] [--reps N] [--duration S] [--bin PATH] [--out DIR] [--attacker-unlimited]
# Environment: FLOODER_ARGS, extra arguments for flooder.py (e.g. "--pairs 0 --chatters 0 --oversize 0"
# to measure one kind of abuse alone).
set -euo pipefail
cd "$(dirname "$0")/.."

rooms=32
reps=3
duration=15
bin=""
out=""
unlimited="127.0.0.1"
while [ $# -gt 0 ]; do
    case "$1" in
        --rooms) rooms=$2; shift 2 ;;
        --reps) reps=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --bin) bin=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --attacker-unlimited) unlimited="127.0.0.1,127.0.0.2"; shift ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
[ "$(nproc)" -ge 2 ] || { echo "abuse.sh needs 2 cores" >&2; exit 1; }
venv=.venv-bench
[ -x "$venv/bin/python" ] || "${PYTHON:-python3}" -m venv "$venv"
"$venv/bin/python" -c 'import websockets' 2>/dev/null || "$venv/bin/pip" install -q 'websockets>=13'
if [ -z "$bin" ]; then
    swift build -c release --product drawserver
    bin="$(pwd)/.build/release/drawserver"
fi
out=${out:-$(mktemp -d /tmp/drawserver-abuse.XXXXXX)}
mkdir -p "$out"
echo "abuse.sh: results in $out"
exec "$venv/bin/python" - "$bin" "$out" "$rooms" "$reps" "$duration" "$unlimited" <<'PYTHON'
import json, os, signal, socket, statistics, subprocess, sys, tempfile, time, urllib.request

bin, out, rooms, reps, duration, unlimited = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
python = sys.executable
logs = ["benchmarks/logs/sample-seed3-60fps.ndjson", "benchmarks/logs/sample-seed4-60fps.ndjson"]
NICE = ["nice", "-n", "-15"] if os.geteuid() == 0 else []


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def metric(port, name):
    try:
        text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=5).read().decode()
    except OSError:
        return None
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and not line.startswith("#"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def run(flood):
    port = free_port()
    work = tempfile.mkdtemp(prefix="abuse-")
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen(NICE + ["taskset", "-c", "0", bin, "serve", "--port", str(port), "--db", os.path.join(work, "db.sqlite"),
                                      "--log-level", "error", "--unlimited-addresses", unlimited,
                                      "--turn-end-seconds", "0", "--game-end-seconds", "1"], stdout=log, stderr=subprocess.STDOUT)
    for _ in range(200):
        try:
            if urllib.request.urlopen("http://127.0.0.1:%d/readyz" % port, timeout=1).status == 200:
                break
        except OSError:
            time.sleep(0.05)
    summary = os.path.join(work, "summary.json")
    replay = subprocess.Popen(NICE + ["taskset", "-c", "1", bin, "replay", "--url", "ws://127.0.0.1:%d/ws" % port, "--quiet",
                                      "--duration", str(duration), "--json", summary, "--server-pid", str(server.pid),
                                      "--rooms", str(rooms), "--players", "8", "--ramp", "2", "--warmup", "2"]
                              + sum([["--log", l] for l in logs], []))
    flooder = None
    if flood:
        # Starts once the replay rooms exist, and stops as the drawers stop.
        time.sleep(2.5)
        flooder = subprocess.Popen(["taskset", "-c", "1", python, "benchmarks/abuse/flooder.py", "ws://127.0.0.1:%d/ws" % port,
                                    str(duration - 2.5), "--source", "127.0.0.2"] + os.environ.get("FLOODER_ARGS", "").split(),
                                   stdout=subprocess.PIPE, text=True)
    replay.wait()
    flood_counters = json.loads(flooder.communicate()[0] or "{}") if flooder else {}
    limited = metric(port, "drawserver_rate_limited_total")
    server.send_signal(signal.SIGTERM)
    server.wait(30)
    s = json.load(open(summary))
    subprocess.call(["rm", "-rf", work])
    row = {"flood": flood, "opsPerSec": s["opsDeliveredPerSecond"], "p50": s["latencyMs"]["p50"], "p99": s["latencyMs"]["p99"],
           "p999": s["latencyMs"]["p999"], "max": s["latencyMs"]["max"], "ratio": s["delivery"]["ratio"], "lost": s["delivery"]["lost"],
           "serverCpuPct": (s.get("server") or {}).get("cpuPercentOfOneCore", 0), "clientBottleneck": s["client"]["bottleneck"],
           "sendLagP99": s["client"]["sendLagMs"]["p99"], "rateLimited": limited, "flooder": flood_counters}
    print("  %-6s %6.0f ops/s  p50 %6.2f  p99 %7.2f  p99.9 %7.2f  max %7.1f ms  ratio %.6f  server %3.0f%% CPU  rate-limited %s  %s" % (
        "flood" if flood else "alone", row["opsPerSec"], row["p50"], row["p99"], row["p999"], row["max"], row["ratio"],
        row["serverCpuPct"], "%.0f" % limited if limited is not None else "?", json.dumps(flood_counters)), flush=True)
    return row


rows = []
print("== %d rooms x 8 players at 60 frames/s, %d repetition(s) of %.0f s, alone vs with the flooder from 127.0.0.2 (exempt from per-address limits: %s)" % (rooms, reps, duration, unlimited), flush=True)
for rep in range(reps):
    for flood in ((False, True) if rep % 2 == 0 else (True, False)):
        rows.append(run(flood))
json.dump(rows, open(os.path.join(out, "runs.json"), "w"), indent=1)

def med(flood, key):
    return statistics.median(r[key] for r in rows if r["flood"] == flood)

print()
print("| condition | deliveries/s | p50 ms | p99 ms | p99.9 ms | max ms | delivery ratio | server CPU |")
print("|---|---|---|---|---|---|---|---|")
for flood in (False, True):
    print("| %s | %s | %.2f | %.2f | %.2f | %.1f | %.6f | %.0f %% |" % (
        "with the flooder" if flood else "alone", "{:,.0f}".format(med(flood, "opsPerSec")), med(flood, "p50"), med(flood, "p99"),
        med(flood, "p999"), med(flood, "max"), min(r["ratio"] for r in rows if r["flood"] == flood), med(flood, "serverCpuPct")))
PYTHON
