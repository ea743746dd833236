"""The information-set tree of `agents.asara.ismcts` in arrays, and its kernels (numba).

A `Tree` holds the nodes of one decision call's trees (one root per game searched) in
arrays indexed by node, grown by doubling before each wave (a wave adds at most one node
per iteration): the mover of the edge into each node (-1: a root), its edge key, its
parent, its children as a list (first child, next sibling, in the order they were
expanded: node ids grow), its count of children, visits, backed-up visits, availability
and summed rewards per seat. The kernels called from Python take it as the plain tuple
`Tree.arrays()` (`TREE_FIELDS` order) and name it inside (`t = TreeArrays(*tree)`), as
the core's kernels do its state (`asara_env.common.kernels`).

- `select_worlds`: one depth of a wave's descent, every active world in batch order (one
  tree update at a time, as `ISMCTSAgent._select` did in Python): the subset-armed UCB or
  PUCT over the edges legal in the world, progressive widening, the policy's move
  expanded first, the action behind an edge another seat's move drawn from the agent's
  generator; the guided search and the playouts that are not compiled call it per depth.
- `run_wave`: a whole wave's descent and horizon playouts in one call where the playout
  policy is a heuristic whose choice is compiled (`agents.asara.heuristic_compiled`):
  per depth the policy's move in every active world (its generator's uniforms drawn in
  batch order, as `FlatMCAgent._policy_actions` draws them), the selection, the core's
  step (`apply_one`); then every world played out with the policy, depth by depth, to the
  end or the horizon.
- `back_up`: each world's reward vector into every node from its leaf to its root.

The random numbers are drawn from the numpy generators themselves (numba's
`np.random.Generator` support calls the same bit generator, with numpy's algorithms), in
the order the Python search drew them, so the decisions are bit-identical (tested against
a plain-Python reference tree in tests/asara/test_ismcts_compiled.py).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numba
import numpy as np
from numba.np.random.random_methods import buffered_bounded_lemire_uint32
from numpy.typing import NDArray

from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.core.kernels.arrays import Arrays, Rules
from asara_env.asara.core.kernels.mask import N_SCRATCH
from asara_env.asara.core.kernels.step import PH_GAME_OVER, apply_one
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import ENTRY, INLINED

from .edges import PUBLIC_KEY
from .heuristic_compiled import ROW_SIZE, choose_state_row

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

NO_NODE = -1  # no node (a root's parent, the end of a list of children)
ROOT_MOVER = -1  # a root's mover: no edge leads to it
NO_HORIZON = -1  # `run_wave`'s horizon for playouts to the end of the game
TREE_FIELDS = (
    "mover", "key", "parent", "first", "next", "kids", "visits", "backed", "avail", "total",
    "size",
)  # fmt: skip


class TreeArrays(NamedTuple):
    """A `Tree`'s arrays inside the kernels (the same objects: kernels write them in
    place); N: the capacity, P: the players."""

    mover: np.ndarray  # int64[N] the seat whose move leads here, ROOT_MOVER for a root
    key: np.ndarray  # int64[N] the edge key from the parent, NO_NODE for a root
    parent: np.ndarray  # int64[N] NO_NODE for a root
    first: np.ndarray  # int64[N] the last child expanded, NO_NODE none
    next: np.ndarray  # int64[N] the sibling expanded before, NO_NODE none
    kids: np.ndarray  # int64[N] children
    visits: np.ndarray  # int64[N] iterations through it (when chosen)
    backed: np.ndarray  # int64[N] of them, the ones backed up
    avail: np.ndarray  # int64[N] iterations with its edge legal
    total: np.ndarray  # float64[N, P] summed backed-up rewards per seat
    size: np.ndarray  # int64[1] nodes in use (the kernels add to it)


assert TreeArrays._fields == TREE_FIELDS, "TreeArrays must list TREE_FIELDS in order"


class Tree:
    """The nodes of one call's trees, as arrays (see the module docstring)."""

    def __init__(self, players: int, capacity: int = 64):
        self.players = players
        self.size = np.zeros(1, np.int64)  # nodes in use (the kernels add to it)
        capacity = max(1, capacity)
        self.mover = np.zeros(capacity, np.int64)  # the seat whose move leads here, -1 root
        self.key = np.zeros(capacity, np.int64)  # the edge key from the parent, -1 root
        self.parent = np.zeros(capacity, np.int64)  # NO_NODE for a root
        self.first = np.zeros(capacity, np.int64)  # the last child expanded, NO_NODE none
        self.next = np.zeros(capacity, np.int64)  # the sibling expanded before, NO_NODE none
        self.kids = np.zeros(capacity, np.int64)  # children
        self.visits = np.zeros(capacity, np.int64)  # iterations through it (when chosen)
        self.backed = np.zeros(capacity, np.int64)  # of them, the ones backed up
        self.avail = np.zeros(capacity, np.int64)  # iterations with its edge legal
        self.total = np.zeros((capacity, players))  # summed backed-up rewards per seat

    def _allocate(self, capacity: int) -> None:
        """Every array `capacity` nodes long, the nodes in use kept."""
        used = int(self.size[0])
        for f in TREE_FIELDS[:-1]:
            old = getattr(self, f)
            grown = np.zeros((capacity, *old.shape[1:]), old.dtype)
            grown[:used] = old[:used]
            setattr(self, f, grown)

    @property
    def capacity(self) -> int:
        return len(self.visits)

    def reserve(self, extra: int) -> None:
        """Room for `extra` more nodes (the capacity doubles as often as needed)."""
        need = int(self.size[0]) + extra
        if need > self.capacity:
            capacity = self.capacity
            while capacity < need:
                capacity *= 2
            self._allocate(capacity)

    def add_root(self) -> int:
        """A new root (no parent, no children yet); its node id."""
        self.reserve(1)
        i = int(self.size[0])
        self.mover[i], self.key[i], self.parent[i] = ROOT_MOVER, NO_NODE, NO_NODE
        self.first[i], self.next[i] = NO_NODE, NO_NODE
        self.size[0] = i + 1
        return i

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays in `TREE_FIELDS` order, for the kernels (the same objects)."""
        return tuple(getattr(self, f) for f in TREE_FIELDS)

    def children(self, node: int) -> list[int]:
        """The children of `node`, in the order they were expanded."""
        kids, child = [], int(self.first[node])
        while child != NO_NODE:
            kids.append(child)
            child = int(self.next[child])
        return kids[::-1]


# ------------------------------------------------------------------------------ selection
@numba.njit(**INLINED)
def draw_below(rng: Any, n: int) -> int:
    """`rng.integers(n)` for 1 <= n < 2**32 - 1: the same number, drawn the same way
    (numpy's buffered Lemire rejection over the bit generator's 32-bit draws; nothing for
    n = 1), without the array numba's `integers` allocates."""
    if n == 1:
        return 0
    return np.int64(buffered_bounded_lemire_uint32(rng.bit_generator, np.uint32(n - 1)))


@numba.njit(**ENTRY)
def candidates(ids: np.ndarray, n: int, own: bool, out: np.ndarray) -> int:
    """out[:m]: the edge keys of legal actions ids[:n] (ascending), in the order the
    search considers them: the actions themselves for the observer's own move, else their
    public keys, once each, ascending. Returns m."""
    if own:
        for i in range(n):
            out[i] = ids[i]
        return n
    m = 0
    for i in range(n):
        k = PUBLIC_KEY[ids[i]]
        at = m
        while at > 0 and out[at - 1] > k:
            at -= 1
        if at > 0 and out[at - 1] == k:
            continue
        for j in range(m, at, -1):
            out[j] = out[j - 1]
        out[at] = k
        m += 1
    return m


@numba.njit(**INLINED)
def may_grow(t: TreeArrays, node: int, widen: float) -> bool:
    """Progressive widening: the root always, any node with `widen` >= 1, else while it
    has fewer than floor((visits - 1) ** widen) children."""
    if t.mover[node] < 0 or widen >= 1:
        return True
    return t.kids[node] < math.floor(float(t.visits[node] - 1) ** widen)


@numba.njit(**INLINED)
def mean_of(t: TreeArrays, node: int, seat: int, default: float) -> float:
    """The node's mean backed-up reward of `seat`, or `default` before any."""
    if t.backed[node]:
        return t.total[node, seat] / t.backed[node]
    return default


@numba.njit(**ENTRY)
def bandit(
    t: TreeArrays,
    node: int,
    tried: np.ndarray,
    n: int,
    slot: np.ndarray,
    seat: int,
    c: float,
    mass: np.ndarray,
    with_priors: bool,
) -> int:
    """The tried edge maximising the seat's mean plus a bonus, the first such in `tried`
    order (a child not yet backed up counts the node's mean): UCB's c * sqrt(log(
    availability) / visits), or `with_priors` PUCT's c * prior * sqrt(availability) /
    (1 + visits) (over availabilities; the prior mass[key])."""
    parent = mean_of(t, node, seat, 0.0)
    best, score = -1, -np.inf
    for j in range(n):
        key = tried[j]
        child = slot[key]
        if with_priors:
            bonus = c * mass[key] * math.sqrt(t.avail[child]) / (1 + t.visits[child])
        else:
            bonus = c * math.sqrt(math.log(t.avail[child]) / t.visits[child])
        value = mean_of(t, child, seat, parent) + bonus
        if value > score:
            best, score = key, value
    return best


@numba.njit(**INLINED)
def new_child(t: TreeArrays, node: int, key: int, seat: int) -> int:
    """A new child of `node` by edge `key`, the move of `seat`; its node id."""
    i = t.size[0]
    t.size[0] = i + 1
    t.mover[i], t.key[i], t.parent[i] = seat, key, node
    t.first[i], t.next[i], t.kids[i] = NO_NODE, t.first[node], 0
    t.visits[i], t.backed[i], t.avail[i] = 0, 0, 1
    for p in range(t.total.shape[1]):
        t.total[i, p] = 0.0
    t.first[node] = i
    t.kids[node] += 1
    return i


@numba.njit(**INLINED)
def mark_children(t: TreeArrays, node: int, slot: np.ndarray, on: bool) -> None:
    """slot[key] = the child by edge key, for every child of `node` (`on`), or back to
    NO_NODE."""
    child = t.first[node]
    while child != NO_NODE:
        slot[t.key[child]] = child if on else NO_NODE
        child = t.next[child]


@numba.njit(**ENTRY)
def select(
    t: TreeArrays,
    node: int,
    ids: np.ndarray,
    n: int,
    seat: int,
    own: bool,
    guide: int,
    mass: np.ndarray,
    guided_by_mass: bool,
    rng: Any,
    c: float,
    widen: float,
    work: tuple[np.ndarray, ...],
) -> tuple[int, int, bool]:
    """(action, child, whether the descent goes on) at `node` for a world whose legal
    actions are ids[:n] (ascending), `seat` to move (`own`: the observer): a new child for
    an untried available edge (the policy's move `guide` if its edge is untried; with
    priors, `guided_by_mass`, the untried edge of most prior mass[key]; else one drawn from
    `rng`), else the bandit's choice (UCB, or PUCT with priors) among the available
    children; the availability of every available child counted. `work`: `Work.ints`
    (its slot all NO_NODE, and left so)."""
    slot, keys, tried, untried = work[0], work[1], work[2], work[3]
    m = candidates(ids, n, own, keys)
    mark_children(t, node, slot, True)
    n_tried = n_untried = 0
    for j in range(m):
        child = slot[keys[j]]
        if child == NO_NODE:
            untried[n_untried] = keys[j]
            n_untried += 1
        else:
            t.avail[child] += 1
            tried[n_tried] = keys[j]
            n_tried += 1
    grow = n_untried > 0 and (n_tried == 0 or may_grow(t, node, widen))
    guide_key = NO_NODE
    if grow and guide >= 0:
        guide_key = guide if own else PUBLIC_KEY[guide]
        guided = False
        for j in range(n_untried):
            guided = guided or untried[j] == guide_key
        guide_key = guide_key if guided else NO_NODE
    if guide_key != NO_NODE:
        key = guide_key
    elif grow:
        key = expansion(untried, n_untried, mass, guided_by_mass, rng)
    else:
        key = bandit(t, node, tried, n_tried, slot, seat, c, mass, guided_by_mass)
    chosen = new_child(t, node, key, seat) if grow else slot[key]
    t.visits[chosen] += 1
    mark_children(t, node, slot, False)
    if guide_key != NO_NODE:
        return guide, chosen, False
    if own:
        return key, chosen, not grow
    return behind(ids, n, key, rng), chosen, not grow


@numba.njit(**INLINED)
def expansion(untried: np.ndarray, n: int, mass: np.ndarray, guided_by_mass: bool, rng: Any) -> int:
    """The untried edge (of untried[:n]) to expand: the first of most prior mass[key], or
    without priors one drawn from `rng`."""
    if not guided_by_mass:
        return untried[draw_below(rng, n)]
    key = untried[0]
    for j in range(1, n):
        if mass[untried[j]] > mass[key]:
            key = untried[j]
    return key


@numba.njit(**ENTRY)
def behind(ids: np.ndarray, n: int, key: int, rng: Any) -> int:
    """The legal action (of ids[:n]) behind public edge `key`, uniformly at random from
    `rng` where several are."""
    count, last = 0, -1
    for i in range(n):
        if PUBLIC_KEY[ids[i]] == key:
            count, last = count + 1, ids[i]
    if count == 1:
        return last
    k = draw_below(rng, count)
    for i in range(n):
        if PUBLIC_KEY[ids[i]] == key:
            if k == 0:
                return ids[i]
            k -= 1
    return -1


@numba.njit(**INLINED)
def legal_ids(mask: np.ndarray, ids: np.ndarray) -> int:
    """ids[:n]: the set entries of `mask`, ascending; returns n."""
    n = 0
    for a in range(len(mask)):
        if mask[a]:
            ids[n] = a
            n += 1
    return n


@numba.njit(**ENTRY)
def select_worlds(
    tree: tuple[np.ndarray, ...],
    nodes: np.ndarray,
    active: np.ndarray,
    masks: np.ndarray,
    seats: np.ndarray,
    viewers: np.ndarray,
    guides: np.ndarray,
    priors: np.ndarray,
    rng: Any,
    c: float,
    widen: float,
    actions: np.ndarray,
    inside: np.ndarray,
    work: tuple[np.ndarray, ...],
    mass: np.ndarray,
) -> None:
    """One depth of a wave's descent: for the j-th active world w = active[j] (batch
    order), at node nodes[w] with legal actions masks[j] and seats[j] to move, `select`
    (the observer: viewers[w]; the policy's move guides[j], -1 none; priors[j] the prior
    network's policy, or no columns without one); writes the action to actions[j], the
    child to nodes[w] and whether the descent goes on to inside[j]. `work`, `mass`:
    `Work.ints`, `Work.mass`; `tree`: `Tree.arrays()`."""
    t, ids = TreeArrays(*tree), work[4]
    with_priors = priors.shape[1] > 0
    for j in range(len(active)):
        w = active[j]
        n = legal_ids(masks[j], ids)
        own = seats[j] == viewers[w]
        if with_priors:
            for i in range(n):
                key = ids[i] if own else PUBLIC_KEY[ids[i]]
                mass[key] += np.float64(priors[j, ids[i]])
        actions[j], nodes[w], inside[j] = select(
            t, nodes[w], ids, n, seats[j], own, guides[j], mass, with_priors, rng, c,
            widen, work,
        )  # fmt: skip
        if with_priors:
            for i in range(n):
                mass[ids[i] if own else PUBLIC_KEY[ids[i]]] = 0.0


@numba.njit(**ENTRY)
def visit_roots(tree: tuple[np.ndarray, ...], nodes: np.ndarray) -> None:
    """One visit of every world's root nodes[w] (in batch order); `tree`: `Tree.arrays()`."""
    t = TreeArrays(*tree)
    for w in range(len(nodes)):
        t.visits[nodes[w]] += 1


@numba.njit(**ENTRY)
def back_up(tree: tuple[np.ndarray, ...], leaves: np.ndarray, rewards: np.ndarray) -> None:
    """Each world's rewards[w] (one per seat) into every node from leaves[w] to its root,
    world by world; `tree`: `Tree.arrays()`."""
    t = TreeArrays(*tree)
    for w in range(len(leaves)):
        node = leaves[w]
        while node != NO_NODE:
            t.backed[node] += 1
            for p in range(t.total.shape[1]):
                t.total[node, p] += rewards[w, p]
            node = t.parent[node]


# ------------------------------------------------------------------------------ a whole wave
@numba.njit(**ENTRY)
def run_wave(
    state: tuple[np.ndarray, ...],
    rules: tuple[Any, ...],
    tree: tuple[np.ndarray, ...],
    nodes: np.ndarray,
    viewers: np.ndarray,
    plan: NDArray[np.float64],
    expand_policy: bool,
    policy_rng: Any,
    rng: Any,
    c: float,
    widen: float,
    horizon: int,
    counts: np.ndarray,
    work: tuple[np.ndarray, ...],
    row: NDArray[np.float32],
    scores: NDArray[np.float64],
) -> None:
    """A wave over worlds 0..len(nodes)-1 of `state` (the `Arrays` as a plain tuple;
    `rules` the `Rules`; `tree`: `Tree.arrays()`): their roots visited, the descent depth
    by depth from nodes[w] (left at each world's leaf), then the playouts with the
    heuristic of weights `plan` for `horizon` decisions (NO_HORIZON: to the end). With
    `expand_policy` the policy's move in every active world, drawn before its selection,
    is expanded first. counts: int64[2], += the decisions stepped in the tree and in the
    playouts. `work`, `row`, `scores`: `Work.ints` (with room for len(nodes) worlds),
    `Work.row`, `Work.scores`."""
    s, k, t = Arrays(*state), Rules(*rules), TreeArrays(*tree)
    visit_roots(tree, nodes)
    counts[0] += descend(s, k, t, nodes, viewers, plan, expand_policy, policy_rng, rng, c,
                         widen, work, row, scores)  # fmt: skip
    counts[1] += play_out(s, k, len(nodes), plan, policy_rng, horizon, work, row, scores)


@numba.njit(**INLINED)
def descend(
    s: Arrays,
    k: Rules,
    t: TreeArrays,
    nodes: np.ndarray,
    viewers: np.ndarray,
    plan: NDArray[np.float64],
    expand_policy: bool,
    policy_rng: Any,
    rng: Any,
    c: float,
    widen: float,
    work: tuple[np.ndarray, ...],
    row: NDArray[np.float32],
    scores: NDArray[np.float64],
) -> int:
    """`run_wave`'s descent, depth by depth: the active worlds' policy moves (with
    `expand_policy`), then each one's selection and step; returns the decisions stepped."""
    ids, active, guides, step_work = work[4], work[5], work[6], work[7]
    n_active, stepped = len(nodes), 0
    for w in range(n_active):
        active[w] = w
    while n_active:
        m = 0
        for j in range(n_active):
            if s.phase[active[j]] != PH_GAME_OVER:  # a finished game is a leaf
                active[m] = active[j]
                m += 1
        n_active = m
        for j in range(n_active):
            guides[j] = -1
            if expand_policy:
                w = active[j]
                u = policy_rng.random()
                guides[j] = choose_state_row(s, plan, w, s.legal[w], u, row, scores)
        m = 0
        for j in range(n_active):
            w = active[j]
            n_ids = legal_ids(s.legal[w], ids)
            seat = np.int64(s.seat[w])
            action, nodes[w], inside = select(
                t, nodes[w], ids, n_ids, seat, seat == viewers[w], guides[j], scores, False,
                rng, c, widen, work,
            )  # fmt: skip
            apply_one(s, k, w, action, step_work)
            if inside:
                active[m] = w
                m += 1
        stepped += n_active
        n_active = m
    return stepped


@numba.njit(**INLINED)
def play_out(
    s: Arrays,
    k: Rules,
    n: int,
    plan: NDArray[np.float64],
    policy_rng: Any,
    horizon: int,
    work: tuple[np.ndarray, ...],
    row: NDArray[np.float32],
    scores: NDArray[np.float64],
) -> int:
    """`run_wave`'s playouts: worlds 0..n-1 stepped together with the heuristic, one
    decision of every unfinished world a depth (its uniform drawn in batch order), until
    all are over or `horizon` depths (NO_HORIZON: no limit); returns the decisions."""
    step_work, depth, stepped = work[7], 0, 0
    while horizon == NO_HORIZON or depth < horizon:
        live = 0
        for w in range(n):
            if s.phase[w] != PH_GAME_OVER:
                u = policy_rng.random()
                action = choose_state_row(s, plan, w, s.legal[w], u, row, scores)
                apply_one(s, k, w, action, step_work)
                live += 1
        if live == 0:
            break
        stepped += live
        depth += 1
    return stepped


class Work:
    """The kernels' scratch, made once per tree: `ints` (slot: NO_NODE per edge key;
    keys, tried, untried, ids: one per action; active, guides: one per world; the core
    step's scratch), `mass` (a zero per edge key), `row` and `scores` (the compiled
    heuristic's)."""

    def __init__(self, worlds: int):
        per_action = [np.full(NUM_ACTIONS, NO_NODE, np.int64)]
        per_action += [np.empty(NUM_ACTIONS, np.int64) for _ in range(4)]
        per_world = [np.empty(worlds, np.int64) for _ in range(2)]
        self.ints = (*per_action, *per_world, np.empty(N_SCRATCH, np.int64))
        self.mass = np.zeros(NUM_ACTIONS)
        self.row = np.zeros(ROW_SIZE, np.float32)
        self.scores = np.zeros(NUM_ACTIONS)
