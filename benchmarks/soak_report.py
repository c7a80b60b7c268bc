"""Table and plot of a soak run (benchmarks/soak.sh): memory, descriptors, database size and
p99 over time.

Usage: soak_report.py OUT_DIR
Reads OUT_DIR/samples.csv and OUT_DIR/rounds.csv; prints one row per round (the samples
taken during it: last RSS, descriptors, database size) and writes OUT_DIR/soak.png when
matplotlib is installed.
"""
import csv
import os
import sys

out = sys.argv[1]
samples = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(open(os.path.join(out, "samples.csv")))]
rounds = list(csv.DictReader(open(os.path.join(out, "rounds.csv"))))


def during(start, end):
    return [s for s in samples if start <= s["t"] < end]


print("| round | minute | RSS MB (end) | descriptors (end) | database MB (end) | p99 ms | p99.9 ms | delivered | outages |")
print("|---|---|---|---|---|---|---|---|---|")
for i, r in enumerate(rounds):
    start = float(r["start_s"])
    end = float(rounds[i + 1]["start_s"]) if i + 1 < len(rounds) else float("inf")
    inside = during(start, end)
    last = inside[-1] if inside else None
    ratio = r["ratio"]
    print("| %s | %.1f | %s | %s | %s | %s | %s | %s | %s |" % (
        r["round"], start / 60,
        "%.1f" % (last["rss_bytes"] / 1e6) if last else "-",
        "%d" % last["fds"] if last else "-",
        "%.1f" % (last["db_bytes"] / 1e6) if last else "-",
        r["p99_ms"] or "-", r["p999_ms"] or "-",
        ("%.6f" % float(ratio)) if ratio else "-", r["outages"] or "0"))

if samples:
    rss = [s["rss_bytes"] / 1e6 for s in samples]
    print("RSS: min %.1f MB, max %.1f MB, last %.1f MB; descriptors: min %d, max %d, last %d; database: last %.1f MB"
          % (min(rss), max(rss), rss[-1], min(s["fds"] for s in samples), max(s["fds"] for s in samples),
             samples[-1]["fds"], samples[-1]["db_bytes"] / 1e6))

try:
    import matplotlib
except ImportError:
    print("(no plot: pip install matplotlib)")
    sys.exit(0)
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

minutes = [s["t"] / 60 for s in samples]
fig, axes = plt.subplots(4, 1, figsize=(9, 10), dpi=100, sharex=True)
axes[0].plot(minutes, [s["rss_bytes"] / 1e6 for s in samples])
axes[0].set_ylabel("resident memory (MB)")
axes[1].plot(minutes, [s["fds"] for s in samples])
axes[1].set_ylabel("open descriptors")
axes[2].plot(minutes, [s["db_bytes"] / 1e6 for s in samples])
axes[2].set_ylabel("database (MB)")
points = [(float(r["start_s"]) / 60, float(r["p99_ms"])) for r in rounds if r["p99_ms"]]
axes[3].plot([p[0] for p in points], [p[1] for p in points], marker="o")
axes[3].set_ylabel("p99 per round (ms)")
axes[3].set_xlabel("minutes")
for ax in axes:
    ax.grid(alpha=0.3)
    ax.set_ylim(bottom=0)
fig.suptitle("drawserver soak: rounds of new connections and rooms, a restart halfway")
fig.tight_layout()
fig.savefig(os.path.join(out, "soak.png"))
print("plot:", os.path.join(out, "soak.png"))
