# Sourced by the cluster benchmarks under replay load (reconnect-storm.sh,
# rolling-restart.sh): the binary, the output folder, a cluster of `nodes` nodes with the
# per-address limits lifted (one load generator makes every room), and a wait until every
# seat of the replay is connected. Expects `root`, `nodes` and `out` (may be empty) set.

if [ -z "${DRAWSERVER_BIN:-}" ]; then
    DRAWSERVER_BIN=$root/.build/release/drawserver
    [ -x "$DRAWSERVER_BIN" ] || DRAWSERVER_BIN=$root/.build/debug/drawserver
fi
export DRAWSERVER_BIN
python=${PYTHON:-python3}
out=${out:-$(mktemp -d "/tmp/$(basename "$0" .sh).XXXXXX")}
mkdir -p "$out"
# PostgreSQL runs as the `postgres` account (scripts/pg-test-cluster): it must reach its folder.
chmod 755 "$out"
export DRAWSERVER_CLUSTER_DIR=$out/cluster
# The nodes' logs are kept in $out/logs.
trap 'mkdir -p "$out/logs"; cp "$out"/cluster/*.log "$out/logs/" 2>/dev/null; "$root/scripts/cluster" down >/dev/null 2>&1 || true' EXIT

status=$("$root/scripts/cluster" up --nodes "$nodes" -- --max-connections-per-ip 0 --ip-room-rate 1000000/1s --log-level warning)
url=$($python -c 'import json, sys; print(json.loads(sys.argv[1])["url"])' "$status")
node_urls=$($python -c 'import json, sys; print(" ".join(n["url"] for n in json.loads(sys.argv[1])["nodes"]))' "$status")
pids=$($python -c 'import json, sys; print(" ".join(str(n["pid"]) for n in json.loads(sys.argv[1])["nodes"]))' "$status")

# WebSocket connections open on the nodes, all together.
connected() {
    local total=0 u n
    for u in $node_urls; do
        n=$(curl -fsS "$u/metrics" 2>/dev/null | awk '$1 == "drawserver_connections" {print int($2)}')
        total=$((total + ${n:-0}))
    done
    echo "$total"
}

# Waits until SEATS connections are open while the replay PID runs (at most 120 s).
wait_connected() { # SEATS PID LOG
    local deadline=$((SECONDS + 120))
    while [ "$(connected)" -lt "$1" ]; do
        kill -0 "$2" 2>/dev/null && [ $SECONDS -lt $deadline ] || { echo "$(basename "$0"): the players did not all connect" >&2; cat "$3" >&2; exit 1; }
        sleep 0.5
    done
}
