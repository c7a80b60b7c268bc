#!/usr/bin/env bash
# libFuzzer runs of the fuzz/ package: FuzzFrames (binary drawing codec, Drawing, stroke
# logs), FuzzMessages (JSON client messages) and FuzzHTTPHead (what a client sends on a new
# HTTP connection, through the HTTP edge's guard). See docs/RELIABILITY-conformance.md.
#
#   scripts/fuzz.sh                       # the long run: 10 minutes per target
#   scripts/fuzz.sh --seconds 30          # a short pass (what scripts/test.d/50-fuzz-smoke runs)
#   scripts/fuzz.sh --target frames --seconds 3600 --asan
#   scripts/fuzz.sh --merge               # then fold new coverage into fuzz/corpus/ (-set_cover_merge=1)
#
# Options: --target frames|messages|http|all (both: frames and messages), --seconds N per
# target, --asan (also AddressSanitizer: slower, separate build folder), --merge, --parallel
# (the targets at once, sharing the cores), --work DIR (generated corpus and crash artifacts; default
# out/fuzz, kept between runs). Exits non-zero when a target crashes (an invariant broke)
# and prints the crashing input's path; replay it with `fuzz/.build-fuzz/release/FuzzX FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

target=all
seconds=600
asan=false
merge=false
parallel=false
work="$root/out/fuzz"
while [ $# -gt 0 ]; do
    case "$1" in
        --target) target=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        --asan) asan=true; shift ;;
        --merge) merge=true; shift ;;
        --parallel) parallel=true; shift ;;
        --work) work=$2; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "fuzz: unknown option $1" >&2; exit 2 ;;
    esac
done
case "$target" in
    frames) targets=(frames) ;;
    messages) targets=(messages) ;;
    http) targets=(http) ;;
    both) targets=(frames messages) ;;
    all) targets=(frames messages http) ;;
    *) echo "fuzz: --target frames|messages|http|both|all" >&2; exit 2 ;;
esac

# `swift build --sanitize fuzzer`, not only `-Xswiftc -sanitize=fuzzer`: with SwiftPM's own
# option it does not rename the executables' entry point (`--defsym main=FuzzFrames_main`),
# so libFuzzer's main links. -parse-as-library: the targets have no top-level code.
# AddressSanitizer: NOT a second `--sanitize address` (SwiftPM passes it to swiftc as a
# separate -sanitize= option and the last one wins, dropping the coverage instrumentation
# silently) but one combined -sanitize=fuzzer,address after SwiftPM's own.
sanitizers=(--sanitize fuzzer)
scratch=.build-fuzz
if $asan; then
    sanitizers+=(-Xswiftc -sanitize=fuzzer,address)
    scratch=.build-fuzz-asan
fi
(cd fuzz && swift build -c release "${sanitizers[@]}" -Xswiftc -parse-as-library --scratch-path "$scratch")
bin="$root/fuzz/$scratch/release"

# The Swift runtime's own crash backtracer would take the trap (SIGILL) of a broken invariant
# before libFuzzer's handler, and libFuzzer would then never write the crashing input.
export SWIFT_BACKTRACE=enable=no

binary_of() { case "$1" in frames) echo "$bin/FuzzFrames" ;; messages) echo "$bin/FuzzMessages" ;; http) echo "$bin/FuzzHTTPHead" ;; esac; }
options_of() {
    case "$1" in
        # Binary frames may be 64 KiB on the wire; 8 KiB inputs reach every opcode mix.
        frames) echo "-max_len=8192" ;;
        # Text frames are 4 KiB at most.
        messages) echo "-max_len=4096 -dict=$root/fuzz/messages.dict" ;;
        # Past the target's 512-byte head limit, with room for a body and a second request.
        http) echo "-max_len=2048 -dict=$root/fuzz/http.dict" ;;
    esac
}

run_target() { # $1: frames|messages|http
    local name=$1
    local corpus="$work/$name" artifacts="$work/artifacts/$name/"
    mkdir -p "$corpus" "$artifacts"
    local log="$work/$name.log"
    echo "== fuzz $name: ${seconds}s"
    local rc=0
    # shellcheck disable=SC2046
    "$(binary_of "$name")" $(options_of "$name") -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts" \
        "$corpus" "$root/fuzz/corpus/$name" >"$log" 2>&1 || rc=$?
    if python3 - "$log" "$name" "$rc" <<'EOF'
import re, sys
log, name, rc = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(log, errors="replace").read()
stats = dict(re.findall(r"stat::(\w+):\s+(\d+)", text))
status = re.findall(r"#(\d+)\s+(?:DONE|REDUCE|NEW|pulse|INITED)\s+cov: (\d+) ft: (\d+) corp: (\d+)/(\S+)", text)
inited = re.search(r"INITED cov: (\d+) ft: (\d+)", text)
last = status[-1] if status else ("?", "?", "?", "?", "?")
print("%s: %s runs, %s exec/s, coverage %s edges (%s at start), %s features, corpus %s inputs (%s), %s new, peak RSS %s MB, %s" % (
    name, stats.get("number_of_executed_units", last[0]), stats.get("average_exec_per_sec", "?"),
    last[1], inited.group(1) if inited else "?", last[2], last[3], last[4],
    stats.get("new_units_added", "?"), stats.get("peak_rss_mb", "?"),
    "no crash" if rc == 0 else "CRASH (exit %d)" % rc))
if rc == 0 and not inited:
    print("fuzz: %s reported no coverage: the build is not instrumented (-sanitize=fuzzer lost?)" % name)
    sys.exit(1)
EOF
    then :; else rc=1; fi
    if [ $rc -ne 0 ]; then
        grep -E "invariant violated|Fatal error|ERROR: |SUMMARY|Test unit written" "$log" | head -20 >&2
        grep -E "^ *#[0-9]+ 0x" "$log" | head -25 >&2 || true
        for file in "$artifacts"*; do
            [ -f "$file" ] || continue
            echo "fuzz: input $file ($(wc -c <"$file") bytes):" >&2
            python3 -c 'import sys; print(open(sys.argv[1], "rb").read()[:512].hex(" "))' "$file" >&2
        done
        echo "fuzz: $name failed; log $log, crashing inputs (if any) under $artifacts" >&2
        return 1
    fi
    if $merge; then
        local merged
        merged=$(mktemp -d)
        cp "$root/fuzz/corpus/$name"/seed-* "$merged/" 2>/dev/null || true
        # Keep the hand-written seeds, then add only generated inputs that add coverage.
        "$(binary_of "$name")" $(options_of "$name") -set_cover_merge=1 "$merged" "$root/fuzz/corpus/$name" "$corpus" \
            >"$work/$name-merge.log" 2>&1
        rm -f "$root/fuzz/corpus/$name"/[0-9a-f]*
        for file in "$merged"/*; do
            case "$(basename "$file")" in seed-*) ;; *) cp "$file" "$root/fuzz/corpus/$name/" ;; esac
        done
        rm -rf "$merged"
        echo "$name: corpus now $(ls "$root/fuzz/corpus/$name" | wc -l) files, $(du -sb "$root/fuzz/corpus/$name" | cut -f1) bytes"
    fi
}

status=0
if $parallel && [ ${#targets[@]} -gt 1 ]; then
    pids=()
    for name in "${targets[@]}"; do
        run_target "$name" & pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || status=1; done
else
    for name in "${targets[@]}"; do
        run_target "$name" || status=1
    done
fi
exit $status
