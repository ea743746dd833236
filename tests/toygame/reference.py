"""DICE AUCTION's reference engine: one game, plain Python, the rules as written."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from asara_env.common.errors import IllegalActionError

from .rules import INCOME, MAX_BID, N_ACTIONS, ROUNDS, START_COINS, ToyConfig


@dataclass
class Game:
    config: ToyConfig
    seed: int
    round: int = 0
    prizes: list[int] = field(default_factory=list)
    coins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    last_bids: list[int] = field(default_factory=list)

    @property
    def is_over(self) -> bool:
        return self.round == ROUNDS


def new_game(config: ToyConfig, seed: int) -> Game:
    p = config.num_players
    prizes = np.random.default_rng(seed).integers(1, 7, ROUNDS).tolist()
    return Game(config, seed, 0, prizes, [START_COINS] * p, [0] * p, [-1] * p)


def legal_actions(game: Game, seat: int) -> list[int]:
    return [] if game.is_over else list(range(min(MAX_BID, game.coins[seat]) + 1))


def step(game: Game, bids: list[int]) -> None:
    for seat, bid in enumerate(bids):
        if bid not in legal_actions(game, seat):
            reason = "the game is over" if game.is_over else f"holds {game.coins[seat]} coins"
            raise IllegalActionError(seat, bid, f"bid {bid}", "AUCTION", reason)
    top = max(bids)
    if bids.count(top) == 1:
        game.points[bids.index(top)] += game.prizes[game.round]
    game.coins = [c - b + INCOME for c, b in zip(game.coins, bids)]
    game.last_bids, game.round = list(bids), game.round + 1


assert N_ACTIONS == MAX_BID + 1
