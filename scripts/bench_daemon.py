#!/usr/bin/env python3
"""make bench-daemon: `runus serve` next to a minimal C echo server, measured in the same run.

For each operation (health, missions.today for a fixed simulated runner) and each connection
count (1, 16, 64), runs `runus loadtest --json` RUNS times against the daemon and against the
echo server (sending the same request line), alternating so that machine noise hits both, and
prints medians and the daemon/echo ratio. Standard library only.

usage: bench_daemon.py RUNUS_BINARY ECHO_BINARY DB MODEL_DIR [--duration S] [--runs N]
"""
import argparse, json, os, statistics, subprocess, sys, time

def start(cmd, env=None):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    line = p.stdout.readline()
    if "listening" not in line:
        p.kill()
        sys.exit(f"{cmd[0]} did not start: {line!r}")
    return p

def loadtest(runus, addr, op, params, connections, duration):
    out = subprocess.run([runus, "loadtest", "--addr", addr, "--op", op, "--params", params,
                          "--connections", str(connections), "--duration", str(duration), "--json"],
                         capture_output=True, text=True)
    return json.loads(out.stdout)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runus"); ap.add_argument("echo"); ap.add_argument("db"); ap.add_argument("model")
    ap.add_argument("--duration", type=float, default=2.0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--port", type=int, default=7911)
    a = ap.parse_args()
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    daemon_addr, echo_addr = f"127.0.0.1:{a.port}", f"127.0.0.1:{a.port + 1}"
    daemon = start([a.runus, "serve", "--db", a.db, "--model", a.model, "--listen", daemon_addr], env)
    echo = start([a.echo, str(a.port + 1)])
    ops = [("health", "{}"), ("missions.today", '{"user":"runner-0001"}')]
    try:
        for op, params in ops:  # warm-up: first missions.today of the day stores the offer
            for addr in (daemon_addr, echo_addr):
                loadtest(a.runus, addr, op, params, 4, 1)
        print(f"# runus serve vs echo server, {a.runs} runs x {a.duration} s each, medians "
              f"({os.cpu_count()} cores shared with the load generator)")
        print("| op | conns | daemon req/s | echo req/s | daemon/echo | daemon p50 / p99 / max ms | echo p50 / p99 ms | errors |")
        print("|---|---|---|---|---|---|---|---|")
        for op, params in ops:
            for conns in (1, 16, 64):
                d, e = [], []
                for _ in range(a.runs):
                    d.append(loadtest(a.runus, daemon_addr, op, params, conns, a.duration))
                    e.append(loadtest(a.runus, echo_addr, op, params, conns, a.duration))
                med = lambda runs, key: statistics.median(r[key] for r in runs)
                dr, er = med(d, "throughput_rps"), med(e, "throughput_rps")
                errors = sum(r["errors"] for r in d)
                print(f"| {op} | {conns} | {dr:,.0f} | {er:,.0f} | {dr / er:.2f} | "
                      f"{med(d, 'p50_ms'):.3f} / {med(d, 'p99_ms'):.3f} / {med(d, 'max_ms'):.1f} | "
                      f"{med(e, 'p50_ms'):.3f} / {med(e, 'p99_ms'):.3f} | {errors} |", flush=True)
    finally:
        daemon.terminate(); echo.terminate()
        daemon.wait(10); echo.wait(10)

if __name__ == "__main__":
    main()
