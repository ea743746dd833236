"""The search's policies (mctx's `policies.py`), each a function of a `SearchContext`
and the decisions to take (game i of `state`, seat seats[i], its legal `masks[i]`, each
with more than one legal action) that composes the loop with a root rule:

- `ismcts`: the root a node like the others (PUCT/UCT); the most visited key;
- `gumbel`: Gumbel-top-k at the root, sequential halving, the completed-Q policy;
- `flatmc`: no tree; every legal action in the same determinised worlds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.base import pick_best

from .base import NO_FORCE, Decision
from .context import SearchContext
from .leaves import draw_seats, joint_actions, leaf_rewards, own_values
from .loop import run_forced
from .qtransforms import completed_sigma
from .selection import gumbel_draw, gumbel_scores
from .seq_halving import halve, halving_jobs
from .tree import Node

# (context, state, seats int64[n], masks bool[n, A]) -> the n decisions
Policy = Callable[[SearchContext, Any, NDArray[np.int64], NDArray[np.bool_]], Decision]


def ismcts(
    ctx: SearchContext, state: Any, seats: NDArray[np.int64], masks: NDArray[np.bool_]
) -> Decision:
    """The PUCT/UCT root: the observer's most visited key (ties: the best mean, then the
    generator); the policy the visit distribution."""
    players = ctx.game.players(state)
    roots = [Node(players) for _ in seats]
    jobs = np.arange(len(seats))
    for k in ctx.waves():
        every = np.repeat(jobs, k)
        run_forced(ctx, state, every, seats, roots, np.full(len(every), NO_FORCE))
    actions = np.zeros(len(seats), np.int64)
    policies = np.zeros(masks.shape)
    values = np.zeros(len(seats))
    q = np.full(masks.shape, np.nan)
    for i, (root, seat) in enumerate(zip(roots, seats.tolist())):
        edges = root.edges[seat]
        keys = np.array(sorted(edges), np.int64)
        visits = np.array([edges[int(k)].visits for k in keys], np.float64)
        means = np.array([edges[int(k)].mean(-np.inf) for k in keys])
        best = np.where(visits == visits.max(), means, -np.inf)
        actions[i] = keys[pick_best(best[None], ctx.rng.random(1))[0]]
        policies[i, keys] = visits / visits.sum()
        q[i, keys] = np.where(np.isfinite(means), means, np.nan)
        values[i] = root.mean(seat)
    return Decision(actions, policies.astype(np.float32), values, q)


def _root_network(
    ctx: SearchContext, state: Any, seats: NDArray[np.int64], masks: NDArray[np.bool_]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(logits float[n, A], the root's value float[n], NaN without a value net): the
    network's at the roots, zeros without a prior."""
    logits = np.zeros(masks.shape)
    root_value = np.full(len(seats), np.nan)
    if ctx.evaluate is not None and (ctx.prior or ctx.value_net):
        obs = ctx.game.observe(state, seats)
        raw_logits, raw_values = ctx.evaluate(obs, masks)
        if ctx.prior:
            logits = np.asarray(raw_logits, np.float64)
        if ctx.value_net:
            root_value = own_values(raw_values)
    return logits, root_value


def gumbel(
    ctx: SearchContext, state: Any, seats: NDArray[np.int64], masks: NDArray[np.bool_]
) -> Decision:
    """The Gumbel root (Danihelka et al. 2022): `considered` actions by Gumbel-top-k on
    the prior's logits, the budget spent by sequential halving among them, the survivor
    of most g + logits + sigma(q), the policy softmax(logits + sigma(completed q))."""
    s = ctx.settings
    n = len(seats)
    roots = [Node(ctx.game.players(state)) for _ in range(n)]
    raw_logits, root_value = _root_network(ctx, state, seats, masks)
    draw = gumbel_draw(ctx.rng, masks, raw_logits, s.considered)
    g, logits, survivors, phases = draw
    sims_left = [s.sims] * n
    start, rounds = ctx.clock(), max(phases)
    for phase in range(rounds):
        if s.seconds is None:
            _halving_round(ctx, state, seats, roots, draw, phase, sims_left)
        else:  # one decision: rounds of a wave spread over the survivors, until its time
            deadline = start + s.seconds * (phase + 1) / rounds
            per = [max(1, s.wave // len(survivors[0]))]
            _halving_round(ctx, state, seats, roots, draw, phase, per)
            while ctx.clock() < deadline:
                _halving_round(ctx, state, seats, roots, draw, phase, per)
        for i in range(n):
            if phase < phases[i] and len(survivors[i]) > 1:
                score = gumbel_scores(
                    roots[i], int(seats[i]), survivors[i], g[i], logits[i], s.c_scale
                )
                survivors[i] = halve(survivors[i], score)
    actions = np.zeros(n, np.int64)
    policies = np.zeros(masks.shape)
    values = np.zeros(n)
    q = np.full(masks.shape, np.nan)
    for i in range(n):
        seat = int(seats[i])
        for key, e in roots[i].edges[seat].items():
            if e.backed:
                q[i, key] = e.total / e.backed
        score = gumbel_scores(roots[i], seat, survivors[i], g[i], logits[i], s.c_scale)
        sigma = completed_sigma(roots[i], seat, masks[i], logits[i], root_value[i], s.c_scale)
        z = np.where(masks[i], logits[i] + sigma, -np.inf)
        p = np.exp(z - z.max())
        policies[i] = p / p.sum()
        pick = survivors[i][int(np.argmax(score))] if s.pick == "root" else np.argmax(z)
        actions[i] = pick
        values[i] = roots[i].mean(seat)
    return Decision(actions, policies.astype(np.float32), values, q)


def _halving_round(
    ctx: SearchContext,
    state: Any,
    seats: NDArray[np.int64],
    roots: list[Node],
    draw: Any,
    phase: int,
    budget: list[int],
) -> None:
    """One round of sequential halving's `phase` (`seq_halving.halving_jobs`), run."""
    timed = ctx.settings.seconds is not None
    jobs, forced = halving_jobs(draw.survivors, draw.phases, phase, budget, timed)
    if jobs:
        run_forced(ctx, state, np.array(jobs), seats, roots, np.array(forced))


def flatmc(
    ctx: SearchContext, state: Any, seats: NDArray[np.int64], masks: NDArray[np.bool_]
) -> Decision:
    """Flat Monte Carlo: every legal action in the same max(1, round(sims / A)) worlds
    (with `seconds`, rounds of max(1, batch // A) until the time is spent); the action of
    best mean reward, the playout policy's own choice where it is among the best."""
    s = ctx.settings
    n = len(seats)
    legal = [np.flatnonzero(m) for m in masks]
    totals = np.zeros(masks.shape)
    visits = np.zeros(masks.shape)
    if s.seconds is None:
        counts = [max(1, round(s.sims / len(a))) for a in legal]
        _flat_round(ctx, state, seats, legal, counts, totals, visits)
    else:
        start, counts = ctx.clock(), [max(1, s.batch // len(a)) for a in legal]
        _flat_round(ctx, state, seats, legal, counts, totals, visits)
        while ctx.clock() - start < s.seconds:
            _flat_round(ctx, state, seats, legal, counts, totals, visits)
    means = np.where(visits > 0, totals / np.maximum(visits, 1), -np.inf)
    actions = pick_best(means, ctx.rng.random(n))
    own = _own_choices(ctx, state, seats)
    tied = means[np.arange(n), own] == means.max(axis=1)
    actions[tied] = own[tied]
    policies = visits / visits.sum(axis=1, keepdims=True)
    values = np.array([means[i, actions[i]] for i in range(n)])
    q = np.where(visits > 0, totals / np.maximum(visits, 1), np.nan)
    return Decision(actions, policies.astype(np.float32), values, q)


def _own_choices(ctx: SearchContext, state: Any, seats: NDArray[np.int64]) -> NDArray[np.int64]:
    """int64[n]: the playout policy's action for seats[i] in game i of `state` (the
    observer's own; a model or a baseline reads only its observation)."""
    joint = ctx.game.native(state, ctx.policy(state, ctx.rng))
    return np.asarray(joint[np.arange(len(seats)), seats], np.int64)


def _flat_round(
    ctx: SearchContext,
    state: Any,
    seats: NDArray[np.int64],
    legal: list[NDArray[np.int64]],
    counts: list[int],
    totals: NDArray[np.float64],
    visits: NDArray[np.float64],
) -> None:
    """Every legal action of decision i played in the same counts[i] worlds (each world
    determinised once, its seats' policies drawn once, and copied for every action:
    the actions are compared on common chance), its seat's rewards added to `totals`
    and the playouts counted in `visits` ([decision, action])."""
    game = ctx.game
    bases = np.concatenate([np.full(k, i) for i, k in enumerate(counts)])
    widths = np.array([len(legal[i]) for i in bases.tolist()], np.int64)
    per_batch = max(1, ctx.settings.batch // int(widths.max()))
    for lo in range(0, len(bases), per_batch):
        base = bases[lo : lo + per_batch]
        drawn = game.determinise(state, base, seats[base], ctx.rng)
        drawn_who = draw_seats(ctx, seats[base], game.players(drawn))
        copies = np.repeat(np.arange(len(base)), widths[lo : lo + per_batch])
        j = base[copies]
        a = np.concatenate([legal[i] for i in base.tolist()])
        worlds = game.take(drawn, copies)
        who = None if drawn_who is None else drawn_who[copies]
        joint = joint_actions(ctx, worlds, who)
        joint[np.arange(len(j)), seats[j]] = a
        game.step(worlds, joint)
        rewards = leaf_rewards(ctx, worlds, seats[j], who)
        np.add.at(totals, (j, a), rewards[np.arange(len(j)), seats[j]])
        np.add.at(visits, (j, a), 1)
        ctx.iterations += len(j)
