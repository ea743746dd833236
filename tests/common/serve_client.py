"""The web page's server as the tests drive it through its JSON API (tests/common/
test_serve_*.py): a small game of each that the page offers, started, moved and played
out by a `TestClient`, each request holding the game's token."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from apps.weblimits import TOKEN_HEADER

LOCAL = "http://127.0.0.1"  # the server answers only its loopback names
NEW_GAME: dict[str, dict[str, Any]] = {  # a small game of each, against random players
    "asara": {"game": "asara", "players": 2, "variant": "basic", "opponents": ["random"]},
    "basari": {"game": "basari", "players": 3, "opponents": ["random", "random"]},
}


def auth(thing: dict[str, Any]) -> dict[str, str]:
    """The header that shows a game's (or an upload's) token."""
    return {TOKEN_HEADER: thing["token"]}


def start(
    client: TestClient,
    game: str = "asara",
    seed: int | None = 5,
    setups: dict[str, dict[str, Any]] = NEW_GAME,
    **change: Any,
) -> dict[str, Any]:
    """A new game of `setups[game]` seeded `seed`, with `change` to its request."""
    response = client.post("/api/games", json=setups[game] | {"seed": seed} | change)
    assert response.status_code == 201, response.text
    return dict(response.json())


def move(client: TestClient, g: dict[str, Any], k: int = 0) -> dict[str, Any]:
    """The game after its k-th offered move (modulo the moves offered)."""
    body = {"action": g["moves"][k % len(g["moves"])]["id"], "decision": g["decisions"]}
    response = client.post(f"/api/games/{g['id']}/moves", json=body, headers=auth(g))
    assert response.status_code == 200, response.text
    return dict(response.json()) | {"token": g["token"]}


def play_out(client: TestClient, g: dict[str, Any], vary: bool = False) -> dict[str, Any]:
    """The game played to its end by the person's first offered move each time (with
    `vary`, the k-th move at the k-th decision)."""
    k = 0
    while not g["over"]:
        g, k = move(client, g, k if vary else 0), k + 1
    return g
