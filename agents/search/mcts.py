"""The search loop, written once for every game: information-set MCTS with decoupled
choices at every node, a PUCT/UCT root or a Gumbel root, flat Monte Carlo, and leaf
evaluation by playouts or by a network, in waves of batched worlds.

`Search(game, settings, evaluate=...)` searches decisions of a batch of states:
`run(state, games, seats)` -> `Decision` (the action of seat seats[i] in game games[i],
the policy over its actions, the root's value for it, each action's mean reward). Per
decision with more than one legal action, `settings.sims` iterations, each:

1. a world: `game.determinise` redraws what the seat cannot know (the verbs of the
   game's card), so the search reads only what the seat knows;
2. a descent from the root: at each node every seat with a legal action takes a key by
   its own bandit (`agents.search.tree`: decoupled UCT, or PUCT where the node has the
   network's priors), all seats' actions are one joint step of the core; a child not seen
   before is added and the descent stops there (or at the end of the game);
3. the leaf is evaluated: by the network's value for the observer's observation (value
   net; after `horizon` playout steps if it is > 0), or by a playout with the playout
   policy to the end or for `horizon` decisions and the game's `leaf_scores`, turned
   into one reward per seat by the reward scheme;
4. the rewards are backed up along the path, each seat's edge counting its own.

Budget: `settings.sims` iterations per decision, or `settings.seconds` per decision
(wall time, read from `Search.clock`): waves until the time is spent, at least one, each
decision searched alone (flat Monte Carlo: rounds of max(1, batch // A) worlds per
action; the Gumbel root: each halving round its share of the time). With `sims` the
search is deterministic given its seed and the decisions it is asked (in the same
groups); with `seconds` the work done depends on the machine.

Iterations run in waves of `wave` per decision: the wave's worlds of every decision asked
together are one core batch, stepped depth by depth (one `step` per depth for all the
worlds still in their trees), played out together, and evaluated by the network in one
batched call per depth (priors) and one per wave (values).

Roots. `root="puct"`: the root is a node like the others; the action is the most visited
key of the observer (ties: the best mean, then the generator); the policy returned is the
visit distribution. `root="gumbel"` (Danihelka et al. 2022): `considered` actions are
drawn without replacement by Gumbel-top-k on the prior's logits (uniform without a
network), the budget is spent by sequential halving among them (each round its share of
the simulations spread evenly over the survivors, then the better half kept by g + logits
+ sigma(q)), the action is the survivor of most g + logits + sigma(q), and the policy
returned is the improved policy softmax(logits + sigma(completed q)), q of the actions not
visited completed by the mixed value; sigma(q) = (c_visit + max visits) * c_scale * q, q
a win share in [0, 1] (rewards of another scale rescaled to [0, 1] over the root's
actions, as mctx does), c_scale mctx's 0.1 by default. The observer's action at the root
is fixed per world; below it (and the other seats at a simultaneous root) the tree chooses as above.

Flat Monte Carlo (`flat=True`): no tree; every legal action of the observer is played
in the same max(1, round(sims / A)) worlds (each world determinised once and copied for
every action, so the actions meet the same chance; the other seats' choices of that step
and everything after by the playout policy), and the action of best mean reward is
played; where the playout policy's own choice for the observer is among the best (a tie,
as when every world ends alike), that choice is played rather than one drawn at random,
so the search departs from its playout policy only for an action it found better. With
`opponents` (a mixture of playout policies and their weights), each world draws, for every
seat but the observer, one policy of the mixture by the weights, which plays that seat for
the whole world; the observer's own later moves stay the playout policy's. The action is
then the best against the population, not against one policy.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from agents.base import pick_best
from asara_env.common.outcome import win_shares

from .game import SearchGame
from .tree import Edge, Node, backup, select

# (observations float32[n, N], masks bool[n, A]) -> (logits float[n, A], values): the
# network, batched. values: float[n], the observing seat's expected win share (0 to 1), or
# float[n, P], every seat's, column j for the seat j places clockwise of the observer.
Evaluate = Callable[
    [NDArray[np.float32], NDArray[np.bool_]], tuple[NDArray[np.floating], NDArray[np.floating]]
]
ROOTS = ("puct", "gumbel")
C_VISIT = 50.0  # Gumbel's sigma (Danihelka et al. 2022, their default)
C_SCALE = 0.1  # Gumbel's sigma scale, mctx's default value_scale
COMPACT_BELOW = 0.6  # playouts drop finished worlds once fewer than this share are live
NO_FORCE = -1


@dataclass(frozen=True)
class Settings:
    """How one search runs (see the module docstring)."""

    sims: int = 128  # iterations (playouts for flat MC) per decision
    seconds: float | None = None  # or wall seconds per decision (instead of sims)
    wave: int = 32  # iterations per decision stepped as one batch
    c: float = 0.7  # the exploration constant of UCT / PUCT
    playout: str = "random"  # the playout policy's name (SearchGame.playout_names)
    horizon: int | None = None  # playout decisions before leaf_scores (None: to the end)
    value: str = "win"  # the reward scheme of the game's card the search maximises
    root: str = "puct"  # "puct" or "gumbel"
    considered: int = 16  # Gumbel: actions drawn at the root
    c_scale: float = C_SCALE  # Gumbel: sigma's scale of q
    batch: int = 1024  # worlds per core batch at most
    flat: bool = False  # flat Monte Carlo instead of the tree
    # flat only: (playout name, weight) of the other seats' policies, drawn per world
    # (module docstring); empty: every seat plays `playout`
    opponents: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        checks = {
            "sims": self.sims >= 1,
            "seconds": self.seconds is None or (math.isfinite(self.seconds) and self.seconds > 0),
            "wave": self.wave >= 1,
            "c": math.isfinite(self.c) and self.c >= 0,
            "horizon": self.horizon is None or self.horizon >= 0,
            "root": self.root in ROOTS,
            "considered": self.considered >= 1,
            "c_scale": math.isfinite(self.c_scale) and self.c_scale > 0,
            "batch": self.batch >= 1,
            "opponents": (self.flat or not self.opponents)
            and all(math.isfinite(w) and w > 0 for _, w in self.opponents),
        }
        bad = [name for name, ok in checks.items() if not ok]
        if bad:
            raise ValueError(f"search option {bad[0]}={getattr(self, bad[0])!r} is out of range")


def sigma_of(
    completed: NDArray[np.floating],
    masks: NDArray[np.bool_],
    max_visits: float | NDArray[np.floating],
    c_scale: float,
) -> NDArray[np.float64]:
    """float[n, A]: sigma(completed q) of each row's legal actions, 0 for the others: q
    as it is where a row's legal values are win shares, else rescaled to [0, 1] over
    them (constant rows to 0), times (C_VISIT + max_visits) * c_scale (max_visits: one
    number, or float[n] per row)."""
    completed = np.asarray(completed, np.float64)
    low = np.min(np.where(masks, completed, np.inf), axis=1, keepdims=True)
    high = np.max(np.where(masks, completed, -np.inf), axis=1, keepdims=True)
    spread = np.where(high > low, high - low, 1.0)
    rescaled = np.where(high > low, (completed - low) / spread, 0.0)
    scaled = np.where((low >= 0) & (high <= 1), completed, rescaled)
    scale = (C_VISIT + np.reshape(np.asarray(max_visits, np.float64), (-1, 1))) * c_scale
    return np.where(masks, scale * scaled, 0.0)


class Decision(NamedTuple):
    """A search's answer for n decisions."""

    actions: NDArray[np.int64]  # int64[n]
    policies: NDArray[np.float32]  # float32[n, A]: improved policy (gumbel) or visit shares
    values: NDArray[np.float64]  # float[n]: the root's mean reward for the seat
    # float[n, A]: each action's mean reward for the seat at the root (NaN: not tried)
    q: NDArray[np.float64]


class Search:
    """A search over one game (see the module docstring). `evaluate`: the network, used
    for the priors with `prior` and for the leaf values with `value_net`. `seed` seeds
    the search's generator and its playout policy."""

    def __init__(
        self,
        game: SearchGame,
        settings: Settings,
        seed: int | None = None,
        evaluate: Evaluate | None = None,
        prior: bool = False,
        value_net: bool = False,
    ) -> None:
        if (prior or value_net) and evaluate is None:
            raise ValueError("a network (evaluate) is needed for prior or value=net")
        self.game, self.settings = game, settings
        self.evaluate, self.prior, self.value_net = evaluate, prior, value_net
        if not value_net:
            game.check_scheme(settings.value)
        self.rng = np.random.default_rng(seed)
        self.clock: Callable[[], float] = time.perf_counter  # what `seconds` is read from
        playout_seed = (
            None if seed is None else int(np.random.SeedSequence([seed, 1]).generate_state(1)[0])
        )
        self.policy = game.playout(settings.playout, playout_seed)
        self.mixture = [
            game.playout(name, None if playout_seed is None else playout_seed + 1 + k)
            for k, (name, _) in enumerate(settings.opponents)
        ]
        weights = np.array([w for _, w in settings.opponents], np.float64)
        self.weights = weights / weights.sum() if len(weights) else weights
        self.iterations = 0  # iterations (or flat playouts) run so far
        self.tree_steps = 0  # worlds stepped inside the trees
        self.playout_steps = 0  # worlds stepped in playouts
        self.searches = 0  # decisions searched (more than one legal action)

    # ------------------------------------------------------------------ entry
    def run(self, state: Any, games: NDArray[np.int64], seats: NDArray[np.int64]) -> Decision:
        """The decision of seat seats[i] in game games[i] of `state`, for every i."""
        games, seats = np.asarray(games, np.int64), np.asarray(seats, np.int64)
        roots_state = self.game.take(state, games)
        masks = self.game.masks(roots_state)[np.arange(len(games)), seats]  # [n, A]
        n, actions_count = masks.shape
        if not masks.any(axis=1).all():
            raise ValueError("a seat asked to decide has no legal action (a finished game?)")
        actions = np.argmax(masks, axis=1).astype(np.int64)
        policies = masks / masks.sum(axis=1, keepdims=True)
        values = np.zeros(n)
        q = np.full(masks.shape, np.nan)
        todo = np.flatnonzero(masks.sum(axis=1) > 1)
        self.searches += len(todo)
        timed = self.settings.seconds is not None
        for group in [todo[i : i + 1] for i in range(len(todo))] if timed else [todo]:
            if group.size:
                decided = self._search(
                    self.game.take(roots_state, group), seats[group], masks[group]
                )
                actions[group], policies[group], values[group], q[group] = decided
        return Decision(actions, policies.astype(np.float32), values, q)

    def _search(self, state: Any, seats: NDArray[np.int64], masks: NDArray[np.bool_]) -> Decision:
        """The decisions of every game of `state` (each with more than one legal action)."""
        if self.settings.flat:
            return self._flat(state, seats, masks)
        if self.settings.root == "gumbel":
            return self._gumbel(state, seats, masks)
        return self._puct(state, seats, masks)

    def _waves(self) -> Iterator[int]:
        """The iterations per decision of each wave: `sims` in waves of `wave` (the last
        one smaller), or with `seconds` waves of `wave` until the time is spent (at least
        one)."""
        s = self.settings
        if s.seconds is None:
            for done in range(0, s.sims, s.wave):
                yield min(s.wave, s.sims - done)
            return
        start = self.clock()
        yield s.wave
        while self.clock() - start < s.seconds:
            yield s.wave

    def _batches(self, n: int) -> Iterator[slice]:
        """`n` worlds in core batches of at most `batch`."""
        for lo in range(0, n, self.settings.batch):
            yield slice(lo, lo + self.settings.batch)

    # ------------------------------------------------------------------ PUCT / UCT root
    def _puct(self, state: Any, seats: NDArray[np.int64], masks: NDArray[np.bool_]) -> Decision:
        players = self.game.players(state)
        roots = [Node(players) for _ in seats]
        jobs = np.arange(len(seats))
        for k in self._waves():
            every = np.repeat(jobs, k)
            self._run_forced(state, every, seats, roots, np.full(len(every), NO_FORCE))
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
            actions[i] = keys[pick_best(best[None], self.rng.random(1))[0]]
            policies[i, keys] = visits / visits.sum()
            q[i, keys] = np.where(np.isfinite(means), means, np.nan)
            values[i] = root.mean(seat)
        return Decision(actions, policies.astype(np.float32), values, q)

    # ------------------------------------------------------------------ Gumbel root
    def _gumbel(self, state: Any, seats: NDArray[np.int64], masks: NDArray[np.bool_]) -> Decision:
        players = self.game.players(state)
        n = len(seats)
        roots = [Node(players) for _ in range(n)]
        logits = np.zeros(masks.shape)
        root_value = np.full(n, np.nan)
        if self.evaluate is not None and (self.prior or self.value_net):
            obs = self.game.observe(state, seats)
            raw_logits, raw_values = self.evaluate(obs, masks)
            if self.prior:
                logits = np.asarray(raw_logits, np.float64)
            if self.value_net:
                root_value = self._own_values(raw_values, players)
        logits = np.where(
            masks, logits - np.where(masks, logits, -np.inf).max(axis=1, keepdims=True), -np.inf
        )
        g = self.rng.gumbel(size=masks.shape)
        legal_count = masks.sum(axis=1)
        m = np.minimum(self.settings.considered, legal_count)
        order = np.argsort(-(np.where(masks, g + logits, -np.inf)), axis=1, kind="stable")
        survivors = [order[i, : m[i]].tolist() for i in range(n)]
        phases = [max(1, math.ceil(math.log2(mi))) if mi > 1 else 1 for mi in m.tolist()]
        sims_left = [self.settings.sims] * n
        start, rounds = self.clock(), max(phases)
        for phase in range(rounds):
            if self.settings.seconds is None:
                self._halving_round(state, seats, roots, survivors, phases, phase, sims_left)
            else:  # one decision: rounds of a wave spread over the survivors, until its time
                deadline = start + self.settings.seconds * (phase + 1) / rounds
                per = [max(1, self.settings.wave // len(survivors[0]))]
                self._halving_round(state, seats, roots, survivors, phases, phase, per)
                while self.clock() < deadline:
                    self._halving_round(state, seats, roots, survivors, phases, phase, per)
            for i in range(n):
                if phase < phases[i] and len(survivors[i]) > 1:
                    score = self._gumbel_scores(
                        roots[i], int(seats[i]), survivors[i], g[i], logits[i]
                    )
                    keep = max(1, math.ceil(len(survivors[i]) / 2))
                    ranked = np.argsort(-score, kind="stable")[:keep]
                    survivors[i] = [survivors[i][j] for j in ranked]
        actions = np.zeros(n, np.int64)
        policies = np.zeros(masks.shape)
        values = np.zeros(n)
        q = np.full(masks.shape, np.nan)
        for i in range(n):
            seat = int(seats[i])
            for key, e in roots[i].edges[seat].items():
                if e.backed:
                    q[i, key] = e.total / e.backed
            score = self._gumbel_scores(roots[i], seat, survivors[i], g[i], logits[i])
            actions[i] = survivors[i][int(np.argmax(score))]
            sigma = self._sigma(roots[i], seat, masks[i], logits[i], root_value[i])
            z = np.where(masks[i], logits[i] + sigma, -np.inf)
            p = np.exp(z - z.max())
            policies[i] = p / p.sum()
            values[i] = roots[i].mean(seat)
        return Decision(actions, policies.astype(np.float32), values, q)

    def _halving_round(
        self,
        state: Any,
        seats: NDArray[np.int64],
        roots: list[Node],
        survivors: list[list[int]],
        phases: list[int],
        phase: int,
        budget: list[int],
    ) -> None:
        """One round of sequential halving's `phase` for every decision still halving:
        with `sims` (budget[i]: decision i's simulations left) its share of what is left
        spread evenly over the survivors, budget[i] lowered by what it spends; with
        `seconds` (one decision, budget[0]: the worlds per survivor) budget[0] each."""
        timed = self.settings.seconds is not None
        jobs: list[int] = []
        forced: list[int] = []
        for i in range(len(survivors)):
            if phase >= phases[i] or budget[i] <= 0:
                continue
            per = (
                budget[i]
                if timed
                else max(1, budget[i] // ((phases[i] - phase) * len(survivors[i])))
            )
            for a in survivors[i]:
                jobs += [i] * per
                forced += [a] * per
            if not timed:
                budget[i] -= per * len(survivors[i])
        if jobs:
            self._run_forced(state, np.array(jobs), seats, roots, np.array(forced))

    def _gumbel_scores(
        self,
        root: Node,
        seat: int,
        candidates: list[int],
        g: NDArray[np.float64],
        logits: NDArray[np.float64],
    ) -> NDArray[np.float64]:
        """g + logits + sigma(q) of each candidate action."""
        mask = np.zeros(len(logits), bool)
        mask[candidates] = True
        sigma = self._sigma(root, seat, mask, logits, np.nan)
        idx = np.array(candidates)
        return np.asarray(g[idx] + logits[idx] + sigma[idx], np.float64)

    def _sigma(
        self,
        root: Node,
        seat: int,
        mask: NDArray[np.bool_],
        logits: NDArray[np.float64],
        value: float,
    ) -> NDArray[np.float64]:
        """sigma(completed q) per action: q of the visited actions, the mixed value for
        the others (win shares as they are; other rewards rescaled to [0, 1] over the legal
        actions), times (c_visit + max visits) * c_scale."""
        edges = root.edges[seat]
        visits = np.zeros(len(mask))
        q = np.zeros(len(mask))
        for key, e in edges.items():
            if e.backed:
                visits[key], q[key] = e.backed, e.total / e.backed
        seen = visits > 0
        raw = root.mean(seat) if math.isnan(value) else value
        if seen.any():
            prior = np.exp(
                np.where(mask, logits, -np.inf) - np.max(np.where(mask, logits, -np.inf))
            )
            prior = prior / prior.sum()
            weighted = float((prior[seen] * q[seen]).sum() / max(prior[seen].sum(), 1e-12))
            mixed = (raw + visits.sum() * weighted) / (1 + visits.sum())
        else:
            mixed = raw
        completed = np.where(seen, q, mixed)
        return sigma_of(completed[None], mask[None], visits.max(), self.settings.c_scale)[0]

    # ------------------------------------------------------------------ iterations
    def _run_forced(
        self,
        state: Any,
        jobs: NDArray[np.int64],
        seats: NDArray[np.int64],
        roots: list[Node],
        forced: NDArray[np.int64],
    ) -> None:
        """One iteration per entry of `jobs` (job j: game j of `state`, seat seats[j], tree
        roots[j]), the observer's root action forced[i] where >= 0; `batch` worlds at most
        per core batch."""
        for part in self._batches(len(jobs)):
            self._iterate(state, jobs[part], seats, roots, forced[part])

    def _iterate(
        self,
        state: Any,
        jobs: NDArray[np.int64],
        seats: NDArray[np.int64],
        roots: list[Node],
        forced: NDArray[np.int64],
    ) -> None:
        game = self.game
        observers = seats[jobs]
        worlds = game.determinise(state, jobs, observers, self.rng)
        players = game.players(worlds)
        nodes = [roots[j] for j in jobs.tolist()]
        paths: list[list[tuple[Node, list[tuple[int, int]]]]] = [[] for _ in nodes]
        active = np.arange(len(nodes))
        depth = 0
        obs_list = observers.tolist()
        forced_list = forced.tolist()
        while active.size:
            whole = active.size == len(nodes)
            sub = worlds if whole else game.take(worlds, active)
            live = ~game.is_terminal(sub)
            if not live.all():
                active, whole = active[live], False
                if not active.size:
                    break
                sub = game.take(worlds, active)
            masks = game.masks(sub)
            if self.prior:
                self._fill_priors(sub, active, masks, nodes, obs_list)
            joint = np.argmax(masks, axis=2).tolist()  # every seat's action (its only one)
            g_idx, s_idx, a_idx = np.nonzero(masks)
            own = s_idx == observers[active][g_idx]
            keys = np.where(own, a_idx, game.public_key(sub, a_idx))
            bounds = np.searchsorted(
                g_idx * players + s_idx, np.arange(len(active) * players + 1)
            ).tolist()
            ids, key_list = a_idx.tolist(), keys.tolist()
            u = self.rng.random((len(active), players, 2)).tolist()
            stop = np.zeros(len(active), bool)
            for j, w in enumerate(active.tolist()):
                node = nodes[w]
                lists = (bounds[j * players : (j + 1) * players + 1], ids, key_list, u[j])
                force = forced_list[w] if depth == 0 else NO_FORCE
                taken = self._choose(node, obs_list[w], force, lists, joint[j])
                paths[w].append((node, taken))
                joint_key = tuple([k for _, k in taken])
                child = node.children.get(joint_key)
                if child is None:
                    child = node.children[joint_key] = Node(players)
                    stop[j] = True
                nodes[w] = child
            game.step(sub, np.array(joint, np.int64))
            self.tree_steps += len(active)
            if not whole:
                game.put(worlds, active, sub)
            active = active[~stop]
            depth += 1
        rewards = self._leaf_rewards(worlds, observers)
        for path, reward in zip(paths, rewards):
            backup(path, reward)
        self.iterations += len(nodes)

    def _choose(
        self,
        node: Node,
        observer: int,
        force: int,
        lists: tuple[list[int], list[int], list[int], list[list[float]]],
        joint: list[int],
    ) -> list[tuple[int, int]]:
        """Every seat's key at `node` for one world (its action written into `joint`, the
        world's row): the observer's `force`d root action, a seat's only key, or its
        bandit's choice (another seat's action behind the key uniformly among those
        sharing it). `lists`: the world's per-seat bounds into the legal `ids` and their
        `keys`, and its doubles."""
        bounds, ids, keys, u = lists
        taken: list[tuple[int, int]] = []
        for seat in range(len(bounds) - 1):
            lo, hi = bounds[seat], bounds[seat + 1]
            if lo == hi:
                continue
            mine = seat == observer
            if mine and force >= 0:
                key = action = force
            elif hi - lo == 1:  # one legal action: its key
                key, action = keys[lo], ids[lo]
            else:
                seat_keys = keys[lo:hi]
                choices = seat_keys if mine else sorted(set(seat_keys))
                key = choices[0]
                if len(choices) > 1:
                    key = select(
                        node, seat, choices, self.settings.c, u[seat][0], node.has_prior[seat]
                    )
                action = key
                if not mine:
                    behind = [a for a, k in zip(ids[lo:hi], seat_keys) if k == key]
                    action = behind[int(u[seat][1] * len(behind))]
            edges = node.edges[seat]
            edge = edges.get(key)
            if edge is None:
                edge = edges[key] = Edge()
            edge.visits += 1
            taken.append((seat, key))
            joint[seat] = action
        return taken

    def _fill_priors(
        self,
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
        assert self.evaluate is not None
        g, seats = np.array(need_g), np.array(need_s)
        obs = self.game.observe(self.game.take(sub, g), seats)
        logits, _ = self.evaluate(obs, masks[g, seats])
        z = np.where(masks[g, seats], np.asarray(logits, np.float64), -np.inf)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        for row, (j, seat) in enumerate(zip(need_g, need_s)):
            w = int(active[j])
            node = nodes[w]
            if node.has_prior[seat]:  # set by an earlier world of this depth
                continue
            legal = np.flatnonzero(masks[j, seat])  # the observer's keys are its actions
            keys = legal if seat == observers[w] else self.game.public_key(sub, legal)
            node.set_priors(seat, keys.tolist(), p[row, legal].tolist())

    # ------------------------------------------------------------------ leaves
    def draw_seats(self, observers: NDArray[np.int64], players: int) -> NDArray[np.int64] | None:
        """int[n, P]: who plays each seat of n new worlds: k for `mixture[k]` (drawn by
        the weights), -1 for the playout policy (the observer's seat); None without a
        mixture (every seat the playout policy)."""
        if not self.mixture:
            return None
        n = len(observers)
        seats = self.rng.choice(len(self.mixture), size=(n, players), p=self.weights)
        seats[np.arange(n), observers] = -1
        return seats.astype(np.int64)

    def _joint(self, worlds: Any, who: NDArray[np.int64] | None) -> NDArray[np.int64]:
        """int[B, P]: every seat's playout action in each world, seat j of world i by
        the policy who[i, j] names (`draw_seats`)."""
        if who is None:
            return self.game.native(worlds, self.policy(worlds, self.rng))
        joint = np.zeros(who.shape, np.int64)
        for k in np.unique(who):
            rows = np.flatnonzero((who == k).any(axis=1))
            full = len(rows) == len(who)
            part = worlds if full else self.game.take(worlds, rows)
            policy = self.policy if k < 0 else self.mixture[k]
            acts = self.game.native(part, policy(part, self.rng))
            mine = who[rows] == k
            block = joint[rows]
            block[mine] = acts[mine]
            joint[rows] = block
        return joint

    def _leaf_rewards(
        self,
        worlds: Any,
        observers: NDArray[np.int64],
        who: NDArray[np.int64] | None = None,
    ) -> NDArray[np.float64]:
        """float[n, P]: every seat's reward in each world (see the module docstring);
        `who` as `draw_seats` gives (None: every seat the playout policy)."""
        if self.value_net:
            if self.settings.horizon:
                self._advance(worlds, self.settings.horizon, who)
            return self._net_rewards(worlds, observers)
        return self._playout(worlds, who)

    def _advance(self, worlds: Any, steps: int, who: NDArray[np.int64] | None) -> None:
        """Play every unfinished world on for `steps` steps with the playout policy."""
        for _ in range(steps):
            live = int((~self.game.is_terminal(worlds)).sum())
            if not live:
                return
            self.playout_steps += live
            self.game.step(worlds, self._joint(worlds, who))

    def _net_rewards(self, worlds: Any, observers: NDArray[np.int64]) -> NDArray[np.float64]:
        game = self.game
        players = game.players(worlds)
        out = win_shares(np.asarray(game.core.scores(worlds))).astype(np.float64)
        live = np.flatnonzero(~game.is_terminal(worlds))
        if live.size:
            assert self.evaluate is not None
            view = game.take(worlds, live)
            obs = game.observe(view, observers[live])
            masks = np.ones((len(live), game.masks(view).shape[2]), bool)
            _, values = self.evaluate(obs, masks)
            out[live] = self._seat_values(values, observers[live], players)
        return out

    @staticmethod
    def _own_values(values: NDArray[np.floating], players: int) -> NDArray[np.float64]:
        v = np.asarray(values, np.float64)
        return np.clip(v if v.ndim == 1 else v[:, 0], 0, 1)

    @staticmethod
    def _seat_values(
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

    def _playout(self, worlds: Any, who: NDArray[np.int64] | None) -> NDArray[np.float64]:
        """Every seat's reward after playing each world on with the playout policy (seat
        by seat as `who` says, `draw_seats`), to the end or for `horizon` steps (the
        worlds are advanced in place)."""
        game, s = self.game, self.settings
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
            self.playout_steps += len(done) - finished
            game.step(current, self._joint(current, None if who is None else who[rows]))
            depth += 1
        out[rows] = game.rewards(current, s.value)
        return out

    # ------------------------------------------------------------------ flat Monte Carlo
    def _flat(self, state: Any, seats: NDArray[np.int64], masks: NDArray[np.bool_]) -> Decision:
        s = self.settings
        n = len(seats)
        legal = [np.flatnonzero(m) for m in masks]
        totals = np.zeros(masks.shape)
        visits = np.zeros(masks.shape)
        if s.seconds is None:
            counts = [max(1, round(s.sims / len(a))) for a in legal]
            self._flat_round(state, seats, legal, counts, totals, visits)
        else:
            start, counts = self.clock(), [max(1, s.batch // len(a)) for a in legal]
            self._flat_round(state, seats, legal, counts, totals, visits)
            while self.clock() - start < s.seconds:
                self._flat_round(state, seats, legal, counts, totals, visits)
        means = np.where(visits > 0, totals / np.maximum(visits, 1), -np.inf)
        actions = pick_best(means, self.rng.random(n))
        own = self._own_choices(state, seats)
        tied = means[np.arange(n), own] == means.max(axis=1)
        actions[tied] = own[tied]
        policies = visits / visits.sum(axis=1, keepdims=True)
        values = np.array([means[i, actions[i]] for i in range(n)])
        q = np.where(visits > 0, totals / np.maximum(visits, 1), np.nan)
        return Decision(actions, policies.astype(np.float32), values, q)

    def _own_choices(self, state: Any, seats: NDArray[np.int64]) -> NDArray[np.int64]:
        """int64[n]: the playout policy's action for seats[i] in game i of `state` (the
        observer's own; a model or a baseline reads only its observation)."""
        joint = self.game.native(state, self.policy(state, self.rng))
        return joint[np.arange(len(seats)), seats].astype(np.int64)

    def _flat_round(
        self,
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
        game = self.game
        bases = np.concatenate([np.full(k, i) for i, k in enumerate(counts)])
        widths = np.array([len(legal[i]) for i in bases.tolist()], np.int64)
        per_batch = max(1, self.settings.batch // int(widths.max()))
        for lo in range(0, len(bases), per_batch):
            base = bases[lo : lo + per_batch]
            drawn = game.determinise(state, base, seats[base], self.rng)
            drawn_who = self.draw_seats(seats[base], game.players(drawn))
            copies = np.repeat(np.arange(len(base)), widths[lo : lo + per_batch])
            j = base[copies]
            a = np.concatenate([legal[i] for i in base.tolist()])
            worlds = game.take(drawn, copies)
            who = None if drawn_who is None else drawn_who[copies]
            joint = self._joint(worlds, who)
            joint[np.arange(len(j)), seats[j]] = a
            game.step(worlds, joint)
            rewards = self._leaf_rewards(worlds, seats[j], who)
            np.add.at(totals, (j, a), rewards[np.arange(len(j)), seats[j]])
            np.add.at(visits, (j, a), 1)
            self.iterations += len(j)
