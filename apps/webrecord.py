"""A web game's start, record and replay, written once over every game's reference engine.

A game on the page starts from a seed (a new game, an uploaded record) or from an uploaded
saved game's position (`Origin`); its decisions since then are its record. A game's page
module names its reference engine's functions once (`Engine`), and gets here: the
position after some decisions, the download of a finished game, uploads read into a
`Loaded` (a record, a saved game, or a saved game with the decisions played after it,
each decision checked in turn), positions of an upload for the replayer, and the base of
its session (`RecordedSession`: record, frames, the animated replay, the configuration).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from apps.webgame import (
    CONFLICT,
    NOT_FOUND,
    Decision,
    Loaded,
    Refused,
    Session,
    check_lineup,
    envelope,
    unwrap,
)
from asara_env.common.record import Rules, SavedGame, resume

GameState = TypeVar("GameState")


@dataclass(frozen=True)
class Engine(Generic[GameState, Decision]):
    """What the page's records need of a game: its `rules` (the game's `RULES`, of its
    reference record module: how its games start, step, are saved and resumed) and its
    pictures. `config_json` is the configuration as the page shows it; `draw_full` the
    whole position as SVG (replays) and `draw_seat` a seat's view of it.
    """

    rules: Rules[GameState, Decision]
    is_over: Callable[[GameState], bool]
    config_json: Callable[[Any], dict[str, Any]]
    draw_full: Callable[[GameState], str]
    draw_seat: Callable[[GameState, int], str]

    @property
    def game(self) -> str:
        return self.rules.game

    @property
    def step(self) -> Callable[[GameState, Decision], object]:
        return self.rules.step


@dataclass
class Origin(Generic[GameState, Decision]):
    """Where a game starts: a seed (a new game or a record) or a saved game's position."""

    engine: Engine[GameState, Decision]
    config: Any
    seed: int
    saved: dict[str, Any] | None = None  # the saved game, when it started from one

    def state(self) -> GameState:
        if self.saved is None:
            return self.engine.rules.new_game(self.config, self.seed)
        return self.engine.rules.state_from_dict(self.saved)

    def position(self, decisions: list[Decision]) -> GameState:
        """The position after `decisions` from here."""
        state = self.state()
        for decision in decisions:
            self.engine.step(state, decision)
        return state

    def record(self, decisions: list[Decision]) -> dict[str, Any]:
        """The game's record: the game's own record format from a seed, else the saved
        game with the decisions played after it."""
        if self.saved is None:
            return dict(self.engine.rules.record(self.config, self.seed, decisions).to_dict())
        return {"state": self.saved, "actions": copy.deepcopy(decisions)}


def load_upload(engine: Engine[GameState, Any], data: object) -> Loaded:
    """A record, a saved game, a saved game with decisions after it, or the page's own
    download of one of these (any format `saved_game_from_dict` reads); ValueError
    (CorruptStateError included) naming what is wrong. `Loaded.item` is (origin,
    decisions)."""
    inner, names, seat = unwrap(data, engine.game)
    resumed = resume(engine.rules, SavedGame(engine.game, inner))
    origin = Origin(engine, resumed.config, resumed.seed, resumed.start)
    decisions = list(resumed.actions)
    check_lineup(names, origin.config.num_players)
    return Loaded(
        engine.game,
        "record" if resumed.start is None else "saved game",
        engine.config_json(origin.config),
        origin.config.num_players,
        len(decisions) + 1,
        engine.is_over(resumed.final()),
        (origin, decisions),
        names,
        seat,
    )


class RecordedWeb(ABC, Generic[GameState, Decision]):
    """A page module (`WebGame`) whose uploads, continued games and replays go through its
    `engine`; the game's subclass gives `options`, `start` and `session`."""

    name: str
    engine: Engine[GameState, Decision]

    @abstractmethod
    def session(
        self,
        origin: Origin[GameState, Decision],
        decisions: list[Decision],
        opponents: list[str],
        seat: int,
    ) -> Session[Decision]:
        """A session at the position after `decisions`, the opponents moved up to the
        person; Refused naming a bad opponent or seat."""

    def load(self, data: object) -> Loaded:
        return load_upload(self.engine, data)

    def resume(self, loaded: Loaded, opponents: list[str], seat: int) -> Session[Decision]:
        if loaded.over:
            raise Refused(CONFLICT, "this game is over: it can be replayed, not continued")
        origin, decisions = loaded.item
        return self.session(origin, list(decisions), opponents, seat)

    def frame(self, loaded: Loaded, k: int) -> dict[str, Any]:
        """Position k of an upload in full (a replay shows everything)."""
        origin, decisions = loaded.item
        if not 0 <= k <= len(decisions):
            raise Refused(NOT_FOUND, f"frame must be in 0..{len(decisions)}, got {k}")
        return {"svg": self.engine.draw_full(origin.position(decisions[:k]))}


@dataclass(eq=False)
class RecordedSession(Session[Decision], Generic[GameState, Decision]):
    """A session whose game comes from an `Origin`: its record, frames, animated replay
    and configuration written once; the game's subclass plays and shows it."""

    origin: Origin[GameState, Decision] = field(kw_only=True)
    state: GameState = field(kw_only=True)
    ANIMATES: ClassVar[bool] = True

    @property
    def game(self) -> str:
        return self.origin.engine.game

    @property
    def over(self) -> bool:
        return self.origin.engine.is_over(self.state)

    @property
    def config(self) -> dict[str, Any]:
        return self.origin.engine.config_json(self.origin.config)

    def record(self) -> dict[str, Any]:
        engine = self.origin.engine
        return envelope(engine.game, self.origin.record(self.decisions), self.names, self.seat)

    def frame(self, k: int) -> dict[str, Any]:
        self.check_frame(k)
        state = self.origin.position(self.decisions[:k])
        return {"svg": self.origin.engine.draw_seat(state, self.seat)}

    def pictures(self) -> Iterator[str]:
        engine, state = self.origin.engine, self.origin.state()
        yield engine.draw_full(state)
        for decision in list(self.decisions):
            engine.step(state, decision)
            yield engine.draw_full(state)
