"""Compiling the kernels ahead (`python -m commandline.compile`, run by `make setup`) and
the one-line notice on stderr when a first use has to wait for them."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import pytest

from asara_env import games
from commandline import compile as compile_cli


class RunsAtOnce:
    """A `threading.Timer` whose function runs as soon as it is started: the warm-up
    it guards counts as one that outlasted the notice's delay."""

    def __init__(self, interval: float, function: Callable[[], None]) -> None:
        self.function = function
        self.daemon = False

    def start(self) -> None:
        self.function()

    def cancel(self) -> None:
        pass


def toy_core(name: str, calls: list[str]) -> types.ModuleType:
    module = types.ModuleType(name)
    module.warm_up = lambda: calls.append(name)  # type: ignore[attr-defined]
    return module


def test_a_slow_warm_up_says_what_it_does_on_stderr_once_per_process(monkeypatch, capsys):
    monkeypatch.setattr(games.threading, "Timer", RunsAtOnce)
    calls: list[str] = []
    core = toy_core("toy_compiled_core_a", calls)
    games.warm_up("toy", core)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("toy: preparing the numba kernels")
    assert err[1].startswith("toy: kernels ready in")
    assert games.warm_up("toy", core) == 0.0  # once per process
    assert calls == ["toy_compiled_core_a"]
    assert capsys.readouterr().err == ""


def test_a_warm_up_without_notice_is_silent(monkeypatch, capsys):
    monkeypatch.setattr(games.threading, "Timer", RunsAtOnce)
    calls: list[str] = []
    games.warm_up("toy", toy_core("toy_compiled_core_b", calls), notice=False)
    assert calls == ["toy_compiled_core_b"]
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
    assert out[0] == f"[1/{len(names)}] {names[0]}: compiling its numba kernels ... 2.0 s"
    assert out[-1].startswith(f"compiled {len(names)} games' kernels in")


def test_bad_arguments_are_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        compile_cli.main(["--fast"])
    assert exit_.value.code == 2
