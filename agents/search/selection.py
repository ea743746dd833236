"""How a seat chooses at a node (mctx's `action_selection.py`): the subset-armed UCT or
PUCT bandit with progressive widening and policy-first expansion (`select`), every
seat's key of one world at a node (`choose_keys`), and the Gumbel root's draw and
scores (`gumbel_draw`, `gumbel_scores`)."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .base import NO_FORCE
from .qtransforms import completed_sigma
from .tree import Edge, Node

NO_GUIDE = -1  # no playout move to expand first


class Rule(NamedTuple):
    """How the bandits of one search choose (`Settings` c, widen)."""

    c: float
    widen: float


def _may_grow(known: dict[int, Edge], widen: float) -> bool:
    """Progressive widening: whether a seat may take an untried key at a node where it
    has chosen sum(visits) times and tried the keys with visits."""
    tried = sum(1 for e in known.values() if e.visits)
    return tried < math.floor(math.pow(sum(e.visits for e in known.values()), widen))


def select(
    node: Node,
    seat: int,
    keys: list[int],
    rule: Rule,
    u: float,
    puct: bool,
    below_root: bool = False,
    guide: int = NO_GUIDE,
) -> int:
    """The key seat `seat` takes at `node` among the available `keys` (distinct): an
    untried key where the seat may take one (always at the root or with widen = 1, else
    by `_may_grow`): the playout's `guide` key if untried, else (without `puct`) the
    `u`-th untried one; otherwise with `puct` the most of mean + c * prior *
    sqrt(availability) / (1 + visits) (untried keys too where it may grow), else the most
    of mean + c * sqrt(log(availability) / visits) over the tried keys. A key not yet
    backed up counts the node's mean for the seat."""
    parent = node.mean(seat)
    known = node.edges[seat]
    widening = below_root and rule.widen < 1 and not _may_grow(known, rule.widen)
    edges = []
    for k in keys:
        e = known.get(k)
        if e is None:
            e = known[k] = Edge()
        e.avail += 1
        edges.append(e)
    untried = [i for i, e in enumerate(edges) if e.visits == 0]
    if widening and len(untried) < len(edges):
        keep = [i for i, e in enumerate(edges) if e.visits]
        keys, edges, untried = [keys[i] for i in keep], [edges[i] for i in keep], []
    if guide != NO_GUIDE and guide in keys and known[guide].visits == 0:
        return guide
    best, score = 0, -math.inf
    if puct:
        for i, e in enumerate(edges):
            mean = e.total / e.backed if e.backed else parent
            value = mean + rule.c * e.prior * math.sqrt(e.avail) / (1 + e.visits)
            if value > score:
                best, score = i, value
        return keys[best]
    if untried:
        return keys[untried[int(u * len(untried))]]
    for i, e in enumerate(edges):
        mean = e.total / e.backed if e.backed else parent
        value = mean + rule.c * math.sqrt(math.log(e.avail) / e.visits)
        if value > score:
            best, score = i, value
    return keys[best]


Lists = tuple[list[int], list[int], list[int], list[list[float]]]


def choose_keys(
    node: Node,
    observer: int,
    force: int,
    lists: Lists,
    joint: list[int],
    rule: Rule,
    depth: int,
    guides: list[int] | None = None,
) -> list[tuple[int, int]]:
    """Every seat's (seat, key) at `node` for one world (its action written into `joint`,
    the world's row): the observer's `force`d root action, a seat's only key, or its
    bandit's choice (another seat's action behind the key uniformly among those sharing
    it, or the playout's move where its key was taken as the guide). `lists`: the world's
    per-seat bounds into the legal `ids` and their `keys`, and its doubles; `guides`:
    every seat's playout move (expand=policy), or None."""
    bounds, ids, keys, u = lists
    taken: list[tuple[int, int]] = []
    for seat in range(len(bounds) - 1):
        lo, hi = bounds[seat], bounds[seat + 1]
        if lo == hi:
            continue
        mine = seat == observer
        if mine and force != NO_FORCE:
            key = action = force
        elif hi - lo == 1:  # one legal action: its key
            key, action = keys[lo], ids[lo]
        else:
            key, action = _bandit_key(node, seat, mine, lists, rule, depth, guides)
        edges = node.edges[seat]
        edge = edges.get(key)
        if edge is None:
            edge = edges[key] = Edge()
        edge.visits += 1
        taken.append((seat, key))
        joint[seat] = action
    return taken


def _bandit_key(
    node: Node,
    seat: int,
    mine: bool,
    lists: Lists,
    rule: Rule,
    depth: int,
    guides: list[int] | None,
) -> tuple[int, int]:
    """(key, action) of a seat with several legal keys: its bandit's (`select`)."""
    bounds, ids, keys, u = lists
    lo, hi = bounds[seat], bounds[seat + 1]
    seat_keys = keys[lo:hi]
    choices = seat_keys if mine else sorted(set(seat_keys))
    guide_action = NO_GUIDE if guides is None else guides[seat]
    guide = NO_GUIDE
    if guide_action != NO_GUIDE and guide_action in ids[lo:hi]:
        guide = seat_keys[ids[lo:hi].index(guide_action)]
    key = choices[0]
    if len(choices) > 1:
        puct = node.has_prior[seat]
        key = select(node, seat, choices, rule, u[seat][0], puct, depth > 0, guide)
    if mine:
        return key, key
    if guide != NO_GUIDE and key == guide:
        return key, guide_action
    behind = [a for a, k in zip(ids[lo:hi], seat_keys) if k == key]
    return key, behind[int(u[seat][1] * len(behind))]


class GumbelDraw(NamedTuple):
    """The Gumbel root's draw for n decisions."""

    g: NDArray[np.float64]  # float[n, A]: the Gumbel noise
    logits: NDArray[np.float64]  # float[n, A]: the prior's logits, max 0, -inf illegal
    survivors: list[list[int]]  # per decision the actions considered, best first
    phases: list[int]  # per decision the halving rounds, ceil(log2(considered))


def gumbel_draw(
    rng: np.random.Generator,
    masks: NDArray[np.bool_],
    logits: NDArray[np.float64],
    considered: int,
) -> GumbelDraw:
    """Gumbel-top-k: `considered` actions of each row drawn without replacement by g +
    logits (uniform logits without a network)."""
    logits = np.where(
        masks, logits - np.where(masks, logits, -np.inf).max(axis=1, keepdims=True), -np.inf
    )
    g = rng.gumbel(size=masks.shape)
    m = np.minimum(considered, masks.sum(axis=1))
    order = np.argsort(-(np.where(masks, g + logits, -np.inf)), axis=1, kind="stable")
    survivors = [order[i, : m[i]].tolist() for i in range(len(masks))]
    phases = [max(1, math.ceil(math.log2(mi))) if mi > 1 else 1 for mi in m.tolist()]
    return GumbelDraw(g, logits, survivors, phases)


def gumbel_scores(
    root: Node,
    seat: int,
    candidates: list[int],
    g: NDArray[np.float64],
    logits: NDArray[np.float64],
    c_scale: float,
) -> NDArray[np.float64]:
    """g + logits + sigma(q) of each candidate action."""
    mask = np.zeros(len(logits), bool)
    mask[candidates] = True
    sigma = completed_sigma(root, seat, mask, logits, np.nan, c_scale)
    idx = np.array(candidates)
    return np.asarray(g[idx] + logits[idx] + sigma[idx], np.float64)
