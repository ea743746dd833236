"""ASARA on the web page (apps/serve.py): a seat's view as JSON, the moves offered, a
move applied, the opponents' moves, uploads read and continued.

The board is the person's seat's view (R10, `asara_env.asara.render_svg`, with every
tile's price); the opponents' moves are named without their hidden cards
(`public_description`); the seed and the record, which tell every card, come only once the
game is over. Opponents are any named agent of `agents.registry` (the search agents with
their budget, `flatmc:sims=64`); the shipped models' former page names `model:asara_2p` and
`model:asara_4p` are still accepted, with a DeprecationWarning.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from agents.base import Agent
from agents.models import MODELS
from apps.asara.play import move_head
from apps.webgame import (
    BAD_REQUEST,
    CONFLICT,
    MAX_SEED,
    Refused,
    agent_choices,
    fresh_seed,
    seat_agents,
    validated,
)
from apps.webrecord import (
    Engine,
    Origin,
    RecordedSession,
    RecordedWeb,
)
from asara_env.asara.actions import NUM_ACTIONS, describe_action, public_description
from asara_env.asara.bridge import encode_view
from asara_env.asara.config import VARIANTS, GameConfig
from asara_env.asara.constants import FINAL_CATEGORIES, KNOWN_EXPANSIONS
from asara_env.asara.reference.engine import step
from asara_env.asara.reference.record import RULES
from asara_env.asara.reference.rules import illegal_reason, legal_actions
from asara_env.asara.reference.scoring import year_end_points
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render_svg import action_spots, svg_full, svg_view
from asara_env.games import game_card

GAME = "asara"
DEPRECATED_MODEL_NAMES = {f"model:{Path(f).stem}": name for name, f in MODELS[GAME].items()}


class NewGame(BaseModel):
    """A game to start; the person sits in `seat`, the opponents fill the other seats."""

    model_config = ConfigDict(strict=True, extra="forbid")

    players: int = Field(2, description=f"one of {list(game_card(GAME).player_counts)}")
    variant: str = "basic"
    expansions: list[str] = []
    opponents: list[str] = Field(["random"], description="agent specs")
    seat: int = 0
    seed: int | None = Field(None, ge=0, lt=MAX_SEED)


def opponent_spec(name: str) -> str:
    """`name` as the registry names it: a deprecated `model:NAME` becomes its shipped
    model's name (with a DeprecationWarning)."""
    if name in DEPRECATED_MODEL_NAMES:
        new = DEPRECATED_MODEL_NAMES[name]
        warnings.warn(
            f"the opponent name {name!r} is deprecated; use {new!r}", DeprecationWarning, 2
        )
        return new
    return name


def _draw_seat(state: State, seat: int) -> str:
    return str(svg_view(seat_view(state, seat)))


ENGINE: Engine[State, int] = Engine(
    rules=RULES,
    is_over=lambda state: state.is_over,
    config_json=GameConfig.to_dict,
    draw_full=lambda state: str(svg_full(state)),
    draw_seat=_draw_seat,
)


@dataclass(eq=False)
class AsaraSession(RecordedSession[State, int]):
    """One ASARA game on the page."""

    agents: dict[int, Agent[Any]] = field(kw_only=True)

    def apply(self, action: int) -> None:
        """Play one legal action and log it, with the scoring a year end brings."""
        state, mover, year = self.state, self.state.seat, self.state.year
        step(state, action)
        self.decisions.append(int(action))
        n = len(self.decisions)
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

    def winners(self) -> list[str]:
        best = max(self.state.prestige)
        return [self.label(s) for s, p in enumerate(self.state.prestige) if p == best]

    def final_text(self) -> str:
        return f"final scoring: winner(s) {', '.join(self.winners())}"

    def advance(self) -> None:
        """Let the opponents move until it is the person's turn or the game is over."""
        while not self.state.is_over and self.state.seat != self.seat:
            agent = self.agents[self.state.seat]
            self.apply(choose(agent, self.state))

    def apply_move(self, action: int) -> None:
        if not 0 <= action < NUM_ACTIONS:
            raise Refused(BAD_REQUEST, f"action ids are 0..{NUM_ACTIONS - 1}, got {action}")
        reason = illegal_reason(self.state, action)
        if reason is not None:
            raise Refused(CONFLICT, f"illegal move {action} ({describe_action(action)}): {reason}")
        self.apply(action)
        self.advance()

    def view(self) -> dict[str, Any]:
        state = self.state
        yours = not state.is_over and state.seat == self.seat
        return {
            "game": GAME,
            "year": state.year,
            "phase": state.phase.name,
            "status": self.status(yours),
            "to_move": state.seat,
            "your_turn": yours,
            "scores": list(state.prestige),
            "board": {"svg": svg_view(seat_view(state, self.seat))},
            "moves": [move_json(a) for a in (legal_actions(state) if yours else [])],
            "final": self.final_json(),
        }

    def status(self, yours: bool) -> str:
        if self.state.is_over:
            return f"Game over after {len(self.decisions)} decisions."
        phase = self.state.phase.name.lower().replace("_", " ")
        whose = "your turn" if yours else f"{self.label(self.state.seat)} to move"
        return f"Year {self.state.year}, {whose}: {phase}."

    def final_json(self) -> dict[str, Any] | None:
        if self.state.final is None:
            return None
        rows = [
            {"player": self.label(s), **points, "prestige": self.state.prestige[s]}
            for s, points in enumerate(self.state.final)
        ]
        columns = ["player", *FINAL_CATEGORIES, "total", "prestige"]
        return {"columns": columns, "rows": rows, "winners": self.winners()}


def move_json(action: int) -> dict[str, Any]:
    head, label = move_head(action)
    name, spots = describe_action(action), action_spots(action)
    return {"id": action, "name": name, "head": head, "label": label, "spots": spots}


def choose(agent: Agent[Any], state: State) -> int:
    """The agent's action for the seat to move: a search agent reads the state through
    what the seat knows, every other agent its observation and mask."""
    if agent.needs_state:
        return int(agent.act_state(state))  # type: ignore[attr-defined]
    mask = np.zeros(NUM_ACTIONS, bool)
    mask[legal_actions(state)] = True
    return int(agent.act(encode_view(seat_view(state, state.seat)), mask))


def make_session(
    origin: Origin[State, int], actions: list[int], opponents: list[str], seat: int
) -> AsaraSession:
    """A session at the position after `actions`, the opponents moved up to the person."""
    specs = [opponent_spec(name) for name in opponents]
    names, agents = seat_agents(GAME, origin.config.num_players, specs, seat, origin.seed)
    state = origin.position(actions)
    session = AsaraSession(
        seat, names, origin.seed, list(actions), origin=origin, state=state, agents=agents
    )
    session.advance()
    return session


class AsaraWeb(RecordedWeb[State, int]):
    """ASARA's page module (`WebGame`)."""

    name = GAME
    engine = ENGINE

    def options(self) -> dict[str, Any]:
        return {
            "players": list(game_card(GAME).player_counts),
            "agents": agent_choices(GAME),
            "default_opponent": "greedy",
            "variants": list(VARIANTS),
            "expansions": list(KNOWN_EXPANSIONS),
        }

    def start(self, request: Mapping[str, Any]) -> AsaraSession:
        game = validated(NewGame, request)
        try:
            config = GameConfig(
                num_players=game.players, variant=game.variant, expansions=tuple(game.expansions)
            )
        except ValueError as exc:
            raise Refused(BAD_REQUEST, str(exc)) from exc
        return make_session(
            Origin(ENGINE, config, fresh_seed(game.seed)), [], game.opponents, game.seat
        )

    def session(
        self, origin: Origin[State, int], decisions: list[int], opponents: list[str], seat: int
    ) -> AsaraSession:
        return make_session(origin, decisions, opponents, seat)


WEB_GAME = AsaraWeb()
