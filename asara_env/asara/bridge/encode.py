"""`encode_view`: the observation of a reference `seat_view` dict, written with plain loops
from the observation table (the specification the core's vectorised `observe` must meet).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.actions import TARGETS
from asara_env.asara.constants import (
    GIFT_SLOTS,
    MAX_PLAYERS,
    MAX_TOWERS_PER_COLOUR,
    MIN_PLAYERS,
    N_CARD_COLOURS,
    N_CHESTS,
    N_GIFT_KINDS,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
)
from asara_env.asara.core.observation import (
    N_PHASES,
    N_PLAYER_COUNTS,
    OBS_DIM,
    OBS_INDEX,
    OBS_SLICES,
    SPACE_FEATURES,
    TOWER_FEATURES,
)
from asara_env.asara.core.state import SPACES
from asara_env.asara.phases import Phase

P4, C, B = MAX_PLAYERS, N_TILE_COLOURS, N_CARD_COLOURS


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


def _hot(n: int, value: int | None) -> NDArray[np.float64]:
    """One-hot of length n; all zeros for None or -1."""
    out = np.zeros(n)
    if value is not None and 0 <= value < n:
        out[value] = 1
    return out


def _rel(view: dict[str, Any], seat: int) -> int:
    p = view["config"]["num_players"]
    return (seat - view["viewer"]) % p if seat >= 0 else -1


def _per_player(view: dict[str, Any], values: list[Any]) -> np.ndarray:
    """[relative seat, ...]: per-seat values in relative order, zero-padded to 4 players."""
    p, v = view["config"]["num_players"], view["viewer"]
    rows = [np.asarray(values[(v + r) % p], float) for r in range(p)]
    pad = [np.zeros_like(rows[0]) for _ in range(P4 - p)]
    return np.stack(rows + pad)


def _view_config(view: dict[str, Any]) -> dict[str, Any]:
    cfg = view["config"]
    return {
        "num_players": _hot(N_PLAYER_COUNTS, cfg["num_players"] - MIN_PLAYERS),
        "pro": [float(cfg["variant"] == "pro")],
        "genie": [float("genie" in cfg["expansions"])],
        "gifts": [float("gifts" in cfg["expansions"])],
    }


def _view_flow(view: dict[str, Any]) -> dict[str, Any]:
    p = view["config"]["num_players"]
    return {
        "year": _hot(N_YEARS, view["year"] - 1),
        "phase": _hot(N_PHASES, Phase[view["phase"]].value),
        "seat_to_move": _hot(P4, _rel(view, view["seat_to_move"])),
        "caliph": _hot(P4, _rel(view, view["caliph"])),
        "present": _per_player(view, [1.0] * p),
    }


def _view_players(view: dict[str, Any]) -> dict[str, Any]:
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


def _tower_features(col: list[dict[str, Any]]) -> np.ndarray:
    out = np.zeros((MAX_TOWERS_PER_COLOUR, TOWER_FEATURES))
    for k, t in enumerate(col):
        out[k] = [*np.ravel(t["parts"]), t["lit_plain"], t["lit_gold"], 1]
    return out


def _space_features(view: dict[str, Any], b: dict[str, Any] | None) -> np.ndarray:
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


def _view_board(view: dict[str, Any]) -> dict[str, Any]:
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


def _view_pending(view: dict[str, Any]) -> dict[str, Any]:
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


def _view_gifts(view: dict[str, Any]) -> dict[str, Any]:
    laid = np.zeros((N_CHESTS, GIFT_SLOTS, N_GIFT_KINDS))
    for chest, kinds in enumerate(view["gifts"]):
        laid[chest] = [_hot(N_GIFT_KINDS, k) for k in kinds] + [np.zeros(N_GIFT_KINDS)] * (
            GIFT_SLOTS - len(kinds)
        )
    queue = [_hot(N_GIFT_KINDS, k) for k in view["gift_queue"]]
    return {
        "chest_gifts": laid,
        "gift_pile": view["gift_pile"],
        "gift_queue": queue + [np.zeros(N_GIFT_KINDS)] * (GIFT_SLOTS - len(queue)),
        "gift_chest": _hot(N_CHESTS, view["gift_chest"]),
        "pending_target": _hot(len(TARGETS), view["pending_target"]),
        "draw_pile_seen": view["draw_pile_seen"] or np.zeros(B),
        "lighted_stack_seen": view["lighted_stack_seen"] or np.zeros(C),
    }


def encode_view(view: dict[str, Any]) -> np.ndarray:
    """float32[OBS_DIM]: the observation of a reference `seat_view` dict."""
    pieces = {
        **_view_config(view),
        **_view_flow(view),
        **_view_players(view),
        **_view_board(view),
        **_view_pending(view),
        **_view_gifts(view),
    }
    return _assemble({k: np.asarray(v, float)[None] for k, v in pieces.items()}, 1)[0]
