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

# Activity segmentation scored on the labelled real data, held out by person (docs/decisions/0145).
# Reads $(DATASETS) (default: $RUNUS_DATASETS or ../shared/datasets); writes nothing.
DATASETS ?= $(or $(RUNUS_DATASETS),../shared/datasets)
.PHONY: segmentation-report
segmentation-report: build
	$(RELEASE_BIN) segmentation-report --datasets $(DATASETS) --per-sport 100 --folds 4 --seed 145
