"""What the web page's server does the same for every game, through its JSON API: options
naming every agent, a whole game to its final table, the same seed and moves giving the
same game, uploads (a record, the page's own download, a saved game) continued from their
last position with the same or other opponents, and every wrong upload refused with a 4xx
naming what is wrong. tests/common/test_serve_isolation.py has the tokens and limits;
tests/<game>/test_serve.py each game's own page."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from agents.registry import agent_names  # noqa: E402
from apps.serve import create_app  # noqa: E402
from apps.webgame import web_games  # noqa: E402
from asara_env import GameConfig  # noqa: E402
from asara_env.asara.reference.engine import new_game as asara_new  # noqa: E402
from asara_env.asara.reference.serialize import state_to_dict as asara_save  # noqa: E402
from asara_env.basari.config import BasariConfig  # noqa: E402
from asara_env.basari.reference.engine import new_game as basari_new  # noqa: E402
from asara_env.basari.reference.serialize import state_to_dict as basari_save  # noqa: E402
from tests.common import serve_client  # noqa: E402
from tests.common.serve_client import LOCAL, auth, move  # noqa: E402

NEW_GAME: dict[str, dict[str, Any]] = {
    "asara": {"game": "asara", "players": 2, "variant": "basic", "opponents": ["random"]},
    "basari": {"game": "basari", "players": 3, "opponents": ["random", "value"]},
}
OTHERS = {"asara": ["greedy"], "basari": ["points_first", "random"]}


@pytest.fixture(params=web_games())
def game(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(), base_url=LOCAL)


def start(client: TestClient, game: str, seed: int = 5, **change: Any) -> dict[str, Any]:
    return serve_client.start(client, game, seed, NEW_GAME, **change)


def play_out(client: TestClient, g: dict[str, Any]) -> dict[str, Any]:
    return serve_client.play_out(client, g, vary=True)


def record_of(client: TestClient, g: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/games/{g['id']}/record", headers=auth(g))
    assert response.status_code == 200, response.text
    return dict(response.json())


def upload(client: TestClient, game: str, data: object, players: int | None = None):
    query = f"?game={game}" + ("" if players is None else f"&players={players}")
    return client.post(f"/api/uploads{query}", json=data)


def test_the_options_offer_every_named_agent_of_each_game(client):
    options = client.get("/api/options").json()["games"]
    assert sorted(options) == sorted(web_games())
    for name, choices in options.items():
        offered = [a["name"] for a in choices["agents"]]
        assert offered == [n for n in agent_names(name) if n != "policy"]


def test_a_whole_game_ends_with_its_final_table_and_the_same_seed_gives_the_same_game(client, game):
    first, second = (play_out(client, start(client, game)) for _ in range(2))
    assert first["id"] != second["id"]
    assert first["log"] == second["log"] and first["final"] == second["final"]
    final = first["final"]
    assert len(final["rows"]) == NEW_GAME[game]["players"]
    assert all(set(final["columns"]) <= set(row) for row in final["rows"])
    assert final["winners"] and first["seed"] == 5
    assert first["log"][-1]["kind"] == "final"


@pytest.mark.parametrize("wrapped", [True, False], ids=["download", "bare record"])
def test_a_half_played_record_is_continued_at_its_last_position(client, game, wrapped):
    done = record_of(client, play_out(client, start(client, game)))
    cut = len(done["record"]["actions"]) // 2
    half = done["record"] | {"actions": done["record"]["actions"][:cut]}
    data = done | {"record": half} if wrapped else half
    loaded = upload(client, game, data).json()
    assert loaded["kind"] == "record" and loaded["frames"] == cut + 1 and not loaded["over"]
    assert loaded["lineup"] == (done["lineup"] if wrapped else None)
    opponents = [n for n in done["lineup"] if n is not None]
    url = f"/api/uploads/{loaded['id']}/continue"
    records = []
    for _ in range(2):  # the same opponents, seeded alike: the same continuation
        same = client.post(url, json={"opponents": opponents, "seat": 0}, headers=auth(loaded))
        assert same.status_code == 201, same.text
        assert same.json()["decisions"] >= cut  # from the last position on
        records.append(record_of(client, play_out(client, same.json()))["record"])
    assert records[0] == records[1]
    assert records[0]["actions"][:cut] == half["actions"]  # the same game, continued
    assert records[0]["seed"] == half["seed"]
    other = client.post(url, json={"opponents": OTHERS[game], "seat": 1}, headers=auth(loaded))
    assert other.status_code == 201 and other.json()["seat"] == 1
    assert other.json()["players"][0] == f"P0 ({OTHERS[game][0]})"
    assert other.json()["decisions"] >= cut


def test_a_saved_game_is_continued_from_its_position(client, game):
    if game == "asara":
        saved = asara_save(asara_new(GameConfig(num_players=2), 9))
    else:
        saved = basari_save(basari_new(BasariConfig(num_players=3), 9))
    loaded = upload(client, game, saved).json()
    assert loaded["kind"] == "saved game" and loaded["frames"] == 1
    url = f"/api/uploads/{loaded['id']}/continue"
    g = client.post(url, json={"opponents": NEW_GAME[game]["opponents"]}, headers=auth(loaded))
    assert g.status_code == 201, g.text
    finished = play_out(client, g.json())
    done = record_of(client, finished)
    assert done["record"]["state"] == saved and len(done["record"]["actions"]) > 0
    again = upload(client, game, done).json()  # the download of it uploads again
    assert again["over"] and again["frames"] == len(done["record"]["actions"]) + 1
    frame = client.get(
        f"/api/uploads/{again['id']}/frames/{again['frames'] - 1}", headers=auth(again)
    )
    assert frame.status_code == 200 and frame.json()["svg"].startswith("<svg")


def test_an_upload_of_another_game_or_player_count_is_refused_naming_both(client, game):
    done = record_of(client, play_out(client, start(client, game)))
    other = next(g for g in web_games() if g != game)
    players = NEW_GAME[game]["players"]
    for data in (done, done["record"]):
        answer = upload(client, other, data, players=2)
        assert answer.status_code == 400
        detail = answer.json()["detail"]
        assert f"{players}-player {game.upper()} record" in detail
        assert f"set for {other.upper()} with 2 players" in detail
    answer = upload(client, game, done, players=4)
    assert answer.status_code == 400
    assert f"{players}-player {game.upper()} record" in answer.json()["detail"]
    assert f"set for {game.upper()} with 4 players" in answer.json()["detail"]
    assert len(client.app.state.uploads) == 0


def test_a_finished_game_replays_but_is_not_continued(client, game):
    done = record_of(client, play_out(client, start(client, game)))
    loaded = upload(client, game, done).json()
    assert loaded["over"]
    url = f"/api/uploads/{loaded['id']}/continue"
    answer = client.post(url, json={"opponents": NEW_GAME[game]["opponents"]}, headers=auth(loaded))
    assert answer.status_code == 409 and "replayed, not continued" in answer.json()["detail"]


def corruptions(game: str, done: dict[str, Any]) -> list[object]:
    record = done["record"]
    bad_action: Any = 10_000 if game == "asara" else [10_000] * 3
    return [
        [],
        "text",
        {},
        record | {"seed": -1},
        record | {"actions": [*record["actions"][:3], bad_action]},
        record | {"actions": record["actions"][1:]},  # not legal in turn
        record | {"extra": 1},
        done | {"game": "chess"},
        done | {"seat": 7},
        {"config": {"num_players": 2}},
    ]


def test_corrupt_uploads_get_a_one_line_4xx_and_nothing_is_held(client, game):
    done = record_of(client, play_out(client, start(client, game)))
    for data in corruptions(game, done):
        answer = upload(client, game, data)
        assert 400 <= answer.status_code < 500, (data, answer.text)
        detail = answer.json()["detail"]
        assert "\n" not in str(detail), detail
    assert len(client.app.state.uploads) == 0


def test_continue_requests_are_checked(client, game):
    done = record_of(client, play_out(client, start(client, game)))
    half = done["record"] | {"actions": done["record"]["actions"][:4]}
    loaded = upload(client, game, half).json()
    url = f"/api/uploads/{loaded['id']}/continue"
    for body, status in (
        ({"opponents": ["wizard"] * len(NEW_GAME[game]["opponents"])}, 400),
        ({"opponents": []}, 400),
        ({"opponents": NEW_GAME[game]["opponents"], "seat": 9}, 400),
        ({"opponents": NEW_GAME[game]["opponents"], "seat": "0"}, 422),
    ):
        answer = client.post(url, json=body, headers=auth(loaded))
        assert answer.status_code == status, (body, answer.text)
    assert len(client.app.state.games) == 1  # only the game played above


def test_each_frame_of_a_game_is_its_seats_picture(client, game):
    g = start(client, game)
    for k in range(3):
        g = move(client, g, k)
    frames = [
        client.get(f"/api/games/{g['id']}/frames/{k}", headers=auth(g)).json()["svg"]
        for k in range(g["decisions"] + 1)
    ]
    assert frames[-1] == g["board"]["svg"]
    assert len(set(frames)) == len(frames)
    answer = client.get(f"/api/games/{g['id']}/frames/{g['decisions'] + 1}", headers=auth(g))
    assert answer.status_code == 404


def test_the_first_seat_numbers_agree(client, game):
    g = start(client, game, seat=1)
    assert g["seat"] == 1 and g["players"][1] == "P1 (you)"
    assert np.all([m["name"] for m in g["moves"]])
