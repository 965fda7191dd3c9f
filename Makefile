# weakpareto — every entry point a user or CI needs. `make demo` and `make test` work on a fresh
# machine: they create .venv and install the package (editable) with its pinned dependencies.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
WP      = $(BIN)/wp
WORKERS ?= 2
RUNS   ?= results/runs

.PHONY: install demo test test-slow lint format tables reproduce reproduce-main \
        reproduce-rdnoise reproduce-robustness reproduce-ablation reproduce-superunit \
        reproduce-gaussian reproduce-appendix conditioning bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $@

install: $(BIN)/.installed

## main job: FADE at 10 % noise, 5 seeds — equations, summary, Parquet under results/demo
demo: install
	$(WP) run benchmark=fade noise=0.1 seeds=5 workers=$(WORKERS) results_dir=results/demo

## default test suite (< 10 min on 2 cores; long reproduction checks are marked slow)
test: install
	$(BIN)/pytest -q

test-slow: install
	$(BIN)/pytest -q -m slow

lint: install
	$(BIN)/ruff check weakpareto tests scripts
	$(BIN)/ruff format --check weakpareto tests scripts

format: install
	$(BIN)/ruff format weakpareto tests scripts

## LaTeX tables (+ paper-vs-ours files) from the Parquet results
tables: install
	$(WP) report results_dir=$(RUNS) out_dir=results/tables

reproduce-main: install
	$(WP) run -m +experiment=main workers=$(WORKERS) results_dir=$(RUNS)
reproduce-rdnoise: install
	$(WP) run -m +experiment=rdnoise workers=$(WORKERS) results_dir=$(RUNS)
reproduce-robustness: install
	$(WP) run -m +experiment=robustness workers=$(WORKERS) results_dir=$(RUNS)
reproduce-ablation: install
	$(WP) run -m +experiment=ablation workers=$(WORKERS) results_dir=$(RUNS)
reproduce-superunit: install
	$(WP) run -m +experiment=superunit workers=$(WORKERS) results_dir=$(RUNS)
reproduce-gaussian: install
	$(WP) run -m +experiment=gaussian workers=$(WORKERS) results_dir=$(RUNS)
reproduce-appendix: install
	$(WP) run -m +experiment=appendix workers=$(WORKERS) results_dir=$(RUNS)
	$(WP) run -m +experiment=appendix_ade_p0 workers=$(WORKERS) results_dir=$(RUNS)
	$(WP) run -m +experiment=appendix_riesz2_p0_aic workers=$(WORKERS) results_dir=$(RUNS)
conditioning: install
	$(BIN)/python scripts/conditioning.py

## every experiment configured so far, then the tables
reproduce: reproduce-main reproduce-rdnoise reproduce-robustness reproduce-ablation \
           reproduce-superunit reproduce-gaussian reproduce-appendix conditioning tables

bench: install
	$(WP) bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
