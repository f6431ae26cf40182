#!/usr/bin/env python3
"""`make bench-learn`: our GBDT and logistic regression next to LightGBM, XGBoost and
scikit-learn on the peer benchmark's synthetic data, in the same run, one fresh process per fit.

Every fit runs under /usr/bin/time -v (peak RSS); the peers run through
`peers.py worker` (the exact settings of ml-peers.md: 255 bins, 31 leaves, learning rate 0.1,
200 rounds, 2 threads, OMP_WAIT_POLICY=PASSIVE). Prints a markdown table and, last, one
machine-readable `bench-learn:` line of ratios.
"""
import argparse, json, os, re, statistics, subprocess, sys, time

def run(cmd, env=None):
    full = ["/usr/bin/time", "-v"] + cmd
    t0 = time.perf_counter()
    p = subprocess.run(full, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"failed: {' '.join(cmd)}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1)) / 1024
    line = [l for l in p.stdout.splitlines() if l.startswith("{") or l.startswith("RESULT ")][-1]
    out = json.loads(line.removeprefix("RESULT "))
    out["peak_rss_mib_time"] = rss
    out["process_s"] = wall
    return out

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True, help="NAME.json from peers.py gen")
    ap.add_argument("--peers-script", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--ours", required=True, help="path of the runus-bench-learn binary")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--peers", default="lgbm,xgb,hgb,lr_lbfgs")
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default="gbdt,lr,score",
                    help="parts to run: gbdt (training, ours and the GBDT peers), lr (ours and lr_lbfgs), "
                         "score (LightGBM scoring our saved model; with gbdt off, ours re-scores the saved model)")
    a = ap.parse_args()
    parts = set(a.only.split(","))
    base = os.path.splitext(a.data)[0]
    model_path, scores_path = base + "-runus-model.txt", base + "-runus-scores.txt"
    env = dict(os.environ, OMP_NUM_THREADS="2", OPENBLAS_NUM_THREADS="2", OMP_WAIT_POLICY="PASSIVE")
    for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(k, None)
    if "score" in parts and "gbdt" not in parts and not os.path.exists(model_path):
        sys.exit(f"bench-learn: the score part needs the model the gbdt part saves ({model_path} is missing); "
                 "run with BENCH_LEARN_ONLY including gbdt once first")
    runs = {}
    for rep in range(a.repeats):
        jobs = []
        if "gbdt" in parts:
            jobs.append(("runus_gbdt", [a.ours, "gbdt", "--data", a.data, "--save-lightgbm", model_path, "--scores-out", scores_path]))
        elif "score" in parts:
            jobs.append(("runus_gbdt", [a.ours, "score", "--data", a.data, "--model", model_path, "--scores-out", scores_path]))
        for peer in a.peers.split(","):
            if peer == "lr_lbfgs" and "lr" not in parts:
                continue
            if peer != "lr_lbfgs" and "gbdt" not in parts:
                continue
            cmd = [a.python, a.peers_script, "worker", "--data", a.data, "--peer", peer, "--threads", "2",
                   "--seed", "7", "--batch-calls", "1"]
            cmd += ["--lat-calls", "2000", "--b50-calls", "500"] if peer == "lgbm" else ["--skip-latency"]
            jobs.append((peer, cmd))
            if peer == "lr_lbfgs":
                jobs.append(("runus_lr", [a.ours, "lr", "--data", a.data]))
        if "lr" in parts and rep == 0:
            jobs.append(("lr_lbfgs_converged", [a.python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_lr_converged.py"),
                                                "--data", a.data, "--peers-script", a.peers_script]))
        if "score" in parts:
            jobs.append(("lgbm_our_model", [a.python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_score_lightgbm.py"),
                                            "--data", a.data, "--model", model_path, "--ours-scores", scores_path,
                                            "--peers-script", a.peers_script]))
        for name, cmd in jobs:
            r = run(cmd, env)
            runs.setdefault(name, []).append(r)
            if name == "lgbm_our_model":
                print(f"[rep {rep}] lightgbm on our model, 1 thread: 50 rows median {r['batch50']['median_us']:.0f} us "
                      f"p99 {r['batch50']['p99_us']:.0f} us; 1 row median {r['single']['median_us']:.1f} us; "
                      f"raw score max |diff| vs ours {r['raw_max_abs_diff_vs_ours']:.3g} on {r['rows_compared']} rows", flush=True)
                continue
            print(f"[rep {rep}] {name:11s} fit {r['fit_s']:7.2f} s  cpu {r.get('fit_cpu_s', float('nan')):7.2f} s  "
                  f"auc {r['auc']:.4f}  logloss {r['logloss']:.5f}  peak {r['peak_rss_mib_time']:.0f} MiB", flush=True)
    med = {n: {k: statistics.median(r[k] for r in rs) for k in rs[0] if isinstance(rs[0][k], (int, float)) and not isinstance(rs[0][k], bool)}
           for n, rs in runs.items()}
    lgbm_lat = runs["lgbm"][0].get("latency", {}) if "lgbm" in runs else {}
    for name, entry in lgbm_lat.items():
        single = entry.get("single", {}); b50 = entry.get("batch50", {})
        print(f"lightgbm latency {name}: single median {single.get('median_us')} us p99 {single.get('p99_us')} us; "
              f"50 rows median {b50.get('median_us')} us p99 {b50.get('p99_us')} us")
    print()
    print("| model | fit s | fit CPU s | peak RSS MiB | test AUC | test log loss |")
    print("|---|---:|---:|---:|---:|---:|")
    for n, m in med.items():
        if "fit_s" not in m:
            continue
        print(f"| {n} | {m['fit_s']:.2f} | {m.get('fit_cpu_s', float('nan')):.2f} | {m['peak_rss_mib_time']:.0f} | {m['auc']:.4f} | {m['logloss']:.5f} |")
    g = med.get("runus_gbdt", {})
    if "score50_median_us" in g:
        print(f"\nours, 50 candidates, 200 trees x 31 leaves, 1 thread: median {g['score50_median_us']:.1f} us, p99 {g['score50_p99_us']:.1f} us; "
          f"1 row: median {g['score1_median_us']:.2f} us, p99 {g['score1_p99_us']:.2f} us")
    summary = {}
    if "lgbm" in med and "auc" in g:
        l = med["lgbm"]
        summary.update(gbdt_time_vs_lightgbm=g["fit_s"] / l["fit_s"], gbdt_cpu_vs_lightgbm=g["fit_cpu_s"] / l["fit_cpu_s"],
                       gbdt_auc_minus_lightgbm=g["auc"] - l["auc"], gbdt_mem_vs_lightgbm=g["peak_rss_mib_time"] / l["peak_rss_mib_time"])
    if "hgb" in med and "fit_s" in g:
        summary["gbdt_time_vs_sklearn"] = g["fit_s"] / med["hgb"]["fit_s"]
    if "xgb" in med and "fit_s" in g:
        summary["gbdt_time_vs_xgboost"] = g["fit_s"] / med["xgb"]["fit_s"]
    if "lr_lbfgs" in med and "runus_lr" in med:
        s, o = med["lr_lbfgs"], med["runus_lr"]
        # lr_time_vs_sklearn: fit only, as peers.py times it (sklearn's StandardScaler runs before
        # its timer; ours standardizes inside fit, so the ratio is conservative for us).
        # lr_pipeline_vs_sklearn: standardize + fit on both sides.
        scaler = statistics.median(r["info"]["scaler_fit_transform_s"] for r in runs["lr_lbfgs"])
        summary.update(lr_time_vs_sklearn=o["fit_s"] / s["fit_s"], lr_pipeline_vs_sklearn=o["fit_s"] / (s["fit_s"] + scaler),
                       lr_logloss_rel_diff=(o["logloss"] - s["logloss"]) / s["logloss"],
                       lr_blas_threads=int(o.get("blas_threads", 1)), sklearn_lr_iterations=int(runs["lr_lbfgs"][0]["info"]["n_iter"]),
                       lr_iterations=int(o.get("iterations", -1)))
        if "lr_lbfgs_converged" in med:
            c = med["lr_lbfgs_converged"]
            # The same sklearn run to tol 1e-10: the optimum both should reach (record 0308).
            summary.update(lr_logloss_rel_diff_vs_sklearn_converged=(o["logloss"] - c["logloss"]) / c["logloss"],
                           sklearn_default_logloss_rel_above_converged=(s["logloss"] - c["logloss"]) / c["logloss"],
                           sklearn_converged_iterations=int(c["n_iter"]))
    if "score50_median_us" in g:
        summary.update(score50_median_us=g["score50_median_us"], score50_p99_us=g["score50_p99_us"])
    if "lgbm_our_model" in runs:
        r = runs["lgbm_our_model"]
        summary.update(lightgbm_our_model_score50_median_us=statistics.median(x["batch50"]["median_us"] for x in r),
                       lightgbm_our_model_score50_p99_us=statistics.median(x["batch50"]["p99_us"] for x in r),
                       lightgbm_our_model_raw_max_diff=max(x["raw_max_abs_diff_vs_ours"] for x in r))
    for name, entry in lgbm_lat.items():
        if "batch50" in entry and "num_threads=1" in name.replace(" ", ""):
            summary["lightgbm_score50_median_us"] = entry["batch50"].get("median_us")
        if name.startswith("C API"):
            summary["lightgbm_score1_c_median_us"] = entry["single"].get("median_us")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"runs": runs, "medians": med, "summary": summary}, f, indent=1)
    print("bench-learn: " + " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in summary.items()))

if __name__ == "__main__":
    main()
