"""The compiled information-set tree (agents/asara/ismcts_compiled.py): its selection and
backup choose, count and draw random numbers exactly as a plain-Python tree does (the
reference below, the dict-of-nodes search ISMCTS ran before), and a whole compiled wave
decides as the depth-by-depth path does."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents.asara import ismcts_compiled as kernels
from agents.asara.edges import PUBLIC_KEY
from agents.asara.ismcts import ISMCTSAgent, Node
from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.config import GameConfig
from tests.asara.test_search import _late_choices

C = 0.7
SHARED = [a for a in range(NUM_ACTIONS) if (PUBLIC_KEY[a] == PUBLIC_KEY).sum() > 1]


# ------------------------------------------------------------------------------ the reference
class RefNode:
    def __init__(self, players: int, mover: int = -1):
        self.mover = mover
        self.children: dict[int, RefNode] = {}
        self.visits = self.backed = self.avail = 0
        self.total = np.zeros(players)

    def mean(self, seat: int, default: float = 0.0) -> float:
        return self.total[seat] / self.backed if self.backed else default


def ref_edges(node, keys, own):
    """(untried, tried) edge keys of a node, in the order the search considers them, each
    tried child's availability counted."""
    untried, tried = [], []
    for key in keys if own else sorted(set(keys)):
        child = node.children.get(key)
        if child is None:
            untried.append(key)
        else:
            child.avail += 1
            tried.append(key)
    return untried, tried


def ref_bandit(node, tried, seat, mass):
    """UCB (PUCT with priors) over the tried edges, the first best."""
    parent, best, score = node.mean(seat), -1, -math.inf
    for k in tried:
        child = node.children[k]
        if mass is not None:
            bonus = C * mass[k] * math.sqrt(child.avail) / (1 + child.visits)
        else:
            bonus = C * math.sqrt(math.log(child.avail) / child.visits)
        if child.mean(seat, parent) + bonus > score:
            best, score = k, child.mean(seat, parent) + bonus
    return best


def ref_select(node, legal, seat, own, guide, prior, rng, widen):
    """(action, child, inside): the Python search's `_select`, written plainly."""
    keys = list(legal) if own else [int(PUBLIC_KEY[a]) for a in legal]
    mass: dict[int, float] | None = None
    if prior is not None:
        mass = {}
        for key, p in zip(keys, prior.tolist()):
            mass[key] = mass.get(key, 0.0) + p
    untried, tried = ref_edges(node, keys, own)
    may = node.mover < 0 or widen >= 1
    may = may or len(node.children) < math.floor((node.visits - 1) ** widen)
    grow = bool(untried) and (not tried or may)
    guide_key = keys[legal.index(guide)] if grow and guide >= 0 else -1
    guided = guide_key in untried
    if guided:
        key = guide_key
    elif grow and mass is not None:
        key = max(untried, key=mass.__getitem__)
    elif grow:
        key = untried[int(rng.integers(len(untried)))]
    else:
        key = ref_bandit(node, tried, seat, mass)
    if grow:
        node.children[key] = RefNode(len(node.total), seat)
        node.children[key].avail = 1
    child = node.children[key]
    child.visits += 1
    if guided:
        return guide, child, False
    if own:
        return key, child, not grow
    behind = [a for a, k in zip(legal, keys) if k == key]
    action = behind[0] if len(behind) == 1 else behind[int(rng.integers(len(behind)))]
    return action, child, not grow


def same_tree(ref: RefNode, node: Node) -> None:
    """Every edge, in expansion order, with the same statistics."""
    assert list(ref.children) == list(node.children)
    assert (ref.visits, ref.backed, node.mover) == (node.visits, node.backed, ref.mover)
    assert ref.total.tolist() == node.total.tolist()
    for (key, a), b in zip(ref.children.items(), node.children.values()):
        assert a.avail == b.avail, key
        same_tree(a, b)


# ------------------------------------------------------------------------------ the tests
@pytest.mark.parametrize(
    "widen, priors, guides", [(0.5, False, True), (1.0, False, False), (0.5, True, False)]
)
def test_selection_and_backup_match_a_plain_python_tree(widen, priors, guides):
    """Random legal sets (many sharing public keys), movers, policy moves and priors, in
    waves of worlds descending one depth at a time: the same actions, the same tree and
    the same random numbers drawn."""
    players, worlds, observer = 3, 6, 1
    setup = np.random.default_rng(4)
    ref_rng, rng = np.random.default_rng(9), np.random.default_rng(9)
    tree = kernels.Tree(players, capacity=2)  # grows by doubling as it goes
    roots = [tree.add_root(), tree.add_root()]
    refs = [RefNode(players), RefNode(players)]
    work = kernels.Work(worlds)
    pool = np.array(sorted(set(SHARED[:40]) | set(range(0, 803, 37))))
    seen = 0
    for _ in range(25):
        owner = setup.integers(2, size=worlds)
        nodes = np.array([roots[o] for o in owner], np.int64)
        ref_nodes = [refs[o] for o in owner]
        paths = [[r] for r in ref_nodes]
        for r in ref_nodes:
            r.visits += 1
        tree.reserve(worlds)
        kernels.visit_roots(tree.arrays(), nodes)
        active = np.arange(worlds)
        for _depth in range(4):
            masks = np.zeros((len(active), NUM_ACTIONS), bool)
            for j in range(len(active)):
                masks[j, setup.choice(pool, setup.integers(1, 12), replace=False)] = True
            seats = setup.integers(players, size=len(active))
            legal = [np.flatnonzero(m).tolist() for m in masks]
            chosen = [
                int(setup.choice(ids)) if guides and setup.random() < 0.6 else -1 for ids in legal
            ]
            shape = (len(active), NUM_ACTIONS if priors else 0)
            prior = setup.integers(0, 4, shape) / 8  # coarse: ties between edges
            actions = np.zeros(len(active), np.int64)
            inside = np.ones(len(active), bool)
            kernels.select_worlds(
                tree.arrays(), nodes, active, masks, seats, np.full(worlds, observer),
                np.array(chosen, np.int64), prior, rng, C, widen, actions, inside, work.ints,
                work.mass,
            )  # fmt: skip
            for j, w in enumerate(active.tolist()):
                p = prior[j, legal[j]] if priors else None
                own = seats[j] == observer
                a, child, go_on = ref_select(
                    ref_nodes[w], legal[j], seats[j], own, chosen[j], p, ref_rng, widen
                )
                assert (a, go_on) == (actions[j], inside[j])
                seen += not own and not go_on
                ref_nodes[w] = child
                paths[w].append(child)
            active = active[inside]
            if not len(active):
                break
        rewards = setup.normal(size=(worlds, players))
        kernels.back_up(tree.arrays(), nodes, rewards)
        for path, reward in zip(paths, rewards):
            for node in path:
                node.backed += 1
                node.total += reward
    assert rng.bit_generator.state == ref_rng.bit_generator.state
    for ref, root in zip(refs, roots):
        same_tree(ref, Node(tree, root))
    assert tree.capacity >= int(tree.size[0]) > 50 and seen > 0  # it grew; hidden moves
    assert (work.ints[0] == kernels.NO_NODE).all() and not work.mass.any()  # scratch clean


def test_draw_below_is_numpys_integers():
    """The bounded draws the kernels make are numpy's `integers(n)`, state for state (with
    doubles drawn between them, which share the bit generator's buffered 32 bits)."""
    ns = np.random.default_rng(3).integers(1, 5000, 300).tolist()
    ours, theirs = np.random.default_rng(5), np.random.default_rng(5)
    drawn, expected = [], []
    for i, n in enumerate(ns):
        drawn.append(kernels.draw_below(ours, n))
        expected.append(int(theirs.integers(n)))
        if i % 3 == 0:
            assert ours.random() == theirs.random()
    assert drawn == expected and ours.bit_generator.state == theirs.bit_generator.state
    assert len(set(drawn)) > 100  # not a constant


@pytest.mark.parametrize("players", [2, 4])
def test_the_compiled_wave_decides_as_the_depth_by_depth_one(players, monkeypatch):
    """The whole wave compiled (towers playouts) against the same search stepped depth by
    depth and played out by `FlatMCAgent.playout`: the same actions, trees, counts and
    generators."""
    states = _late_choices(GameConfig(num_players=players), 17, 2)

    def search(fused: bool):
        agent = ISMCTSAgent(seed=3, sims=24, wave=8, playout="towers", horizon=4,
                            value="margin", backend="numba")  # fmt: skip
        if not fused:
            monkeypatch.setattr(agent, "_fused_plan", lambda worlds: None)
        actions = agent.act_states(states)
        stats = [
            [(k, c.visits, c.avail, c.total.tolist()) for k, c in root.children.items()]
            for root in agent.last_roots
            if root is not None
        ]
        counts = (agent.tree_decisions, agent.playout_decisions, agent.iterations)
        assert agent.policy is not None
        gens = (agent.rng.bit_generator.state, agent.policy.rng.bit_generator.state)
        return actions.tolist(), stats, counts, gens

    fused, stepped = search(True), search(False)
    assert fused == stepped
    assert fused[2][1] > 0  # the playouts ran
