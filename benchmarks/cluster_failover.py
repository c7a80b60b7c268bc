"""Failover timing for benchmarks/cluster.sh: kill the node that runs measured rooms, and
time kill -> the room's next relayed frame, as its players see it.

For each kill: `--rooms` games are started on the victim node (a drawer, a guesser still
guessing, a third player who guessed), the victim gets SIGKILL (scripts/cluster kill), the
drawer and the guesser of every room reconnect through the balancer with their tokens at
once (following `redirect`, as the browser client does), the drawer draws again as soon as
its room is back, and the sample is the moment the guesser receives that frame. The victim
is then restarted and the next kill takes the next node.

Usage: python3 benchmarks/cluster_failover.py BALANCER_URL MODERATOR_TOKEN KILLS ROOMS OUT.json
(with DRAWSERVER_CLUSTER_DIR set as for scripts/cluster)
"""
import json
import logging
import os
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "cluster"))
import cluster_scale as cs  # noqa: E402


# The clients of a killed node time out their keepalive pings: expected, not news.
logging.getLogger("websockets").setLevel(logging.CRITICAL)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def measure(base, code, drawer, guesser, killed, samples, errors):
    try:
        results = {}
        threads = [threading.Thread(target=lambda p=p: results.setdefault(p.name, p.back_in_room(code, timeout=30))) for p in (drawer, guesser)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        drawer.ws.send(cs.begin(400, 300))
        while not isinstance(guesser.ws.recv(timeout=10), bytes):
            pass
        samples.append(time.monotonic() - killed)
    except Exception as error:  # noqa: BLE001 - a lost room is reported, not fatal
        errors.append(f"{code}: {error!r}")


def main(base, token, kills, rooms, out):
    samples, errors, per_kill = [], [], []
    nodes = [n["id"] for n in cs.status()["nodes"]]
    for k in range(kills):
        victim = nodes[k % len(nodes)]
        games = [cs.game_on(base, victim, f"K{k}R{r}") for r in range(rooms)]
        time.sleep(0.3)  # the last strokes' batch is committed (75 ms batches)
        subprocess.run([cs.CLUSTER, "kill", victim], check=True)
        killed = time.monotonic()
        before = len(samples)
        workers = [threading.Thread(target=measure, args=(base, code, d, g, killed, samples, errors)) for code, d, g in games]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        per_kill.append(samples[before:])
        print(f"kill {k + 1}/{kills} ({victim}): " + " ".join(f"{s:.2f}" for s in samples[before:]) + " s", flush=True)
        for _, d, g in games:
            for p in (d, g):
                try:
                    p.ws.close()
                except Exception:  # noqa: BLE001
                    pass
        restarted = subprocess.run([cs.CLUSTER, "restart", victim], capture_output=True, text=True)
        if restarted.returncode != 0:
            errors.append(f"restart {victim}: {restarted.stderr.strip()}")
            print(f"restart {victim} failed: {restarted.stderr.strip()}", flush=True)
    summary = {
        "kills": kills, "rooms_per_kill": rooms, "samples": len(samples), "lost": len(errors), "errors": errors[:10],
        "p50_s": round(statistics.median(samples), 3) if samples else None,
        "p99_s": round(percentile(samples, 99), 3) if samples else None,
        "max_s": round(max(samples), 3) if samples else None,
        "all_s": [round(s, 3) for s in samples],
    }
    with open(out, "w") as f:
        json.dump(summary, f, indent=1)
    print(f"kill -> next relayed frame: p50 {summary['p50_s']} s, p99 {summary['p99_s']} s, max {summary['max_s']} s "
          f"over {len(samples)} rooms and {kills} kills; rooms lost: {len(errors)}")
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]))
