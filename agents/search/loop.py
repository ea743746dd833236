"""The search loop (mctx's `search.py`): iterations in batched worlds, each a
determinisation, a descent that adds one node, a leaf value and a backup; it never
names a policy (the root's rule comes as forced actions)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .base import NO_FORCE
from .context import SearchContext
from .leaves import joint_actions, leaf_rewards
from .selection import Rule, choose_keys
from .tree import Node, backup

Path = list[tuple[Node, list[tuple[int, int]]]]


def run_forced(
    ctx: SearchContext,
    state: Any,
    jobs: NDArray[np.int64],
    seats: NDArray[np.int64],
    roots: list[Node],
    forced: NDArray[np.int64],
) -> None:
    """One iteration per entry of `jobs` (job j: game j of `state`, seat seats[j], tree
    roots[j]), the observer's root action forced[i] where not NO_FORCE; `batch` worlds at
    most per core batch."""
    for part in ctx.batches(len(jobs)):
        iterate(ctx, state, jobs[part], seats, roots, forced[part])


def iterate(
    ctx: SearchContext,
    state: Any,
    jobs: NDArray[np.int64],
    seats: NDArray[np.int64],
    roots: list[Node],
    forced: NDArray[np.int64],
) -> None:
    """One iteration per entry of `jobs`, as one core batch stepped depth by depth."""
    game = ctx.game
    observers = seats[jobs]
    worlds = game.determinise(state, jobs, observers, ctx.rng)
    nodes = [roots[j] for j in jobs.tolist()]
    paths: list[Path] = [[] for _ in nodes]
    active = np.arange(len(nodes))
    depth = 0
    while active.size:
        whole = active.size == len(nodes)
        sub = worlds if whole else game.take(worlds, active)
        live = ~game.is_terminal(sub)
        if not live.all():
            active, whole = active[live], False
            if not active.size:
                break
            sub = game.take(worlds, active)
        stop = _descend_one(ctx, sub, active, nodes, paths, observers, forced, depth)
        ctx.tree_steps += len(active)
        if not whole:
            game.put(worlds, active, sub)
        active = active[~stop]
        depth += 1
    rewards = leaf_rewards(ctx, worlds, observers)
    for path, reward in zip(paths, rewards):
        backup(path, reward)
    ctx.iterations += len(nodes)


def _descend_one(
    ctx: SearchContext,
    sub: Any,
    active: NDArray[np.int64],
    nodes: list[Node],
    paths: list[Path],
    observers: NDArray[np.int64],
    forced: NDArray[np.int64],
    depth: int,
) -> NDArray[np.bool_]:
    """One depth of the descent of the `active` worlds `sub` (stepped in place): every
    seat's choice at each world's node, in batch order; bool[len(active)]: the worlds
    whose choice added a node (their descent stops)."""
    game, settings = ctx.game, ctx.settings
    players = game.players(sub)
    masks = game.masks(sub)
    if ctx.prior:
        fill_priors(ctx, sub, active, masks, nodes, observers.tolist())
    guides = None
    if settings.expand == "policy" and not ctx.prior:
        guides = joint_actions(ctx, sub, None).tolist()  # every seat's playout move
    joint = np.argmax(masks, axis=2).tolist()  # every seat's action (its only one)
    g_idx, s_idx, a_idx = np.nonzero(masks)
    own = s_idx == observers[active][g_idx]
    keys = np.where(own, a_idx, game.public_key(sub, a_idx))
    bounds = np.searchsorted(g_idx * players + s_idx, np.arange(len(active) * players + 1))
    bound_list, ids, key_list = bounds.tolist(), a_idx.tolist(), keys.tolist()
    u = ctx.rng.random((len(active), players, 2)).tolist()
    rule = Rule(settings.c, settings.widen)
    obs_list, forced_list = observers.tolist(), forced.tolist()
    stop = np.zeros(len(active), bool)
    for j, w in enumerate(active.tolist()):
        node = nodes[w]
        lists = (bound_list[j * players : (j + 1) * players + 1], ids, key_list, u[j])
        force = forced_list[w] if depth == 0 else NO_FORCE
        guide = None if guides is None else guides[j]
        taken = choose_keys(node, obs_list[w], force, lists, joint[j], rule, depth, guide)
        paths[w].append((node, taken))
        joint_key = tuple([k for _, k in taken])
        child = node.children.get(joint_key)
        if child is None:
            child = node.children[joint_key] = Node(players)
            stop[j] = True
        nodes[w] = child
    game.step(sub, np.array(joint, np.int64))
    return stop


def fill_priors(
    ctx: SearchContext,
    sub: Any,
    active: NDArray[np.int64],
    masks: NDArray[np.bool_],
    nodes: list[Node],
    observers: list[int],
) -> None:
    """The network's priors for every seat with a choice at a node that has none yet
    (one batched call: each seat's observation of its world)."""
    need_g, need_s = [], []
    choice = masks.sum(axis=2) > 1
    for j, w in enumerate(active.tolist()):
        node = nodes[w]
        for seat in np.flatnonzero(choice[j]).tolist():
            if not node.has_prior[seat]:
                need_g.append(j)
                need_s.append(seat)
    if not need_g:
        return
    assert ctx.evaluate is not None
    g, seats = np.array(need_g), np.array(need_s)
    obs = ctx.game.observe(ctx.game.take(sub, g), seats)
    logits, _ = ctx.evaluate(obs, masks[g, seats])
    z = np.where(masks[g, seats], np.asarray(logits, np.float64), -np.inf)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    for row, (j, seat) in enumerate(zip(need_g, need_s)):
        w = int(active[j])
        node = nodes[w]
        if node.has_prior[seat]:  # set by an earlier world of this depth
            continue
        legal = np.flatnonzero(masks[j, seat])  # the observer's keys are its actions
        keys = legal if seat == observers[w] else ctx.game.public_key(sub, legal)
        node.set_priors(seat, keys.tolist(), p[row, legal].tolist())
