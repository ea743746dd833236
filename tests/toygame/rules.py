"""DICE AUCTION, the test game (definition): 2-4 players, ROUNDS rounds. Each round a prize
die (1-6, known from the start) is up for auction; every seat bids 0..MAX_BID coins at
once (never more than it holds) and pays its bid; the single highest bid wins the die's
points (a tied highest bid wins nothing); then every seat earns INCOME coin. Most points
wins, ties broken by coins. Action id = the bid."""

from __future__ import annotations

from dataclasses import dataclass

ROUNDS, START_COINS, MAX_BID, INCOME = 8, 4, 4, 1
N_ACTIONS = MAX_BID + 1
MAX_PLAYERS = 4
TIE_BASE = 100  # scores = points * TIE_BASE + coins (coins stay below 100)


@dataclass(frozen=True)
class ToyConfig:
    num_players: int = 2

    def __post_init__(self) -> None:
        if self.num_players not in (2, 3, 4):
            raise ValueError(f"num_players must be 2, 3 or 4, got {self.num_players!r}")
