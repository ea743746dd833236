"""How a search's leaves are valued: playouts with the playout policy (and a mixture of
opponents' policies), to the end or for `horizon` steps and the game's `leaf_scores`, or
the network's value (`leaf_rewards`); the seats' values read from a network's heads."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from asara_env.common.outcome import win_shares

from .context import SearchContext

COMPACT_BELOW = 0.6  # playouts drop finished worlds once fewer than this share are live
Who = NDArray[np.int64] | None  # `draw_seats`' answer


def draw_seats(ctx: SearchContext, observers: NDArray[np.int64], players: int) -> Who:
    """int[n, P]: who plays each seat of n new worlds: k for `mixture[k]` (drawn by the
    weights), -1 for the playout policy (the observer's seat); None without a mixture
    (every seat the playout policy)."""
    if not ctx.mixture:
        return None
    n = len(observers)
    seats = ctx.rng.choice(len(ctx.mixture), size=(n, players), p=ctx.weights)
    seats[np.arange(n), observers] = -1
    return seats.astype(np.int64)


def joint_actions(ctx: SearchContext, worlds: Any, who: Who) -> NDArray[np.int64]:
    """int[B, P]: every seat's playout action in each world, seat j of world i by the
    policy who[i, j] names (`draw_seats`)."""
    game = ctx.game
    if who is None:
        return game.native(worlds, ctx.policy(worlds, ctx.rng))
    joint = np.zeros(who.shape, np.int64)
    for k in np.unique(who):
        rows = np.flatnonzero((who == k).any(axis=1))
        full = len(rows) == len(who)
        part = worlds if full else game.take(worlds, rows)
        policy = ctx.policy if k < 0 else ctx.mixture[k]
        acts = game.native(part, policy(part, ctx.rng))
        mine = who[rows] == k
        block = joint[rows]
        block[mine] = acts[mine]
        joint[rows] = block
    return joint


def leaf_rewards(
    ctx: SearchContext, worlds: Any, observers: NDArray[np.int64], who: Who = None
) -> NDArray[np.float64]:
    """float[n, P]: every seat's reward in each world: the network's value (after
    `horizon` playout steps if > 0) with a value net, else a playout's; `who` as
    `draw_seats` gives (None: every seat the playout policy)."""
    if ctx.value_net:
        if ctx.settings.horizon:
            advance(ctx, worlds, ctx.settings.horizon, who)
        return net_rewards(ctx, worlds, observers)
    return playout(ctx, worlds, who)


def advance(ctx: SearchContext, worlds: Any, steps: int, who: Who) -> None:
    """Play every unfinished world on for `steps` steps with the playout policy."""
    for _ in range(steps):
        live = int((~ctx.game.is_terminal(worlds)).sum())
        if not live:
            return
        ctx.playout_steps += live
        ctx.game.step(worlds, joint_actions(ctx, worlds, who))


def net_rewards(
    ctx: SearchContext, worlds: Any, observers: NDArray[np.int64]
) -> NDArray[np.float64]:
    """float[n, P]: finished worlds' win shares, the others' the network's values."""
    game = ctx.game
    players = game.players(worlds)
    out = win_shares(np.asarray(game.core.scores(worlds))).astype(np.float64)
    live = np.flatnonzero(~game.is_terminal(worlds))
    if live.size:
        assert ctx.evaluate is not None
        view = game.take(worlds, live)
        obs = game.observe(view, observers[live])
        masks = np.ones((len(live), game.masks(view).shape[2]), bool)
        _, values = ctx.evaluate(obs, masks)
        out[live] = seat_values(values, observers[live], players)
    return out


def own_values(values: NDArray[np.floating]) -> NDArray[np.float64]:
    """float[n]: the observer's own win share from the network's values (`Evaluate`)."""
    v = np.asarray(values, np.float64)
    return np.clip(v if v.ndim == 1 else v[:, 0], 0, 1)


def seat_values(
    values: NDArray[np.floating], observers: NDArray[np.int64], players: int
) -> NDArray[np.float64]:
    """float[n, P] by seat from the network's values (see `Evaluate`)."""
    v = np.asarray(values, np.float64)
    if v.ndim == 1:
        mine = np.clip(v, 0, 1)
        out = np.repeat(((1 - mine) / max(players - 1, 1))[:, None], players, axis=1)
        out[np.arange(len(v)), observers] = mine
        return out
    seats = (observers[:, None] + np.arange(players)) % players
    out = np.zeros((len(v), players))
    np.put_along_axis(out, seats, v[:, :players], axis=1)
    return out


def playout(ctx: SearchContext, worlds: Any, who: Who) -> NDArray[np.float64]:
    """Every seat's reward after playing each world on with the playout policy (seat by
    seat as `who` says, `draw_seats`), to the end or for `horizon` steps (the worlds are
    advanced in place)."""
    game, s = ctx.game, ctx.settings
    players = game.players(worlds)
    out = np.zeros((len(game.is_terminal(worlds)), players))
    rows = np.arange(out.shape[0])
    current = worlds
    depth = 0
    while s.horizon is None or depth < s.horizon:
        done = game.is_terminal(current)
        finished = int(done.sum())
        if finished == len(done):
            break
        if finished and finished / len(done) > 1 - COMPACT_BELOW:
            out[rows[done]] = game.rewards(game.take(current, np.flatnonzero(done)), s.value)
            keep = np.flatnonzero(~done)
            rows, current = rows[keep], game.take(current, keep)
        ctx.playout_steps += len(done) - finished
        game.step(current, joint_actions(ctx, current, None if who is None else who[rows]))
        depth += 1
    out[rows] = game.rewards(current, s.value)
    return out
