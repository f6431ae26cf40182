# RunUs Missions engine. Verbs used by people and by CI alike.
#   make run    install what is missing, build (release), create the default database, serve
#   make test   install what is missing, run the test suite
# Other verbs: build, db, model, check-model, docs, clean.

SHELL := /bin/bash
APT_PACKAGES := libopenblas-dev liblapacke-dev libsqlite3-dev pkg-config
SWIFT ?= swift
RELEASE_BIN := .build/release/runus

# The embedded default: simulated runners and the shipped model.
VAR := var
DB ?= $(VAR)/runus.sqlite
MODEL ?= models/default
LISTEN ?= 127.0.0.1:7878
UNIX_SOCKET ?= $(VAR)/runus.sock
SIM_RUNNERS ?= 300
SIM_DAYS ?= 180
SIM_SEED ?= 1
SIM_START ?= 2026-06-01

# One BLAS thread per request: parallelism comes from concurrent work (docs/decisions/0006).
export OPENBLAS_NUM_THREADS ?= 1

.PHONY: run test build deps db model check-model docs clean

deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
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

build: deps
	$(SWIFT) build -c release --product runus

$(DB): | build
	@mkdir -p $(VAR)
	$(RELEASE_BIN) simulate --db $(DB) --runners $(SIM_RUNNERS) --days $(SIM_DAYS) --seed $(SIM_SEED) --start $(SIM_START)

db: build $(DB)

run: build $(DB)
	@mkdir -p $(VAR)
	exec $(RELEASE_BIN) serve --db $(DB) --model $(MODEL) --listen $(LISTEN) --unix $(UNIX_SOCKET)

test: deps
	$(SWIFT) test --disable-xctest

# Rebuilds the shipped model from a fresh simulation (what models/default/MODEL_CARD.md says).
model: build
	@mkdir -p $(VAR)
	$(RELEASE_BIN) simulate --db $(VAR)/model-train.sqlite --runners $(SIM_RUNNERS) --days $(SIM_DAYS) --seed $(SIM_SEED) --start $(SIM_START) --force
	$(RELEASE_BIN) train --db $(VAR)/model-train.sqlite --out $(MODEL)

# Retrains into a scratch directory and checks that the shipped model is reproduced bit for bit.
check-model: build
	@mkdir -p $(VAR)
	$(RELEASE_BIN) simulate --db $(VAR)/model-check.sqlite --runners $(SIM_RUNNERS) --days $(SIM_DAYS) --seed $(SIM_SEED) --start $(SIM_START) --force --quiet
	$(RELEASE_BIN) train --db $(VAR)/model-check.sqlite --out $(VAR)/model-check
	cmp $(VAR)/model-check/model.json $(MODEL)/model.json
	cmp $(VAR)/model-check/MODEL_CARD.md $(MODEL)/MODEL_CARD.md
	@echo "models/default reproduced bit for bit"

docs: build
	$(RELEASE_BIN) features --markdown > docs/features.md

clean:
	rm -rf .build $(VAR)

# Learning benchmark (not a test; release build): our GBDT and logistic regression against
# LightGBM, XGBoost and scikit-learn on the same synthetic data in the same run. The peers live in
# scripts/.venv, created here; the data goes to var/ (not committed). BENCH_LEARN_ROWS=100000
# BENCH_LEARN_NAME=synth_100k for the small set.
PEERS_SCRIPT ?= ../shared/bench/peers.py
BENCH_LEARN_ROWS ?= 1000000
BENCH_LEARN_NAME ?= synth_1m
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
	  --peers-script $(PEERS_SCRIPT) --ours .build/release/runus-bench-learn --out $(BENCH_LEARN_DIR)/$(BENCH_LEARN_NAME)-results.json
