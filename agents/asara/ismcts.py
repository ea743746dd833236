"""Information-set Monte Carlo tree search for ASARA on the batched core.

ISMCTSAgent ("ismcts") is single-observer information-set MCTS (SO-ISMCTS, Cowling,
Powley & Whitehouse 2012, with their treatment of partially observable moves): one tree
per decision, over the information sets of the deciding seat (the "observer"), shared by
every determinisation. Per decision with more than one legal action, each iteration

1. draws a determinisation of what the observer cannot know
   (`asara_env.asara.hidden.determinise`: the others' hands, the draw pile, the face-down
   buyers, the unknown lighted windows and all future chance, from the agent's generator);
2. descends the tree from the root: at each node only the edges whose move is legal in
   this determinisation are available; each available child's availability count goes up
   by one, and while the node may not grow (below), the available child maximising
   `mean + c * sqrt(log(availability) / visits)` is taken (the subset-armed bandit of
   ISMCTS), its mean reward being that of the seat that moves at the node;
3. expands one untried available edge where the node may grow, or stops at the end of
   the game. The root grows until every move has a child; a node below it, with
   progressive widening, while it has fewer than floor((visits - 1) ** `widen`) children
   (or when none of its children is legal in this world); `widen=1` lets every visit
   with an untried edge expand it (plain SO-ISMCTS). The edge expanded: with
   `expand="policy"` (the default) the edge of the playout policy's move in this world if
   it is untried (asked for all the wave's worlds at that depth in one batched call), else
   (and with `expand="random"`, or random playouts) an untried edge uniformly at random;
4. plays out from there with the playout policy, to the end or for `horizon` decisions
   and then `estimate` (as flatmc: `FlatMCAgent.playout`);
5. backs up the reward vector (one reward per seat, the `value` scheme of
   asara_env.common.outcome) into every node of its path.

The agent plays the most visited root action (ties: the best mean, then the agent's
generator).

Guided by a trained network (`prior=ppo_2p`, with `value=net` for its value head at the
horizon, see `agents.asara.search`): at every node of a descent the policy of the seat to
move, on its observation of the determinised world, is the prior of each edge (summed over
the actions behind it); a node expands its untried edge of most prior, and chooses among
its available children by PUCT, `mean + c * prior * sqrt(availability) / (1 + visits)`.
The priors of a wave's worlds at one depth are one batched call of the network (identical
observations, the observer's at the root, evaluated once).

Why the policy's move first, and widening: with a small budget most nodes below the root
are visited a few times, so what they expand decides what the reply to a move is taken to
be; random replies make every move look better than it is, and by different amounts, the
more so the more it is visited. Heads-up against towers at 128 iterations (basic, seats
alternated; README): random expansions won 21 of 40 games, the policy's move first 29.5 of
50 (then random ones: plain SO-ISMCTS; 66.5 of 100), the policy's move first with
widening (the default) 73 of 100.

Edges, and what the observer can see. The observer's own moves are keyed by their action
id. Another seat's move is keyed by what the observer sees of it (R10.2,
`asara_env.asara.actions.public_description`): two face-down cards on a space, a face-down card
on the coloured building, the lighted window kept, the buyer card taken as a gift are one
edge each whatever the hidden cards or colour (`PUBLIC_KEY`: the smallest action id with
the same public description). Keyed by the hidden action instead, the tree would branch on
cards that exist only in some determinisations and the statistics of the observer's later
moves would depend on them. As in Cowling et al.'s SO-ISMCTS with partially observable
moves, the edge is chosen by the bandit (from the mover's point of view) and the concrete
action behind it, when several legal ones share it, uniformly at random: the search
assumes the others' hidden choices are random among those they could make.

What is batched. Iterations run in waves of `wave` per game: all the wave's
determinisations (of every game searched together) are one core batch (drawn as flatmc
draws them: `FlatMCAgent._worlds`); the descent proceeds depth by depth, choosing each
world's edge in Python (in batch order, one tree update at a time, so later worlds of a
wave see the visits of the earlier ones: a virtual visit lowers the exploration bonus of a
child already being explored, while its mean counts only backed-up rewards) and then
stepping every world still in the tree by one decision with one core `step` on the batch;
then all the wave's playouts are stepped together by `FlatMCAgent.playout`, and all are
backed up.
Games asked together (`act_states`, `act_core`: the arena asks for all the games where
the agent is to move) run their waves in one batch of at most `batch` worlds.

Budget: `sims` iterations per decision (waves of `wave`; the last one smaller), or
`seconds` per decision: waves until the time is spent, one game at a time. A decision with
one legal action costs nothing (no search, no random numbers). With `sims` the agent is
deterministic given its seed and the decisions it is asked (in the same groups).
`iterations`, `simulations`, `searches`, `tree_decisions` and `playout_decisions` count
the work done; `last_roots` holds the trees of the last call (None for a game without a
choice).
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from typing import Any

import numpy as np

from agents.base import pick_best
from asara_env.asara.actions import NUM_ACTIONS, public_description
from asara_env.asara.core import CoreState, is_terminal, legal_action_mask, take
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.state import State

from .search import FlatMCAgent


def _public_keys() -> np.ndarray:
    """int64[NUM_ACTIONS]: per action id, the smallest id whose move another seat cannot
    tell from it (the same `public_description`)."""
    first: dict[str, int] = {}
    names = (public_description(a, 0, 1) for a in range(NUM_ACTIONS))
    return np.array([first.setdefault(name, a) for a, name in enumerate(names)], np.int64)


PUBLIC_KEY = _public_keys()
EXPANSIONS = ("policy", "random")  # which untried edge a node expands first


def _edge_mass(keys: list[int], prior: np.ndarray) -> dict[int, float]:
    """Per edge key, the summed prior probability of the legal actions behind it."""
    mass: dict[int, float] = {}
    for key, p in zip(keys, prior.tolist()):
        mass[key] = mass.get(key, 0.0) + p
    return mass


class Node:
    """A node of the tree: the information set reached by an edge (a move as the observer
    sees it) from its parent."""

    __slots__ = ("avail", "backed", "children", "mover", "total", "visits")

    def __init__(self, players: int, mover: int = -1):
        self.mover = mover  # the seat whose move the edge to it is (-1: the root)
        self.children: dict[int, Node] = {}  # edge key -> child
        self.visits = 0  # iterations through this node (counted when it is chosen)
        self.backed = 0  # of them, the ones backed up already
        self.avail = 0  # iterations that reached the parent with this edge legal
        self.total = np.zeros(players)  # summed backed-up rewards, one per seat

    def mean(self, seat: int, default: float = 0.0) -> float:
        """The mean backed-up reward of `seat`, or `default` before any."""
        return self.total[seat] / self.backed if self.backed else default


class ISMCTSAgent(FlatMCAgent):
    """SO-ISMCTS on the core; see the module docstring. Options as flatmc's (`sims`,
    `seconds`, `playout`, `value`, `batch`, `horizon`) plus `c`, the exploration constant
    of the bandit, and `wave`, the iterations per game stepped as one batch."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        c: float = 0.7,
        wave: int = 32,
        expand: str = "policy",
        widen: float = 0.5,
        **options: Any,
    ):
        """`options`: flatmc's (`FlatMCAgent`: sims, seconds, playout, value, batch,
        horizon, backend), with its defaults."""
        if expand not in EXPANSIONS:
            raise ValueError(f"expand must be one of {EXPANSIONS}, got {expand!r}")
        if not (math.isfinite(c) and c >= 0):
            raise ValueError(f"c (the exploration constant) must be >= 0, got {c}")
        if not 0 < widen <= 1:
            raise ValueError(f"widen must be in (0, 1], got {widen}")
        if wave < 1:
            raise ValueError(f"wave must be at least 1 iteration, got {wave}")
        self.c, self.wave, self.expand, self.widen = float(c), int(wave), expand, float(widen)
        self.iterations = 0  # tree iterations run so far (one playout each)
        self.tree_decisions = 0  # core decisions stepped while descending the trees
        self.last_roots: list[Node | None] = []
        super().__init__(seed, **options)

    # ---------------------------------------------------------------- the decision
    def act_states(self, states: list[State]) -> np.ndarray:
        """int64[len(states)]: the action of the seat to move in each state. With a `sims`
        budget the games' waves share core batches of up to `batch` worlds; with `seconds`
        each game is searched in turn."""
        if any(s.is_over for s in states):
            raise ValueError("a game is over: there is no decision to take")
        self._roots.clear()
        legal = [legal_actions(s) for s in states]
        chosen = np.array([a[0] for a in legal], np.int64)
        roots: dict[int, Node] = {
            i: Node(s.num_players) for i, s in enumerate(states) if len(legal[i]) > 1
        }
        if self.seconds is not None:
            for i, root in roots.items():
                start = time.perf_counter()
                while root.visits == 0 or time.perf_counter() - start < self.seconds:
                    self._wave([(states[i], root, self.wave)])
        else:
            games = max(1, self.batch // self.wave)  # games per core batch
            todo = list(roots)
            for done in range(0, self.sims, self.wave):
                k = min(self.wave, self.sims - done)
                for g in range(0, len(todo), games):
                    self._wave([(states[i], roots[i], k) for i in todo[g : g + games]])
        for i, root in roots.items():
            chosen[i] = self._most_visited(root, states[i].seat)
        self.last_roots = [roots.get(i) for i in range(len(states))]
        return chosen

    def _most_visited(self, root: Node, observer: int) -> int:
        """The root action with the most visits (ties: best mean, then the generator)."""
        self.searches += 1
        actions = np.array(sorted(root.children), np.int64)
        kids = [root.children[int(a)] for a in actions]
        visits = np.array([k.visits for k in kids])
        means = np.array([k.mean(observer) for k in kids])
        scores = np.where(visits == visits.max(), means, -np.inf)
        return int(actions[pick_best(scores[None], self.rng.random(1))[0]])

    # ---------------------------------------------------------------- one wave
    def _wave(self, jobs: list[tuple[State, Node, int]]) -> None:
        """k iterations for each job (state, its tree's root, k), all in one core batch."""
        viewers = np.array([s.seat for s, _, k in jobs for _ in range(k)], np.int64)
        worlds = self._worlds([(s, k) for s, _, k in jobs])
        nodes = [root for _, root, k in jobs for _ in range(k)]
        paths = [[root] for root in nodes]
        for root in nodes:
            root.visits += 1
        active = np.arange(len(nodes))
        while len(active):
            active = active[~is_terminal(worlds)[active]]  # a finished game is a leaf
            if not len(active):
                break
            masks = legal_action_mask(worlds)
            actions = np.zeros(len(active), np.int64)
            inside = np.ones(len(active), bool)
            legal = masks[active]
            guides = self._guides(worlds, active, legal).tolist()
            priors = None if self.prior_net is None else self._priors(worlds, active, masks)
            rows, legal_ids = np.nonzero(legal)
            seats = worlds.seat[active]
            own = seats == viewers[active]  # the observer's moves: by action
            keys = np.where(own[rows], legal_ids, PUBLIC_KEY[legal_ids]).tolist()
            ends = [0, *np.searchsorted(rows, np.arange(1, len(active))).tolist(), len(rows)]
            legal_ids_list, owns, movers = legal_ids.tolist(), own.tolist(), seats.tolist()
            for j, w in enumerate(active.tolist()):
                lo, hi = ends[j], ends[j + 1]
                prior = None if priors is None else priors[j, legal_ids[lo:hi]]
                actions[j], node, inside[j] = self._select(
                    nodes[w],
                    legal_ids_list[lo:hi],
                    keys[lo:hi],
                    movers[j],
                    owns[j],
                    guides[j],
                    prior,
                )
                nodes[w] = node
                paths[w].append(node)
            self.core.step(worlds, actions, games=active)
            self.tree_decisions += len(active)
            active = active[inside]
        rewards = self.playout(worlds, viewers)
        for path, reward in zip(paths, rewards):
            for node in path:
                node.backed += 1
                node.total += reward
        self.iterations += len(nodes)
        self.simulations += len(nodes)

    def _guides(self, worlds: CoreState, active: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """int64[len(active)]: the playout policy's action in each active world (one batched
        call; `masks`: their legal actions), or -1 where expansions are random or follow the
        prior."""
        if self.expand == "random" or self.policy is None or self.prior_net is not None:
            return np.full(len(active), -1, np.int64)
        return self._policy_actions(worlds, active, masks)

    def _priors(self, worlds: CoreState, active: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """float[len(active), A]: the prior network's policy for the seat to move in each
        active world (one batched call)."""
        assert self.prior_net is not None
        view = take(worlds, active)
        return self.prior_net.priors(self.core.observe(view, view.seat), masks[active])

    def _select(
        self,
        node: Node,
        legal: list[int],
        keys: list[int],
        seat: int,
        own: bool,
        guide: int = -1,
        prior: np.ndarray | None = None,
    ) -> tuple[int, Node, bool]:
        """(action, child, whether the descent goes on) at `node` for a world whose legal
        actions are `legal` (ascending; with the prior network's probabilities `prior`),
        their edges `keys` (the actions themselves where the seat to move, `seat`, is the
        observer: `own`): a new child for an untried
        available edge (the policy's move `guide` if its edge is untried; with a prior
        network, the untried edge of most prior), else the bandit's choice among the
        available children."""
        mass = None if self.prior_net is None or prior is None else _edge_mass(keys, prior)
        children = node.children
        untried, tried = [], []
        for key in keys if own else sorted(set(keys)):
            child = children.get(key)
            if child is None:
                untried.append(key)
            else:
                child.avail += 1
                tried.append(key)
        grow = bool(untried) and (not tried or self._may_grow(node))
        guide_key = keys[bisect_left(legal, guide)] if grow and guide >= 0 else -1
        guided = guide_key in untried
        if guided:  # the policy's move itself, whatever else shares its edge
            key = guide_key
        elif grow and mass is not None:
            key = max(untried, key=mass.__getitem__)
        elif grow:
            key = untried[int(self.rng.integers(len(untried)))]
        elif mass is not None:
            key = self._puct(node, tried, seat, mass)
        else:
            key = self._ucb(node, tried, seat)
        if grow:
            child = children[key] = Node(len(node.total), seat)
            child.avail = 1
        child = children[key]
        child.visits += 1
        if guided:
            return guide, child, False
        if own:
            return key, child, not grow
        behind = [a for a, k in zip(legal, keys) if k == key]
        action = behind[0] if len(behind) == 1 else behind[int(self.rng.integers(len(behind)))]
        return action, child, not grow

    def _may_grow(self, node: Node) -> bool:
        """Whether `node` may take a new child (progressive widening): the root always, any
        node with `widen` >= 1, else while it has fewer than floor((visits - 1) ** widen)
        children."""
        if node.mover < 0 or self.widen >= 1:
            return True
        return len(node.children) < math.floor((node.visits - 1) ** self.widen)

    def _puct(self, node: Node, available: list[int], seat: int, mass: dict[int, float]) -> int:
        """The available edge maximising the seat's mean plus the prior-weighted bonus
        `c * prior * sqrt(availability) / (1 + visits)` (PUCT over availabilities; a child
        not yet backed up counts the node's mean)."""
        parent = node.mean(seat)
        best, score = -1, -math.inf
        for key in available:
            child = node.children[key]
            bonus = self.c * mass[key] * math.sqrt(child.avail) / (1 + child.visits)
            value = child.mean(seat, parent) + bonus
            if value > score:
                best, score = key, value
        return best

    def _ucb(self, node: Node, available: list[int], seat: int) -> int:
        """The available edge maximising the seat's mean plus the exploration bonus over
        its availability (a child not yet backed up counts the node's mean)."""
        parent = node.mean(seat)
        best, score, c, children = -1, -math.inf, self.c, node.children
        for key in available:
            child = children[key]
            mean = child.total[seat] / child.backed if child.backed else parent
            value = mean + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > score:
                best, score = key, value
        return best
