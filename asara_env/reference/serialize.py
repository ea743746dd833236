"""Save and load: a state as a JSON-compatible dict and back.

The schema is documented in docs/state.md. `state_from_dict` checks types and shapes, then
every invariant of `invariants.violations`, and raises `CorruptStateError` naming the
first problem; `state_to_dict(state_from_dict(d)) == d` for every valid `d`.
"""

from __future__ import annotations

import numpy as np

from ..config import GameConfig
from ..constants import (
    N_AREAS,
    N_CARD_COLOURS,
    N_CHESTS,
    N_GIFT_KINDS,
    N_GOLD,
    N_PARTS,
    N_TILE_COLOURS,
    SPACE_VALUES,
    Area,
)
from ..errors import CorruptStateError
from ..phases import Phase
from .invariants import violations
from .state import Buyer, State, Tower

SCHEMA = "asara-env/state"
VERSION = 2  # 2 added the gifts (R9.2); version 1 saves load with none


def state_to_dict(state: State) -> dict:
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


def _rng_to_dict(rng: np.random.Generator) -> dict:
    st = rng.bit_generator.state
    if st.get("bit_generator") != "PCG64":
        raise ValueError("only PCG64 generators can be saved")
    return {
        "bit_generator": "PCG64",
        "state": str(st["state"]["state"]),
        "inc": str(st["state"]["inc"]),
        "has_uint32": st["has_uint32"],
        "uinteger": st["uinteger"],
    }


def _tower_to_dict(t: Tower) -> dict:
    return {"parts": t.parts.tolist(), "lit_plain": t.lit_plain, "lit_gold": t.lit_gold}


def _buyer_to_dict(b: Buyer | None) -> dict | None:
    if b is None:
        return None
    return {"seat": b.seat, "cards": list(b.cards), "face_up": b.face_up}


# ------------------------------------------------------------------------------ loading
def state_from_dict(d: dict) -> State:
    """The state saved by `state_to_dict`; raises CorruptStateError if `d` is not one."""
    try:
        state = _build_state(d)
    except CorruptStateError:
        raise
    except KeyError as exc:
        raise CorruptStateError(f"malformed saved state: the field {exc} is missing") from exc
    except (TypeError, ValueError, IndexError, AttributeError) as exc:
        raise CorruptStateError(f"malformed saved state: {type(exc).__name__}: {exc}") from exc
    try:
        problems = violations(state)
    except (IndexError, KeyError, ValueError) as exc:  # fields the checks index with
        raise CorruptStateError(f"inconsistent saved state: {type(exc).__name__}: {exc}") from exc
    if problems:
        raise CorruptStateError(f"inconsistent saved state: {problems[0]}")
    return state


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise CorruptStateError(message)


def as_int(value, name: str) -> int:
    _need(
        isinstance(value, int) and not isinstance(value, bool),
        f"{name} must be an int, got {value!r}",
    )
    return value


def _array(value, shape: tuple[int, ...], name: str) -> np.ndarray:
    arr = np.asarray(value)
    _need(arr.shape == shape, f"{name} must have shape {shape}, got {arr.shape}")
    _need(arr.size == 0 or arr.dtype.kind == "i", f"{name} must hold ints")
    return arr.astype(np.int64)


def _build_state(d: dict) -> State:
    _need(isinstance(d, dict), f"a saved state is a dict, got {type(d).__name__}")
    _need(d.get("schema") == SCHEMA, f"schema must be {SCHEMA!r}, got {d.get('schema')!r}")
    version = d.get("version")
    _need(version in (1, VERSION), f"version must be 1 or {VERSION}, got {version!r}")
    if version == 1:
        d = {**d, **_NO_GIFTS}
    config = GameConfig.from_dict(d["config"])
    p = config.num_players
    _need(d["phase"] in Phase.__members__, f"unknown phase {d['phase']!r}")
    towers = d["towers"]
    _need(
        len(towers) == p and all(len(s) == N_TILE_COLOURS for s in towers),
        "towers must be [seat][colour] lists",
    )
    spaces = d["spaces"]
    _need(len(spaces) == N_AREAS, f"spaces must list {N_AREAS} areas")
    for a, area in enumerate(spaces):
        _need(
            len(area) == len(SPACE_VALUES[Area(a)]),
            f"area {Area(a).name} must have {len(SPACE_VALUES[Area(a)])} spaces",
        )
    return State(
        config=config,
        rng=_rng_from_dict(d["rng"]),
        year=as_int(d["year"], "year"),
        phase=Phase[d["phase"]],
        seat=as_int(d["seat"], "seat"),
        caliph=as_int(d["caliph"], "caliph"),
        money=[as_int(x, "money") for x in d["money"]],
        prestige=[as_int(x, "prestige") for x in d["prestige"]],
        hands=_array(d["hands"], (p, N_CARD_COLOURS), "hands"),
        draw_pile=_array(d["draw_pile"], (N_CARD_COLOURS,), "draw_pile"),
        stacks=_array(d["stacks"], (N_PARTS, N_TILE_COLOURS, N_GOLD), "stacks"),
        displays=_array(d["displays"], (N_PARTS, N_TILE_COLOURS, N_GOLD), "displays"),
        supply=_array(d["supply"], (p, N_PARTS, N_TILE_COLOURS, N_GOLD), "supply"),
        lighted_supply=_array(d["lighted_supply"], (p, N_TILE_COLOURS), "lighted_supply"),
        lighted_stack=[
            [as_int(c, "lighted_stack colour"), as_int(s, "lighted_stack seat")]
            for c, s in d["lighted_stack"]
        ],
        towers=[
            [[_tower_from_dict(t, c) for t in col] for c, col in enumerate(seat)] for seat in towers
        ],
        area_colour=[_colour_or_none(x, "area_colour") for x in d["area_colour"]],
        spaces=[[_buyer_from_dict(b) for b in area] for area in spaces],
        coloured=[_buyer_from_dict(b) for b in d["coloured"]],
        market=as_int(d["market"], "market"),
        bribe_stack=as_int(d["bribe_stack"], "bribe_stack"),
        lights_drawn=[_colour(x, "lights_drawn") for x in d["lights_drawn"]],
        lights_keep=as_int(d["lights_keep"], "lights_keep"),
        build_left=as_int(d["build_left"], "build_left"),
        gift_pile=_array(d["gift_pile"], (N_GIFT_KINDS,), "gift_pile"),
        gifts=_gift_lists(d["gifts"]),
        gift_queue=[_gift(k, "gift_queue") for k in d["gift_queue"]],
        gift_chest=as_int(d["gift_chest"], "gift_chest"),
        pending_target=as_int(d["pending_target"], "pending_target"),
        pending_space=as_int(d["pending_space"], "pending_space"),
        decisions=as_int(d["decisions"], "decisions"),
        final=None if d["final"] is None else [dict(x) for x in d["final"]],
    )


_NO_GIFTS = {
    "gift_pile": [0] * N_GIFT_KINDS,
    "gifts": [[] for _ in range(N_CHESTS)],
    "gift_queue": [],
    "gift_chest": -1,
    "pending_target": -1,
    "pending_space": -1,
}


def _gift(x, name: str) -> int:
    _need(as_int(x, name) in range(N_GIFT_KINDS), f"{name} {x} is not a gift kind")
    return x


def _gift_lists(chests) -> list[list[int]]:
    _need(
        isinstance(chests, list) and len(chests) == N_CHESTS, f"gifts must list {N_CHESTS} chests"
    )
    return [[_gift(k, "gifts") for k in chest] for chest in chests]


def _colour(x, name: str) -> int:
    _need(as_int(x, name) in range(N_TILE_COLOURS), f"{name} {x} is not a colour")
    return x


def _colour_or_none(x, name: str) -> int:
    _need(as_int(x, name) in range(-1, N_CARD_COLOURS), f"{name} {x} is not a card colour or -1")
    return x


def _rng_from_dict(d: dict) -> np.random.Generator:
    _need(d.get("bit_generator") == "PCG64", "rng.bit_generator must be 'PCG64'")
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": int(d["state"]), "inc": int(d["inc"])},
        "has_uint32": as_int(d["has_uint32"], "rng.has_uint32"),
        "uinteger": as_int(d["uinteger"], "rng.uinteger"),
    }
    return rng


def _tower_from_dict(d: dict, colour: int) -> Tower:
    parts = _array(d["parts"], (N_PARTS, N_GOLD), "tower parts")
    return Tower(
        colour, parts, as_int(d["lit_plain"], "lit_plain"), as_int(d["lit_gold"], "lit_gold")
    )


def _buyer_from_dict(d: dict | None) -> Buyer | None:
    if d is None:
        return None
    cards = tuple(as_int(b, "card") for b in d["cards"])
    _need(all(b in range(N_CARD_COLOURS) for b in cards), f"card colours {cards} out of range")
    _need(isinstance(d["face_up"], bool), "face_up must be a bool")
    return Buyer(as_int(d["seat"], "buyer seat"), tuple(sorted(cards)), d["face_up"])
