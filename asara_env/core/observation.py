"""The observation: one flat float32 vector per seat, exactly what that seat may know (R10)
plus the context of the pending decision.

Everything is player-relative: relative seat r = (seat - viewer) mod P, the viewer first,
padded to 4 players (the "present" flag marks real ones), so the size is the same for every
configuration. Values are raw counts; -1 sentinels become all-zero one-hots. The layout is
declared once in `OBS_SLICES`; `OBS_DIM`, `OBS_INDEX` and docs/observation.md derive from it.

`encode_view` encodes the reference `seat_view` dict (plain loops, the specification);
`observe` encodes a whole `CoreState` batch with numpy and must agree with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..constants import (
    MAX_PLAYERS,
    MAX_TOWERS_PER_COLOUR,
    MIN_PLAYERS,
    N_AREAS,
    N_CARD_COLOURS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
    Area,
)
from ..reference.state import Phase
from .state import N_SPACES, SPACE_VALUE, SPACES, CoreState

N_PHASES = 12  # Phase values 0..7; the rest reserved for expansion phases
N_PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1
MAX_DRAWN = 5  # most lighted windows drawn at once (R7.2)
TOWER_FEATURES = N_PARTS * N_GOLD + 3  # part/gold counts, lit plain, lit gold, exists
SPACE_FEATURES = MAX_PLAYERS + N_CARD_COLOURS + 1 + N_CARD_COLOURS
P4, C, B = MAX_PLAYERS, N_TILE_COLOURS, N_CARD_COLOURS


@dataclass(frozen=True)
class ObsSlice:
    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)


TILES = (N_PARTS, C, N_GOLD)
_S = ObsSlice
OBS_SLICES: tuple[ObsSlice, ...] = (
    _S("num_players", (N_PLAYER_COUNTS,), "one-hot: 2, 3, 4 players"),
    _S("pro", (1,), "1 = professional variant (R7)"),
    _S("genie", (1,), "1 = Bottle Genie expansion (R9.1)"),
    _S("gifts", (1,), "1 = gifts expansion (R9.2)"),
    _S("year", (N_YEARS,), "one-hot: year 1..4"),
    _S("phase", (N_PHASES,), "one-hot: Phase value (PLACE..GAME_OVER; 8..11 reserved)"),
    _S("seat_to_move", (P4,), "one-hot relative seat to decide"),
    _S("caliph", (P4,), "one-hot relative seat holding the Caliph tile"),
    _S("present", (P4,), "[relative seat] 1 = a player sits there"),
    _S("money", (P4,), "[relative seat] Asari"),
    _S("prestige", (P4,), "[relative seat] prestige (final scoring added at the end)"),
    _S("hand_sizes", (P4,), "[relative seat] cards in hand"),
    _S("hand", (B,), "[card colour] the viewer's hand"),
    _S("draw_pile_size", (1,), "cards in the draw pile"),
    _S("stacks", TILES, "[part, colour, gold] face-down stacks"),
    _S("displays", TILES, "[part, colour, gold] face-up market displays"),
    _S("supply", (P4, *TILES), "[relative seat, part, colour, gold] unbuilt tiles"),
    _S("lighted_held", (P4,), "[relative seat] unbuilt lighted windows"),
    _S("lighted_supply", (C,), "[colour] the viewer's unbuilt lighted windows"),
    _S("lighted_stack_size", (1,), "lighted windows in the stack"),
    _S(
        "lighted_stack_known",
        (N_LIGHTED, C),
        "[position from the top, colour] one-hot where the viewer put that window back",
    ),
    _S(
        "towers",
        (P4, C, MAX_TOWERS_PER_COLOUR, TOWER_FEATURES),
        "[relative seat, colour, k-th tower started, (tiles by part x gold, gold fastest (8),"
        " lit plain, lit gold, exists)]",
    ),
    _S("area_colour", (N_AREAS, B), "[area] one-hot required card colour (R3.2)"),
    _S(
        "spaces",
        (N_SPACES, SPACE_FEATURES),
        "[space, (relative seat one-hot (4), face-up colour one-hot (5), face-down flag,"
        " the viewer's own face-down colours (5))]",
    ),
    _S("coloured", (P4,), "[relative seat] cards on the coloured building"),
    _S("coloured_own", (B,), "[card colour] the viewer's cards on the coloured building"),
    _S("market", (N_PARTS,), "BUY: one-hot part of the market"),
    _S("bribe_stack", (N_PARTS,), "BRIBE_TAKE: one-hot part of the searched stack"),
    _S("lights_drawn", (C,), "LIGHTS_KEEP: [colour] windows drawn, if the viewer drew them"),
    _S("lights_drawn_count", (1,), "LIGHTS_KEEP: windows drawn and not yet kept"),
    _S("lights_keep", (1,), "LIGHTS_KEEP: windows still to keep"),
    _S("build_left", (1,), "BUILD: tiles still to place"),
)


def _index() -> dict[str, slice]:
    index, start = {}, 0
    for s in OBS_SLICES:
        index[s.name] = slice(start, start + s.size)
        start += s.size
    return index


OBS_INDEX: dict[str, slice] = _index()
OBS_DIM: int = sum(s.size for s in OBS_SLICES)


def _assemble(pieces: dict[str, np.ndarray], batch: int) -> np.ndarray:
    """float32[batch, OBS_DIM] from one array [batch, *shape] per slice."""
    if set(pieces) != set(OBS_INDEX):
        raise AssertionError(f"pieces differ from OBS_SLICES: {set(pieces) ^ set(OBS_INDEX)}")
    out = np.zeros((batch, OBS_DIM), np.float32)
    for s in OBS_SLICES:
        piece = np.asarray(pieces[s.name])
        if piece.shape != (batch, *s.shape):
            raise AssertionError(f"{s.name}: shape {piece.shape}, expected {(batch, *s.shape)}")
        out[:, OBS_INDEX[s.name]] = piece.reshape(batch, -1)
    return out


def observation_markdown() -> str:
    """The observation documentation, generated from `OBS_SLICES`."""
    lines = [
        "# Observation",
        "",
        f"One flat `float32[{OBS_DIM}]` vector per seat, the same size for every configuration",
        "(`asara_env.core.observation`). Player axes are relative to the viewer (relative",
        "seat r = (seat - viewer) mod P, the viewer first) and padded to 4 players; values are",
        "raw counts. It holds exactly what the viewer may know (R10). Generated by",
        "`python -m asara_env.docs` (`make docs`); do not edit by hand.",
        "",
        "| slice | start | end | shape | meaning |",
        "|---|---|---|---|---|",
    ]
    for s in OBS_SLICES:
        sl = OBS_INDEX[s.name]
        shape = "×".join(map(str, s.shape))
        lines.append(f"| {s.name} | {sl.start} | {sl.stop} | {shape} | {s.meaning} |")
    lines += ["", "## Spaces", "", "| space | area | index | value |", "|---|---|---|---|"]
    lines += [
        f"| {k} | {Area(a).name} | {i} | {SPACE_VALUE[k]} |" for k, (a, i) in enumerate(SPACES)
    ]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ reference encoder
def _hot(n: int, value) -> np.ndarray:
    """One-hot of length n; all zeros for None or -1."""
    out = np.zeros(n)
    if value is not None and 0 <= value < n:
        out[value] = 1
    return out


def _rel(view: dict, seat: int) -> int:
    p = view["config"]["num_players"]
    return (seat - view["viewer"]) % p if seat >= 0 else -1


def _per_player(view: dict, values: list) -> np.ndarray:
    """[relative seat, ...]: per-seat values in relative order, zero-padded to 4 players."""
    p, v = view["config"]["num_players"], view["viewer"]
    rows = [np.asarray(values[(v + r) % p], float) for r in range(p)]
    pad = [np.zeros_like(rows[0]) for _ in range(P4 - p)]
    return np.stack(rows + pad)


def _view_config(view: dict) -> dict:
    cfg = view["config"]
    return {
        "num_players": _hot(N_PLAYER_COUNTS, cfg["num_players"] - MIN_PLAYERS),
        "pro": [float(cfg["variant"] == "pro")],
        "genie": [float("genie" in cfg["expansions"])],
        "gifts": [float("gifts" in cfg["expansions"])],
    }


def _view_flow(view: dict) -> dict:
    p = view["config"]["num_players"]
    return {
        "year": _hot(N_YEARS, view["year"] - 1),
        "phase": _hot(N_PHASES, Phase[view["phase"]].value),
        "seat_to_move": _hot(P4, _rel(view, view["seat_to_move"])),
        "caliph": _hot(P4, _rel(view, view["caliph"])),
        "present": _per_player(view, [1.0] * p),
    }


def _view_players(view: dict) -> dict:
    return {
        "money": _per_player(view, view["money"]),
        "prestige": _per_player(view, view["prestige"]),
        "hand_sizes": _per_player(view, view["hand_sizes"]),
        "hand": view["hand"],
        "draw_pile_size": [view["draw_pile_size"]],
        "stacks": view["stacks"],
        "displays": view["displays"],
        "supply": _per_player(view, view["supply"]),
        "lighted_held": _per_player(view, view["lighted_held"]),
        "lighted_supply": view["lighted_supply"],
        "lighted_stack_size": [view["lighted_stack_size"]],
        "lighted_stack_known": [_hot(C, c) for c in view["lighted_stack_known"]]
        + [np.zeros(C)] * (N_LIGHTED - len(view["lighted_stack_known"])),
    }


def _tower_features(col: list[dict]) -> np.ndarray:
    out = np.zeros((MAX_TOWERS_PER_COLOUR, TOWER_FEATURES))
    for k, t in enumerate(col):
        out[k] = [*np.ravel(t["parts"]), t["lit_plain"], t["lit_gold"], 1]
    return out


def _space_features(view: dict, b: dict | None) -> np.ndarray:
    if b is None:
        return np.zeros(SPACE_FEATURES)
    face_up = b["cards"][0] if b["face_up"] else None
    own = np.zeros(B)
    if not b["face_up"] and b["cards"] is not None:
        for card in b["cards"]:
            own[card] += 1
    return np.concatenate(
        [_hot(P4, _rel(view, b["seat"])), _hot(B, face_up), [float(not b["face_up"])], own]
    )


def _view_board(view: dict) -> dict:
    p = view["config"]["num_players"]
    coloured, coloured_own = [0] * p, np.zeros(B)
    for b in view["coloured"]:
        coloured[b["seat"]] += b["n_cards"]
        for card in b["cards"] or ():
            coloured_own[card] += 1
    return {
        "towers": _per_player(
            view, [[_tower_features(col) for col in seat] for seat in view["towers"]]
        ),
        "area_colour": [_hot(B, c) for c in view["area_colour"]],
        "spaces": [_space_features(view, view["spaces"][a][i]) for a, i in SPACES],
        "coloured": _per_player(view, coloured),
        "coloured_own": coloured_own,
    }


def _view_pending(view: dict) -> dict:
    drawn = np.zeros(C)
    for c in view["lights_drawn"] or ():
        drawn[c] += 1
    return {
        "market": _hot(N_PARTS, view["market"]),
        "bribe_stack": _hot(N_PARTS, view["bribe_stack"]),
        "lights_drawn": drawn,
        "lights_drawn_count": [view["lights_drawn_count"]],
        "lights_keep": [view["lights_keep"]],
        "build_left": [view["build_left"]],
    }


def encode_view(view: dict) -> np.ndarray:
    """float32[OBS_DIM]: the observation of a reference `seat_view` dict."""
    pieces = {
        **_view_config(view),
        **_view_flow(view),
        **_view_players(view),
        **_view_board(view),
        **_view_pending(view),
    }
    return _assemble({k: np.asarray(v, float)[None] for k, v in pieces.items()}, 1)[0]


# ------------------------------------------------------------------------------ vectorised
def _one_hot(values: np.ndarray, n: int) -> np.ndarray:
    """float32[..., n] one-hot of int values; -1 (or any value outside 0..n-1) gives zeros."""
    values = np.asarray(values)
    return (values[..., None] == np.arange(n)).astype(np.float32)


@dataclass(frozen=True)
class _Seats:
    """The viewer of each game and the absolute seat behind each relative seat."""

    viewer: np.ndarray  # int[B]
    absolute: np.ndarray  # int[B, 4] absolute seat of relative seat r (0 where absent)
    present: np.ndarray  # bool[B, 4]
    p: int

    def rel(self, seat: np.ndarray) -> np.ndarray:
        """Relative seat of absolute seats int[B, ...]; -1 stays -1."""
        v = self.viewer.reshape(-1, *([1] * (np.ndim(seat) - 1)))
        return np.where(seat >= 0, (seat - v) % self.p, -1)

    def gather(self, per_seat: np.ndarray) -> np.ndarray:
        """[B, 4, ...] from per-seat values [B, P, ...]; zeros where no player sits."""
        idx = self.absolute.reshape(*self.absolute.shape, *([1] * (per_seat.ndim - 2)))
        out = np.take_along_axis(per_seat, idx, axis=1).astype(np.float32)
        mask = self.present.reshape(*self.present.shape, *([1] * (per_seat.ndim - 2)))
        return out * mask


def _seats(state: CoreState, seat) -> _Seats:
    p, batch = state.config.num_players, state.year.shape[0]
    viewer = np.broadcast_to(np.asarray(seat, np.int64), (batch,))
    if ((viewer < 0) | (viewer >= p)).any():
        raise ValueError(f"seats must be in 0..{p - 1}, got {np.unique(viewer).tolist()}")
    r = np.arange(P4)
    present = np.broadcast_to(r < p, (batch, P4))
    absolute = np.where(present, (viewer[:, None] + r) % p, 0)
    return _Seats(viewer, absolute, present, p)


def _core_config(state: CoreState, batch: int) -> dict:
    cfg = state.config
    flags = np.ones((batch, 1), np.float32)
    return {
        "num_players": np.tile(
            _one_hot(cfg.num_players - MIN_PLAYERS, N_PLAYER_COUNTS), (batch, 1)
        ),
        "pro": flags * cfg.pro,
        "genie": flags * ("genie" in cfg.expansions),
        "gifts": flags * ("gifts" in cfg.expansions),
    }


def _core_flow(state: CoreState, s: _Seats) -> dict:
    return {
        "year": _one_hot(state.year - 1, N_YEARS),
        "phase": _one_hot(state.phase, N_PHASES),
        "seat_to_move": _one_hot(s.rel(state.seat), P4),
        "caliph": _one_hot(s.rel(state.caliph), P4),
        "present": s.present.astype(np.float32),
    }


def _own(per_seat: np.ndarray, s: _Seats) -> np.ndarray:
    """The viewer's row of per-seat values [B, P, ...]."""
    return per_seat[np.arange(len(s.viewer)), s.viewer].astype(np.float32)


def _core_players(state: CoreState, s: _Seats) -> dict:
    lighted_known = np.where(s.rel(state.lighted_owner) == 0, state.lighted_stack, -1)
    return {
        "money": s.gather(state.money),
        "prestige": s.gather(state.prestige),
        "hand_sizes": s.gather(state.hands.sum(axis=-1)),
        "hand": _own(state.hands, s),
        "draw_pile_size": state.draw_pile.sum(axis=-1, keepdims=True),
        "stacks": state.stacks,
        "displays": state.displays,
        "supply": s.gather(state.supply),
        "lighted_held": s.gather(state.lighted_supply.sum(axis=-1)),
        "lighted_supply": _own(state.lighted_supply, s),
        "lighted_stack_size": state.lighted_len[:, None],
        "lighted_stack_known": _one_hot(lighted_known, C),
    }


def _core_towers(state: CoreState, s: _Seats) -> np.ndarray:
    parts = state.tower_parts.reshape(*state.tower_parts.shape[:4], N_PARTS * N_GOLD)
    exists = np.arange(MAX_TOWERS_PER_COLOUR) < state.n_towers[..., None]
    features = np.concatenate([parts, state.tower_lit, exists[..., None]], axis=-1)
    return s.gather(features)


def _core_spaces(state: CoreState, s: _Seats) -> np.ndarray:
    occupied, up = state.space_seat >= 0, state.space_face_up
    down = occupied & ~up
    mine = down & (state.space_seat == s.viewer[:, None])
    cards = _one_hot(state.space_cards, B).sum(axis=-2)  # [B, space, colour]
    return np.concatenate(
        [
            _one_hot(s.rel(state.space_seat), P4),
            _one_hot(np.where(up, state.space_cards[..., 0], -1), B),
            down[..., None].astype(np.float32),
            cards * mine[..., None],
        ],
        axis=-1,
    )


def _core_board(state: CoreState, s: _Seats) -> dict:
    return {
        "towers": _core_towers(state, s),
        "area_colour": _one_hot(state.area_colour, B),
        "spaces": _core_spaces(state, s),
        "coloured": s.gather(state.coloured.sum(axis=-1)),
        "coloured_own": _own(state.coloured, s),
    }


def _core_pending(state: CoreState, s: _Seats) -> dict:
    drawing = (state.phase == Phase.LIGHTS_KEEP) & (state.seat == s.viewer)
    drawn = _one_hot(state.lights_drawn, C).sum(axis=-2)
    return {
        "market": _one_hot(state.market, N_PARTS),
        "bribe_stack": _one_hot(state.bribe_stack, N_PARTS),
        "lights_drawn": drawn * drawing[:, None],
        "lights_drawn_count": (state.lights_drawn >= 0).sum(axis=-1, keepdims=True),
        "lights_keep": state.lights_keep[:, None],
        "build_left": state.build_left[:, None],
    }


def observe(state: CoreState, seat) -> np.ndarray:
    """float32[B, OBS_DIM]: each game's observation for `seat` (an int or int[B])."""
    batch = state.year.shape[0]
    s = _seats(state, seat)
    pieces = {
        **_core_config(state, batch),
        **_core_flow(state, s),
        **_core_players(state, s),
        **_core_board(state, s),
        **_core_pending(state, s),
    }
    return _assemble(pieces, batch)
