#!/usr/bin/env python3
"""make bench-scale (not a test; record 0541, docs/performance/scale.md).

One daemon on SQLite, one and two replicas on PostgreSQL, on copies of the same database, in one
run on this machine:
  - missions.today from 64 connections (closed loop) over the database's runners: throughput, p99;
  - runs.ingest from 8 connections, every request a new run: runs/s, p99;
  - 1,000 racers in 100 rooms, a point a second each: position -> ranking delay p50/p99/max (two
    replicas: each runner sends through one and watches its race on the other);
  - the server's ceiling of notifying commits (pgbench, `SELECT pg_notify(...)` from 8 clients)
    next to the notifications the daemons send at most (one per replica per coalescing window).
Runs next to scripts/with-postgres.sh's server (RUNUS_TEST_POSTGRES). Standard library only.

usage: bench_scale.py BIN DB MODEL  (BENCH_RUNS, BENCH_SECONDS, RACE_SECONDS from the environment;
  SCALE_PARTS=today,ingest,race and SCALE_PHASES=sqlite,pg-1,pg-2 pick a subset while iterating)

Every daemon alone on the machine runs one event loop per core (the default). The two replicas
of pg-2 share it, so each runs half the cores' loops (docs/deploy.md: replicas on one machine
split the cores); SCALE_SHARED_LOOPS=all gives each one loop per core instead.
"""
import json
import socket
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

BIN, DB, MODEL = sys.argv[1:4]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
RACE_SECONDS = float(os.environ.get("RACE_SECONDS", "30"))
# For iterating on one part: the headline is the full run (every part, every configuration).
PARTS = set(os.environ.get("SCALE_PARTS", "today,ingest,race").split(","))
PHASES = os.environ.get("SCALE_PHASES", "sqlite,pg-1,pg-2").split(",")
PG = os.environ["RUNUS_TEST_POSTGRES"]
PG_BIN = os.environ.get("RUNUS_TEST_POSTGRES_BIN", "/usr/lib/postgresql/15/bin")
INGEST_POINTS = 120  # 10 minutes at 5 s
SHARED_LOOPS = 0 if os.environ.get("SCALE_SHARED_LOOPS", "split") == "all" else max(1, (os.cpu_count() or 2) // 2)


def serve(work, name, db, loops=0):
    out = open(os.path.join(work, name + ".out"), "w")
    err = open(os.path.join(work, name + ".log"), "w")
    sock = os.path.join(work, name + ".sock")
    p = subprocess.Popen([BIN, "serve", "--db", db, "--model", MODEL, "--unix", sock, "--loops", str(loops)],
                         stdout=out, stderr=err)
    for _ in range(400):
        time.sleep(0.05)
        if "listening" in open(os.path.join(work, name + ".out")).read():
            return p, "unix:" + sock
        if p.poll() is not None:
            break
    sys.exit(f"bench-scale: {name} did not start: {open(os.path.join(work, name + '.log')).read()[-2000:]}")


def stop(processes):
    for p in processes:
        p.terminate()
    for p in processes:
        p.wait(timeout=60)


def loadtest(addrs, requests, connections, seconds):
    cmd = [BIN, "loadtest", "--addr", addrs[0], "--requests", requests, "--connections", str(connections),
           "--duration", str(seconds), "--json"]
    if len(addrs) > 1:
        cmd += ["--second-addr", addrs[1]]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if not r.stdout.strip():
        sys.exit(f"bench-scale: loadtest failed: {r.stderr[-2000:]}")
    return json.loads(r.stdout)


def race_loadtest(addrs):
    cmd = [BIN, "race-loadtest", "--addr", addrs[0], "--rooms", "100", "--runners-per-room", "10",
           "--duration", str(RACE_SECONDS), "--json"]
    if len(addrs) > 1:
        cmd += ["--second-addr", addrs[1]]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if not r.stdout.strip():
        sys.exit(f"bench-scale: race-loadtest failed: {r.stderr[-2000:]}")
    return json.loads(r.stdout)


def warm(addrs, users):
    """Every runner's missions.today once on each daemon, one at a time (the caches as a daemon
    that has served them has them)."""
    for addr in addrs:
        s = socket.socket(socket.AF_UNIX)
        s.connect(addr[len("unix:"):])
        f = s.makefile("rwb")
        for u in users:
            f.write((json.dumps({"op": "missions.today", "user": u}) + "\n").encode())
            f.flush()
            if b'"ok":true' not in f.readline():
                sys.exit(f"bench-scale: warm-up of {u} failed")
        s.close()


def ingest_file(work, users, tag, count):
    """`count` new runs: runner i % n's run k starts k * 6 h after five days ago, offset by `tag`
    (half-hours) so that no phase's runs overlap another's (they would be answered as duplicates)."""
    path = os.path.join(work, f"ingest-{tag}.jsonl")
    base = time.time() - 5 * 86400 + tag * 1800
    with open(path, "w") as f:
        for i in range(count):
            user = users[i % len(users)]
            t0 = round(base + (i // len(users)) * 21600)
            lat0 = 46.0 + (i % 97) * 0.01
            points = [[t0 + k * 5, round(lat0 + k * 0.00012, 6), 7.0] for k in range(INGEST_POINTS)]
            f.write(json.dumps({"op": "runs.ingest", "user": user, "run_id": f"scale-{tag}-{i}", "points": points}) + "\n")
    return path


def pgbench_notify(work):
    script = os.path.join(work, "notify.sql")
    with open(script, "w") as f:
        f.write("SELECT pg_notify('runus_bench', 'x');\n")
    host = PG.split("host=")[1].split("&")[0]
    r = subprocess.run([os.path.join(PG_BIN, "pgbench"), "-h", host, "-U", "postgres", "-n", "-c", "8", "-j", "2",
                        "-T", str(max(3, int(SECONDS))), "-f", script, "postgres"], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("tps"):
            return float(line.split("=")[1].split()[0])
    return None


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def main():
    work = tempfile.mkdtemp(prefix="runus-scale.")
    try:
        lite = os.path.join(work, "scale.sqlite")
        shutil.copy(DB, lite)
        users = [row[0] for row in sqlite3.connect(lite).execute("SELECT id FROM users ORDER BY id")]
        # Every run digested once and kept (record 0648), as in a database a daemon has served:
        # then every phase's daemons start as a restarted one does, and the copy carries them.
        p, a = serve(work, "digest", lite)
        try:
            warm([a], users)
        finally:
            stop([p])
        copy = subprocess.run([BIN, "db", "copy", lite, PG], capture_output=True, text=True)
        if copy.returncode != 0:
            sys.exit(f"bench-scale: db copy failed: {copy.stdout[-1000:]} {copy.stderr[-1000:]}")
        today = os.path.join(work, "today.jsonl")
        with open(today, "w") as f:
            for u in users:
                f.write(json.dumps({"op": "missions.today", "user": u}) + "\n")

        phases = [(n, d) for n, d in [("sqlite", [lite]), ("pg-1", [PG]), ("pg-2", [PG, PG])] if n in PHASES]
        none = {"throughput_rps": 0.0, "p99_ms": 0.0, "errors": 0}
        no_race = {"p50_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0, "updates_matched": 0, "positions_sent": 0, "errors": 0}
        results = {}
        tag = 0
        for name, dbs in phases:
            processes, addrs = [], []
            for k, db in enumerate(dbs):
                p, a = serve(work, f"{name}-{k}", db, SHARED_LOOPS if len(dbs) > 1 else 0)
                processes.append(p)
                addrs.append(a)
            try:
                # Warm-up: every runner's answer once (the caches as a running daemon has them).
                t, ing, race = [none], [none], no_race
                if "today" in PARTS:
                    warm(addrs, users)
                    loadtest(addrs, today, 64, 2)
                    t = [loadtest(addrs, today, 64, SECONDS) for _ in range(RUNS)]
                if "ingest" in PARTS:
                    ing = []
                    for _ in range(RUNS):
                        tag += 1
                        ing.append(loadtest(addrs, ingest_file(work, users, tag, 6000), 8, SECONDS))
                if "race" in PARTS:
                    race = race_loadtest(addrs)
            finally:
                stop(processes)
            results[name] = {
                "today_rps": median([x["throughput_rps"] for x in t]), "today_p99": median([x["p99_ms"] for x in t]),
                "today_errors": sum(x["errors"] for x in t),
                "ingest_rps": median([x["throughput_rps"] for x in ing]), "ingest_p99": median([x["p99_ms"] for x in ing]),
                "ingest_errors": sum(x["errors"] for x in ing),
                "race": race,
            }
        notify_tps = pgbench_notify(work) if "race" in PARTS else None

        print(f"\nbench-scale: {len(users)} runners, medians of {RUNS} runs of {SECONDS:g} s; races: 1,000 racers in "
              f"100 rooms for {RACE_SECONDS:g} s (one run)\n")
        print("| configuration | missions.today req/s | p99 ms | runs.ingest runs/s | p99 ms | ranking delay p50 / p99 / max ms | matched / sent | errors |")
        print("|---|---|---|---|---|---|---|---|")
        for name, _ in phases:
            r = results[name]
            race = r["race"]
            print(f"| {name} | {r['today_rps']:.0f} | {r['today_p99']:.2f} | {r['ingest_rps']:.0f} | {r['ingest_p99']:.2f} | "
                  f"{race['p50_ms']:.2f} / {race['p99_ms']:.2f} / {race['max_ms']:.2f} | "
                  f"{race['updates_matched']} / {race['positions_sent']} | "
                  f"{r['today_errors']} / {r['ingest_errors']} / {race['errors']} |")
        s, p1, p2 = results.get("sqlite"), results.get("pg-1"), results.get("pg-2")
        if s and p1 and p2 and PARTS == {"today", "ingest", "race"}:
            print(f"\nratios: missions.today pg-2 / sqlite {p2['today_rps'] / s['today_rps']:.2f} (goal >= 1), "
                  f"pg-1 / sqlite {p1['today_rps'] / s['today_rps']:.2f}; runs.ingest sqlite / pg-1 "
                  f"{s['ingest_rps'] / p1['ingest_rps']:.2f} (goal <= 2), sqlite / pg-2 {s['ingest_rps'] / p2['ingest_rps']:.2f}; "
                  f"ranking p99 across replicas {p2['race']['p99_ms']:.1f} ms (goal <= 100)")
        errors = sum(r["today_errors"] + r["ingest_errors"] + r["race"]["errors"] for r in results.values())
        print(f"errors: {errors}")
        if notify_tps is not None:
            print(f"notifying commits: the server takes {notify_tps:.0f}/s (pgbench, 8 clients); the daemons send at most "
                  f"200/s per replica (one per 5 ms window)")
        return 0 if errors == 0 else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
