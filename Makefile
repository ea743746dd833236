# Two entry points a fresh clone needs: `make run` (set up, play the main job) and
# `make test` (set up, run the tests). Both create .venv with nothing but Python.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# PyTorch publishes its CPU-only wheels on its own index (PyPI's Linux torch is the CUDA
# build, gigabytes of nvidia-* packages). Where that index is unreachable, pip skips it and
# takes a CPU wheel from the configured mirrors or wheel folders.
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu

.PHONY: setup run test test-slow test-integration test-wheel lint format docs docs-site bench clean

$(STAMP): pyproject.toml
	@echo "==> setting up $(VENV): the project with its dev and train extras, torch's CPU build first"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --timeout 20 --retries 1 \
		--extra-index-url $(TORCH_INDEX) torch==2.13.0  # the CPU build, before anything pulls CUDA
	$(BIN)/python -m pip install --quiet -e ".[dev,train]"
	$(BIN)/python -m commandline.compile  # every game's numba kernels, into numba's cache
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m training.evaluation.tournament_cli asara --agents random,greedy,towers,tall --players 2 3 4 \
		--games 200 --seed 0 --out results/

# each step of `make test` announced with its number, what it runs and the time of day;
# the main pytest run prints a line per test file as the file finishes (tests/progress.py),
# the notebooks and the slow integration tests name each test as it starts (-v)
STEP = @printf '\n==> make test, step %s (%s UTC): %s\n' $(1) "$$(date -u +%H:%M:%S)" $(2)

test: $(STAMP)
	$(call STEP,1/6,"lint (ruff check, ruff format --check)")
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(call STEP,2/6,"types (mypy --strict over the whole tree)")
	$(BIN)/mypy asara_env agents commandline training apps benchmarks examples tests
	$(call STEP,3/6,"the docs site (mkdocs build --strict into site/)")
	$(MAKE) --no-print-directory docs-site
	$(call STEP,4/6,"pytest on 2 workers (the first tests compile the numba kernels)")
	OMP_NUM_THREADS=1 $(BIN)/python -m pytest -n 2 -q
	$(call STEP,5/6,"the notebooks (nbmake)")
	$(BIN)/python -m pytest -v --nbmake notebooks
	$(call STEP,6/6,"the RL-library recipes and the wheel (make test-integration)")
	$(MAKE) --no-print-directory test-integration

# The RL-library recipes of examples/ (Ray RLlib, Tianshou, AgileRL, SuperSuit, SB3) get a
# venv of their own: RLlib pins gymnasium==1.2.2 and AgileRL pettingzoo<1.27, older than
# the main venv's.
INT_VENV := .venv-integration
INT_STAMP := $(INT_VENV)/.installed

$(INT_STAMP): pyproject.toml
	@echo "==> setting up $(INT_VENV): the project with the RL libraries of examples/"
	$(PYTHON) -m venv $(INT_VENV)
	$(INT_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(INT_VENV)/bin/python -m pip install --quiet --timeout 20 --retries 1 \
		--extra-index-url $(TORCH_INDEX) torch==2.13.0
	$(INT_VENV)/bin/python -m pip install --quiet -e ".[dev,train,integration]"
	touch $(INT_STAMP)

# TorchRL 0.14 needs tensordict>=0.14.2, AgileRL 2.58 pins an older one: a venv of its own.
TRL_VENV := .venv-torchrl
TRL_STAMP := $(TRL_VENV)/.installed

$(TRL_STAMP): pyproject.toml
	@echo "==> setting up $(TRL_VENV): the project with TorchRL"
	$(PYTHON) -m venv $(TRL_VENV)
	$(TRL_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(TRL_VENV)/bin/python -m pip install --quiet --timeout 20 --retries 1 \
		--extra-index-url $(TORCH_INDEX) torch==2.13.0
	$(TRL_VENV)/bin/python -m pip install --quiet -e ".[torchrl]"
	touch $(TRL_STAMP)

test-integration: $(INT_STAMP) $(TRL_STAMP)
	OMP_NUM_THREADS=1 $(INT_VENV)/bin/python -m pytest -n 0 -v -m integration tests/integration
	OMP_NUM_THREADS=1 $(TRL_VENV)/bin/python -m pytest -p no:xdist -v -m integration \
		tests/integration/test_torchrl.py

# the wheel and sdist built and installed into fresh venvs on every supported Python found
# (docs/install.md); also part of test-integration
test-wheel: $(STAMP)
	OMP_NUM_THREADS=1 $(BIN)/python -m pytest -n 0 -q -m wheel tests/integration/test_wheel.py

test-slow: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy asara_env agents commandline training apps benchmarks examples tests

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# the generated pages (each game's tables, the command-line reference), then the site
# (MkDocs + Material + mkdocstrings) into site/, strictly: any warning fails
docs: $(STAMP)
	$(BIN)/python -m asara_env.docs
	$(BIN)/python -m apps.cli_reference
	$(MAKE) docs-site

docs-site: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	$(BIN)/python -m benchmarks.asara.bench_reference
	$(BIN)/python -m benchmarks.asara.bench_core
	$(BIN)/python -m benchmarks.asara.bench_env
	$(BIN)/python -m benchmarks.basari.bench_core

clean:
	rm -rf $(VENV) $(INT_VENV) $(TRL_VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
