"""Monitoring as operators run it (issue 37 item 5): a cluster started with
`scripts/cluster up --monitor` has a real Prometheus scraping every node and HAProxy with the
repo's rules (monitoring/prometheus-rules). This checks that every target is up and the
recording rules have values, then kills node2 with SIGKILL (`scripts/cluster kill node2`)
and waits for DrawserverNodeDown to fire for node2 (and only node2), then for HAProxy's
DrawserverBalancerNodeDown; it prints how long each took after the kill.

Usage: python3 tests/cluster/cluster_monitor.py PROMETHEUS_URL  (with DRAWSERVER_CLUSTER_DIR
set as for scripts/cluster; prints '4 passed, 0 failed')
"""
import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request


def api(base, path, **params):
    url = f"{base}/api/v1/{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=5) as reply:
        body = json.load(reply)
    assert body.get("status") == "success", body
    return body["data"]


def wait_for(what, seconds, check):
    deadline = time.monotonic() + seconds
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.25)


def firing(base, alert):
    query = f'ALERTS{{alertname="{alert}", alertstate="firing"}}'
    return api(base, "query", query=query)["result"]


def main(base):
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    passed = failed = 0

    def check(name, body):
        nonlocal passed, failed
        try:
            body()
            print(f"ok   {name}")
            passed += 1
        except AssertionError as error:
            print(f"FAIL {name}: {error}")
            failed += 1

    def targets_up():
        def all_up():
            active = api(base, "targets")["activeTargets"]
            jobs = sorted((t["labels"]["job"], t["labels"].get("node", "")) for t in active if t["health"] == "up")
            return jobs if len(jobs) == len(active) and len(active) >= 3 else None
        jobs = wait_for("every target up", 30, all_up)
        assert ("drawserver", "node1") in jobs and ("drawserver", "node2") in jobs and ("haproxy", "") in jobs, jobs
        # The recording rules evaluate (every 15 s) over the scraped series.
        value = wait_for("drawserver:rooms:sum recorded", 40, lambda: api(base, "query", query="drawserver:rooms:sum")["result"])
        assert float(value[0]["value"][1]) >= 0, value
        assert not firing(base, "DrawserverNodeDown"), "nothing is down yet"

    timings = {}

    def node_down_fires():
        subprocess.run([os.path.join(root, "scripts", "cluster"), "kill", "node2"], check=True)
        killed = time.monotonic()
        alerts = wait_for("DrawserverNodeDown firing for node2", 60, lambda: firing(base, "DrawserverNodeDown"))
        timings["DrawserverNodeDown"] = time.monotonic() - killed
        nodes = sorted(a["metric"].get("node") for a in alerts)
        assert nodes == ["node2"], f"fired for {nodes}"
        assert alerts[0]["metric"].get("severity") == "critical", alerts
        balancer = wait_for("DrawserverBalancerNodeDown firing", 60, lambda: firing(base, "DrawserverBalancerNodeDown"))
        timings["DrawserverBalancerNodeDown"] = time.monotonic() - killed
        assert [a["metric"].get("server") for a in balancer] == ["node2"], balancer

    def survivor_quiet():
        assert not any(a["metric"].get("node") == "node1" for a in firing(base, "DrawserverNodeDown"))
        up = api(base, "query", query='up{job="drawserver", node="node1"}')["result"]
        assert up and up[0]["value"][1] == "1", up

    def dashboard_queries():
        # Every panel of the Grafana dashboard queries this Prometheus without an error.
        path = os.path.join(root, "monitoring", "grafana", "drawserver.json")
        dashboard = json.load(open(path))
        exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
        assert exprs, "no panel"
        for expr in exprs:
            api(base, "query", query=expr)
        print(f"     {len(exprs)} dashboard queries answered")

    check("every node, HAProxy and the recording rules are scraped", targets_up)
    check("every query of the Grafana dashboard is valid", dashboard_queries)
    check("a killed node fires DrawserverNodeDown, then DrawserverBalancerNodeDown", node_down_fires)
    check("the surviving node stays up and quiet", survivor_quiet)
    for alert, seconds in timings.items():
        print(f"{alert}: firing {seconds:.1f} s after the kill")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
