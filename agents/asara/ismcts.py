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
world's edge in batch order, one tree update at a time, so later worlds of a wave see the
visits of the earlier ones (a virtual visit lowers the exploration bonus of a child
already being explored, while its mean counts only backed-up rewards), and stepping every
world still in the tree by one decision; then all the wave's playouts are stepped
together, and all are backed up.
Games asked together (`act_states`, `act_core`: the arena asks for all the games where
the agent is to move) run their waves in one batch of at most `batch` worlds.

The tree is arrays (`agents.asara.ismcts_compiled.Tree`: one per call, every game's root
in it; `last_roots` reads it through `Node`), and its selection and backup are compiled
(numba) on both backends, drawing from the agent's own generator. Where the playout
policy is a heuristic whose choice is compiled (towers, greedy, tall on the numba
backend, no network), a whole wave, descent and playouts, is one kernel call
(`ismcts_compiled.run_wave`); otherwise, and with a network, each depth is one call of the
compiled selection between the batched calls of the policy or the network and one core
`step`, and the playouts are `FlatMCAgent.playout`. Both draw the same random numbers in
the same order, so the decisions are the same either way.

Budget: `sims` iterations per decision (waves of `wave`; the last one smaller), or
`seconds` per decision: waves until the time is spent, one game at a time. A decision with
one legal action costs nothing (no search, no random numbers). With `sims` the agent is
deterministic given its seed and the decisions it is asked (in the same groups).
`iterations`, `simulations`, `searches`, `tree_decisions` and `playout_decisions` count
the work done; `last_roots` holds the trees of the last call (None for a game without a
choice).
"""

from __future__ import annotations

import importlib
import math
import time
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.base import pick_best
from asara_env.asara.core import CoreState, is_terminal, legal_action_mask, take
from asara_env.asara.core.kernels.arrays import arrays, rules_of
from asara_env.asara.reference.state import State

from .edges import PUBLIC_KEY
from .search import FlatMCAgent, heuristic_compiled

__all__ = ["EXPANSIONS", "PUBLIC_KEY", "ISMCTSAgent", "Node"]

EXPANSIONS = ("policy", "random")  # which untried edge a node expands first


class Node:
    """A node of a tree (`agents.asara.ismcts_compiled.Tree`), read from its arrays: the
    information set reached by an edge (a move as the observer sees it) from its parent."""

    __slots__ = ("index", "tree")

    def __init__(self, tree: Any, index: int):
        self.tree, self.index = tree, index

    @property
    def mover(self) -> int:
        """The seat whose move the edge to it is (-1: the root)."""
        return int(self.tree.mover[self.index])

    @property
    def children(self) -> dict[int, Node]:
        """Edge key -> child, in the order they were expanded."""
        tree = self.tree
        return {int(tree.key[i]): Node(tree, i) for i in tree.children(self.index)}

    @property
    def visits(self) -> int:
        """Iterations through this node (counted when it is chosen)."""
        return int(self.tree.visits[self.index])

    @property
    def backed(self) -> int:
        """Of them, the ones backed up already."""
        return int(self.tree.backed[self.index])

    @property
    def avail(self) -> int:
        """Iterations that reached the parent with this edge legal."""
        return int(self.tree.avail[self.index])

    @property
    def total(self) -> NDArray[np.float64]:
        """float64[P]: the summed backed-up rewards, one per seat (a copy)."""
        return np.array(self.tree.total[self.index])

    def mean(self, seat: int, default: float = 0.0) -> float:
        """The mean backed-up reward of `seat`, or `default` before any."""
        backed = self.backed
        return float(self.tree.total[self.index, seat] / backed) if backed else default


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
        self._scratch: Any = None  # the kernels' (`_work`)
        super().__init__(seed, **options)

    # ---------------------------------------------------------------- the decision
    def act_states(self, states: list[State]) -> np.ndarray:
        """int64[len(states)]: the action of the seat to move in each state. With a `sims`
        budget the games' waves share core batches of up to `batch` worlds; with `seconds`
        each game is searched in turn."""
        if any(s.is_over for s in states):
            raise ValueError("a game is over: there is no decision to take")
        self._roots.clear()
        legal = [self._legal(s) for s in states]
        chosen = np.array([a[0] for a in legal], np.int64)
        searched = [i for i, a in enumerate(legal) if len(a) > 1]
        if not searched:
            self.last_roots = [None] * len(states)
            return chosen
        room = len(searched) * (self.sims + 1)  # a node per iteration at most, and the roots
        tree = ismcts_compiled().Tree(states[0].num_players, room)
        roots = {i: tree.add_root() for i in searched}
        if self.seconds is not None:
            for i, root in roots.items():
                start = time.perf_counter()
                while tree.visits[root] == 0 or time.perf_counter() - start < self.seconds:
                    self._wave(tree, [(states[i], root, self.wave)])
        else:
            games = max(1, self.batch // self.wave)  # games per core batch
            for done in range(0, self.sims, self.wave):
                k = min(self.wave, self.sims - done)
                for g in range(0, len(searched), games):
                    jobs = [(states[i], roots[i], k) for i in searched[g : g + games]]
                    self._wave(tree, jobs)
        for i, root in roots.items():
            chosen[i] = self._most_visited(tree, root, states[i].seat)
        self.last_roots = [Node(tree, roots[i]) if i in roots else None for i in range(len(states))]
        return chosen

    def _most_visited(self, tree: Any, root: int, observer: int) -> int:
        """The root action with the most visits (ties: best mean, then the generator)."""
        self.searches += 1
        kids = np.flatnonzero(tree.parent[: int(tree.size[0])] == root)
        kids = kids[np.argsort(tree.key[kids])]  # by action: a root's keys are distinct
        actions, visits, backed = tree.key[kids], tree.visits[kids], tree.backed[kids]
        sums = tree.total[kids, observer]
        means = np.divide(sums, backed, out=np.zeros(len(kids)), where=backed > 0)
        scores = np.where(visits == visits.max(), means, -np.inf)
        return int(actions[pick_best(scores[None], self.rng.random(1))[0]])

    # ---------------------------------------------------------------- one wave
    def _wave(self, tree: Any, jobs: list[tuple[State, int, int]]) -> None:
        """k iterations for each job (state, its tree's root node, k), all in one core
        batch: compiled whole (`ismcts_compiled.run_wave`) where the playout policy's
        choice is, else depth by depth (`_descend`) and played out by `playout`."""
        viewers = np.array([s.seat for s, _, k in jobs for _ in range(k)], np.int64)
        worlds = self._worlds([(s, k) for s, _, k in jobs])
        nodes = np.array([root for _, root, k in jobs for _ in range(k)], np.int64)
        tree.reserve(len(nodes))  # one new node per iteration at most
        kernels, work = ismcts_compiled(), self._work(len(nodes))
        plan = self._fused_plan(worlds)
        if plan is None:
            self._descend(tree, worlds, nodes, viewers)
            rewards = self.playout(worlds, viewers)
        else:
            assert self.policy is not None  # a plan is the playout policy's
            counts = np.zeros(2, np.int64)
            horizon = kernels.NO_HORIZON if self.horizon is None else self.horizon
            kernels.run_wave(
                arrays(worlds), rules_of(worlds.config), tree.arrays(), nodes, viewers,
                plan, self.expand == "policy", self.policy.rng, self.rng, self.c, self.widen,
                horizon, counts, work.ints, work.row, work.scores,
            )  # fmt: skip
            self.tree_decisions += int(counts[0])
            self.playout_decisions += int(counts[1])
            rewards = self.leaf_rewards(worlds, viewers)
        kernels.back_up(tree.arrays(), nodes, np.ascontiguousarray(rewards, np.float64))
        self.iterations += len(nodes)
        self.simulations += len(nodes)

    def _work(self, worlds: int) -> Any:
        """The kernels' scratch (`ismcts_compiled.Work`), with room for `worlds` worlds."""
        work = self._scratch
        if work is None or len(work.ints[5]) < worlds:
            work = self._scratch = ismcts_compiled().Work(worlds)
        return work

    def _fused_plan(self, worlds: CoreState) -> NDArray[np.float64] | None:
        """The packed weights of the playout policy where the whole wave runs compiled
        (a heuristic whose choice is compiled, no network, its own generator), else None."""
        if self.prior_net is not None or self.value_net is not None or self.policy is None:
            return None
        plan = self._compiled_plan(worlds.config)
        if plan is None or self.policy.rng is self.rng:
            return None
        packed: NDArray[np.float64] = heuristic_compiled().pack(plan)
        return packed

    def _descend(
        self, tree: Any, worlds: CoreState, nodes: NDArray[np.int64], viewers: NDArray[np.int64]
    ) -> None:
        """The wave's descent depth by depth: each world's root visited, then per depth
        the active worlds' selections (`ismcts_compiled.select_worlds`, in batch order,
        with the playout policy's moves or the prior network's policies asked for all of
        them in one call) and one core step of them all; nodes[w] ends at world w's leaf."""
        kernels, work = ismcts_compiled(), self._work(len(nodes))
        kernels.visit_roots(tree.arrays(), nodes)
        active = np.arange(len(nodes))
        while len(active):
            active = active[~is_terminal(worlds)[active]]  # a finished game is a leaf
            if not len(active):
                break
            masks = legal_action_mask(worlds)
            legal = np.ascontiguousarray(masks[active])
            guides = np.asarray(self._guides(worlds, active, legal), np.int64)
            if self.prior_net is None:
                priors = np.zeros((len(active), 0))
            else:
                priors = np.ascontiguousarray(self._priors(worlds, active, masks), np.float64)
            actions = np.zeros(len(active), np.int64)
            inside = np.ones(len(active), bool)
            seats = worlds.seat[active].astype(np.int64)
            kernels.select_worlds(
                tree.arrays(), nodes, active, legal, seats, viewers, guides, priors,
                self.rng, self.c, self.widen, actions, inside, work.ints, work.mass,
            )  # fmt: skip
            self.core.step(worlds, actions, games=active)
            self.tree_decisions += len(active)
            active = active[inside]

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


@cache
def ismcts_compiled() -> ModuleType:
    """`agents.asara.ismcts_compiled`, imported on first use (it needs numba)."""
    return importlib.import_module("agents.asara.ismcts_compiled")
