#!/usr/bin/env python3
"""make race-flood: issue 55's position flood against a release `runus serve`, and the restart after it.

One runner in one race sends batches of points at 1,000 Hz, stamped up to the present, for
FLOOD_SECONDS; the daemon keeps one point per 0.5 s of race time (record 0551). Then the daemon
is stopped (SIGTERM) and started again on the same database, FLOOD_RUNS times, and the restart
time (start to `listening`) is printed next to the same restart of a database whose race got an
honest 1 Hz stream for the same time. Standard library only.

usage: race_flood.py RUNUS_BINARY MODEL_DIR WORK_DIR [--seconds S] [--runs N]
"""
import argparse, json, os, shutil, socket, statistics, subprocess, sys, time

def start(runus, db, model, sock):
    if os.path.exists(sock):
        os.unlink(sock)
    began = time.monotonic()
    p = subprocess.Popen([runus, "serve", "--db", db, "--create", "--model", model, "--unix", sock],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    line = p.stdout.readline()
    if "listening" not in line:
        p.kill()
        sys.exit(f"runus serve did not start: {line!r}")
    return p, time.monotonic() - began

def stop(p):
    p.terminate()
    p.wait(timeout=60)

class Client:
    def __init__(self, sock):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(sock)
        self.buf = b""

    def call(self, request):
        self.s.sendall((json.dumps(request) + "\n").encode())
        while b"\n" not in self.buf:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise RuntimeError("daemon closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

def race(runus, model, work, name, seconds, rate_hz):
    """A database with one race of one runner fed at rate_hz for `seconds`; the points kept."""
    db = os.path.join(work, f"{name}.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.unlink(db + suffix)
    sock = os.path.join(work, f"{name}.sock")
    p, _ = start(runus, db, model, sock)
    c = Client(sock)
    for user in ("host", "runner"):
        assert c.call({"op": "users.upsert", "user": user, "time_zone": "UTC"})["ok"]
    begin = time.time() + 2
    created = c.call({"op": "race.create", "user": "host", "name": "flood", "distance_m": 100000, "start_time": begin})
    race_id = created["result"]["race_id"]
    token = c.call({"op": "race.join", "race_id": race_id, "user": "runner"})["result"]["participant_token"]
    while time.time() < begin + 0.5:
        time.sleep(0.05)
    sent = accepted = 0
    last = begin
    end = time.time() + seconds
    while time.time() < end:
        now = time.time()
        step = 1.0 / rate_hz
        times = []
        t = last + step
        while t <= now:
            times.append(t)
            t += step
        if not times:
            time.sleep(step)
            continue
        last = times[-1]
        # Along a meridian at 3 m/s of race time, so the runner never reaches the finish.
        points = [[round(t, 3), 45 + (t - begin) * 3 / 111_195, 6] for t in times]
        answer = c.call({"op": "race.position", "race_id": race_id, "participant_token": token, "points": points})
        sent += len(points)
        accepted += answer.get("result", {}).get("accepted", 0)
    stop(p)
    return db, sock, sent, accepted

def restarts(runus, db, model, sock, runs):
    times = []
    for _ in range(runs + 1):  # the first is a warm-up (page cache)
        p, took = start(runus, db, model, sock)
        stop(p)
        times.append(took)
    return times[1:]

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runus"); ap.add_argument("model"); ap.add_argument("work")
    ap.add_argument("--seconds", type=float, default=35)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    rows = []
    for name, rate in (("honest-1hz", 1), ("flood-1000hz", 1000)):
        db, sock, sent, accepted = race(a.runus, a.model, a.work, name, a.seconds, rate)
        t = restarts(a.runus, db, a.model, sock, a.runs)
        rows.append((name, sent, accepted, statistics.median(t), min(t), max(t)))
    print(f"race flood: one runner, {a.seconds:g} s of points, restart median of {a.runs} (after a warm-up)")
    print(f"{'stream':<14} {'points sent':>12} {'kept':>8} {'restart s (median, min-max)':>30}")
    for name, sent, accepted, med, lo, hi in rows:
        print(f"{name:<14} {sent:>12,} {accepted:>8,} {med:>14.3f} ({lo:.3f}-{hi:.3f})")
    print(f"restart ratio flood / honest: {rows[1][3] / rows[0][3]:.2f}")

if __name__ == "__main__":
    main()
