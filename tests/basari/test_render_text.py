"""BASARI's text boards (asara_env/basari/render.py): every title of the players' table
sits over its column, in both layouts, through a random game."""

from __future__ import annotations

import re

import numpy as np
import pytest

from asara_env.basari.config import BasariConfig
from asara_env.basari.phases import Phase
from asara_env.basari.reference import new_game, step
from asara_env.basari.render import render_compact, render_state
from tests.basari.fuzzing import random_joint

RIGHT = ("score", "R", "Y", "G", "B")  # numbers: ending under their title's end
LEFT = ("lap", "card")  # text: starting under their title's start


def _table(text: str, first: str, seats: int) -> tuple[str, list[str]]:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(first))
    return lines[at], lines[at + 1 : at + 1 + seats]


def _spans(line: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\S+", line)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_title_of_the_players_table_sits_over_its_column(players: int) -> None:
    state = new_game(BasariConfig(players, "random"), 11)
    chooser = np.random.default_rng(3)
    labels = [f"P{s}" + (" you" if s == 0 else "") for s in range(players)]
    for _ in range(60):
        tables = [
            _table(render_compact(state, labels, 0), "seat", players),
            _table(render_state(state, [f"player_{s}" for s in range(players)]), "player", players),
        ]
        for header, rows in tables:
            titles = {header[a:b]: (a, b) for a, b in _spans(header)}
            for row in rows:
                spans = _spans(row)
                for title in RIGHT:
                    assert titles[title][1] in {b for _, b in spans}, (header, row, title)
                for title in LEFT:
                    assert titles[title][0] in {a for a, _ in spans}, (header, row, title)
        if state.phase == Phase.OVER:
            break
        step(state, random_joint(state, chooser))
