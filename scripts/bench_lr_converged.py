#!/usr/bin/env python3
"""`make bench-learn`, logistic-regression part: scikit-learn's LogisticRegression (lbfgs, C = 1)
after a StandardScaler, as peers.py's `lr_lbfgs`, but run to convergence (tol 1e-10 instead of
the default 1e-4). peers.py's run stops where its projected gradient is below 1e-4, which on the
1M set leaves its test log loss about 2e-6 relative above the optimum; this run is the reference
for "the same log loss as scikit-learn" (docs/decisions/0308). Not timed against ours.

Prints one `RESULT {json}` line.
"""
import argparse, importlib.util, json, time
import numpy as np

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--peers-script", required=True)
    ap.add_argument("--tol", type=float, default=1e-10)
    a = ap.parse_args()
    spec = importlib.util.spec_from_file_location("peers", a.peers_script)
    peers = importlib.util.module_from_spec(spec); spec.loader.exec_module(peers)
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss, roc_auc_score
    from sklearn.preprocessing import StandardScaler
    hdr, X, y = peers.load_dataset(a.data)
    ntr = hdr["n_train"]
    Xtr = X[:ntr].astype(np.float64)
    scaler = StandardScaler().fit(Xtr)
    scaler.transform(Xtr, copy=False)
    t0, c0 = time.perf_counter(), time.process_time()
    m = LogisticRegression(C=1.0, solver="lbfgs", max_iter=100000, tol=a.tol).fit(Xtr, y[:ntr])
    fit_s, fit_cpu_s = time.perf_counter() - t0, time.process_time() - c0
    p = m.predict_proba(scaler.transform(X[ntr:].astype(np.float64)))[:, 1]
    yte = y[ntr:]
    print("RESULT " + json.dumps({"peer": "lr_lbfgs_converged", "tol": a.tol, "n_iter": int(np.max(m.n_iter_)), "fit_s": fit_s, "fit_cpu_s": fit_cpu_s,
                                  "auc": float(roc_auc_score(yte, p)),
                                  "logloss": float(log_loss(yte, np.clip(p, 1e-15, 1 - 1e-15)))}))

if __name__ == "__main__":
    main()
