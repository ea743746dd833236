"""A web page to play ASARA against the agents: `asara-serve` (`asara serve`).

    asara-serve --port 8000          # then open http://127.0.0.1:8000

The page starts a game (players, variant, expansions, the opponents: the baseline agents of
`agents.asara.AGENTS` and the shipped models of `agents.models.MODELS["asara"]`, `ppo_2p`
and `ppo_4p`, a seed), draws the board as the person's seat sees it (R10,
`asara_env.asara.render_svg`), lets the person choose among the legal moves (clicking on the
board where a move has a place there, and always from the list of the moves' names), shows
the opponents' moves and the end-of-year and final scoring, and offers the game record for
download and replay. The server holds any number of games at once, each under its own id, in
memory. The models' former names here, `model:asara_2p` and `model:asara_4p`, are still
accepted, with a DeprecationWarning.

Nothing the person may not know (R10) reaches the page: the board is their seat's view,
the opponents' moves are named without their hidden cards
(`asara_env.asara.actions.public_description`), and the seed and the record, which tell every
card, come only once the game is over.

The JSON API the page uses (every error is a 4xx with `{"detail": message}` and changes
nothing). A move is refused with 409 when it is illegal, the game is over, or `decision`
(the count of decisions the page saw) is stale, as after a double click:

| request | answer |
|---|---|
| `GET /api/options` | agent names, models, variants, expansions |
| `POST /api/games` `{players, variant, expansions, opponents, seat, seed}` | 201, the game |
| `GET /api/games` | every game's id, configuration and progress |
| `GET /api/games/{id}` | the game: `svg`, `moves` (with `id`, `name`, `spots`), `log`, `final` |
| `POST /api/games/{id}/moves` `{action, decision}` | the game after the move and the replies |
| `GET /api/games/{id}/record` | the game record (`GameRecord`), a JSON download, at the end |
| `GET /api/games/{id}/replay.svg?seconds=0.7` | the whole game, animated (SVG), at the end |
| `GET /api/games/{id}/frames/{k}` | position k as the person's seat saw it (SVG) |
| `POST /api/replays` (a game record) | 201, `{id, frames, config}`: a saved game to step through |
| `GET /api/replays/{id}/frames/{k}` | the position after k decisions in full (SVG) |

Opponents play with seeds derived from the game's seed (`derived_seed(seed, 1000 + seat)`,
as in the terminal game), so a seed and the person's moves give the same game again.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
import time
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from agents.asara import AGENTS
from agents.asara.arena import AsaraAgent
from agents.models import MODELS as SHIPPED
from agents.registry import make_agent
from apps.asara.options import add_serve_arguments
from apps.asara.play import AGENT_SEED_OFFSET, move_head
from apps.command import parser as command_parser
from apps.command import run_main
from asara_env.asara.actions import (
    NUM_ACTIONS,
    describe_action,
    public_description,
)
from asara_env.asara.bridge import encode_view
from asara_env.asara.config import VARIANTS, GameConfig
from asara_env.asara.constants import FINAL_CATEGORIES, KNOWN_EXPANSIONS
from asara_env.asara.reference.engine import new_game, step
from asara_env.asara.reference.record import GameRecord, replay
from asara_env.asara.reference.rules import illegal_reason, legal_actions
from asara_env.asara.reference.scoring import year_end_points
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render_svg import action_spots, animated_svg, replay_frames, svg_full, svg_view
from asara_env.common.errors import CorruptStateError
from asara_env.common.seeding import derived_seed

WEB_DIR = Path(__file__).parent / "web"
MAX_SEED = 2**63


# ------------------------------------------------------------------------ requests
class NewGame(BaseModel):
    """A game to start; the person sits in `seat`, the opponents fill the other seats."""

    players: int = Field(2, description="2..4")
    variant: str = "basic"
    expansions: list[str] = []
    opponents: list[str] = Field(["random"], description="agent or shipped model names")
    seat: int = 0
    seed: int | None = Field(None, ge=0, lt=MAX_SEED)


class Move(BaseModel):
    """A move of the person: an action id, and the decisions the page had seen."""

    action: int
    decision: int | None = None


# ------------------------------------------------------------------------ opponents
# the web page's names for the shipped models until they were named as everywhere else
# (`agents.models.MODELS["asara"]`): `model:asara_2p` is `ppo_2p`, `model:asara_4p` is `ppo_4p`
MODELS = SHIPPED["asara"]
DEPRECATED_MODEL_NAMES = {f"model:{Path(f).stem}": name for name, f in MODELS.items()}


def opponent_name(name: str) -> str:
    """`name` as the registry names it: a deprecated `model:NAME` becomes its shipped
    model's name (with a DeprecationWarning); ValueError for an unknown opponent."""
    if name in DEPRECATED_MODEL_NAMES:
        new = DEPRECATED_MODEL_NAMES[name]
        warnings.warn(
            f"the opponent name {name!r} is deprecated; use {new!r}", DeprecationWarning, 2
        )
        return new
    if name.startswith("model:"):
        raise ValueError(f"unknown model {name!r}; shipped models: {sorted(MODELS)}")
    if name not in AGENTS and name not in MODELS:
        known = sorted(AGENTS) + sorted(MODELS)
        raise ValueError(f"unknown opponent {name!r}; known: {known}")
    return name


def opponent(name: str, seed: int) -> AsaraAgent:
    """The agent playing as `name` (a baseline agent's or a shipped model's name), seeded."""
    name = opponent_name(name)
    try:
        return make_agent("asara", name, seed)
    except ImportError as exc:  # pragma: no cover - the train extra is installed in CI
        raise ValueError("model opponents need the 'train' extra (sb3-contrib)") from exc


# ------------------------------------------------------------------------ what others see
# ------------------------------------------------------------------------ one game
@dataclass
class Game:
    """One game of the person (in `seat`) against agents, and what happened so far."""

    id: str
    seat: int
    names: list[str | None]  # per seat: the opponent's name, None for the person
    record: GameRecord
    state: State
    agents: dict[int, AsaraAgent]
    log: list[dict] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def label(self, seat: int) -> str:
        return f"P{seat} ({self.names[seat] or 'you'})"

    def apply(self, action: int) -> None:
        """Play one legal action and log it, with the scoring a year end brings."""
        state, mover, year = self.state, self.state.seat, self.state.year
        step(state, action)
        self.record.actions.append(int(action))
        n = len(self.record.actions)
        text = public_description(action, mover, self.seat)
        self.log.append({"kind": "move", "decision": n, "seat": mover, "text": text})
        if state.year != year or state.is_over:
            self.log_year_end(year, n)
        if state.is_over:
            self.log.append({"kind": "final", "decision": n, "text": self.final_text()})

    def log_year_end(self, year: int, n: int) -> None:
        """R6.2's points of every seat (the towers and the Caliph do not change at the
        year's end, so the position after it gives them)."""
        state = self.state
        points = [
            year_end_points(state.towers[s], state.caliph == s) for s in range(len(self.names))
        ]
        gains = ", ".join(f"{self.label(s)} +{p}" for s, p in enumerate(points))
        text = f"end of year {year} scoring (R6.2): {gains}"
        self.log.append({"kind": "year", "decision": n, "text": text, "points": points})

    def final_text(self) -> str:
        best = max(self.state.prestige)
        won = [self.label(s) for s, p in enumerate(self.state.prestige) if p == best]
        return f"final scoring: winner(s) {', '.join(won)}"

    def advance(self) -> None:
        """Let the opponents move until it is the person's turn or the game is over."""
        while not self.state.is_over and self.state.seat != self.seat:
            mover = self.state.seat
            mask = np.zeros(NUM_ACTIONS, bool)
            mask[legal_actions(self.state)] = True
            observation = encode_view(seat_view(self.state, mover))
            self.apply(int(self.agents[mover].act(observation, mask)))

    def play(self, move: Move) -> None:
        """The person's move; HTTPException (nothing changed) if it is not legal now."""
        if self.state.is_over:
            raise HTTPException(409, "the game is over: no more moves")
        if move.decision is not None and move.decision != len(self.record.actions):
            raise HTTPException(
                409,
                f"stale move: it was chosen at decision {move.decision}, the game is at "
                f"decision {len(self.record.actions)}",
            )
        if not 0 <= move.action < NUM_ACTIONS:
            raise HTTPException(400, f"action ids are 0..{NUM_ACTIONS - 1}, got {move.action}")
        reason = illegal_reason(self.state, move.action)
        if reason is not None:
            name = describe_action(move.action)
            raise HTTPException(409, f"illegal move {move.action} ({name}): {reason}")
        self.apply(move.action)
        self.advance()

    def summary(self) -> dict:
        """The game's id, configuration and progress; the seed (which tells every hidden
        card, R10) only once the game is over."""
        return {
            "id": self.id,
            "config": self.record.config.to_dict(),
            "seed": self.record.seed if self.state.is_over else None,
            "seat": self.seat,
            "players": [self.label(s) for s in range(len(self.names))],
            "decisions": len(self.record.actions),
            "over": self.state.is_over,
        }

    def to_json(self) -> dict:
        """Everything the page shows: board, moves, log, final scoring."""
        state = self.state
        yours = not state.is_over and state.seat == self.seat
        moves = legal_actions(state) if yours else []
        return self.summary() | {
            "year": state.year,
            "phase": state.phase.name,
            "to_move": state.seat,
            "your_turn": yours,
            "prestige": list(state.prestige),
            "svg": svg_view(seat_view(state, self.seat)),
            "moves": [self.move_json(a) for a in moves],
            "log": self.log,
            "final": self.final_json(),
        }

    @staticmethod
    def move_json(action: int) -> dict:
        head, label = move_head(action)
        name, spots = describe_action(action), action_spots(action)
        return {"id": action, "name": name, "head": head, "label": label, "spots": spots}

    def final_json(self) -> dict | None:
        if self.state.final is None:
            return None
        rows = [
            {"player": self.label(s), **points, "prestige": self.state.prestige[s]}
            for s, points in enumerate(self.state.final)
        ]
        best = max(self.state.prestige)
        won = [self.label(s) for s, p in enumerate(self.state.prestige) if p == best]
        return {"categories": [*FINAL_CATEGORIES, "total"], "rows": rows, "winners": won}


def start_game(request: NewGame) -> Game:
    """A new game as requested, the opponents moved up to the person's first turn;
    ValueError naming what is wrong with the request."""
    config = GameConfig(
        num_players=request.players, variant=request.variant, expansions=tuple(request.expansions)
    )
    if len(request.opponents) != config.num_players - 1:
        raise ValueError(
            f"{config.num_players} players need {config.num_players - 1} opponent(s), "
            f"got {len(request.opponents)}"
        )
    if not 0 <= request.seat < config.num_players:
        raise ValueError(f"seat must be in 0..{config.num_players - 1}, got {request.seat}")
    seed = request.seed
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % MAX_SEED)
    names: list[str | None] = [opponent_name(name) for name in request.opponents]
    names.insert(request.seat, None)
    agents = {
        s: opponent(name, derived_seed(seed, AGENT_SEED_OFFSET + s))
        for s, name in enumerate(names)
        if name is not None
    }
    game = Game(
        uuid.uuid4().hex[:12],
        request.seat,
        names,
        GameRecord(config, seed),
        new_game(config, seed),
        agents,
    )
    game.advance()
    return game


def replayed(record: GameRecord, k: int) -> State:
    """The position after the record's first k actions."""
    if not 0 <= k <= len(record.actions):
        raise HTTPException(404, f"frame must be in 0..{len(record.actions)}, got {k}")
    state = new_game(record.config, record.seed)
    for action in record.actions[:k]:
        step(state, action)
    return state


def svg_response(svg: str) -> Response:
    return Response(svg, media_type="image/svg+xml")


# ------------------------------------------------------------------------ the app
# C901: the route handlers nested in it count toward its complexity; each is a few lines
def create_app() -> FastAPI:  # noqa: C901
    """The web application, with its own store of games and replays."""
    app = FastAPI(title="ASARA", description=__doc__)
    games: dict[str, Game] = {}
    replays: dict[str, GameRecord] = {}

    def find(store: dict, key: str, what: str):
        if key not in store:
            raise HTTPException(404, f"no {what} with id {key!r}")
        return store[key]

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/api/options")
    def options() -> dict:
        return {
            "agents": sorted(AGENTS),
            "models": sorted(MODELS),
            "variants": list(VARIANTS),
            "expansions": list(KNOWN_EXPANSIONS),
            "players": [2, 3, 4],
        }

    @app.post("/api/games", status_code=201)
    def create(request: NewGame) -> dict:
        try:
            game = start_game(request)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from exc
        games[game.id] = game
        return game.to_json()

    @app.get("/api/games")
    def listing() -> list[dict]:
        return [game.summary() for game in games.values()]

    @app.get("/api/games/{game_id}")
    def show(game_id: str) -> dict:
        return find(games, game_id, "game").to_json()

    @app.post("/api/games/{game_id}/moves")
    def move(game_id: str, move: Move) -> dict:
        game = find(games, game_id, "game")
        with game.lock:
            game.play(move)
            return game.to_json()

    @app.get("/api/games/{game_id}/record")
    def record(game_id: str) -> JSONResponse:
        game = find(games, game_id, "game")
        if not game.state.is_over:
            raise HTTPException(
                409,
                "the record holds the seed, which tells every hidden card (R10): it is "
                "offered once the game is over",
            )
        name = f"asara-{game.record.seed}.json"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return JSONResponse(game.record.to_dict(), headers=headers)

    @app.get("/api/games/{game_id}/replay.svg")
    def animated_replay(game_id: str, seconds: float = Query(0.7, gt=0, le=10)) -> Response:
        game = find(games, game_id, "game")
        if not game.state.is_over:
            raise HTTPException(
                409, "the replay shows every hidden card: it is offered once the game is over"
            )
        svg = animated_svg(replay_frames(game.record), seconds)
        name = f"asara-{game.record.seed}-replay.svg"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(svg, media_type="image/svg+xml", headers=headers)

    @app.get("/api/games/{game_id}/frames/{k}")
    def game_frame(game_id: str, k: int) -> Response:
        game = find(games, game_id, "game")
        return svg_response(svg_view(seat_view(replayed(game.record, k), game.seat)))

    @app.post("/api/replays", status_code=201)
    def upload(record: dict) -> dict:
        try:
            loaded = GameRecord.from_dict(record)
            replay(loaded)  # every action must be legal in turn
        except (CorruptStateError, ValueError) as exc:
            raise HTTPException(400, f"not a playable game record: {exc}") from exc
        key = uuid.uuid4().hex[:12]
        replays[key] = loaded
        return {"id": key, "frames": len(loaded.actions) + 1, "config": loaded.config.to_dict()}

    @app.get("/api/replays/{replay_id}/frames/{k}")
    def replay_frame(replay_id: str, k: int) -> Response:
        return svg_response(svg_full(replayed(find(replays, replay_id, "replay"), k)))

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


@contextlib.contextmanager
def running(host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Run the server in a background thread (port 0: any free port); yields its URL."""
    import uvicorn

    config = uvicorn.Config(create_app(), host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError(f"the server could not start on {host}:{port}")
            time.sleep(0.02)
        bound = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://{host}:{bound}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def serve(args: argparse.Namespace) -> None:
    """Run the web page on `args.host`:`args.port` until interrupted."""
    import uvicorn

    print(f"ASARA: open http://{args.host}:{args.port} in a browser (Ctrl-C stops)")
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level="warning")


@run_main("asara-serve")
def main(argv: list[str] | None = None) -> None:
    """`asara-serve` (also `asara serve`): run the web page on a local port."""
    parser = command_parser("asara-serve", "Play ASARA in a browser.")
    add_serve_arguments(parser)
    serve(parser.parse_args(argv))


if __name__ == "__main__":
    main()
