#!/usr/bin/env python3
"""`make bench-learn`, scoring part: LightGBM scoring *our* model (written by
`runus-bench-learn gbdt --save-lightgbm`), the same 50-row batches of test rows as ours, one
thread, so the latency ratio compares two predictors on one model. Also checks that LightGBM's
raw scores of the first test rows equal ours (the LightGBM-format round trip at scale).

Prints one `RESULT {json}` line.
"""
import argparse, importlib.util, json, sys, time
import numpy as np

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--model", required=True, help="LightGBM text model written by our gbdt run")
    ap.add_argument("--ours-scores", required=True, help="our raw scores of the first test rows, one per line")
    ap.add_argument("--peers-script", required=True)
    ap.add_argument("--calls", type=int, default=2000)
    a = ap.parse_args()
    spec = importlib.util.spec_from_file_location("peers", a.peers_script)
    peers = importlib.util.module_from_spec(spec); spec.loader.exec_module(peers)
    import lightgbm as lgb
    hdr, X, y = peers.load_dataset(a.data)
    Xte = X[hdr["n_train"]:].astype(np.float64)
    booster = lgb.Booster(model_file=a.model)
    ours = np.loadtxt(a.ours_scores, dtype=np.float64)
    theirs = booster.predict(Xte[:len(ours)], raw_score=True, num_threads=1)
    # the same batches as ours: consecutive test rows, 50 at a time
    batches = [np.ascontiguousarray(Xte[i * 50:(i + 1) * 50]) for i in range(40)]
    rows = [np.ascontiguousarray(Xte[i:i + 1]) for i in range(1000)]
    fn = lambda b: booster.predict(b, raw_score=True, num_threads=1)
    out = {"peer": "lightgbm_on_our_model",
           "batch50": peers._lat(fn, batches, a.calls, warmup=50),
           "single": peers._lat(fn, rows, a.calls),
           "raw_max_abs_diff_vs_ours": float(np.max(np.abs(theirs - ours))),
           "rows_compared": int(len(ours)), "lightgbm": lgb.__version__}
    print("RESULT " + json.dumps(out))

if __name__ == "__main__":
    main()
