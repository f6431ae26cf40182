#!/usr/bin/env python3
"""GPX parse + metrics and LiveTracker throughput: runus against gpxpy, same files, same run
(make bench).

Parse + metrics: both sides parse decompressed GPX bytes from memory (gzip excluded) and compute
distance, moving time and climb: runus with TrackFormats + RunMetrics (`runus metrics
--bench-runs`), gpxpy with parse(), length_2d(), get_moving_data() and get_uphill_downhill().

LiveTracker (`runus metrics --bench-live`): the parsed tracks fed fix by fix, with one snapshot
at the end (without and with the optimistic tail of record 0160) and with a snapshot after every
fix (with it). gpxpy has no live tracker; its peer figure is
its metrics alone on already-parsed tracks (length_2d, get_moving_data, get_uphill_downhill),
the batch work a live tracker spreads over the fixes, so neither side counts parsing.

One warm-up, then RUNS timed runs each; medians; ratios are points/s of runus over gpxpy's.

The headline LiveTracker ratio is also measured in PAIRS interleaved rounds (record 0170): each
round times one gpxpy metrics pass and then runus's final-snapshot mode (the median of its own
INNER passes) back to back, so both see the same load, and the ratio of each round is kept; the
median of those ratios is what we quote. On a shared machine, timing all of one side and then
all of the other lets a change of load between them move the ratio by a factor of 1.5.
PAIRS is max(21, 4 * RUNS + 1) (record 0171): single rounds range from 12x to 37x when the
machine switches speed within a round, and five runs of 11 rounds gave medians of 17.7x to 22.6x.
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


def interleaved_live_ratios(binary, files, parsed, rounds, inner=5):
    """Per-round ratio of runus LiveTracker (final snapshot) over gpxpy metrics, rounds back to back."""
    ratios = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        gpxpy_metrics_only(parsed)
        peer = time.perf_counter() - t0
        ours = json.loads(subprocess.run([binary, "metrics", "--bench-live", str(inner), "--bench-live-append-only", *files],
                                         check=True, capture_output=True, text=True).stdout)
        ratios.append(peer / ours["append_median_s"])
    return ratios


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: bench_gpx.py RUNUS_BINARY RUNS FILE...")
    binary, runs, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    texts = []
    for f in files:
        raw = open(f, "rb").read()
        texts.append((gzip.decompress(raw) if f.endswith(".gz") else raw).decode("utf-8"))
    gpxpy_run(texts)  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        points, distance = gpxpy_run(texts)
        times.append(time.perf_counter() - t0)
    peer = statistics.median(times)
    ours = json.loads(subprocess.run([binary, "metrics", "--bench-runs", str(runs), *files],
                                     check=True, capture_output=True, text=True).stdout)
    peer_rate = points / peer
    print(f"files {len(files)}, points {points} (gpxpy) / {int(ours['points'])} (runus), {runs} runs, medians")
    print(f"gpxpy  parse+metrics: {peer:.3f} s  {peer_rate:,.0f} points/s  (length_2d sum {distance:.0f} m)")
    print(f"runus  parse+metrics: {ours['median_s']:.3f} s  {ours['points_per_s']:,.0f} points/s  (distance sum {ours['distance_sum_m']:.0f} m)")
    print(f"runus  parse only:    {ours['parse_median_s']:.3f} s  {ours['parse_points_per_s']:,.0f} points/s  ({ours['parse_mb_per_s']:.0f} MB/s)")
    print(f"ratio runus/gpxpy (parse+metrics): {ours['points_per_s'] / peer_rate:.1f}x")

    parsed = [gpxpy.parse(text) for text in texts]
    peer_metrics = median_time(lambda: gpxpy_metrics_only(parsed), runs)
    peer_metrics_rate = points / peer_metrics
    live = json.loads(subprocess.run([binary, "metrics", "--bench-live", str(runs), *files],
                                     check=True, capture_output=True, text=True).stdout)
    print(f"gpxpy  metrics only (parsed):        {peer_metrics:.3f} s  {peer_metrics_rate:,.0f} points/s")
    print(f"runus  LiveTracker, final snapshot:  {live['append_median_s']:.3f} s  {live['append_points_per_s']:,.0f} points/s"
          f"  (distance sum {live['distance_sum_m']:.0f} m)")
    print(f"runus  LiveTracker, final snapshot, optimistic tail kept: {live['append_optimistic_median_s']:.3f} s"
          f"  {live['append_optimistic_points_per_s']:,.0f} points/s")
    print(f"runus  LiveTracker, snapshot per fix: {live['snapshot_every_fix_median_s']:.3f} s"
          f"  {live['snapshot_every_fix_points_per_s']:,.0f} points/s  (undecided tail at most {int(live['max_undecided'])} fixes)")
    print(f"runus  LiveTracker, snapshot per fix, no best efforts (race tracker): {live['snapshot_every_fix_no_efforts_median_s']:.3f} s"
          f"  {live['snapshot_every_fix_no_efforts_points_per_s']:,.0f} points/s")
    print(f"ratio LiveTracker/gpxpy metrics (final snapshot): {live['append_points_per_s'] / peer_metrics_rate:.1f}x")
    print(f"ratio LiveTracker/gpxpy metrics (snapshot per fix): {live['snapshot_every_fix_points_per_s'] / peer_metrics_rate:.1f}x")
    print(f"ratio LiveTracker/gpxpy metrics (snapshot per fix, no best efforts): {live['snapshot_every_fix_no_efforts_points_per_s'] / peer_metrics_rate:.1f}x")
    print(f"ratio LiveTracker/gpxpy parse+metrics (final snapshot): {live['append_points_per_s'] / peer_rate:.1f}x")
    pairs = max(21, 4 * runs + 1)
    ratios = interleaved_live_ratios(binary, files, parsed, pairs)
    print(f"ratio LiveTracker/gpxpy metrics (final snapshot), {pairs} interleaved rounds: "
          f"median {statistics.median(ratios):.1f}x  (min {min(ratios):.1f}x, max {max(ratios):.1f}x)")


if __name__ == "__main__":
    main()
