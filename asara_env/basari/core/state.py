"""The vectorised core's state: B BASARI games of one configuration as numpy arrays, batch
axis first. Every field, its dtype, shape and sentinel are declared once, in
`FIELD_SPECS`; the fields are those of the reference `State` (DESIGN.md) plus the batch
axis and the cached legal-action mask.

P = players of the configuration, seats 0..P-1 clockwise; N = archways of its board.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import N_COLOURS
from asara_env.common import batch
from asara_env.common.batch import FieldSpec, copy_state, states_equal, take

_F = FieldSpec
FIELD_SPECS: dict[str, FieldSpec] = {
    "seed": _F(np.uint64, (), 0, "the game seed (E4): every chance value is drawn from it"),
    "phase": _F(np.int8, (), 0, "Phase of the pending decision (SETUP/SELECT/BARTER/OVER)"),
    "round": _F(np.int8, (), 0, "0..ROUNDS-1; stays ROUNDS-1 when OVER"),
    "turn": _F(np.int16, (), 0, "0-based turn within the round (the current turn)"),
    "score": _F(np.int32, ("P",), 0, "points (unbounded, B1)"),
    "gems": _F(np.int8, ("P", N_COLOURS), 0, "holdings per colour R, Y, G, B"),
    "carpet": _F(np.int8, (N_COLOURS,), 0, "the supply per colour"),
    "position": _F(np.int16, ("P",), -1, "merchant's archway; -1 during SETUP"),
    "start": _F(np.int16, ("P",), -1, "start disk's archway; -1 during SETUP"),
    "progress": _F(np.int16, ("P",), 0, "archways moved this round; lap iff >= N (B4.3)"),
    "move_roll": _F(np.int8, ("P",), 0, "this turn's movement die; 0 before the first"),
    "action_roll": _F(np.int8, ("P",), 0, "this turn's Die-action roll; 0 = none"),
    "revealed": _F(np.int8, ("P",), -1, "card revealed this turn; -1 = none"),
    "barter_card": _F(np.int8, (), -1, "card of the running barter; -1 = none"),
    "queued_card": _F(np.int8, (), -1, "card of the barter still to come; -1 = none"),
    "opener": _F(np.int8, (), -1, "seat A of the running barter (B7.1); -1 = none"),
    "responder": _F(np.int8, (), -1, "seat B of the running barter; -1 = none"),
    "to_act": _F(np.int8, (), -1, "the seat to act in the barter; -1 = none"),
    "offer": _F(np.int8, (N_COLOURS,), 0, "the standing offer per colour; zeros if none"),
    "offer_by": _F(np.int8, (), -1, "seat that made the standing offer; -1 = none"),
    "offers": _F(np.int32, (), 0, "offers submitted in the running barter"),
    "pending": _F(np.int8, (N_COLOURS,), 0, "bundle the acting seat is building (E2)"),
    "legal": _F(bool, ("P", "A"), False, "cached legal-action mask of every seat"),
}


@dataclass
class BasariState:
    """B games of one configuration; every field but `config` is an array whose first
    axis is the game (see FIELD_SPECS for dtypes, shapes and meanings)."""

    config: BasariConfig
    seed: np.ndarray
    phase: np.ndarray
    round: np.ndarray
    turn: np.ndarray
    score: np.ndarray
    gems: np.ndarray
    carpet: np.ndarray
    position: np.ndarray
    start: np.ndarray
    progress: np.ndarray
    move_roll: np.ndarray
    action_roll: np.ndarray
    revealed: np.ndarray
    barter_card: np.ndarray
    queued_card: np.ndarray
    opener: np.ndarray
    responder: np.ndarray
    to_act: np.ndarray
    offer: np.ndarray
    offer_by: np.ndarray
    offers: np.ndarray
    pending: np.ndarray
    legal: np.ndarray

    @property
    def batch(self) -> int:
        return int(self.phase.shape[0])


ARRAY_FIELDS = batch.array_fields(BasariState)
batch.check_specs(BasariState, FIELD_SPECS)
__all__ = [
    "ARRAY_FIELDS",
    "FIELD_SPECS",
    "BasariState",
    "FieldSpec",
    "blank",
    "copy_state",
    "dims",
    "field_shape",
    "states_equal",
    "take",
]


def dims(config: BasariConfig) -> dict[str, int]:
    """The sizes of the shapes' letters: "P" players, "A" action ids."""
    return {"P": config.num_players, "A": config.n_actions}


def field_shape(config: BasariConfig, name: str) -> tuple[int, ...]:
    """The shape of field `name` after the batch axis, for `config`."""
    return batch.field_shape(FIELD_SPECS[name], dims(config))


def blank(config: BasariConfig, n: int) -> BasariState:
    """`n` games with every field at its blank value."""
    return BasariState(config=config, **batch.blank_arrays(FIELD_SPECS, n, dims(config)))
