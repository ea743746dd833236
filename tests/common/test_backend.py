"""The backend switch (asara_env.common.backend) and the registry's load_core(backend)."""

import copy
import pickle

import pytest

from asara_env import games
from asara_env.common import backend as backend_mod
from asara_env.common.backend import BACKEND_ENV_VAR, BACKENDS, resolve_backend


def test_explicit_numpy_is_always_numpy(monkeypatch):
    monkeypatch.setenv(BACKEND_ENV_VAR, "numba")
    assert resolve_backend("numpy") == "numpy"


def test_environment_variable_chooses_when_none_given(monkeypatch):
    monkeypatch.setenv(BACKEND_ENV_VAR, "numpy")
    assert resolve_backend(None) == "numpy"


def test_bad_backend_is_named(monkeypatch):
    with pytest.raises(ValueError, match="'fortran'"):
        resolve_backend("fortran")
    monkeypatch.setenv(BACKEND_ENV_VAR, "cuda")
    with pytest.raises(ValueError, match=BACKEND_ENV_VAR):
        resolve_backend(None)


def test_default_falls_back_to_numpy_without_numba(monkeypatch):
    monkeypatch.delenv(BACKEND_ENV_VAR, raising=False)
    monkeypatch.setattr(backend_mod, "numba_available", lambda: False)
    assert resolve_backend(None) == "numpy"
    with pytest.raises(ImportError, match="numba"):
        resolve_backend("numba")


@pytest.mark.parametrize("name", games.available_games())
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_game_loads_a_core_on_every_backend(name, backend):
    if backend == "numba" and not backend_mod.numba_available():
        pytest.skip("numba is not installed")
    core = games.load_core(name, backend)
    assert all(callable(getattr(core, verb)) for verb in games.CORE_VERBS)
    card = games.game_card(name)
    expected = card.compiled_core if backend == "numba" and card.compiled_core else card.core
    assert core.__name__ == expected


@pytest.mark.parametrize("name", games.available_games())
def test_load_core_binds_the_verbs_once_and_travels_as_its_game_and_backend(name):
    core = games.load_core(name, "numpy")
    assert (core.game, core.backend) == (name, "numpy")
    assert all(getattr(core, verb) is getattr(core.module, verb) for verb in games.CORE_VERBS)
    assert copy.deepcopy(core) is core
    again = pickle.loads(pickle.dumps(core))
    assert (again.game, again.backend, again.module) == (name, "numpy", core.module)


def test_bind_core_passes_bound_verbs_through_and_refuses_another_games():
    core = games.load_core("basari", "numpy")
    assert games.bind_core("basari", core) is core
    assert games.bind_core("basari", "numpy").module is core.module
    with pytest.raises(ValueError, match="asara's verbs, got basari's"):
        games.bind_core("asara", core)
