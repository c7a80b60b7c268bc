"""Plot of p99 against load for each server, from benchmarks/run.sh's runs.json.

Usage: overload_plot.py RUNS.json OUT.png
Each point is the median p99 of a server's runs at one load; the bars span its runs.
"""
import json
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

runs = [r for r in json.load(open(sys.argv[1]))["runs"] if r.get("label") == "load" and "p99" in r]
servers = sorted({r["server"] for r in runs})
fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
print("| server | rooms x 8 | p50 ms | p99 ms (runs) | p99.9 ms | deliveries/s | server CPU | admission engaged |")
print("|---|---|---|---|---|---|---|---|")
for server in servers:
    levels = sorted({r["rooms"] for r in runs if r["server"] == server})
    xs, medians, lows, highs = [], [], [], []
    for rooms in levels:
        rows = [r for r in runs if r["server"] == server and r["rooms"] == rooms]
        p99 = [r["p99"] for r in rows]
        xs.append(rooms)
        medians.append(statistics.median(p99))
        lows.append(statistics.median(p99) - min(p99))
        highs.append(max(p99) - statistics.median(p99))
        engaged = [r for r in rows if r.get("admissionEngagedAt")]
        print("| %s | %d | %.1f | %.1f (%s) | %.1f | %s | %.0f %% | %s |" % (
            server, rooms, statistics.median(r["p50"] for r in rows), statistics.median(p99),
            ", ".join("%.1f" % v for v in p99), statistics.median(r["p999"] for r in rows),
            "{:,.0f}".format(statistics.median(r["opsPerSec"] for r in rows)),
            statistics.median(r.get("serverCpuPct", 0) for r in rows),
            "in %d of %d runs, first at %s s" % (len(engaged), len(rows), ", ".join("%.0f" % r["admissionEngagedAt"][0] for r in engaged))
            if engaged else ("no" if server.startswith("drawserver") else "n/a")))
    ax.errorbar(xs, medians, yerr=[lows, highs], marker="o", capsize=3, label=server)
ax.axhline(50, color="grey", linestyle="--", linewidth=1, label="50 ms")
ax.set_yscale("log")
ax.set_xlabel("busy rooms x 8 players (a drawer at 60 frames/s each)")
ax.set_ylabel("p99 delivery latency, ms")
ax.set_title("p99 against load, server on one core (median and range of runs)")
ax.legend()
ax.grid(True, which="both", alpha=0.3)
fig.tight_layout()
fig.savefig(sys.argv[2])
print("plot: " + sys.argv[2])
