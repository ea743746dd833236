"""DICE AUCTION's vectorised core: B games at once with numpy, the verb set of every game
(`init`, `step`, `legal_action_mask`, `observe`, `is_terminal`, `scores`) and `autoreset`.
Simultaneous: masks, observations and actions are every seat's ([B, P, ...])."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from asara_env.common import batch, outcome
from asara_env.common.batch import FieldSpec
from asara_env.common.errors import IllegalActionError
from asara_env.common.seeding import derived_seeds

from .rules import INCOME, MAX_BID, MAX_PLAYERS, N_ACTIONS, ROUNDS, START_COINS, TIE_BASE, ToyConfig

FIELD_SPECS: dict[str, FieldSpec] = {
    "seed": FieldSpec(np.uint64, (), 0, "the game seed"),
    "round": FieldSpec(np.int8, (), 0, "0..ROUNDS; ROUNDS = over"),
    "prizes": FieldSpec(np.int8, ("R",), 0, "the prize die of every round"),
    "coins": FieldSpec(np.int8, ("P",), START_COINS, "coins held"),
    "points": FieldSpec(np.int16, ("P",), 0, "points won"),
    "last_bids": FieldSpec(np.int8, ("P",), -1, "last round's bids; -1 before the first"),
}
OBS_SIZE = 2 + 3 * MAX_PLAYERS
REWARD_SCHEMES: outcome.RewardSchemes = {
    "win": outcome.zero_sum_win_rewards,
    "rank": outcome.rank_rewards,
    "share": outcome.win_share_rewards,
}


@dataclass
class ToyState:
    config: ToyConfig
    seed: np.ndarray
    round: np.ndarray
    prizes: np.ndarray
    coins: np.ndarray
    points: np.ndarray
    last_bids: np.ndarray


batch.check_specs(ToyState, FIELD_SPECS)


def _deal(state: ToyState, rows: np.ndarray, seeds: np.ndarray) -> None:
    fresh = batch.blank_arrays(FIELD_SPECS, len(rows), {"P": state.config.num_players, "R": ROUNDS})
    fresh["seed"][:] = seeds
    fresh["prizes"][:] = [np.random.default_rng(int(s)).integers(1, 7, ROUNDS) for s in seeds]
    for name, values in fresh.items():
        getattr(state, name)[rows] = values


def init(config: ToyConfig, batch_size: int, seeds: object = 0) -> ToyState:
    """`batch_size` new games: game i seeded derived_seed(seeds, i), or seeds[i]."""
    if not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch must be an int >= 1, got {batch_size!r}")
    if np.asarray(seeds).ndim == 0:
        per_game = derived_seeds(int(seeds), np.arange(batch_size, dtype=np.uint64))  # type: ignore[call-overload]
    else:
        per_game = np.asarray(seeds, np.uint64)
        if per_game.shape != (batch_size,):
            raise ValueError(f"seeds must be one per game ({batch_size}), got {per_game.shape}")
    arrays = batch.blank_arrays(FIELD_SPECS, batch_size, {"P": config.num_players, "R": ROUNDS})
    state = ToyState(config=config, **arrays)
    _deal(state, np.arange(batch_size), per_game)
    return state


def is_terminal(state: ToyState) -> np.ndarray:
    return state.round == ROUNDS


def legal_action_mask(state: ToyState) -> np.ndarray:
    """bool[B, P, A]: bids up to the coins held, in live games; nothing in finished ones."""
    bids = np.arange(N_ACTIONS)
    allowed = bids <= np.minimum(state.coins, MAX_BID)[..., None]
    return allowed & ~is_terminal(state)[:, None, None]


def _check(state: ToyState, actions: object) -> np.ndarray:
    bids = np.asarray(actions)
    shape = (len(state.round), state.config.num_players)
    if bids.shape != shape or not np.issubdtype(bids.dtype, np.integer):
        raise IllegalActionError(
            -1, actions, "?", "AUCTION", f"need int[{shape}], got {bids.dtype}{bids.shape}"
        )
    mask = legal_action_mask(state)
    live = ~is_terminal(state)
    inside = (bids >= 0) & (bids < N_ACTIONS)
    legal = inside & np.take_along_axis(mask, bids.clip(0, N_ACTIONS - 1)[..., None], 2)[..., 0]
    bad = np.argwhere(~legal & live[:, None])
    if len(bad):
        g, seat = (int(i) for i in bad[0])
        raise IllegalActionError(
            seat,
            int(bids[g, seat]),
            f"bid {bids[g, seat]}",
            "AUCTION",
            f"not legal in game {g} of the batch",
        )
    return bids


def step(state: ToyState, actions: object) -> None:
    """Play one round of every live game (finished games ignore their actions)."""
    bids = _check(state, actions)
    live = np.flatnonzero(~is_terminal(state))
    b = bids[live]
    top = b.max(axis=1, keepdims=True)
    sole = (b == top) & ((b == top).sum(axis=1, keepdims=True) == 1)
    prize = state.prizes[live, state.round[live]][:, None]
    state.points[live] += (sole * prize).astype(np.int16)
    state.coins[live] += (INCOME - b).astype(np.int8)
    state.last_bids[live] = b
    state.round[live] += 1


def observe(state: ToyState) -> np.ndarray:
    """float32[B, P, OBS_SIZE]: round, this round's prize, then every seat from the viewer
    clockwise: coins / 16, points / 64, last bid + 1 / 5 (all public)."""
    n, p = state.coins.shape
    obs = np.zeros((n, p, OBS_SIZE), np.float32)
    obs[:, :, 0] = (state.round / ROUNDS)[:, None]
    prize = np.where(
        is_terminal(state), 0, state.prizes[np.arange(n), np.minimum(state.round, ROUNDS - 1)]
    )
    obs[:, :, 1] = (prize / 6)[:, None]
    for viewer in range(p):
        order = (viewer + np.arange(p)) % p
        obs[:, viewer, 2 : 2 + p] = state.coins[:, order] / 16
        obs[:, viewer, 6 : 6 + p] = state.points[:, order] / 64
        obs[:, viewer, 10 : 10 + p] = (state.last_bids[:, order] + 1) / 5
    return obs


def scores(state: ToyState) -> np.ndarray:
    """int64[B, P]: points, coins as the tie-break."""
    return state.points.astype(np.int64) * TIE_BASE + state.coins


def autoreset(state: ToyState) -> np.ndarray:
    """Restart finished games as the game seeded derived_seed(seed, 1); bool[B]."""
    done = is_terminal(state)
    rows = np.flatnonzero(done)
    if len(rows):
        _deal(state, rows, derived_seeds(state.seed[rows], 1))
    return done
