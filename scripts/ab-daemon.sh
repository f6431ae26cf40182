#!/usr/bin/env bash
# Two daemon builds, alternated: each run copies DB, starts `BIN serve --loops 1` on a Unix
# socket, loads it for DURATION seconds with the second build's `loadtest` (4 connections),
# and prints requests/s and the daemon's CPU time per request (after it was ready). Medians
# at the end. Used for record 0530:
#   scripts/ab-daemon.sh /tmp/base/runus .build/release/runus var/sim.sqlite models/default
#   OP=missions.today PARAMS='{"user":"runner-0001"}' scripts/ab-daemon.sh …
set -eu
BASE=$1 NEW=$2 DB=$3 MODEL=$4
DURATION=${DURATION:-3} ROUNDS=${ROUNDS:-7} OP=${OP:-health} PARAMS=${PARAMS:-'{}'}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hz=$(getconf CLK_TCK)
for round in $(seq 1 "$ROUNDS"); do
  for which in base new; do
    bin=$BASE; [ "$which" = new ] && bin=$NEW
    cp "$DB" "$work/db.sqlite"; rm -f "$work/db.sqlite-wal" "$work/db.sqlite-shm"
    OPENBLAS_NUM_THREADS=1 "$bin" serve --db "$work/db.sqlite" --model "$MODEL" --unix "$work/s.sock" --loops 1 \
      > "$work/out" 2> "$work/err" &
    pid=$!
    for _ in $(seq 1 400); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.05; done
    start=$(awk '{print $14+$15}' "/proc/$pid/stat")
    "$NEW" loadtest --addr "unix:$work/s.sock" --op "$OP" --params "$PARAMS" --connections 4 --duration "$DURATION" --json > "$work/load.json"
    ticks=$(( $(awk '{print $14+$15}' "/proc/$pid/stat") - start ))
    kill -TERM "$pid"; wait "$pid" || true
    python3 -c "import json; r=json.load(open('$work/load.json')); print('$which', round(r['throughput_rps']), round($ticks/$hz/r['requests']*1e6, 2), r['errors'])"
  done
done | tee "$work/runs" | python3 -c "
import sys, statistics
runs = {'base': [], 'new': []}
for line in sys.stdin:
    which, rps, us, errors = line.split()
    runs[which].append((int(rps), float(us)))
    print(line, end='')
for which, rows in runs.items():
    print(which, 'median requests/s', statistics.median(r for r, _ in rows), 'median CPU µs/request', statistics.median(u for _, u in rows))
"
