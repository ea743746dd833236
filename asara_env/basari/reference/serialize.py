"""Save and load: a state as a JSON-compatible dict and back (pydantic v2 validated).

`state_from_dict` checks every field's type and range with the `StateModel` schema
(unknown keys refused, errors naming the field path, e.g. `gems.2.1`), then every
invariant of `violations`, and raises `CorruptStateError` naming the first problem.
`state_to_dict(state_from_dict(d)) == d` for every valid `d`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import numpy as np
from pydantic import Field, ValidationError, model_validator

from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import (
    DIE_FACES,
    GEMS_PER_COLOUR,
    MAX_ARCHWAYS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_CARDS,
    N_COLOURS,
    ROUNDS,
    validate_board,
)
from asara_env.basari.phases import Phase
from asara_env.basari.reference.invariants import violations
from asara_env.basari.reference.state import ARRAY_FIELDS, State
from asara_env.common.errors import CorruptStateError
from asara_env.common.markdown import page, schema_table
from asara_env.common.schema import PER_SEAT, StrictModel

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails

SCHEMA = "basari-env/state"
VERSION = 1

Count = Annotated[int, Field(ge=0, le=GEMS_PER_COLOUR)]
Bundle = Annotated[list[Count], Field(min_length=N_COLOURS, max_length=N_COLOURS)]
Seat = Annotated[int, Field(ge=-1, lt=MAX_PLAYERS)]  # -1 = none
CardId = Annotated[int, Field(ge=-1, lt=N_CARDS)]  # -1 = none
Roll = Annotated[int, Field(ge=0, le=DIE_FACES)]  # 0 = none
Archway = Annotated[int, Field(ge=-1, lt=MAX_ARCHWAYS)]  # -1 = not placed
NonNegative = Annotated[int, Field(ge=0)]
PerSeat = Field(json_schema_extra=dict(PER_SEAT))  # one entry per player (checked below)


class ConfigModel(StrictModel, strict=True, title="config"):
    num_players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
    start_mode: Literal["choose", "random"]
    board: list[list[int]]

    @model_validator(mode="after")
    def _board(self) -> ConfigModel:
        validate_board(np.array(self.board, np.int64) if self.board else self.board, "board")
        return self


class StateModel(StrictModel, strict=True, title="BASARI saved state"):
    schema_: Literal["basari-env/state"] = Field(alias="schema")
    version: Literal[1]
    config: ConfigModel
    seed: Annotated[int, Field(ge=0, lt=2**64)]
    phase: Literal["SETUP", "SELECT", "BARTER", "OVER"]
    round: Annotated[int, Field(ge=0, lt=ROUNDS)]
    turn: Annotated[int, Field(ge=0, lt=MAX_ARCHWAYS)]
    score: Annotated[list[NonNegative], PerSeat]
    gems: Annotated[list[Bundle], PerSeat]
    carpet: Bundle
    position: Annotated[list[Archway], PerSeat]
    start: Annotated[list[Archway], PerSeat]
    progress: Annotated[list[NonNegative], PerSeat]
    move_roll: Annotated[list[Roll], PerSeat]
    action_roll: Annotated[list[Roll], PerSeat]
    revealed: Annotated[list[CardId], PerSeat]
    offer: Bundle
    pending: Bundle
    barter_card: CardId
    queued_card: CardId
    opener: Seat
    responder: Seat
    to_act: Seat
    offer_by: Seat
    offers: NonNegative

    @model_validator(mode="after")
    def _sizes(self) -> StateModel:
        p, n = self.config.num_players, len(self.config.board)
        for name in ("score", "gems", "position", "start", "progress", "move_roll"):
            if len(getattr(self, name)) != p:
                raise ValueError(f"{name}: need {p} entries (one per seat)")
        for name in ("action_roll", "revealed"):
            if len(getattr(self, name)) != p:
                raise ValueError(f"{name}: need {p} entries (one per seat)")
        for name in ("position", "start"):
            if any(k >= n for k in getattr(self, name)):
                raise ValueError(f"{name}: archways are -1..{n - 1}")
        for name in ("opener", "responder", "to_act", "offer_by"):
            if getattr(self, name) >= p:
                raise ValueError(f"{name}: seats are -1..{p - 1}")
        return self


MEANING = {
    "schema": "always `basari-env/state`",
    "version": "format version",
    "config": "the game's configuration (`config` below)",
    "seed": "the 64-bit game seed, the only source of chance (E4)",
    "phase": "the decision phase (E1)",
    "round": "0-based round; stays 2 when OVER",
    "turn": "0-based turn within the round",
    "score": "points per seat (unbounded, B1)",
    "gems": "holdings per seat and colour (red, yellow, green, blue)",
    "carpet": "the supply per colour (B2.3)",
    "position": "each merchant's archway; -1 during SETUP",
    "start": "each start disk's archway; -1 during SETUP",
    "progress": "archways moved this round (B4.3); the lap is complete at n_archways",
    "move_roll": "this turn's movement die per seat; 0 before the first movement",
    "action_roll": "this turn's Die-action roll per seat; 0 = none",
    "revealed": "card revealed this turn per seat (0 Die, 1 Points, 2 Gemstones); -1 = none",
    "offer": "the standing offer per colour; zeros if none",
    "pending": "the bundle the seat to act is building (E2)",
    "barter_card": "card of the running barter; -1 = none",
    "queued_card": "card of the barter still to come this turn; -1 = none",
    "opener": "seat A of the running barter (B7.1); -1 = none",
    "responder": "seat B of the running barter; -1 = none",
    "to_act": "the seat to act in the barter; -1 = none",
    "offer_by": "the seat that made the standing offer; -1 = none",
    "offers": "offers submitted in the running barter",
}
CONFIG_MEANING = {
    "num_players": "P, the number of players",
    "start_mode": "`choose`: every seat picks its start archway at once (B3.4); `random`: drawn "
    "from the seed (C4)",
    "board": "int[n_archways][5]: points, then red, yellow, green, blue gems per archway (B2.4)",
}


def schema_markdown() -> str:
    """docs/basari/state.md: the save format, generated from `StateModel`."""
    schema = StateModel.model_json_schema(by_alias=True)
    defs = schema["$defs"]
    intro = [
        "# BASARI saved state",
        "",
        "`state_to_dict` writes and `state_from_dict` reads this JSON object (pydantic v2,",
        "strict: unknown keys and wrong types are refused, errors name the field path);",
        "the invariants of B12 are then checked. [P] = one entry per seat. Generated by",
        "`python -m asara_env.docs` (`make docs`); do not edit by hand.",
    ]
    config = defs["ConfigModel"]
    return page(
        intro,
        schema_table(schema, defs, MEANING),
        f"## `{config['title']}`",
        schema_table(config, defs, CONFIG_MEANING),
    )


def state_to_dict(state: State) -> dict[str, Any]:
    """A JSON-compatible dict holding the whole game (the seed is its only chance)."""
    out: dict[str, Any] = {"schema": SCHEMA, "version": VERSION, "config": state.config.to_dict()}
    out["seed"] = int(state.seed)
    out["phase"] = state.phase.name
    out["round"], out["turn"] = int(state.round), int(state.turn)
    for name in ARRAY_FIELDS:
        out[name] = getattr(state, name).tolist()
    for name in ("barter_card", "queued_card", "opener", "responder", "to_act", "offer_by"):
        out[name] = int(getattr(state, name))
    out["offers"] = int(state.offers)
    return out


def _path(error: ErrorDetails) -> str:
    loc = ".".join(str(part) for part in error["loc"]) or "state"
    return loc.replace("schema_", "schema")


def state_from_dict(d: object) -> State:
    """The state saved as `d`; CorruptStateError naming the first bad field or broken
    invariant."""
    try:
        model = StateModel.model_validate(d)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise CorruptStateError(f"corrupt BASARI state at {_path(first)}: {first['msg']}") from exc
    config = BasariConfig(
        model.config.num_players, model.config.start_mode, np.array(model.config.board)
    )
    arrays = {name: np.array(getattr(model, name), np.int64) for name in ARRAY_FIELDS}
    state = State(
        config=config,
        seed=model.seed,
        phase=Phase[model.phase],
        round=model.round,
        turn=model.turn,
        barter_card=model.barter_card,
        queued_card=model.queued_card,
        opener=model.opener,
        responder=model.responder,
        to_act=model.to_act,
        offer_by=model.offer_by,
        offers=model.offers,
        **arrays,
    )
    broken = violations(state)
    if broken:
        raise CorruptStateError(f"corrupt BASARI state: {broken[0]}")
    return state
