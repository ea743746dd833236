"""Compiling the kernels ahead (`python -m commandline.compile`, run by `make setup`) and
the one-line notice on stderr when a first use has to wait for them."""

from __future__ import annotations

import types
from typing import Any

import pytest

event = pytest.importorskip("numba.core.event")

from asara_env import games  # noqa: E402
from commandline import compile as compile_cli  # noqa: E402


def toy_core(name: str, calls: list[str], compiles: bool) -> types.ModuleType:
    """A compiled core whose warm-up compiles (as numba does on a cache miss) or not."""

    def warm_up() -> None:
        calls.append(name)
        if compiles:
            with event.trigger_event("numba:compile", data={}):
                pass

    module = types.ModuleType(name)
    module.warm_up = warm_up  # type: ignore[attr-defined]
    return module


def test_a_warm_up_that_compiles_says_so_on_stderr_once_per_process(capsys):
    calls: list[str] = []
    core = toy_core("toy_compiled_core_a", calls, compiles=True)
    games.warm_up("toy", core)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("toy: compiling the numba kernels")
    assert err[1].startswith("toy: kernels compiled in")
    assert len(err) == 2
    assert games.warm_up("toy", core) == 0.0  # once per process
    assert calls == ["toy_compiled_core_a"]
    assert capsys.readouterr().err == ""


def test_a_warm_up_from_the_cache_or_without_notice_is_silent(capsys):
    calls: list[str] = []
    games.warm_up("toy", toy_core("toy_compiled_core_b", calls, compiles=False))
    games.warm_up("toy", toy_core("toy_compiled_core_c", calls, compiles=True), notice=False)
    assert calls == ["toy_compiled_core_b", "toy_compiled_core_c"]
    assert capsys.readouterr().err == ""


def test_the_games_to_compile_come_from_the_cards():
    expected = [n for n in games.available_games() if games.game_card(n).compiled_core]
    assert compile_cli.compiled_games() == expected
    assert {"asara", "basari"} <= set(expected)


def test_without_numba_there_is_nothing_to_compile(monkeypatch, capsys):
    monkeypatch.setattr(compile_cli, "numba_available", lambda: False)
    assert compile_cli.main([]) == 0
    assert "nothing to compile" in capsys.readouterr().out


def test_the_compile_step_warms_every_compiled_game_in_turn(monkeypatch, capsys):
    warmed: list[str] = []

    def warm_up(name: str, module: Any, notice: bool) -> float:
        warmed.append(name)
        return 2.0

    monkeypatch.setattr(compile_cli, "numba_available", lambda: True)
    monkeypatch.setattr(games, "warm_up", warm_up)
    assert compile_cli.main([]) == 0
    out = capsys.readouterr().out.splitlines()
    names = compile_cli.compiled_games()
    assert warmed == names
    assert out[0] == f"[1/{len(names)}] {names[0]}: numba kernels ... 2.0 s"
    assert out[-1].startswith(f"{len(names)} games' kernels compiled or loaded")


def test_bad_arguments_are_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        compile_cli.main(["--fast"])
    assert exit_.value.code == 2
