"""BASARI on the web page's server (apps/basari/web.py): the simultaneous card choice, the
hidden bundle (B11), round-end scoring (B9) explained and consistent, through the API."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from apps.basari.web import board_json  # noqa: E402
from apps.serve import TOKEN_HEADER, create_app  # noqa: E402
from asara_env.basari.config import BasariConfig  # noqa: E402
from asara_env.basari.phases import Phase  # noqa: E402
from asara_env.basari.reference.engine import new_game, step  # noqa: E402
from asara_env.basari.reference.rules import legal_actions  # noqa: E402

LOCAL = "http://127.0.0.1"  # the server answers only its loopback names

NEW = {"game": "basari", "players": 3, "opponents": ["random", "random"], "seed": 4}


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(), base_url=LOCAL)


def post_move(client: TestClient, g: dict[str, Any], token: str, action: int) -> dict[str, Any]:
    body = {"action": action, "decision": g["decisions"]}
    response = client.post(f"/api/games/{g['id']}/moves", json=body, headers={TOKEN_HEADER: token})
    assert response.status_code == 200, response.text
    return dict(response.json())


def first_of(g: dict[str, Any], group: str, k: int = 0) -> int:
    moves = [m["id"] for m in g["moves"] if m["group"] == group]
    return int(moves[k % len(moves)])


def test_b5_1_the_opponents_choose_their_cards_without_seeing_the_persons(client):
    shown = []
    for card in range(3):
        g = client.post("/api/games", json=NEW).json()
        token = g["token"]
        g = post_move(client, g, token, first_of(g, "start"))
        g = post_move(client, g, token, first_of(g, "card", card))
        cards = next(e["text"] for e in g["log"] if e["text"].startswith("cards: "))
        mine, *theirs = cards.removeprefix("cards: ").split(", ")
        shown.append(theirs)
    assert shown[0] == shown[1] == shown[2]  # whatever the person chose


def test_b11_the_bundle_being_built_is_shown_to_its_builder_only():
    state = new_game(BasariConfig(num_players=3), 2)
    while state.phase != Phase.BARTER:
        joint = [int(np.flatnonzero(legal_actions(state, s))[0]) for s in range(3)]
        if state.phase == Phase.SELECT:
            joint = [state.config.actions.card(1)] * 2 + [state.config.actions.card(0)]
        step(state, joint)
    builder = state.to_act
    add = state.config.actions.add(0)
    joint = [0] * 3
    joint[builder] = add
    step(state, joint)
    assert state.pending.sum() == 1
    for viewer in range(3):
        pending = board_json(state, viewer)["barter"]["pending"]
        assert pending == ([1, 0, 0, 0] if viewer == builder else None)


def test_b9_round_end_scoring_is_explained_and_adds_up(client):
    g = client.post("/api/games", json=NEW | {"opponents": ["value", "points_first"]}).json()
    token, k = g["token"], 0
    while not g["over"]:
        g, k = post_move(client, g, token, g["moves"][k % len(g["moves"])]["id"]), k + 1
    rounds = [e["text"] for e in g["log"] if e["kind"] == "year"]
    assert len(rounds) == 3
    for text in rounds:
        parts, total = text.split(": ", 1)[1].split(". In all: ")
        listed = dict.fromkeys(g["players"], 0)
        for part in parts.split("; "):
            lap = re.fullmatch(r"lap bonus \+(\d+): (.*)", part)
            most = re.fullmatch(r"most \w+ \(\d+\): (.*) \+(\d+), returning \d", part)
            assert lap is not None or most is not None, part
            names, bonus = (lap.group(2), lap.group(1)) if lap else most.groups()  # type: ignore[union-attr]
            for name in names.split(", "):
                if name != "nobody":
                    listed[name] += int(bonus)
        gains = dict(re.findall(r"(P\d \([^)]*\)) \+(\d+)", total))
        assert {name: int(v) for name, v in gains.items()} == listed, text


def test_b11_the_log_never_names_an_opponents_gem_added(client):
    g = client.post("/api/games", json=NEW).json()
    token, k = g["token"], 0
    while not g["over"]:
        g, k = post_move(client, g, token, g["moves"][k % len(g["moves"])]["id"]), k + 1
    texts = [e["text"] for e in g["log"]]
    assert any("(you) adds a" in t for t in texts)
    assert not any("(random) adds" in t for t in texts)
    assert any("(random) offers" in t for t in texts)  # an offer is public once submitted
