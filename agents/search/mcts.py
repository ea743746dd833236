"""The search, written once for every game: information-set MCTS with decoupled choices
at every node, a PUCT/UCT root or a Gumbel root, flat Monte Carlo, and leaf evaluation
by playouts or by a network, in waves of batched worlds. `Search` is the entry; the parts
are split by concern as mctx splits them: `base` (Settings, Decision), `tree`,
`selection`, `qtransforms`, `seq_halving`, `leaves`, `loop` and `policies`.

`Search(game, settings, evaluate=...)` searches decisions of a batch of states:
`run(state, games, seats)` -> `Decision` (the action of seat seats[i] in game games[i],
the policy over its actions, the root's value for it, each action's mean reward). Per
decision with more than one legal action, `settings.sims` iterations, each:

1. a world: `game.determinise` redraws what the seat cannot know (the verbs of the
   game's card), so the search reads only what the seat knows;
2. a descent from the root: at each node every seat with a legal action takes a key by
   its own bandit (`agents.search.selection`: decoupled UCT, or PUCT where the node has
   the network's priors; below the root, with `widen` < 1, a seat takes an untried key
   only while it has tried fewer than floor(visits ** widen) there, and with
   `expand="policy"` the untried key of the playout policy's move first), all seats'
   actions are one joint step of the core; a child not seen before is added and the
   descent stops there (or at the end of the game);
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

from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import policies
from .base import C_SCALE, C_VISIT, EXPANSIONS, PICKS, ROOTS, Decision, Evaluate, Settings
from .context import SearchContext
from .qtransforms import sigma_of

__all__ = [
    "C_SCALE",
    "C_VISIT",
    "EXPANSIONS",
    "PICKS",
    "ROOTS",
    "Decision",
    "Evaluate",
    "Search",
    "Settings",
    "sigma_of",
]


class Search(SearchContext):
    """A search over one game (see the module docstring and `SearchContext`)."""

    def run(self, state: Any, games: NDArray[np.int64], seats: NDArray[np.int64]) -> Decision:
        """The decision of seat seats[i] in game games[i] of `state`, for every i."""
        games, seats = np.asarray(games, np.int64), np.asarray(seats, np.int64)
        roots_state = self.game.take(state, games)
        masks = self.game.masks(roots_state)[np.arange(len(games)), seats]  # [n, A]
        n = len(masks)
        if not masks.any(axis=1).all():
            raise ValueError("a seat asked to decide has no legal action (a finished game?)")
        actions = np.argmax(masks, axis=1).astype(np.int64)
        choices = masks / masks.sum(axis=1, keepdims=True)
        values = np.zeros(n)
        q = np.full(masks.shape, np.nan)
        todo = np.flatnonzero(masks.sum(axis=1) > 1)
        self.searches += len(todo)
        timed = self.settings.seconds is not None
        policy = self.policy_function()
        for group in [todo[i : i + 1] for i in range(len(todo))] if timed else [todo]:
            if group.size:
                part = self.game.take(roots_state, group)
                decided = policy(self, part, seats[group], masks[group])
                actions[group], choices[group], values[group], q[group] = decided
        return Decision(actions, choices.astype(np.float32), values, q)

    def policy_function(self) -> policies.Policy:
        """The policy the settings name: flat Monte Carlo, the Gumbel root or ISMCTS."""
        if self.settings.flat:
            return policies.flatmc
        if self.settings.root == "gumbel":
            return policies.gumbel
        return policies.ismcts
