"""BASARI's definition layer: the constants table, config, the flat action table (E2) and
its generated docs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from asara_env.basari import constants as C
from asara_env.basari.actions import (
    LAYOUT,
    N_BARTER_IDS,
    ActionLayout,
    BarterChoice,
    Group,
    decode,
    describe_action,
    encode,
    layout_markdown,
)
from asara_env.basari.config import BasariConfig

DOCS = Path(__file__).resolve().parents[2] / "docs" / "basari" / "actions.md"
PACKAGE = Path(__file__).resolve().parents[2] / "asara_env" / "basari"


def test_B1_constants_as_the_spec_states_them() -> None:
    assert [c.name for c in C.Colour] == ["RED", "YELLOW", "GREEN", "BLUE"]
    assert [c.name for c in C.Card] == ["DIE", "POINTS", "GEMS"]
    assert (C.GEMS_PER_COLOUR, C.START_GEMS, C.DIE_FACES, C.ROUNDS) == (25, 3, 6, 3)
    assert (C.LAP_BONUS, C.MAJORITY_RETURN, C.TIE_RETURN, C.POINTS_TRACK) == (10, 3, 2, 80)
    assert C.N_ARCHWAYS == 28 and C.N_ACTIONS == 39 and C.MAX_TURNS == 84
    assert C.MAJORITY_BONUS.tolist() == [[12, 10, 8, 6]] * 3
    assert C.MAX_BARTERS_PER_TURN == 2


def test_B1_every_assumed_number_is_marked_with_its_rule_and_reason() -> None:
    for name in ("n_archways", "board_template", "majority_bonus", "two_players"):
        assert name in C.ASSUMED
    for entry in C.ASSUMED.values():
        assert entry["rule"].startswith("B") and len(entry["reason"]) > 20
    with pytest.raises(ValueError):
        C.BOARD[0, 0] = 9  # the tables are read-only
    with pytest.raises(ValueError):
        C.MAJORITY_BONUS[0, 0] = 9


@pytest.mark.parametrize("n", [28, 10, 1])
def test_E2_encode_decode_round_trip_over_every_id(n: int) -> None:
    layout = ActionLayout(n)
    assert layout.n_actions == n + 11
    names = set()
    for action in range(layout.n_actions):
        group, arg = layout.decode(action)
        assert layout.encode(group, arg) == action
        names.add(layout.describe(action))
    assert len(names) == layout.n_actions  # every id has its own name
    with pytest.raises(ValueError, match="outside"):
        layout.decode(layout.n_actions)
    with pytest.raises(ValueError, match="START takes an argument"):
        layout.encode(Group.START, n)


def test_E2_the_default_ids_are_the_spec_table() -> None:
    assert encode(Group.NOOP) == 0
    assert [encode(Group.START, k) for k in (0, 27)] == [1, 28]
    assert [encode(Group.CARD, c) for c in range(3)] == [29, 30, 31]
    assert (encode(Group.ACCEPT), encode(Group.FORFEIT)) == (32, 33)
    assert [encode(Group.ADD, c) for c in range(4)] == [34, 35, 36, 37]
    assert encode(Group.SUBMIT) == 38 == LAYOUT.n_actions - 1
    assert decode(30) == (Group.CARD, 1)


def test_E2_describe_action_names() -> None:
    assert describe_action(30) == "card: Points"
    assert describe_action(34) == "add a red gem to the offer"
    assert describe_action(38) == "submit the offer"
    assert describe_action(33) == "offer nothing (forfeit)"
    assert describe_action(32) == "accept the offer"
    assert describe_action(6) == "start at archway 5"


def test_E2_generated_docs_are_up_to_date() -> None:
    assert DOCS.read_text() == layout_markdown()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_players": 5}, "num_players must be in 2..4, got 5"),
        ({"num_players": 1}, "num_players must be in 2..4"),
        ({"num_players": 3.0}, "num_players must be an int"),
        ({"num_players": True}, "num_players must be an int"),
        ({"start_mode": "free"}, "start_mode must be one of"),
        ({"board": [[1, 2]]}, "board must have shape"),
    ],
)
def test_config_refuses_bad_values_naming_the_field(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BasariConfig(**kwargs)


def test_config_round_trips_and_refuses_unknown_keys() -> None:
    board = np.array([[6, 0, 1, 0, 1]] * 12)
    config = BasariConfig(2, "random", board)
    again = BasariConfig.from_dict(config.to_dict())
    assert again == config and hash(again) == hash(config)
    assert again != BasariConfig(2, "random")
    with pytest.raises(ValueError, match="unknown config keys: \\['seats'\\]"):
        BasariConfig.from_dict({"seats": 3})


@pytest.mark.parametrize("n_archways", [8, 28, 40])
def test_E2_barter_ids_are_named_relative_to_accept_on_every_board(n_archways: int) -> None:
    lay = ActionLayout(n_archways)
    for name in ("ACCEPT", "FORFEIT", "SUBMIT"):
        assert lay.encode(Group[name]) - lay.accept == BarterChoice[name]
    for c in range(C.N_COLOURS):
        assert lay.add(c) - lay.accept == BarterChoice.ADD + c
    assert lay.submit - lay.accept + 1 == N_BARTER_IDS == 7


def test_E4_the_definition_and_reference_draw_no_other_randomness() -> None:
    """Chance comes only from the counter-based draws of `chance.py` (E4)."""
    for path in [PACKAGE / "chance.py", *sorted((PACKAGE / "reference").glob("*.py"))]:
        text = path.read_text()
        assert "np.random" not in text and "import random" not in text, path
