"""What the kernels take: the state's arrays (`Arrays`, the fields of
`asara_env.basari.core.state.FIELD_SPECS` in order) and a configuration's tables
(`Rules`). They cross from Python as plain tuples and are named again inside the kernels
(`Arrays(*state)`); `asara_env.common.kernels` says why, and how each kind of kernel is
compiled."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np

from asara_env.basari.constants import MAJORITY_BONUS
from asara_env.basari.core.state import ARRAY_FIELDS, BasariState
from asara_env.basari.core.tables import KEY_WEIGHTS, Tables


class Arrays(NamedTuple):
    """The arrays of a `BasariState` (the same objects: kernels write them in place)."""

    seed: np.ndarray  # uint64[B]
    phase: np.ndarray  # int8[B]
    round: np.ndarray  # int8[B]
    turn: np.ndarray  # int16[B]
    score: np.ndarray  # int32[B, P]
    gems: np.ndarray  # int8[B, P, 4]
    carpet: np.ndarray  # int8[B, 4]
    position: np.ndarray  # int16[B, P]
    start: np.ndarray  # int16[B, P]
    progress: np.ndarray  # int16[B, P]
    move_roll: np.ndarray  # int8[B, P]
    action_roll: np.ndarray  # int8[B, P]
    revealed: np.ndarray  # int8[B, P]
    barter_card: np.ndarray  # int8[B]
    queued_card: np.ndarray  # int8[B]
    opener: np.ndarray  # int8[B]
    responder: np.ndarray  # int8[B]
    to_act: np.ndarray  # int8[B]
    offer: np.ndarray  # int8[B, 4]
    offer_by: np.ndarray  # int8[B]
    offers: np.ndarray  # int32[B]
    pending: np.ndarray  # int8[B, 4]
    legal: np.ndarray  # bool[B, P, A]


assert Arrays._fields == tuple(ARRAY_FIELDS), "Arrays must list FIELD_SPECS in order"


_GET_ARRAYS = attrgetter(*ARRAY_FIELDS)


def arrays(state: BasariState) -> tuple[np.ndarray, ...]:
    """The state's arrays in `Arrays` order (the same objects: kernels write them in
    place)."""
    arrays: tuple[np.ndarray, ...] = _GET_ARRAYS(state)
    return arrays


class Rules(NamedTuple):
    """One configuration's tables (`asara_env.basari.core.tables.Tables`) for the kernels."""

    n_archways: int
    points: np.ndarray  # int32[N] archway points
    board_gems: np.ndarray  # int8[N, 4] archway gems per colour
    templates: np.ndarray  # bool[Phase, A] every seat's mask in SETUP / SELECT; NOOP else
    majority_bonus: np.ndarray  # int64[ROUNDS, 4]
    key_weights: np.ndarray  # int32[4] the B8 bundle key's weights
    start_offset: int  # id of START(0)
    card_offset: int  # id of CARD(0)
    accept: int  # id of ACCEPT; FORFEIT, ADD(0..3), SUBMIT follow it


_RULES: dict[int, tuple[Tables, tuple[Any, ...]]] = {}
MAX_CACHED = 64


def rules_of(t: Tables) -> tuple[Any, ...]:
    """The kernels' view of `t`, a `Rules` as a plain tuple (cached per tables object)."""
    hit = _RULES.get(id(t))
    if hit is None or hit[0] is not t:
        kernel_rules = Rules(
            t.n_archways,
            t.points,
            t.board_gems,
            t.templates,
            np.ascontiguousarray(MAJORITY_BONUS),
            KEY_WEIGHTS,
            t.start_offset,
            t.card_offset,
            t.accept,
        )
        if len(_RULES) > MAX_CACHED:
            _RULES.clear()
        hit = _RULES[id(t)] = (t, tuple(kernel_rules))
    return hit[1]
