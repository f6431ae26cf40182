# RunUs Missions engine. Verbs used by people and by CI alike.
#   make run    install what is missing, build (release), create the default database, serve
#   make test   install what is missing, run the test suite
# Other verbs: build, db, model, check-model, docs, protocol-docs, bench-daemon, fuzz, clean.

SHELL := /bin/bash
APT_PACKAGES := libopenblas-dev liblapacke-dev libsqlite3-dev zlib1g-dev libpq-dev pkg-config tzdata
# The throwaway PostgreSQL server of `make test` and `make bench-store` (scripts/with-postgres.sh),
# and promtool (Debian's prometheus package) that checks the daemon's /metrics.
TEST_APT_PACKAGES := postgresql-15 prometheus
SWIFT ?= swift
RELEASE_BIN := .build/release/runus

# The embedded default: simulated runners and the shipped model.
VAR := var
DB ?= $(VAR)/runus.sqlite
MODEL ?= models/default
LISTEN ?= 127.0.0.1:7878
UNIX_SOCKET ?= $(VAR)/runus.sock
SIM_RUNNERS ?= 300
# Runners of the simulation the shipped model is trained and chosen on (record 0667): twice the
# demo database's, as a model on 300 misses mean |p̂ − p_true| ≤ 0.05 for two kinds.
MODEL_RUNNERS ?= 600
SIM_DAYS ?= 180
SIM_SEED ?= 1
SIM_START ?= 2026-06-01

# make run serves the registry's promoted model (models/default when none is promoted, e.g. in a
# clean clone; record 0614); MODEL=DIR on the command line pins a directory instead.
SERVE_MODEL = $(if $(filter command line environment,$(origin MODEL)),--model $(MODEL),--models models)

# One BLAS thread per request: parallelism comes from concurrent work (docs/decisions/0006).
export OPENBLAS_NUM_THREADS ?= 1
# models/default was trained on OpenBLAS's Haswell kernel: `make model` and `make check-model`
# pin it on x86-64 (any AVX2 CPU), as the kernel a CPU picks changes the last bits (record 0006).
# MODEL_BLAS_CORETYPE= (empty) keeps the CPU's own kernel.
MODEL_BLAS_CORETYPE ?= $(if $(filter x86_64,$(shell uname -m)),Haswell,)
MODEL_BLAS_ENV = $(if $(MODEL_BLAS_CORETYPE),OPENBLAS_CORETYPE=$(MODEL_BLAS_CORETYPE),)

.PHONY: run test build deps deps-test db model check-model model-table model-table-sim model-table-people model-table-people-sim model-curve-sim docs protocol-docs bench-daemon clean eval-race-times bench-races

# Installs the Debian packages of $(1) that are missing (as root; otherwise says how).
install_missing = missing=$$(for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:" $$missing; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "missing packages:" $$missing; \
	    echo "run: sudo apt-get update && sudo apt-get install -y --no-install-recommends" $$missing; \
	    exit 1; \
	  fi; \
	fi

deps:
	@$(call install_missing,$(APT_PACKAGES))

deps-test:
	@$(call install_missing,$(APT_PACKAGES) $(TEST_APT_PACKAGES))

build: deps
	$(SWIFT) build -c release --product runus

$(DB): | build
	@mkdir -p $(VAR)
	$(RELEASE_BIN) simulate --db $(DB) --runners $(SIM_RUNNERS) --days $(SIM_DAYS) --seed $(SIM_SEED) --start $(SIM_START)

db: build $(DB)

run: build $(DB)
	@mkdir -p $(VAR)
	exec $(RELEASE_BIN) serve --db $(DB) $(SERVE_MODEL) --listen $(LISTEN) --unix $(UNIX_SOCKET)

# Next to a throwaway PostgreSQL (stopped afterwards, even when tests fail), so that the store
# conformance suite runs on both stores; fsync off there (PG_DURABLE=0): nothing in it must survive.
test: deps-test
	PG_DURABLE=0 scripts/with-postgres.sh $(SWIFT) test --disable-xctest

# Rebuilds the shipped model from a fresh simulation (what models/default/MODEL_CARD.md says);
# MODEL_NOTE ends its card: why this learner ships (issue 25, record 0667).
MODEL_NOTE ?= docs/model-choice.md
model: build
	@mkdir -p $(VAR)
	$(RELEASE_BIN) simulate --db $(VAR)/model-train.sqlite --runners $(MODEL_RUNNERS) --days $(SIM_DAYS) --seed $(SIM_SEED) --start $(SIM_START) --force
	$(MODEL_BLAS_ENV) $(RELEASE_BIN) train --db $(VAR)/model-train.sqlite --card-note $(MODEL_NOTE) --out $(MODEL)

# Retrains into a scratch directory and checks that the shipped model is reproduced bit for bit.
check-model: build
	@mkdir -p $(VAR)
	$(RELEASE_BIN) simulate --db $(VAR)/model-check.sqlite --runners $(MODEL_RUNNERS) --days $(SIM_DAYS) --seed $(SIM_SEED) --start $(SIM_START) --force --quiet
	$(MODEL_BLAS_ENV) $(RELEASE_BIN) train --db $(VAR)/model-check.sqlite --card-note $(MODEL_NOTE) --out $(VAR)/model-check
	cmp $(VAR)/model-check/model.json $(MODEL)/model.json
	cmp $(VAR)/model-check/MODEL_CARD.md $(MODEL)/MODEL_CARD.md
	@echo "models/default reproduced bit for bit"

docs: build
	$(RELEASE_BIN) features --markdown > docs/features.md

clean:
	rm -rf .build $(VAR)

# Reference suites and watch totals (records 0110-0114): needs the shared datasets.
RUNUS_DATASETS ?= ../shared/datasets
BENCH_RUNS ?= 5
.PHONY: reference-table watch-table bench
reference-table: build
	$(RELEASE_BIN) reference-check --dataset $(RUNUS_DATASETS)

watch-table: build
	$(RELEASE_BIN) reference-check --dataset $(RUNUS_DATASETS) --runners

# The run record's distance against the watch's own on the reference suites' running files,
# before (GPS sum only) and after the device's readings (record 0116), and the reading time.
.PHONY: device-distance-table
device-distance-table: build
	$(RELEASE_BIN) reference-check --dataset $(RUNUS_DATASETS) --device-distance

# How many real run activities lose a vehicle part, by runner (records 0130, 0131).
.PHONY: vehicle-cuts
vehicle-cuts: build
	$(RELEASE_BIN) reference-check --dataset $(RUNUS_DATASETS) --cuts

# Track benchmarks on the runners' raw GPX files against gpxpy (runus-bench, release build): first
# the live tracker as the daemon's races run it (a snapshot per update, no best efforts), then
# batch parse + metrics, then the live tracker with best efforts (docs/performance/live-tracker.md).
# scripts/.venv is shared with bench-learn: each target installs what it imports, whichever ran first.
bench: deps
	$(SWIFT) build -c release --product runus-bench
	@test -x scripts/.venv/bin/python || python3 -m venv scripts/.venv
	@scripts/.venv/bin/python -c "import gpxpy" 2>/dev/null || scripts/.venv/bin/pip install --quiet gpxpy==1.6.2
	scripts/.venv/bin/python scripts/bench_gpx.py .build/release/runus-bench $(BENCH_RUNS) $(RUNUS_DATASETS)/runners/raw-gpx/*/*.gpx.gz

# Race-time predictions vs Riegel on the real runners' personal bests (needs ../shared/datasets).
eval-race-times: build
	$(RELEASE_BIN) eval-race-times --dataset $(RUNUS_DATASETS)/runners

# docs/protocol.md from spec/protocol/*.json (the test 'protocol specs' checks they agree).
protocol-docs:
	RUNUS_WRITE_PROTOCOL_DOCS=1 $(SWIFT) test --disable-xctest --filter ProtocolSpecTests

# Throughput and latency of the daemon next to a minimal C echo server, same run, same machine
# (release build, default database). BENCH_RUNS runs of BENCH_SECONDS each; medians.
DAEMON_BENCH_RUNS ?= 3
BENCH_SECONDS ?= 2
ECHO_SERVER := $(VAR)/echo-server
$(ECHO_SERVER): scripts/echo-server.c
	@mkdir -p $(VAR)
	cc -O2 -o $@ $<
bench-daemon: build $(DB) $(ECHO_SERVER)
	python3 scripts/bench_daemon.py $(RELEASE_BIN) $(ECHO_SERVER) $(DB) $(MODEL) --runs $(DAEMON_BENCH_RUNS) --duration $(BENCH_SECONDS)

# Missions: time per kind against a one-hour 1 Hz track (release build; record 0211 for the checks).
.PHONY: bench-missions missions-table
bench-missions: deps
	RUNUS_BENCH_MISSIONS=1 $(SWIFT) test -c release -Xswiftc -enable-testing --disable-xctest --filter MissionsBenchmark

# Missions: table by kind of how many real runs complete each kind's default mission
# (needs ../shared/datasets or RUNUS_DATASETS; release build, a few minutes).
missions-table: deps
	RUNUS_MISSIONS_TABLE=1 $(SWIFT) test -c release -Xswiftc -enable-testing --disable-xctest --filter "RealTrackTests/table"

# Learning benchmark (not a test; release build): our GBDT and logistic regression against
# LightGBM, XGBoost and scikit-learn on the same synthetic data in the same run. The peers live in
# scripts/.venv, created here; the data goes to var/ (not committed). BENCH_LEARN_ROWS=100000
# BENCH_LEARN_NAME=synth_100k for the small set.
PEERS_SCRIPT ?= ../shared/bench/peers.py
BENCH_LEARN_ROWS ?= 1000000
BENCH_LEARN_NAME ?= synth_1m
# Parts: gbdt (training), lr, score (LightGBM scoring our saved model; score alone re-scores the
# model the last gbdt part saved), e.g. BENCH_LEARN_ONLY=lr,score.
BENCH_LEARN_ONLY ?= gbdt,lr,score
# Each peer and ours run this many times, interleaved, each in a fresh process; tables are medians.
BENCH_LEARN_REPEATS ?= 3
BENCH_LEARN_DIR ?= $(VAR)/bench-learn
BENCH_LEARN_VENV := scripts/.venv
.PHONY: bench-learn
bench-learn: deps
	$(SWIFT) build -c release --product runus-bench-learn
	@test -x $(BENCH_LEARN_VENV)/bin/python || python3 -m venv $(BENCH_LEARN_VENV)
	@$(BENCH_LEARN_VENV)/bin/python -c "import numpy, sklearn, lightgbm, xgboost, threadpoolctl" 2>/dev/null \
	  || $(BENCH_LEARN_VENV)/bin/pip install -q numpy scikit-learn lightgbm xgboost threadpoolctl
	@mkdir -p $(BENCH_LEARN_DIR)
	@test -f $(BENCH_LEARN_DIR)/$(BENCH_LEARN_NAME).json \
	  || $(BENCH_LEARN_VENV)/bin/python $(PEERS_SCRIPT) gen --rows $(BENCH_LEARN_ROWS) --name $(BENCH_LEARN_NAME) --data-dir $(BENCH_LEARN_DIR)
	$(BENCH_LEARN_VENV)/bin/python scripts/bench_learn.py --data $(BENCH_LEARN_DIR)/$(BENCH_LEARN_NAME).json \
	  --peers-script $(PEERS_SCRIPT) --ours .build/release/runus-bench-learn --only $(BENCH_LEARN_ONLY) --repeats $(BENCH_LEARN_REPEATS) \
	  --out $(BENCH_LEARN_DIR)/$(BENCH_LEARN_NAME)-results.json

# Activity segmentation scored on the labelled real data, held out by person (docs/decisions/0145).
# Reads $(DATASETS) (default: $RUNUS_DATASETS or ../shared/datasets); writes nothing.
DATASETS ?= $(or $(RUNUS_DATASETS),../shared/datasets)
.PHONY: segmentation-report
segmentation-report: build
	$(RELEASE_BIN) segmentation-report --datasets $(DATASETS) --per-sport 100 --folds 4 --seed 145

# The shipped activity classifier's forest, trained on synthetic tracks only (seeded), written
# as Swift source (docs/decisions/0147) by ActivityLab. ShippedClassifierTests check that this reproduces it.
.PHONY: segmentation-model
segmentation-model: build
	$(RELEASE_BIN) segmentation-model --out Sources/Tracking/ActivityClassifier+Shipped.swift

# Live races under load: 1000 runners in 100 rooms, a point a second each, against a daemon
# started here on a copy of the default database (release build). Prints the position-to-ranking
# delay percentiles and the daemon's CPU share.
RACE_PORT ?= 7979
RACE_SECONDS ?= 30
bench-races: build $(DB)
	@rm -f $(VAR)/race-bench.sqlite*; cp $(DB) $(VAR)/race-bench.sqlite
	@$(RELEASE_BIN) serve --db $(VAR)/race-bench.sqlite --model $(MODEL) --listen 127.0.0.1:$(RACE_PORT) > $(VAR)/race-bench.out 2> $(VAR)/race-bench.log & \
	pid=$$!; for i in $$(seq 1 100); do grep -q listening $(VAR)/race-bench.out 2>/dev/null && break; sleep 0.1; done; \
	$(RELEASE_BIN) race-loadtest --addr 127.0.0.1:$(RACE_PORT) --rooms 100 --runners-per-room 10 --duration $(RACE_SECONDS) --server-pid $$pid; \
	status=$$?; kill -TERM $$pid; wait $$pid; exit $$status

# Issue 55's position flood (record 0551): one runner sends 1,000 points a second for
# FLOOD_SECONDS into a race on a release daemon, then the restart time after it, next to the same
# race fed at 1 Hz (FLOOD_RUNS restarts each, medians). Scratch databases in var/race-flood.
FLOOD_SECONDS ?= 35
FLOOD_RUNS ?= 5
.PHONY: race-flood
race-flood: build
	python3 scripts/race_flood.py $(RELEASE_BIN) $(MODEL) $(VAR)/race-flood --seconds $(FLOOD_SECONDS) --runs $(FLOOD_RUNS)

# Offline evaluation report (issue 9, records 0700-0707): GBDT (candidate) vs LR (reference) on
# the default simulated database, held-out last 20% by time, as HTML, Markdown and JSON, and the
# HTML rendered to PNG by headless Chromium (Debian's chromium, installed here when missing).
REPORT_DIR ?= $(VAR)/report
REPORT_DB ?= $(DB)
REPORT_WIDTH ?= 1100
REPORT_HEIGHT ?= 6000
.PHONY: report report-real report-png chromium bench-report
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then echo "installing: chromium fonts-dejavu-core"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; \
	  else echo "run: sudo apt-get install -y --no-install-recommends chromium fonts-dejavu-core"; exit 1; fi; }

report: build $(REPORT_DB) chromium
	@mkdir -p $(REPORT_DIR)
	$(RELEASE_BIN) train --db $(REPORT_DB) --out $(REPORT_DIR)/lr
	$(RELEASE_BIN) train --db $(REPORT_DB) --model gbdt --out $(REPORT_DIR)/gbdt
	@TIMEFORMAT='report wall time: %R s'; time $(RELEASE_BIN) report --model $(REPORT_DIR)/gbdt --vs $(REPORT_DIR)/lr --db $(REPORT_DB) --out $(REPORT_DIR)/report.html
	$(RELEASE_BIN) report --model $(REPORT_DIR)/gbdt --vs $(REPORT_DIR)/lr --db $(REPORT_DB) --out $(REPORT_DIR)/report.md
	$(RELEASE_BIN) report --model $(REPORT_DIR)/gbdt --vs $(REPORT_DIR)/lr --db $(REPORT_DB) --out $(REPORT_DIR)/report.json
	$(MAKE) report-png REPORT_HTML=$(REPORT_DIR)/report.html

# Any report HTML to PNG (REPORT_HTML=...), full page at REPORT_WIDTH px.
REPORT_HTML ?= $(REPORT_DIR)/report.html
report-png: chromium
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot=$(REPORT_HTML:.html=.png) \
	  --window-size=$(REPORT_WIDTH),$(REPORT_HEIGHT) file://$(abspath $(REPORT_HTML)) 2>/dev/null
	@echo "wrote $(REPORT_HTML:.html=.png)"

# The same on the real runners (../shared/datasets/runners, history labels, record 0600): the
# import and the two models of `make model-table` (trained here when absent; delete
# $(REAL_TABLE_DIR) to retrain). The report stays in var/ (never committed: real data).
report-real: build chromium
	@test -f $(IMPORT_DB) || $(MAKE) import-real
	@mkdir -p $(REPORT_DIR)
	test -f $(REAL_TABLE_DIR)/lr/model.json || $(RELEASE_BIN) train --db $(IMPORT_DB) --labels history --model lr --out $(REAL_TABLE_DIR)/lr
	test -f $(REAL_TABLE_DIR)/gbdt/model.json || $(RELEASE_BIN) train --db $(IMPORT_DB) --labels history --model gbdt --out $(REAL_TABLE_DIR)/gbdt
	@TIMEFORMAT='report wall time: %R s'; time $(RELEASE_BIN) report --model $(REAL_TABLE_DIR)/gbdt --vs $(REAL_TABLE_DIR)/lr --db $(IMPORT_DB) --labels history --out $(REPORT_DIR)/real.html
	$(MAKE) report-png REPORT_HTML=$(REPORT_DIR)/real.html

# Report build time for BENCH_REPORT_ROWS (default 100,000) evaluated examples, release build,
# one warm-up then BENCH_RUNS runs, medians; next to the naive resample-and-sort bootstrap.
bench-report: deps
	RUNUS_BENCH_REPORT=1 $(SWIFT) test -c release -Xswiftc -enable-testing --disable-xctest --filter ReportBenchmark

# Models against baselines (records 0610-0613): test AUC, log loss and ECE of logistic regression,
# gradient-boosted trees, the per-kind base rate and the Riegel rule, overall and per mission kind,
# on one time split. model-table: the real runners (imported by `make import-real` into
# $(IMPORT_DB); history labels, record 0600); model-table-sim: the shipped model's simulation
# (MODEL_RUNNERS; adds mean |p̂ − p_true|).
# Scratch files go to var/ (not committed).
REAL_TABLE_DIR := $(VAR)/model-table-real
model-table: build
	@test -f $(IMPORT_DB) || $(MAKE) import-real
	$(RELEASE_BIN) train --db $(IMPORT_DB) --labels history --model lr --out $(REAL_TABLE_DIR)/lr
	$(RELEASE_BIN) train --db $(IMPORT_DB) --labels history --model gbdt --out $(REAL_TABLE_DIR)/gbdt
	$(RELEASE_BIN) models compare --db $(IMPORT_DB) --labels history $(REAL_TABLE_DIR)/lr $(REAL_TABLE_DIR)/gbdt

SIM_TABLE_DB := $(VAR)/model-table-sim-$(MODEL_RUNNERS).sqlite
model-table-sim: build
	@mkdir -p $(VAR)
	$(RELEASE_BIN) simulate --db $(SIM_TABLE_DB) --runners $(MODEL_RUNNERS) --days $(SIM_DAYS) --seed $(SIM_SEED) --start $(SIM_START) --force --quiet
	$(RELEASE_BIN) train --db $(SIM_TABLE_DB) --model lr --out $(VAR)/model-table-sim/lr
	$(RELEASE_BIN) train --db $(SIM_TABLE_DB) --model gbdt --out $(VAR)/model-table-sim/gbdt
	$(RELEASE_BIN) models compare --db $(SIM_TABLE_DB) $(VAR)/model-table-sim/lr $(VAR)/model-table-sim/gbdt

# Validation by person (records 0630, 0631): lr and gbdt trained with leave-runners-out
# cross-validation over PEOPLE_FOLDS folds of runners (every choice on each fold's training
# runners) and per-kind calibration maps fitted on out-of-fold scores; prints the time-split
# table of `models compare`, then each card's by-person table (overall and per kind, before and
# after the per-kind maps). model-table-people: the real runners (history labels);
# model-table-people-sim: the shipped model's simulation (MODEL_RUNNERS). Scratch files in var/.
# The real runners' 1,255,963 history labels make the GBDT grid slow (5 folds × (grid + refit + 3
# inner fits)): one grid point there by default; PEOPLE_GBDT_FLAGS= runs the full grid.
PEOPLE_FOLDS ?= 5
PEOPLE_GBDT_FLAGS ?= --num-leaves 15 --min-data-in-leaf 100
PEOPLE_TABLE_DIR := $(VAR)/model-table-people
model-table-people: build
	@test -f $(IMPORT_DB) || $(MAKE) import-real
	$(RELEASE_BIN) train --db $(IMPORT_DB) --labels history --model lr --people-folds $(PEOPLE_FOLDS) --kind-calibration yes --out $(PEOPLE_TABLE_DIR)/lr
	$(RELEASE_BIN) train --db $(IMPORT_DB) --labels history --model gbdt $(PEOPLE_GBDT_FLAGS) --people-folds $(PEOPLE_FOLDS) --kind-calibration yes --out $(PEOPLE_TABLE_DIR)/gbdt
	$(RELEASE_BIN) models compare --db $(IMPORT_DB) --labels history $(PEOPLE_TABLE_DIR)/lr $(PEOPLE_TABLE_DIR)/gbdt
	@for m in lr gbdt; do echo; echo "# $$m"; sed -n '/^## Held out as people/,$$p' $(PEOPLE_TABLE_DIR)/$$m/MODEL_CARD.md; done

model-table-people-sim: build
	@mkdir -p $(VAR)
	test -f $(SIM_TABLE_DB) || $(RELEASE_BIN) simulate --db $(SIM_TABLE_DB) --runners $(MODEL_RUNNERS) --days $(SIM_DAYS) --seed $(SIM_SEED) --start $(SIM_START) --force --quiet
	$(RELEASE_BIN) train --db $(SIM_TABLE_DB) --model lr --people-folds $(PEOPLE_FOLDS) --kind-calibration yes --out $(PEOPLE_TABLE_DIR)-sim/lr
	$(RELEASE_BIN) train --db $(SIM_TABLE_DB) --model gbdt --people-folds $(PEOPLE_FOLDS) --kind-calibration yes --out $(PEOPLE_TABLE_DIR)-sim/gbdt
	$(RELEASE_BIN) models compare --db $(SIM_TABLE_DB) $(PEOPLE_TABLE_DIR)-sim/lr $(PEOPLE_TABLE_DIR)-sim/gbdt
	@for m in lr gbdt; do echo; echo "# $$m"; sed -n '/^## Held out as people/,$$p' $(PEOPLE_TABLE_DIR)-sim/$$m/MODEL_CARD.md; done

# Learning curve of the simulated goal (record 0616): for each SIM_CURVE_RUNNERS count (same
# days, seed and start as model-table-sim), simulate, train lr and gbdt, and print their test
# lines (AUC, ECE, mean |p̂ − p_true|). The 1000-runner database takes about 3 min of CPU to
# simulate (17 min wall on a loaded 2-core machine) and 1.2 GB in var/.
SIM_CURVE_RUNNERS ?= 120 300 1000
model-curve-sim: build
	@mkdir -p $(VAR)/model-curve-sim
	@for n in $(SIM_CURVE_RUNNERS); do \
	  db=$(VAR)/model-curve-sim/sim-$$n.sqlite; \
	  $(RELEASE_BIN) simulate --db $$db --runners $$n --days $(SIM_DAYS) --seed $(SIM_SEED) --start $(SIM_START) --force --quiet || exit 1; \
	  for m in lr gbdt; do \
	    printf '%s runners, %s: ' $$n $$m; \
	    $(RELEASE_BIN) train --db $$db --model $$m --out $(VAR)/model-curve-sim/$$m-$$n 2>/dev/null || exit 1; \
	  done; \
	done

# Import of the shared runners folder into a fresh $(IMPORT_DB), timed (release build; records
# 0601-0603). Needs ../shared/datasets (RUNUS_DATASETS); the database stays in var/ (not committed).
IMPORT_DB ?= $(VAR)/import-real.sqlite
.PHONY: import-real history-labels
import-real: build
	@mkdir -p $(VAR); rm -f $(IMPORT_DB) $(IMPORT_DB)-wal $(IMPORT_DB)-shm
	@TIMEFORMAT='import wall time: %R s (user %U s, sys %S s)'; \
	time $(RELEASE_BIN) import --db $(IMPORT_DB) --dataset $(RUNUS_DATASETS)/runners

# History labels on the imported real runners: examples and base rate per mission kind (record 0600).
history-labels: build
	@test -f $(IMPORT_DB) || $(MAKE) import-real
	$(RELEASE_BIN) labels --db $(IMPORT_DB) --labels history

# The streak forecast's prior weight and recency half-life scored on the imported real runners'
# run days (record 0650).
.PHONY: eval-streaks eval-weekly
eval-streaks: build
	@test -f $(IMPORT_DB) || $(MAKE) import-real
	$(RELEASE_BIN) eval-streaks --db $(IMPORT_DB)

# The weekly-volume forecast on the imported real runners (record 0655).
eval-weekly: build
	@test -f $(IMPORT_DB) || $(MAKE) import-real
	$(RELEASE_BIN) eval-weekly --db $(IMPORT_DB)

# Fuzzing campaign (issue 22 item 8, record 0540): not part of `make test` (which runs a short
# seeded slice of both halves, FuzzSliceTests). Release builds. The protocol half starts
# `runus serve` on a scratch copy of a small simulated database and sends FUZZ_LINES lines over
# FUZZ_CONNECTIONS pipelined connections; the file half mutates FUZZ_FILES track files from
# $(DATASETS) (skipped with a message when absent) and the synthetic seeds. Crash dumps,
# reproducers and summaries go to $(FUZZ_OUT) (var/, never committed: the datasets' terms).
FUZZ_LINES ?= 1000000
FUZZ_FILES ?= 10000
FUZZ_SEED ?= 1
FUZZ_CONNECTIONS ?= 8
FUZZ_OUT ?= $(VAR)/fuzz
FUZZ_DB := $(FUZZ_OUT)/simulated-20x30.sqlite
FUZZ_BIN := .build/release/runus-fuzz
.PHONY: fuzz fuzz-protocol fuzz-files fuzz-build
fuzz-build: deps
	$(SWIFT) build -c release --product runus
	$(SWIFT) build -c release --product runus-fuzz

$(FUZZ_DB): | fuzz-build
	@mkdir -p $(FUZZ_OUT)
	$(RELEASE_BIN) simulate --db $(FUZZ_DB) --runners 20 --days 30 --seed 1 --quiet --force

fuzz-protocol: fuzz-build $(FUZZ_DB)
	$(FUZZ_BIN) protocol --runus $(RELEASE_BIN) --model $(MODEL) --db-template $(FUZZ_DB) --simulated-runners 20 \
	  --lines $(FUZZ_LINES) --connections $(FUZZ_CONNECTIONS) --seed $(FUZZ_SEED) \
	  --out $(FUZZ_OUT)/protocol-$(FUZZ_SEED) --summary-json $(FUZZ_OUT)/protocol-$(FUZZ_SEED).json

fuzz-files: fuzz-build
	$(FUZZ_BIN) files --datasets $(DATASETS) --count $(FUZZ_FILES) --seed $(FUZZ_SEED) \
	  --out $(FUZZ_OUT)/files-$(FUZZ_SEED) --summary-json $(FUZZ_OUT)/files-$(FUZZ_SEED).json

# Both halves; the second runs even when the first found something (the exit status says
# whether either did).
fuzz: fuzz-build $(FUZZ_DB)
	@status=0; $(MAKE) --no-print-directory fuzz-protocol || status=1; \
	$(MAKE) --no-print-directory fuzz-files || status=1; exit $$status

# The store's share of runs.ingest on SQLite and PostgreSQL, same data, one process, release
# build, next to a throwaway durable PostgreSQL (scripts/with-postgres.sh): runs/s, one thread
# and 4, medians of BENCH_STORE_REPEATS passes after a warm-up, and the ratio; then the time a
# request takes to fail when the server stops, and to succeed once it is back (record 0406).
BENCH_STORE_RUNS ?= 2000
BENCH_STORE_REPEATS ?= 5
.PHONY: bench-store
bench-store: deps-test
	$(SWIFT) build -c release --product runus-bench
	scripts/with-postgres.sh .build/release/runus-bench store $(BENCH_STORE_RUNS) $(BENCH_STORE_REPEATS)

# Replicas (record 0541; docs/performance/scale.md), not a test: one daemon on SQLite, one and two
# replicas on PostgreSQL (a throwaway server, durable settings), copies of the default database,
# in one run: missions.today at 64 connections, runs.ingest runs/s, the position -> ranking delay
# of 1,000 racers in 100 rooms (across the two replicas), and the server's notifying-commit ceiling.
# BENCH_RUNS runs of BENCH_SECONDS each (medians); RACE_SECONDS of race traffic (one run).
SCALE_SECONDS ?= 8
.PHONY: bench-scale
bench-scale: build $(DB) deps-test
	BENCH_SECONDS=$(SCALE_SECONDS) scripts/with-postgres.sh python3 scripts/bench_scale.py $(RELEASE_BIN) $(DB) $(MODEL)
