#!/usr/bin/env python3
"""Track benchmarks against gpxpy, same files, same run (make bench): runus-bench's modes (release
build) next to gpxpy's. What each figure is, and their history: docs/performance/live-tracker.md.

Printed in this order:

1. The live tracker as the daemon's races run it (`runus-bench live`, mode `race`): Engine's
   LiveRaceTracker (no best efforts, optimistic tail) fed one fix per update and read after each,
   a snapshot per update, in fixes/s; then its ratio to gpxpy's metrics alone on parsed tracks
   (length_2d, get_moving_data, get_uphill_downhill: the batch work a live tracker spreads over
   the fixes, so neither side counts parsing).
2. Batch metrics (`runus-bench metrics`): both sides parse decompressed GPX bytes from memory
   (gzip excluded) and compute distance, moving time and climb, runus with TrackFormats +
   RunMetrics, gpxpy with parse(), length_2d(), get_moving_data() and get_uphill_downhill(); the
   ratio of points/s.
3. The live tracker with best efforts: a snapshot after every fix (optimistic tail), and every fix
   appended with one final snapshot (without and with the optimistic tail) with its ratio to
   gpxpy's metrics alone, also measured in PAIRS interleaved rounds (record 0170): each round times
   one gpxpy metrics pass and then runus's final-snapshot mode (`runus-bench live --append-only`,
   the median of its own INNER passes) back to back, so both see the same load; the median of
   the per-round ratios is the figure to quote for that mode on a shared machine. PAIRS is
   max(21, 4 * RUNS + 1) (record 0171).

One warm-up, then RUNS timed runs each; medians; ratios are points/s of runus over gpxpy's.
"""
import gzip, json, statistics, subprocess, sys, time

import gpxpy


def gpxpy_run(texts):
    points = 0
    distance = 0.0
    for text in texts:
        g = gpxpy.parse(text)
        distance += g.length_2d() or 0.0
        g.get_moving_data()
        g.get_uphill_downhill()
        points += g.get_track_points_no()
    return points, distance


def gpxpy_metrics_only(parsed):
    distance = 0.0
    for g in parsed:
        distance += g.length_2d() or 0.0
        g.get_moving_data()
        g.get_uphill_downhill()
    return distance


def median_time(fn, runs):
    fn()  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench(binary, *args):
    return json.loads(subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout)


def interleaved_live_ratios(binary, files, parsed, rounds, inner=5):
    """Per-round ratio of runus LiveTracker (final snapshot) over gpxpy metrics, rounds back to back."""
    ratios = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        gpxpy_metrics_only(parsed)
        peer = time.perf_counter() - t0
        ours = bench(binary, "live", "--append-only", str(inner), *files)
        ratios.append(peer / ours["append_median_s"])
    return ratios


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: bench_gpx.py RUNUS_BENCH_BINARY RUNS FILE...")
    binary, runs, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    texts = []
    for f in files:
        raw = open(f, "rb").read()
        texts.append((gzip.decompress(raw) if f.endswith(".gz") else raw).decode("utf-8"))
    parsed = [gpxpy.parse(text) for text in texts]
    live = bench(binary, "live", str(runs), *files)
    peer_metrics = median_time(lambda: gpxpy_metrics_only(parsed), runs)
    points = live["points"]
    peer_metrics_rate = points / peer_metrics
    print(f"files {len(files)}, points {int(points)}, {runs} runs, medians")

    print(f"runus  races as the daemon runs them (LiveRaceTracker: a snapshot per update, no best efforts, optimistic tail):"
          f" {live['race_points_per_s']:,.0f} fixes/s  ({live['race_median_s']:.3f} s, distance sum {live['race_distance_sum_m']:.0f} m)")
    print(f"gpxpy  metrics only (parsed):        {peer_metrics:.3f} s  {peer_metrics_rate:,.0f} points/s")
    print(f"ratio races/gpxpy metrics: {live['race_points_per_s'] / peer_metrics_rate:.1f}x")

    gpxpy_run(texts)  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        peer_points, distance = gpxpy_run(texts)
        times.append(time.perf_counter() - t0)
    peer = statistics.median(times)
    ours = bench(binary, "metrics", str(runs), *files)
    peer_rate = peer_points / peer
    print(f"gpxpy  parse+metrics: {peer:.3f} s  {peer_rate:,.0f} points/s  (length_2d sum {distance:.0f} m, {peer_points} points)")
    print(f"runus  parse+metrics: {ours['median_s']:.3f} s  {ours['points_per_s']:,.0f} points/s  (distance sum {ours['distance_sum_m']:.0f} m)")
    print(f"runus  parse only:    {ours['parse_median_s']:.3f} s  {ours['parse_points_per_s']:,.0f} points/s  ({ours['parse_mb_per_s']:.0f} MB/s)")
    print(f"ratio runus/gpxpy (parse+metrics): {ours['points_per_s'] / peer_rate:.1f}x")

    print(f"runus  LiveTracker with best efforts, snapshot per fix (optimistic tail): {live['snapshot_every_fix_median_s']:.3f} s"
          f"  {live['snapshot_every_fix_points_per_s']:,.0f} fixes/s  (undecided tail at most {int(live['max_undecided'])} fixes)")
    print(f"runus  LiveTracker with best efforts, final snapshot:  {live['append_median_s']:.3f} s  {live['append_points_per_s']:,.0f} fixes/s"
          f"  (distance sum {live['distance_sum_m']:.0f} m)")
    print(f"runus  LiveTracker with best efforts, final snapshot, optimistic tail kept: {live['append_optimistic_median_s']:.3f} s"
          f"  {live['append_optimistic_points_per_s']:,.0f} fixes/s")
    print(f"ratio LiveTracker/gpxpy metrics (snapshot per fix): {live['snapshot_every_fix_points_per_s'] / peer_metrics_rate:.1f}x")
    print(f"ratio LiveTracker/gpxpy metrics (final snapshot): {live['append_points_per_s'] / peer_metrics_rate:.1f}x")
    print(f"ratio LiveTracker/gpxpy parse+metrics (final snapshot): {live['append_points_per_s'] / peer_rate:.1f}x")
    pairs = max(21, 4 * runs + 1)
    ratios = interleaved_live_ratios(binary, files, parsed, pairs)
    print(f"ratio LiveTracker/gpxpy metrics (final snapshot), {pairs} interleaved rounds: "
          f"median {statistics.median(ratios):.1f}x  (min {min(ratios):.1f}x, max {max(ratios):.1f}x)")


if __name__ == "__main__":
    main()
