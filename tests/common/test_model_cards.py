"""Every shipped model has a card beside its weights (agents/models.py, `model_card`): every
field, the player count the model was trained for, a reward it was trained on, an
evaluation at its own player count whose win rate lies in its interval, and a full commit."""

from __future__ import annotations

import json
import re

import pytest

from agents.models import (
    CARD_FIELDS,
    MODELS,
    STRONGEST,
    TRAINED_FOR,
    TRAINED_ON,
    card_path,
    model_card,
    weights_dir,
)
from tests.common.pages import PAGE, headings

SHIPPED = [(game, name) for game in MODELS for name in MODELS[game]]
COMMIT = re.compile(r"[0-9a-f]{40}")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@pytest.mark.parametrize("game, name", SHIPPED)
def test_every_shipped_model_has_a_card_that_matches_it(game: str, name: str) -> None:
    card = model_card(game, name)
    assert (card["game"], card["name"], card["file"]) == (game, name, MODELS[game][name])
    assert card["players"] == TRAINED_FOR[game][name] == card["settings"]["players"]
    assert card["reward"] == TRAINED_ON[game][name]
    assert COMMIT.fullmatch(card["commit"]) and DATE.fullmatch(card["date"])
    assert card["commands"] and all(isinstance(c, str) and c for c in card["commands"])
    assert card["cpu_hours"] > 0 and card["cpu_hours_note"]
    assert card["started_from"] is None or card["started_from"] in MODELS[game]
    own_count = [row for row in card["evaluation"] if row["players"] == card["players"]]
    assert own_count, f"{game} {name}: no evaluation at {card['players']} players"
    for row in card["evaluation"]:
        low, high = row["interval"]
        assert 0 <= low <= row["win_rate"] <= high <= 1, row
        assert row["fair_share"] == pytest.approx(1 / row["players"], abs=1e-4), row
        assert row["games"] > 0 and DATE.fullmatch(row["date"]) and row["command"], row
        assert name in row["agent"] and name not in row["opponents"], row


def test_every_card_in_the_weights_folder_belongs_to_a_shipped_model() -> None:
    cards = {path.name for path in weights_dir().glob("*.json")}
    assert cards == {card_path(game, name).name for game, name in SHIPPED}


def test_a_card_without_a_field_is_refused_naming_the_field(tmp_path, monkeypatch) -> None:
    import agents.models as models

    card = json.loads(card_path("asara", "ppo_2p").read_text())
    del card["commit"]
    del card["evaluation"][0]["seed"]
    (tmp_path / "asara_2p.zip").write_bytes(b"")
    (tmp_path / "asara_2p.json").write_text(json.dumps(card))
    monkeypatch.setattr(models, "weights_dir", lambda: tmp_path)
    with pytest.raises(ValueError, match=r"lacks commit, evaluation\[0\]\.seed"):
        model_card("asara", "ppo_2p")
    assert set(CARD_FIELDS) - set(card) == {"commit"}


def test_an_unknown_model_has_no_card() -> None:
    with pytest.raises(ValueError, match="unknown basari model 'ppo_5p'"):
        model_card("basari", "ppo_5p")


@pytest.mark.parametrize("game", sorted(STRONGEST))
def test_every_strongest_entry_was_measured_at_its_player_count(game: str) -> None:
    """Each count's strongest model has, on its card, matches played at that count."""
    assert set(STRONGEST[game]) == {2, 3, 4}
    for players, name in STRONGEST[game].items():
        rows = [row for row in model_card(game, name)["evaluation"] if row["players"] == players]
        assert rows, f"{game} {name}: no match at {players} players on its card"


def test_every_card_points_to_a_section_of_the_performance_page() -> None:
    anchors = headings(PAGE)
    for game, name in SHIPPED:
        page, _, anchor = model_card(game, name)["docs"].partition("#")
        assert page == "docs/performance.md" and anchor in anchors, (game, name, anchor)
