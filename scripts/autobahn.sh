#!/usr/bin/env bash
# WebSocket conformance: runs the Autobahn|Testsuite fuzzingclient (wstest) against
# `drawserver serve --conformance-echo` (the echo route /conformance/echo), without and
# with permessage-deflate, prints per-group counts from reports/servers/index.json and
# exits non-zero when any case is FAILED (or UNIMPLEMENTED: every group run is expected).
#
#   scripts/autobahn.sh                  # full run: groups 1-10 plain, then 12-13 with deflate
#   scripts/autobahn.sh --quick          # CI subset: groups 1-10 plain, and the first 4 cases
#                                        # (16 B to 1 KiB messages) of each 12.x/13.x subgroup
#   scripts/autobahn.sh --mode plain --cases '5.*,6.2.*'
#   scripts/autobahn.sh --setup-only     # just create the virtualenv
#
# Options: --mode plain|deflate|both, --cases LIST (comma-separated wstest patterns, for
# every mode run), --binary PATH (default: release build in .build-conformance),
# --out DIR (default: out/autobahn). Environment: AUTOBAHN_PYTHON2 (a Python 2.7
# interpreter; default pyenv's 2.7.18, else python2.7 on PATH).
#
# The testsuite is Python 2 code: a Python 3 venv brings virtualenv<20.22 (the last that
# makes Python 2 environments), which makes .venv-autobahn/py2 with autobahntestsuite
# 25.10.1 and its dependencies pinned to the versions pip resolves for Python 2.7.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=both
cases=""
quick=false
setup_only=false
binary=""
out="$root/out/autobahn"
while [ $# -gt 0 ]; do
    case "$1" in
        --mode) mode=$2; shift 2 ;;
        --cases) cases=$2; shift 2 ;;
        --quick) quick=true; shift ;;
        --setup-only) setup_only=true; shift ;;
        --binary) binary=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) echo "autobahn: unknown option $1" >&2; exit 2 ;;
    esac
done
case "$mode" in plain|deflate|both) ;; *) echo "autobahn: --mode plain|deflate|both" >&2; exit 2 ;; esac
plain_cases="1.*,2.*,3.*,4.*,5.*,6.*,7.*,8.*,9.*,10.*"
deflate_cases="12.*,13.*"
if $quick; then
    # Every payload kind (12.1-12.5) and every negotiated parameter set (13.1-13.7), with
    # the small messages only: the large ones make the full compression run take 16 minutes.
    deflate_cases=$(python3 -c 'print(",".join("%d.%d.%d" % (g, s, n) for g, subs in ((12, 5), (13, 7)) for s in range(1, subs + 1) for n in range(1, 5)))')
fi

# ---- the virtualenv --------------------------------------------------------------------
venv="$root/.venv-autobahn"
wstest="$venv/py2/bin/wstest"
setup_venv() {
    local python2=${AUTOBAHN_PYTHON2:-$HOME/.pyenv/versions/2.7.18/bin/python}
    if [ ! -x "$python2" ]; then
        python2=$(command -v python2.7 || true)
    fi
    if [ -z "$python2" ] || ! "$python2" -c 'import sys; assert sys.version_info[:2] == (2, 7)' 2>/dev/null; then
        echo "autobahn: needs Python 2.7 (set AUTOBAHN_PYTHON2)" >&2
        exit 1
    fi
    echo "autobahn: creating $venv with $python2"
    rm -rf "$venv"
    python3 -m venv "$venv/bootstrap"
    "$venv/bootstrap/bin/pip" install -q --disable-pip-version-check 'virtualenv<20.22'
    "$venv/bootstrap/bin/virtualenv" -q -p "$python2" "$venv/py2"
    # Pins: what pip resolves for autobahntestsuite 25.10.1 on Python 2.7 (Twisted 19.10,
    # cryptography 3.3, ...), fixed so that a later release cannot break the install.
    "$venv/py2/bin/pip" install -q --disable-pip-version-check --no-warn-script-location \
        autobahntestsuite==25.10.1 autobahn==0.10.9 Twisted==19.10.0 txaio==2.1.0 \
        wsaccel==0.6.6 ujson==2.0.3 zope.interface==4.6.0 PyHamcrest==1.10.1 \
        incremental==16.10.1 idna==2.10 typing==3.10.0.0 hyperlink==21.0.0 attrs==21.4.0 \
        constantly==15.1.0 Automat==22.10.0 MarkupSafe==1.1.1 Jinja2==2.11.3 \
        ipaddress==1.0.23 pycparser==2.21 cffi==1.15.1 enum34==1.1.10 cryptography==3.3.2 \
        pyOpenSSL==19.1.0 Werkzeug==1.0.1 klein==17.10.0 pyasn1==0.5.1 \
        pyasn1-modules==0.3.0 service-identity==18.1.0 linecache2==1.0.0 traceback2==1.4.0 \
        argparse==1.4.0 unittest2==1.1.0 six==1.16.0 2>&1 | grep -v DEPRECATION || true
    "$wstest" --autobahnversion
}
if [ ! -x "$wstest" ] || ! "$wstest" --autobahnversion >/dev/null 2>&1; then
    setup_venv
fi
$setup_only && exit 0

# ---- the server --------------------------------------------------------------------------
if [ -z "$binary" ]; then
    swift build -c release --scratch-path .build-conformance --product drawserver
    binary="$root/.build-conformance/release/drawserver"
fi
[ -x "$binary" ] || { echo "autobahn: no server binary at $binary" >&2; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start_server() { # $1: extra flag or ""
    local port
    port=$(free_port)
    local flags=(serve --conformance-echo --host 127.0.0.1 --port "$port" --db "$work/conformance.sqlite" --log-level error)
    if "$binary" serve --help 2>&1 | grep -q -- '--max-connections-per-ip'; then
        flags+=(--max-connections-per-ip 0)
    fi
    if [ -n "$1" ]; then flags+=("$1"); fi
    "$binary" "${flags[@]}" >"$out/server-$run.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do
        if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/readyz', timeout=1)" 2>/dev/null; then
            url="ws://127.0.0.1:$port/conformance/echo"
            return 0
        fi
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "autobahn: the server did not become ready" >&2
    cat "$out/server-$run.log" >&2
    exit 1
}

stop_server() {
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}

# ---- one run -------------------------------------------------------------------------------
status=0
run_suite() { # $1: plain|deflate, $2: default case list
    run=$1
    local list=${cases:-$2}
    local reports="$out/$run"
    rm -rf "$reports"
    mkdir -p "$reports"
    start_server "$([ "$run" = deflate ] && echo --enable-permessage-deflate || true)"
    python3 - "$url" "$list" "$reports" >"$work/spec-$run.json" <<'EOF'
import json, sys
url, cases, reports = sys.argv[1:]
print(json.dumps({
    "outdir": reports + "/reports/servers",
    "servers": [{"agent": "drawserver", "url": url}],
    "cases": [c.strip() for c in cases.split(",") if c.strip()],
    "exclude-cases": [],
    "exclude-agent-cases": {},
}, indent=2))
EOF
    echo "== autobahn $run: cases ${list:0:60}$([ ${#list} -gt 60 ] && echo ...) against $url"
    local started=$SECONDS
    # wstest writes its reports relative to the working directory.
    (cd "$reports" && timeout 3600 "$wstest" -m fuzzingclient -s "$work/spec-$run.json" >"$reports/wstest.log" 2>&1) || {
        echo "autobahn: wstest failed (exit $?); last lines:" >&2
        tail -20 "$reports/wstest.log" >&2
        status=1
    }
    local elapsed=$((SECONDS - started))
    stop_server
    echo "== autobahn $run: ${elapsed}s"
    python3 - "$reports/reports/servers/index.json" "$run" "$elapsed" <<'EOF' || status=1
import collections, json, sys
path, run, elapsed = sys.argv[1:]
try:
    index = json.load(open(path))
except (OSError, ValueError) as error:
    print("autobahn: no report (%s)" % error)
    sys.exit(1)
results = next(iter(index.values()))
kinds = ["OK", "NON-STRICT", "INFORMATIONAL", "FAILED", "UNIMPLEMENTED"]
groups = collections.defaultdict(collections.Counter)
bad = []
for case, result in results.items():
    behavior = result["behavior"]
    groups[int(case.split(".")[0])][behavior] += 1
    if behavior not in ("OK", "NON-STRICT", "INFORMATIONAL") or result.get("behaviorClose") == "FAILED":
        bad.append((case, behavior, result.get("behaviorClose"), result.get("remoteCloseCode")))
print("| group (%s) | cases | %s |" % (run, " | ".join(kinds)))
print("|---|---:|" + "---:|" * len(kinds))
total = collections.Counter()
for group in sorted(groups):
    counts = groups[group]
    total.update(counts)
    print("| %d | %d | %s |" % (group, sum(counts.values()), " | ".join(str(counts[k]) for k in kinds)))
print("| all | %d | %s |" % (sum(total.values()), " | ".join(str(total[k]) for k in kinds)))
print("%s: %d cases in %ss" % (run, sum(total.values()), elapsed))
def key(case):
    return [int(part) for part in case.split(".")]
for case, behavior, close, code in sorted(bad, key=lambda item: key(item[0])):
    print("  %s %s (close %s, code %s)" % (case, behavior, close, code))
sys.exit(1 if bad else 0)
EOF
}

mkdir -p "$out"
if [ "$mode" = plain ] || [ "$mode" = both ]; then
    run_suite plain "$plain_cases"
fi
if [ "$mode" = deflate ] || [ "$mode" = both ]; then
    run_suite deflate "$deflate_cases"
fi
if [ $status -ne 0 ]; then
    echo "autobahn: FAILED (reports under $out)"
else
    echo "autobahn: all cases OK, NON-STRICT or INFORMATIONAL (reports under $out)"
fi
exit $status
