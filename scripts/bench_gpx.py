#!/usr/bin/env python3
"""GPX parse + metrics throughput: runus against gpxpy, same files, same run (make bench).

Both sides parse decompressed GPX bytes from memory (gzip excluded) and compute distance,
moving time and climb: runus with TrackFormats + RunMetrics (`runus metrics --bench-runs`),
gpxpy with parse(), length_2d(), get_moving_data() and get_uphill_downhill(). One warm-up, then
RUNS timed runs each; medians; the ratio is points/s of runus over points/s of gpxpy.
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


if __name__ == "__main__":
    main()
