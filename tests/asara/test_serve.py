"""ASARA on the web page's server (apps/serve.py, apps/asara/web.py) through its JSON API,
without a browser; what both games share is tests/common/test_serve_games.py."""

from __future__ import annotations

import warnings
import xml.etree.ElementTree as ET
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from apps.asara.web import opponent_spec  # noqa: E402
from apps.serve import create_app  # noqa: E402
from asara_env import GameConfig  # noqa: E402
from asara_env.asara.actions import CARD_OPTIONS, NUM_ACTIONS, TARGETS, Group, decode, encode  # noqa: E402
from asara_env.asara.actions import public_description as public_name  # noqa: E402
from asara_env.asara.constants import CARD_NAMES, COLOUR_NAMES  # noqa: E402
from asara_env.asara.reference.engine import new_game  # noqa: E402
from asara_env.asara.reference.record import GameRecord, replay  # noqa: E402
from asara_env.asara.reference.rules import legal_actions  # noqa: E402
from asara_env.asara.reference.scoring import year_end_points  # noqa: E402

LOCAL = "http://127.0.0.1"  # the server answers only its loopback names

BASIC_2P = {"players": 2, "variant": "basic", "opponents": ["random"], "seed": 5}


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(), base_url=LOCAL)


def start(client: TestClient, **request) -> dict[str, Any]:
    """A new game, with the token its creator alone is given."""
    response = client.post("/api/games", json=BASIC_2P | request)
    assert response.status_code == 201, response.text
    return response.json()


def auth(game: dict[str, Any]) -> dict[str, Any]:
    """The headers that open `game`: its creator's token."""
    return {"X-Game-Token": game["token"]}


def get(client: TestClient, game: dict[str, Any], path: str = ""):
    return client.get(f"/api/games/{game['id']}{path}", headers=auth(game))


def move(
    client: TestClient, game: dict[str, Any], action: int | None = None, **extra
) -> dict[str, Any]:
    """Play `action` (the first legal move by default) and return the game (with its
    token, as `start` gave it)."""
    action = game["moves"][0]["id"] if action is None else action
    body = {"action": action, "decision": game["decisions"]} | extra
    response = client.post(f"/api/games/{game['id']}/moves", json=body, headers=auth(game))
    assert response.status_code == 200, response.text
    return response.json() | {"token": game["token"]}


def shown(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """The game as `GET /api/games/{id}` shows it, with its token."""
    return get(client, game).json() | {"token": game["token"]}


def play_out(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    while not game["over"]:
        game = move(client, game)
    return game


def test_options_list_every_named_agent_the_shipped_models_and_the_search_agents(client):
    options = client.get("/api/options").json()["games"]["asara"]
    kinds = {a["name"]: a["kind"] for a in options["agents"]}
    assert {"random", "greedy", "towers", "tall"} <= {
        n for n, k in kinds.items() if k == "baseline"
    }
    assert sorted(n for n, k in kinds.items() if k == "model") == [
        "ppo_2p",
        "ppo_4p",
        "sp_2p",
        "sp_4p",
    ]
    search = {a["name"]: a["budget"] for a in options["agents"] if a["kind"] == "search"}
    assert search == {"flatmc": "sims", "ismcts": "sims"}
    assert options["expansions"] == ["genie", "gifts"]


def test_a_search_agent_plays_with_the_budget_chosen(client):
    game = start(client, opponents=["flatmc:sims=4"], seat=1)
    assert game["players"][0] == "P0 (flatmc:sims=4)"
    assert game["decisions"] > 0  # it moved first
    response = client.post("/api/games", json=BASIC_2P | {"opponents": ["flatmc:sims=0"]})
    assert response.status_code == 400 and "sims" in response.json()["detail"]


def test_a_whole_game_ends_with_the_final_scoring_and_its_record_replays_to_it(client):
    game = start(client, seat=1)
    assert game["your_turn"] and game["moves"] and game["board"]["svg"].startswith("<svg")
    assert game["seed"] is None  # R10: the seed tells every card
    assert get(client, game, "/record").status_code == 409
    game = play_out(client, game)
    assert game["moves"] == [] and not game["your_turn"]
    final = game["final"]
    assert [row["player"] for row in final["rows"]] == ["P0 (random)", "P1 (you)"]
    kinds = [entry["kind"] for entry in game["log"]]
    assert kinds.count("year") == 4 and kinds[-1] == "final"
    response = get(client, game, "/record")
    assert "attachment" in response.headers["content-disposition"]
    state = replay(GameRecord.from_dict(response.json()["record"]))
    assert state.is_over and state.final is not None
    assert [r["prestige"] for r in final["rows"]] == state.prestige
    assert [r["total"] for r in final["rows"]] == [f["total"] for f in state.final]
    assert game["seed"] == 5 and len(response.json()["record"]["actions"]) == game["decisions"]
    assert response.json()["lineup"] == ["random", None] and response.json()["seat"] == 1


def test_the_opponents_moves_and_the_year_end_scoring_are_logged(client):
    game = play_out(client, start(client))
    seats = {entry["seat"] for entry in game["log"] if entry["kind"] == "move"}
    assert seats == {0, 1}
    year_ends = [entry for entry in game["log"] if entry["kind"] == "year"]
    assert [e["text"].split(" scoring")[0] for e in year_ends] == [
        f"end of year {y}" for y in (1, 2, 3, 4)
    ]
    record = GameRecord.from_dict(get(client, game, "/record").json()["record"])
    for entry in year_ends:  # R6.2: the towers, gold, lighted windows and the Caliph
        n = entry["decision"]
        before = replay(GameRecord(record.config, record.seed, record.actions[: n - 1]))
        after = replay(GameRecord(record.config, record.seed, record.actions[:n]))
        points = [year_end_points(after.towers[s], after.caliph == s) for s in range(2)]
        assert entry["points"] == points and sum(points) > 0
        final = [0, 0] if after.final is None else [f["total"] for f in after.final]
        for s in range(2):  # the year's end added them (the last move may add more)
            assert after.prestige[s] - before.prestige[s] - final[s] >= points[s]


def test_same_seed_and_moves_give_the_same_game(client):
    games = [play_out(client, start(client, opponents=["greedy"])) for _ in range(2)]
    assert games[0]["id"] != games[1]["id"]
    assert games[0]["log"] == games[1]["log"] and games[0]["final"] == games[1]["final"]


def test_several_games_at_once_stay_apart(client):
    a = start(client)
    b = start(client, players=3, variant="pro", opponents=["greedy", "random"], seed=9)
    a2 = move(client, a)
    assert shown(client, b) == b
    assert get(client, a).json()["decisions"] == a2["decisions"]
    assert a["token"] != b["token"] and "token" not in get(client, a2).json()  # only once
    assert client.app.state.games.held() == {a["id"], b["id"]}
    assert client.get("/api/games").status_code == 405  # no endpoint lists the games


@pytest.mark.parametrize(
    ("request_change", "status", "message"),
    [
        ({"players": 5}, 400, "num_players must be an int from 2 to 4"),
        ({"variant": "expert"}, 400, "variant must be one of"),
        ({"expansions": ["genie"]}, 400, "needs the professional variant"),
        ({"expansions": ["dragons"]}, 400, "unknown expansion 'dragons'"),
        ({"opponents": ["random", "random"]}, 400, "2 players need 1 opponent(s), got 2"),
        ({"opponents": ["wizard"]}, 400, "unknown agent 'wizard'"),
        ({"opponents": ["model:nothing"]}, 400, "unknown agent 'model'"),
        ({"opponents": ["policy:model=x.zip"]}, 400, "not offered on the page"),
        ({"seat": 2}, 400, "seat must be in 0..1, got 2"),
        ({"seed": -1}, 422, "greater than or equal to 0"),
        ({"seed": "abc"}, 422, "seed"),
    ],
)
def test_a_bad_new_game_request_gets_a_4xx_naming_the_problem(
    client, request_change, status, message
):
    response = client.post("/api/games", json=BASIC_2P | request_change)
    assert response.status_code == status
    assert message in str(response.json()["detail"])
    assert len(client.app.state.games) == 0


def test_an_illegal_move_is_refused_and_the_game_goes_on(client):
    game = start(client)
    legal = {m["id"] for m in game["moves"]}
    illegal = next(a for a in range(NUM_ACTIONS) if a not in legal)
    url = f"/api/games/{game['id']}/moves"
    cases = [
        ({"action": illegal, "decision": game["decisions"]}, 409, "illegal move"),
        ({"action": NUM_ACTIONS, "decision": game["decisions"]}, 400, "action ids are 0.."),
        ({"action": "place", "decision": game["decisions"]}, 422, "action"),
        ({"decision": game["decisions"]}, 422, "action"),
        ({"action": game["moves"][0]["id"], "decision": game["decisions"] - 1}, 409, "stale move"),
    ]
    for body, status, message in cases:
        response = client.post(url, json=body, headers=auth(game))
        assert response.status_code == status, body
        assert message in str(response.json()["detail"])
        assert shown(client, game) == game
    assert move(client, game)["decisions"] > game["decisions"]


def test_unknown_ids_and_frames_get_404(client):
    game = start(client)
    assert client.get("/api/games/nope", headers=auth(game)).status_code == 404
    response = client.post("/api/games/nope/moves", json={"action": 0}, headers=auth(game))
    assert "no game with id 'nope'" in response.text
    frames = game["decisions"] + 1
    assert get(client, game, f"/frames/{frames}").status_code == 404
    assert client.get("/api/uploads/nope/frames/0", headers=auth(game)).status_code == 404


def test_a_finished_game_downloads_as_an_animated_picture(client):
    game = start(client)
    assert get(client, game, "/replay.svg").status_code == 409  # R10
    game = play_out(client, game)
    response = get(client, game, "/replay.svg?seconds=0.2")
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    root = ET.fromstring(response.text)
    frames = [g for g in root if g.get("class") == "frame"]
    assert len(frames) == game["decisions"] + 1
    for seconds in ("0", "nan", "inf"):
        assert get(client, game, f"/replay.svg?seconds={seconds}").status_code == 422


def test_the_games_frames_show_each_position_as_the_persons_seat_saw_it(client):
    game = move(client, start(client, seat=1))
    frames = [get(client, game, f"/frames/{k}").json()["svg"] for k in range(game["decisions"] + 1)]
    assert frames[-1] == game["board"]["svg"]
    assert "as seen by P1 (you)" in frames[0]
    assert len(set(frames)) == len(frames)  # every decision changes the picture


def test_a_saved_game_uploads_for_replay_and_a_corrupt_one_is_refused(client):
    game = play_out(client, start(client))
    record = get(client, game, "/record").json()["record"]
    loaded = client.post("/api/uploads", json=record)
    assert loaded.status_code == 201 and loaded.json()["frames"] == len(record["actions"]) + 1
    url = f"/api/uploads/{loaded.json()['id']}/frames/{len(record['actions'])}"
    assert client.get(url).status_code == 404  # the replay too is its uploader's only
    last = client.get(url, headers=auth(loaded.json())).json()["svg"]
    assert "full view" in last and "final scoring" in last
    bad = record | {"actions": record["actions"][:3] + [NUM_ACTIONS - 1]}
    response = client.post("/api/uploads", json=bad)
    assert response.status_code == 400
    assert "not a playable ASARA game record" in response.json()["detail"]


def test_r10_opponents_face_down_cards_stay_hidden_in_the_log():
    pair = next(i for i, c in enumerate(CARD_OPTIONS) if len(c) == 2 and c[0] != c[1])
    action = encode(Group.PLACE, 8, pair)
    assert (
        public_name(action, mover=1, viewer=0) == f"place two face-down cards on {TARGETS[8].name}"
    )
    assert "face-down" in public_name(action, mover=0, viewer=0)
    assert "+" in public_name(action, mover=0, viewer=0)
    for group, fields in (
        (Group.PLACE_COLOURED, (2,)),
        (Group.LIGHTS_KEEP, (1,)),
        (Group.GIFT_CARD, (3,)),
    ):
        hidden = public_name(encode(group, *fields), mover=1, viewer=0)
        words = set(hidden.replace(":", " ").split())
        assert not words & set(CARD_NAMES + COLOUR_NAMES), hidden


def test_r10_the_page_never_sees_an_opponents_hand(client):
    game = start(client, players=3, opponents=["random", "random"], seed=3)
    state = new_game(GameConfig(num_players=3), 3)
    assert legal_actions(state) == [m["id"] for m in game["moves"]]  # seat 0 starts
    assert game["board"]["svg"].count('class="hand"') == 1


@pytest.mark.slow
def test_a_shipped_model_plays_as_an_opponent(client):
    game = play_out(client, start(client, opponents=["ppo_2p"]))
    assert game["final"]["rows"][0]["player"] == "P0 (you)"
    assert game["final"]["rows"][1]["player"] == "P1 (ppo_2p)"


@pytest.mark.parametrize(
    ("old", "new"), [("model:asara_2p", "ppo_2p"), ("model:asara_4p", "ppo_4p")]
)
def test_the_models_former_names_are_accepted_with_a_deprecation_warning(old, new):
    with pytest.warns(DeprecationWarning, match=f"{old!r} is deprecated; use {new!r}"):
        assert opponent_spec(old) == new
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the registry's own names warn of nothing
        assert opponent_spec(new) == new


def test_an_unknown_opponent_is_refused_naming_the_known_ones(client):
    response = client.post("/api/games", json=BASIC_2P | {"opponents": ["wizard"]})
    assert response.status_code == 400
    assert "unknown agent 'wizard'" in response.json()["detail"]
    assert "'ppo_2p', 'ppo_4p', 'sp_2p', 'sp_4p'" in response.json()["detail"]


def test_r10_the_log_of_a_whole_game_hides_what_the_person_may_not_know(client):
    game = start(
        client,
        players=3,
        variant="pro",
        expansions=["genie", "gifts"],
        opponents=["random", "random"],
        seed=12,
    )
    game = play_out(client, game)
    record = get(client, game, "/record").json()["record"]
    hidden_groups = {Group.PLACE_COLOURED, Group.LIGHTS_KEEP, Group.GIFT_CARD}
    checked = 0
    for entry in game["log"]:
        if entry["kind"] != "move" or entry["seat"] == 0:
            continue
        group, fields = decode(record["actions"][entry["decision"] - 1])
        pair = group == Group.PLACE and len(CARD_OPTIONS[fields[1]]) == 2
        if pair or group in hidden_groups:
            words = set(entry["text"].replace(":", " ").split())
            assert not words & set(CARD_NAMES + COLOUR_NAMES), entry["text"]
            checked += 1
    assert checked > 0
