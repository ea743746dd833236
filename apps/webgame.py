"""What the web page (apps/serve.py) needs of a game, written once for every game.

A game's page module (`apps/<game>/web.py`, found by name: `load_web_game(name)`) gives a
`WebGame`: its setup choices (`options`), a new `Session` from a setup request, a saved
game or record read from an upload (`load`), a session continued from one (`resume`),
and the positions of a record for the replayer (`frame`). A `Session` is one game of the
person against agents; the shared part here keeps its seats, log, decision count and
lock, refuses stale moves and moves after the end, and lets the game's subclass say what a
move, a view and a record are.

Every refusal is a `Refused(status, message)`: the server answers it as that 4xx with the
one-line message, and nothing has changed.
"""

from __future__ import annotations

import importlib
import json
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

import numpy as np
from pydantic import BaseModel, ValidationError

from agents.base import Agent
from agents.models import MODELS
from agents.registry import agent_names, check_spec, game_agents, make_agent
from asara_env.common.record import WEB_FORMAT, saved_game_from_dict
from asara_env.common.seeding import derived_seed
from asara_env.games import games_with

AGENT_SEED_OFFSET = 1000  # opponent in seat s plays with derived_seed(seed, 1000 + s)
MAX_SEED = 2**63
BAD_REQUEST, NOT_FOUND, CONFLICT, UNPROCESSABLE = 400, 404, 409, 422
UPLOAD_FORMAT = WEB_FORMAT  # the page's downloads: a record with its lineup
POLICY_NAME = "policy"  # the registry's agent of a model file: not offered on the page
SEARCH_BUDGET = 64  # the page's default budget (`sims`) of a search agent
# the most a search opponent on the page may spend on one decision (the registry's own
# ranges are wider: a command line may ask for more)
PAGE_SEARCH_LIMITS: dict[str, float] = {"sims": 2048, "seconds": 5.0, "batch": 2048, "wave": 512}


class Refused(Exception):  # noqa: N818 - a refusal, not a failure of the server
    """A request the game refuses: `status` (a 4xx) and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class Invalid(Refused):
    """A request whose fields do not validate: 422 with FastAPI's list of errors, each
    naming its field (`loc`, from "body")."""

    def __init__(self, exc: ValidationError) -> None:
        self.errors = [
            {"type": e["type"], "loc": ["body", *e["loc"]], "msg": e["msg"]} for e in exc.errors()
        ]
        where = ".".join(str(part) for part in exc.errors()[0]["loc"]) or "request"
        super().__init__(UNPROCESSABLE, f"{where}: {exc.errors()[0]['msg']}")


def fresh_seed(seed: int | None) -> int:
    """`seed`, or a new random one below MAX_SEED when None."""
    if seed is not None:
        return seed
    entropy = np.random.SeedSequence().entropy
    assert isinstance(entropy, int)  # an int when no entropy is given
    return entropy % MAX_SEED


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the opponent in `seat` (as in the terminal games)."""
    return derived_seed(seed, AGENT_SEED_OFFSET + seat)


def lineup(players: int, opponents: list[str], seat: int) -> list[str | None]:
    """The agent spec of every seat, None for the person's; Refused naming what is wrong."""
    if len(opponents) != players - 1:
        raise Refused(
            BAD_REQUEST,
            f"{players} players need {players - 1} opponent(s), got {len(opponents)}",
        )
    if not 0 <= seat < players:
        raise Refused(BAD_REQUEST, f"seat must be in 0..{players - 1}, got {seat}")
    names: list[str | None] = list(opponents)
    names.insert(seat, None)
    return names


def seat_agents(
    game: str, players: int, opponents: list[str], seat: int, seed: int
) -> tuple[list[str | None], dict[int, Agent[Any]]]:
    """(every seat's spec, None for the person's; the agent of every other seat, seeded
    from `seed`) for `opponents` around the person in `seat`; Refused naming a bad spec
    or count."""
    check_opponents(game, opponents)
    names = lineup(players, opponents, seat)
    agents = {
        s: seat_agent(game, name, agent_seed(seed, s))
        for s, name in enumerate(names)
        if name is not None
    }
    return names, agents


_MODELS_LOADING = threading.Lock()  # held while `preload_models` loads the shipped models


def seat_agent(game: str, spec: str, seed: int) -> Agent[Any]:
    """`make_agent`; a shipped model waits until `preload_models` (if running) is done, so
    that no model is loaded twice at once."""
    if spec.partition(":")[0] not in MODELS.get(game, {}):
        return make_agent(game, spec, seed)
    with _MODELS_LOADING:
        return make_agent(game, spec, seed)


Decision = TypeVar("Decision")  # what one entry of the game's record is


@dataclass(eq=False)
class Session(ABC, Generic[Decision]):
    """One game of the person (in `seat`) against agents, and what happened so far. The
    game's subclass holds the state; `decisions` are the record's entries since the
    start (a new game's or an uploaded game's position)."""

    seat: int
    names: list[str | None]  # per seat: the opponent's spec, None for the person
    seed: int  # the seed the agents' seeds derive from
    decisions: list[Decision] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    id: str = ""  # the store names it
    lock: threading.Lock = field(default_factory=threading.Lock)
    shown: bytes = field(default=b"", repr=False)  # `publish`'s JSON: what a read answers
    ANIMATES: ClassVar[bool] = False  # whether `pictures` draws the game

    @property
    def game(self) -> str:
        """The game's name."""
        return str(self.view()["game"])

    def label(self, seat: int) -> str:
        return f"P{seat} ({self.names[seat] or 'you'})"

    @property
    @abstractmethod
    def over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def apply_move(self, action: int) -> None:
        """The person's legal move (and the opponents' up to the person's next decision);
        Refused (nothing changed) if it is not legal now."""

    @abstractmethod
    def view(self) -> dict[str, Any]:
        """The game as the person's seat may see it: board, moves offered, scores, final."""

    @abstractmethod
    def record(self) -> dict[str, Any]:
        """The game's download: what `WebGame.load` reads back (only at the end)."""

    @abstractmethod
    def frame(self, k: int) -> dict[str, Any]:
        """The board after the first k decisions, as the person's seat saw it."""

    @property
    @abstractmethod
    def config(self) -> dict[str, Any]:
        """The game's configuration as JSON."""

    def play(self, action: int, decision: int | None) -> None:
        """The person's move chosen at `decision` (None: unchecked); Refused when the game
        is over or the move is stale, then as `apply_move`."""
        if self.over:
            raise Refused(CONFLICT, "the game is over: no more moves")
        if decision is not None and decision != len(self.decisions):
            raise Refused(
                CONFLICT,
                f"stale move: it was chosen at decision {decision}, the game is at decision "
                f"{len(self.decisions)}",
            )
        self.apply_move(action)

    def to_json(self) -> dict[str, Any]:
        """Everything the page shows."""
        return {
            "id": self.id,
            "config": self.config,
            "seat": self.seat,
            "players": [self.label(s) for s in range(len(self.names))],
            "decisions": len(self.decisions),
            "over": self.over,
            "seed": self.seed if self.over else None,
            "log": list(self.log),  # entries are never changed once logged
            "animation": self.ANIMATES and self.over,
        } | self.view()

    def publish(self) -> dict[str, Any]:
        """`to_json()`, also kept encoded in `shown`: the answer to every read of the game
        until the next change (call it under `lock` after each change)."""
        data = self.to_json()
        self.shown = json.dumps(data, ensure_ascii=True, allow_nan=False).encode("ascii")
        return data

    def pictures(self) -> Iterator[str]:
        """Every position of the game in full (SVG), the start first, drawn one at a time
        as they are asked for; nothing if the game draws none (`ANIMATES` False)."""
        return iter(())

    def check_frame(self, k: int) -> None:
        if not 0 <= k <= len(self.decisions):
            raise Refused(NOT_FOUND, f"frame must be in 0..{len(self.decisions)}, got {k}")


@dataclass
class Loaded:
    """A game read from an upload: what it is, its configuration, and a way to its
    positions. `lineup` and `seat` come with the page's own downloads."""

    game: str
    kind: str  # "record" or "saved game"
    config: dict[str, Any]
    players: int
    frames: int  # positions, the start included
    over: bool
    item: Any  # the game's own loaded object, for `resume` and `frame`
    lineup: list[str | None] | None = None
    seat: int | None = None

    def describe(self) -> str:
        return f"{self.players}-player {self.game.upper()} {self.kind}"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "kind": self.kind,
            "config": self.config,
            "players": self.players,
            "frames": self.frames,
            "over": self.over,
            "lineup": self.lineup,
            "seat": self.seat,
        }


class WebGame(Protocol):
    """A game's page module (`apps/<game>/web.py`: `WEB_GAME`)."""

    name: str

    def options(self) -> dict[str, Any]:
        """The setup choices: players, agents (with the search agents' options), the
        game's own configuration choices."""
        ...

    def start(self, request: Mapping[str, Any]) -> Session[Any]:
        """A new game as requested, the opponents moved up to the person's first
        decision; Refused naming what is wrong with the request."""
        ...

    def load(self, data: object) -> Loaded:
        """A record, a saved game or the page's own download of this game; ValueError
        (CorruptStateError included) naming what is wrong."""
        ...

    def resume(self, loaded: Loaded, opponents: list[str], seat: int) -> Session[Any]:
        """A session at `loaded`'s last position with these opponents; Refused."""
        ...

    def frame(self, loaded: Loaded, k: int) -> dict[str, Any]:
        """Position k of an upload in full (everything shown: a replay)."""
        ...


def web_games() -> tuple[str, ...]:
    """The games the page offers: the registered games (`asara_env.games`) with a page
    module `apps/<game>/web.py`."""
    return games_with("apps.{game}.web")


def load_web_game(name: str) -> WebGame:
    """The page module of game `name` (`apps/<name>/web.py`), imported by name."""
    offered = web_games()
    if name not in offered:
        raise Refused(NOT_FOUND, f"unknown game {name!r}; the page offers {list(offered)}")
    game = importlib.import_module(f"apps.{name}.web").WEB_GAME
    assert game.name == name, f"apps.{name}.web.WEB_GAME is {game.name!r}"
    return cast(WebGame, game)


def envelope(
    game: str, record: dict[str, Any], names: list[str | None], seat: int
) -> dict[str, Any]:
    """The page's download of a finished game: the record with who played it."""
    return {
        "format": UPLOAD_FORMAT,
        "game": game,
        "record": record,
        "lineup": names,
        "seat": seat,
    }


def unwrap(data: object, game: str) -> tuple[dict[str, Any], list[str | None] | None, int | None]:
    """(the record inside, lineup, seat) of an upload in any format the project writes
    (`saved_game_from_dict`): the page's download and a terminal game's saved game
    (`asara play --save`) give all three, a bare record or saved position only itself.
    ValueError if the file is another game's or the page's download has a lineup the
    page does not offer (a terminal game's lineup the page cannot show is left out; the
    number of seats is checked against the game by the caller)."""
    saved = saved_game_from_dict(data, game)
    names = saved.seats
    if names is None or names.count(None) != 1:
        return saved.record, None, None
    try:
        check_opponents(game, [name for name in names if name is not None])
    except Refused as exc:
        if isinstance(data, dict) and data.get("format") == UPLOAD_FORMAT:
            raise ValueError(f"lineup: {exc.message}") from exc
        return saved.record, None, None  # a lineup the page cannot show: left out
    return saved.record, names, names.index(None)


def check_lineup(names: list[str | None] | None, players: int) -> None:
    """ValueError unless an upload's lineup (if any) has one seat per player."""
    if names is not None and len(names) != players:
        raise ValueError(f"lineup: {len(names)} seats for a {players}-player game")


def agent_choices(game: str) -> list[dict[str, Any]]:
    """Every named agent of `game` the page offers (all but `policy:model=PATH`, which
    names a file on the server): name, kind, and for the search agents the option their
    budget is (`sims`) with its default."""
    table = game_agents(game)
    models = set(MODELS.get(game, {}))
    choices = []
    for name in agent_names(game):
        if name == POLICY_NAME:
            continue
        if name in table.configurable:
            kind = table.configurable[name]
            choices.append(
                {"name": name, "kind": "search", "budget": kind.main, "default": SEARCH_BUDGET}
            )
        else:
            choices.append({"name": name, "kind": "model" if name in models else "baseline"})
    return choices


def check_opponents(game: str, opponents: list[str]) -> None:
    """Refused naming the first spec that names no agent of `game` the page offers, or
    asks a search for more than the page's limits (`PAGE_SEARCH_LIMITS`)."""
    for spec in opponents:
        if spec.partition(":")[0] == POLICY_NAME:
            raise Refused(BAD_REQUEST, "policy:model=PATH is not offered on the page")
        try:
            _, options = check_spec(game, spec)
        except ValueError as exc:
            raise Refused(BAD_REQUEST, str(exc)) from exc
        for key, limit in PAGE_SEARCH_LIMITS.items():
            value = options.get(key)
            if isinstance(value, (int, float)) and value > limit:
                raise Refused(
                    BAD_REQUEST,
                    f"agent spec {spec!r}: {key}={value:g} is over this page's limit of "
                    f"{key}={limit:g} per decision",
                )


def preload_models(game: str) -> list[str]:
    """Load `game`'s shipped models now (each once per process), so that no game waits
    for one; the names loaded."""
    names = sorted(MODELS.get(game, {}))
    with _MODELS_LOADING:
        for name in names:
            make_agent(game, name, 0)
    return names


Model = TypeVar("Model", bound=BaseModel)


def validated(model: type[Model], data: Mapping[str, Any]) -> Model:
    """`data` read by the request model `model`; Invalid (422) naming the bad fields."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Invalid(exc) from exc
