"""Save and load: a state as a JSON-compatible dict and back.

The format is defined in `schema.py` (docs/asara/state.md and docs/asara/state.schema.json are
generated from it). `state_from_dict` checks the schema (types, ranges, lengths, no unknown
keys), then what depends on the number of players, then every invariant of
`invariants.py` and the load checks of `soundness.py`, and raises `CorruptStateError`
naming the field of the first problem; `state_to_dict(state_from_dict(d)) == d` for every
valid `d`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.config import GameConfig
from asara_env.asara.constants import N_CHESTS, N_GIFT_KINDS, SPACE_VALUES, Area
from asara_env.asara.phases import Phase
from asara_env.asara.reference.format import GIFT_FIELDS, SCHEMA, VERSION
from asara_env.asara.reference.invariants import located_violations
from asara_env.asara.reference.soundness import load_problems
from asara_env.asara.reference.state import Buyer, State, Tower
from asara_env.common.errors import CorruptStateError

__all__ = ["SCHEMA", "VERSION", "state_from_dict", "state_to_dict"]


def state_to_dict(state: State) -> dict[str, Any]:
    """A JSON-compatible dict holding everything about the game, the RNG state included."""
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "config": state.config.to_dict(),
        "rng": _rng_to_dict(state.rng),
        "year": state.year,
        "phase": state.phase.name,
        "seat": state.seat,
        "caliph": state.caliph,
        "money": list(state.money),
        "prestige": list(state.prestige),
        "hands": state.hands.tolist(),
        "draw_pile": state.draw_pile.tolist(),
        "stacks": state.stacks.tolist(),
        "displays": state.displays.tolist(),
        "supply": state.supply.tolist(),
        "lighted_supply": state.lighted_supply.tolist(),
        "lighted_stack": [list(x) for x in state.lighted_stack],
        "towers": [[[_tower_to_dict(t) for t in col] for col in seat] for seat in state.towers],
        "area_colour": list(state.area_colour),
        "spaces": [[_buyer_to_dict(b) for b in area] for area in state.spaces],
        "coloured": [_buyer_to_dict(b) for b in state.coloured],
        "market": state.market,
        "bribe_stack": state.bribe_stack,
        "lights_drawn": list(state.lights_drawn),
        "lights_keep": state.lights_keep,
        "build_left": state.build_left,
        "gift_pile": state.gift_pile.tolist(),
        "gifts": [list(chest) for chest in state.gifts],
        "gift_queue": list(state.gift_queue),
        "gift_chest": state.gift_chest,
        "pending_target": state.pending_target,
        "pending_space": state.pending_space,
        "decisions": state.decisions,
        "final": None if state.final is None else [dict(d) for d in state.final],
    }


def _rng_to_dict(rng: np.random.Generator) -> dict[str, Any]:
    st = rng.bit_generator.state
    if st.get("bit_generator") != "PCG64":
        raise ValueError("only PCG64 generators can be saved")
    return {
        "bit_generator": "PCG64",
        "state": str(st["state"]["state"]),
        "inc": str(st["state"]["inc"]),
        "has_uint32": 0,  # the game draws only doubles, which never use a buffered half
        "uinteger": 0,
    }


def _tower_to_dict(t: Tower) -> dict[str, Any]:
    return {"parts": t.parts.tolist(), "lit_plain": t.lit_plain, "lit_gold": t.lit_gold}


def _buyer_to_dict(b: Buyer | None) -> dict[str, Any] | None:
    if b is None:
        return None
    return {"seat": b.seat, "cards": list(b.cards), "face_up": b.face_up}


# ------------------------------------------------------------------------------ loading
def state_from_dict(d: dict[str, Any]) -> State:
    """The state saved by `state_to_dict`; raises CorruptStateError naming the field at
    fault if `d` is not one."""
    from asara_env.asara.reference.schema import (
        validate,
    )  # pydantic, loaded only when a game is loaded

    validate(d)
    if d["version"] == 1:
        d = {**d, **_NO_GIFTS}
    config = _config(d["config"])
    _check_per_seat(d, config.num_players)
    state = _build_state(d, config)
    problems = located_violations(state) or load_problems(state)
    if problems:
        raise CorruptStateError(problems[0][1], problems[0][0])
    return state


_NO_GIFTS = {
    "gift_pile": [0] * N_GIFT_KINDS,
    "gifts": [[] for _ in range(N_CHESTS)],
    "gift_queue": [],
    "gift_chest": -1,
    "pending_target": -1,
    "pending_space": -1,
}
assert tuple(_NO_GIFTS) == GIFT_FIELDS


def _config(d: dict[str, Any]) -> GameConfig:
    if d["expansions"] != sorted(d["expansions"]):
        raise CorruptStateError(f"must be sorted, got {d['expansions']}", "config.expansions")
    try:
        return GameConfig.from_dict(d)
    except ValueError as exc:
        raise CorruptStateError(str(exc), "config") from None


def _check_per_seat(d: dict[str, Any], p: int) -> None:
    """Lengths of one entry per player, seats below P, each area's spaces, the PCG64 state."""
    per_seat = ["money", "prestige", "hands", "supply", "lighted_supply", "towers"]
    for name in per_seat + ([] if d["final"] is None else ["final"]):
        got = len(d[name])
        _need(got == p, name, f"must have {p} entries (one per player), got {got}")
    seats = {
        "seat": d["seat"],
        "caliph": d["caliph"],
        "config.start_seat": d["config"]["start_seat"],
    }
    for i, (_, owner) in enumerate(d["lighted_stack"]):
        seats[f"lighted_stack[{i}][1]"] = owner
    for a, area in enumerate(d["spaces"]):
        want = len(SPACE_VALUES[Area(a)])
        _need(len(area) == want, f"spaces[{a}]", f"must have {want} spaces, got {len(area)}")
        for i, b in enumerate(area):
            if b is not None:
                seats[f"spaces[{a}][{i}].seat"] = b["seat"]
                _check_buyer(b, f"spaces[{a}][{i}]")
    for i, b in enumerate(d["coloured"]):
        seats[f"coloured[{i}].seat"] = b["seat"]
        _need(len(b["cards"]) == 1, f"coloured[{i}].cards", "must hold one card (R3.4)")
        _need(not b["face_up"], f"coloured[{i}].face_up", "must be false: face down (R3.4)")
    for name, seat in seats.items():
        _need(seat < p, name, f"{seat} is not a seat of {p} players")
    rng = d["rng"]
    for name in ("state", "inc"):
        _need(int(rng[name]) < 2**128, f"rng.{name}", "must be below 2**128")
    _need(int(rng["inc"]) % 2 == 1, "rng.inc", "must be odd (a PCG64 increment)")


def _check_buyer(b: dict[str, Any], where: str) -> None:
    _need(b["cards"] == sorted(b["cards"]), f"{where}.cards", f"must be sorted, got {b['cards']}")
    want = 1 if b["face_up"] else 2
    message = f"must hold {want} card(s) when face_up is {b['face_up']} (R3.2, R3.3)"
    _need(len(b["cards"]) == want, f"{where}.cards", message)


def _need(cond: bool, field: str, message: str) -> None:
    if not cond:
        raise CorruptStateError(message, field)


def _ints(value: object) -> NDArray[np.int64]:
    return np.array(value, np.int64)


def _build_state(d: dict[str, Any], config: GameConfig) -> State:
    """The State of a dict that passed the schema and the per-seat checks."""
    return State(
        config=config,
        rng=_rng_from_dict(d["rng"]),
        year=d["year"],
        phase=Phase[d["phase"]],
        seat=d["seat"],
        caliph=d["caliph"],
        money=list(d["money"]),
        prestige=list(d["prestige"]),
        hands=_ints(d["hands"]),
        draw_pile=_ints(d["draw_pile"]),
        stacks=_ints(d["stacks"]),
        displays=_ints(d["displays"]),
        supply=_ints(d["supply"]),
        lighted_supply=_ints(d["lighted_supply"]),
        lighted_stack=[[c, s] for c, s in d["lighted_stack"]],
        towers=[
            [[_tower_from_dict(t, c) for t in col] for c, col in enumerate(seat)]
            for seat in d["towers"]
        ],
        area_colour=list(d["area_colour"]),
        spaces=[[_buyer_from_dict(b) for b in area] for area in d["spaces"]],
        coloured=sorted(  # the engine's order (engine.py), whatever order the save gives
            (Buyer(b["seat"], tuple(b["cards"]), b["face_up"]) for b in d["coloured"]),
            key=lambda b: (b.seat, b.cards),
        ),
        market=d["market"],
        bribe_stack=d["bribe_stack"],
        lights_drawn=list(d["lights_drawn"]),
        lights_keep=d["lights_keep"],
        build_left=d["build_left"],
        gift_pile=_ints(d["gift_pile"]),
        gifts=[list(chest) for chest in d["gifts"]],
        gift_queue=list(d["gift_queue"]),
        gift_chest=d["gift_chest"],
        pending_target=d["pending_target"],
        pending_space=d["pending_space"],
        decisions=d["decisions"],
        final=None if d["final"] is None else [dict(x) for x in d["final"]],
    )


def _rng_from_dict(d: dict[str, Any]) -> np.random.Generator:
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": int(d["state"]), "inc": int(d["inc"])},
        "has_uint32": d["has_uint32"],
        "uinteger": d["uinteger"],
    }
    return rng


def _tower_from_dict(d: dict[str, Any], colour: int) -> Tower:
    return Tower(colour, _ints(d["parts"]), d["lit_plain"], d["lit_gold"])


def _buyer_from_dict(d: dict[str, Any] | None) -> Buyer | None:
    return None if d is None else Buyer(d["seat"], tuple(d["cards"]), d["face_up"])
