"""Save and load: a state as a JSON-compatible dict and back (pydantic v2 validated).

`state_from_dict` checks every field's type and bounds with the `StateModel` schema
(strict: unknown keys and wrong types refused; every integer bounded, so nothing wraps in
the core's dtypes), then what depends on the number of players and the board, then every
invariant of `invariants.py`, and raises `CorruptStateError` whose `field` names the
first problem's field path (`gems[2][1]`, `config.board`, `(top)` for the whole dict).
`state_to_dict(state_from_dict(d)) == d` for every valid `d`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field, ValidationError

from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import (
    DIE_FACES,
    GEMS_PER_COLOUR,
    MAX_ARCHWAY_POINTS,
    MAX_ARCHWAYS,
    MAX_OFFERS,
    MAX_PLAYERS,
    MAX_PROGRESS,
    MAX_SCORE,
    MIN_PLAYERS,
    N_CARDS,
    N_COLOURS,
    ROUNDS,
)
from asara_env.basari.phases import Phase
from asara_env.basari.reference.invariants import located_violations
from asara_env.basari.reference.state import ARRAY_FIELDS, State
from asara_env.common.errors import CorruptStateError
from asara_env.common.markdown import page, schema_table
from asara_env.common.schema import PER_SEAT, StrictModel, error_text, short

SCHEMA = "basari-env/state"
VERSION = 1

# Every integer is bounded (constants.py says why each bound is safe), so no value of a
# loaded game can wrap in the core's int8/int16/int32 arrays or its int64 ranking score.
Count = Annotated[int, Field(ge=0, le=GEMS_PER_COLOUR)]
Bundle = Annotated[list[Count], Field(min_length=N_COLOURS, max_length=N_COLOURS)]
Seat = Annotated[int, Field(ge=-1, le=MAX_PLAYERS - 1)]  # -1 = none
CardId = Annotated[int, Field(ge=-1, le=N_CARDS - 1)]  # -1 = none
Roll = Annotated[int, Field(ge=0, le=DIE_FACES)]  # 0 = none
Archway = Annotated[int, Field(ge=-1, le=MAX_ARCHWAYS - 1)]  # -1 = not placed
Score = Annotated[int, Field(ge=0, le=MAX_SCORE)]
Progress = Annotated[int, Field(ge=0, le=MAX_PROGRESS)]
BoardEntry = Annotated[int, Field(ge=0, le=MAX_ARCHWAY_POINTS)]  # gems: <= 25, checked after
BoardRow = Annotated[list[BoardEntry], Field(min_length=5, max_length=5)]
PerSeat = Field(json_schema_extra=dict(PER_SEAT))  # one entry per player (checked below)
PER_SEAT_FIELDS = (
    "score",
    "gems",
    "position",
    "start",
    "progress",
    "move_roll",
    "action_roll",
    "revealed",
)
SEAT_FIELDS = ("opener", "responder", "to_act", "offer_by")


class ConfigModel(StrictModel, strict=True, title="config"):
    num_players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
    start_mode: Literal["choose", "random"]
    board: Annotated[list[BoardRow], Field(min_length=1, max_length=MAX_ARCHWAYS)]


class StateModel(StrictModel, strict=True, title="BASARI saved state"):
    schema_: Literal["basari-env/state"] = Field(alias="schema")
    version: Literal[1]
    config: ConfigModel
    seed: Annotated[int, Field(ge=0, le=2**64 - 1)]
    phase: Literal["SETUP", "SELECT", "BARTER", "OVER"]
    round: Annotated[int, Field(ge=0, le=ROUNDS - 1)]
    turn: Annotated[int, Field(ge=0, le=MAX_ARCHWAYS - 1)]
    score: Annotated[list[Score], PerSeat]
    gems: Annotated[list[Bundle], PerSeat]
    carpet: Bundle
    position: Annotated[list[Archway], PerSeat]
    start: Annotated[list[Archway], PerSeat]
    progress: Annotated[list[Progress], PerSeat]
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
    offers: Annotated[int, Field(ge=0, le=MAX_OFFERS)]


MEANING = {
    "schema": "always `basari-env/state`",
    "version": "format version",
    "config": "the game's configuration (`config` below)",
    "seed": "the 64-bit game seed, the only source of chance (E4)",
    "phase": "the decision phase (E1)",
    "round": "0-based round; stays 2 when OVER",
    "turn": "0-based turn within the round",
    "score": "points per seat (B1: the track wraps, the score does not)",
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
    "offers": "offers submitted in the running barter (each higher than the last, B8, so at most "
    "one per non-empty bundle)",
}
CONFIG_MEANING = {
    "num_players": "P, the number of players",
    "start_mode": "`choose`: every seat picks its start archway at once (B3.4); `random`: drawn "
    "from the seed (C4)",
    "board": f"`int[n_archways][5]`: points (0..{MAX_ARCHWAY_POINTS}), then red, yellow, green, "
    f"blue gems (0..{GEMS_PER_COLOUR}) per archway (B2.4); 1..{MAX_ARCHWAYS} archways",
}


def schema_markdown() -> str:
    """docs/basari/state.md: the save format, generated from `StateModel`."""
    schema = StateModel.model_json_schema(by_alias=True)
    defs = schema["$defs"]
    intro = [
        "# BASARI saved state",
        "",
        "`state_to_dict` writes and `state_from_dict` reads this JSON object (pydantic v2,",
        "strict: unknown keys and wrong types are refused, every integer is bounded so that",
        "nothing wraps in the core's dtypes, errors name the field path); lengths and seats",
        "against P and archways against the board, then the invariants of B12 are checked.",
        "[P] = one entry per seat. Generated by",
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


def _schema_error(exc: ValidationError) -> CorruptStateError:
    """The first pydantic error as a CorruptStateError naming its field path."""
    field, problem = error_text(exc.errors()[0], {"schema_": "schema"})
    return CorruptStateError(problem, field)


def _check_sizes(model: StateModel) -> None:
    """What depends on P (lengths, seats below P) and on the board (archways below N, the
    board's gems): CorruptStateError naming the field."""
    p, n = model.config.num_players, len(model.config.board)
    for name in PER_SEAT_FIELDS:
        got = len(getattr(model, name))
        if got != p:
            raise CorruptStateError(f"must have {p} entries (one per seat), got {got}", name)
    for name in ("position", "start"):
        for seat, k in enumerate(getattr(model, name)):
            if k >= n:
                raise CorruptStateError(
                    f"archways are -1..{n - 1} on this board, got {k}", f"{name}[{seat}]"
                )
    for name in SEAT_FIELDS:
        seat = getattr(model, name)
        if seat >= p:
            raise CorruptStateError(f"seats are -1..{p - 1}, got {seat}", name)
    if model.turn >= n:
        raise CorruptStateError(f"turns are 0..{n - 1} on this board, got {model.turn}", "turn")


def state_from_dict(d: object) -> State:
    """The state saved as `d`; CorruptStateError naming the field of the first problem (the
    schema's types and bounds, what depends on P and the board, then every invariant)."""
    if not isinstance(d, dict):
        raise CorruptStateError(f"a saved state is a dict, got {short(d)}", "(top)")
    try:
        model = StateModel.model_validate(d)
    except ValidationError as exc:
        raise _schema_error(exc) from None
    _check_sizes(model)
    try:
        config = BasariConfig(
            model.config.num_players, model.config.start_mode, np.array(model.config.board)
        )
    except ValueError as exc:
        raise CorruptStateError(str(exc), "config.board") from None
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
    broken = located_violations(state)
    if broken:
        field, problem = broken[0]
        raise CorruptStateError(problem, field)
    return state
