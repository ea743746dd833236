# Two entry points a fresh clone needs: `make run` (set up, play the main job) and
# `make test` (set up, run the tests). Both create .venv with nothing but Python.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run test test-slow lint format docs bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0  # the CPU wheel, before anything pulls CUDA
	$(BIN)/python -m pip install --quiet -e ".[dev,train]"
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m training.tournament --agents random,greedy,towers,tall --players 2 3 4 \
		--games 200 --seed 0 --out results/

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy asara_env
	OMP_NUM_THREADS=1 $(BIN)/python -m pytest -n 2 -q
	$(BIN)/python -m pytest -q --nbmake notebooks

test-slow: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy asara_env

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

docs: $(STAMP)
	$(BIN)/python -m asara_env.docs

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python benchmarks/bench_reference.py
	$(BIN)/python benchmarks/bench_core.py
	$(BIN)/python benchmarks/bench_env.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
