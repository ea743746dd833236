"""BASARI's decision phases (E1)."""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    SETUP = 0  # every seat picks a start archway at once (B3.4); skipped with random starts
    SELECT = 1  # every seat picks a card at once (B5.1), after the automatic movement
    BARTER = 2  # exactly one seat decides: the party to act in the running barter (B7)
    OVER = 3  # the game has ended (B10)


N_PHASES = len(Phase)
