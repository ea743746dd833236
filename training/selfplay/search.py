"""The one place where the trainer's self-play calls a search: `make_searcher(settings,
model, rng)` -> a `Searcher` (training/selfplay/play.py) by the name `settings.search`.

- "gumbel": the shared search's Gumbel root (agents/search/) at `settings.simulations`
  simulations per decision, guided by the network being trained (its policy the prior;
  the leaves scored by its value head with `settings.leaf == "net"`, or by playouts of
  the policy `settings.playout` to the game's end with "playout": a fixed playout policy,
  e.g. a shipped model, makes a teacher that does not depend on the value head), each
  decision searched from the deciding seat's information set (determinised), BASARI's
  simultaneous choices as the shared search treats them, sigma's scale
  `settings.c_scale`. The action is the root's choice, the target its improved policy
  (completed Q-values), not its visit counts.
- "flat": flat Monte Carlo (agents/search/mcts.py): every legal action of the deciding
  seat played in max(1, round(simulations / A)) determinised worlds, the rest of each game
  by playouts of `settings.playout`, the action of best mean reward played and taken as
  the target (a one-hot policy): a search that does not use the network at all, whose
  choices the network is distilled towards. With `settings.playout_mix` (the spec's
  `opponents=value+random+ppo_2p*2`) the other seats of each world are played by one policy of that
  mixture each, drawn by its weights, and the deciding seat's own later moves by
  `settings.playout`: the action is the best against the population, not a best response
  to one policy. Its playouts are scored by `settings.search_reward` (the spec's `value=`):
  `win` by default; BASARI's `margin` (points over the mean) tells actions apart where
  every playout of a decision ends in the same winner, which `win` scores alike (ties
  that the search would break at random). The target (`settings.flat_target`, `target=`):
  "improved" (the default), the Gumbel root's improved policy with every legal action
  visited, softmax(logits + (C_VISIT + n) * c_scale * q) over the legal actions, the
  logits the network's, q each action's mean playout reward and n the playouts of each:
  the network's policy moved towards the actions the search found better, by as much as
  the search has seen (an action a noisy search ranks first by a hair keeps about its
  prior); "best", the played action one-hot.
- "prior": no search, a control: the action drawn from the network's policy, the target
  that policy itself (the value head learns from the outcomes, the policy has nothing to
  learn from).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from asara_env.common.outcome import share_map as declared_share_map
from training.imitation import Decisions

from .evaluator import NetEvaluator
from .play import Decided, Searcher, WorkerSettings


def prior_searcher(model: Any, rng: np.random.Generator) -> Searcher:
    """The "prior" control (module docstring)."""
    from agents.network import PolicyValueNet  # `agents` is imported only when playing

    net = PolicyValueNet(model, "self-play")

    def search(state: Any, decisions: Decisions) -> Decided:
        _, _, observations, masks = decisions
        policies = net.priors(observations, masks).astype(np.float32)
        cumulative = np.cumsum(policies, axis=1)
        draws = rng.random(len(policies)) * cumulative[:, -1]
        actions = (cumulative <= draws[:, None]).sum(axis=1).astype(np.int64)
        targets = np.ones(len(actions), bool)
        return actions, policies / policies.sum(axis=1, keepdims=True), targets

    return search


NET_LEAF, PLAYOUT_LEAF = "net", "playout"  # WorkerSettings.leaf
FLAT = "flat"  # the flat Monte Carlo searcher's name
LEAVES = (NET_LEAF, PLAYOUT_LEAF)


def share_map(scheme: Callable[..., NDArray[Any]], players: int) -> tuple[float, float] | None:
    """(a, b) with a * reward + b the win share for every outcome without ties, or None
    where the scheme's rewards are no such function of the win share (`margin`, `rank` at
    3 or 4 players). The search scores finished games and reads values on the win-share
    scale; the network's values are on the run's reward scheme's."""
    found = declared_share_map(scheme, players)  # declared in asara_env/common/outcome.py
    return (found.a, found.b) if found is not None and found.exact else None


class GumbelSearcher:
    """The shared search's Gumbel root guided by `model` (module docstring); its
    `evaluator` counts the network's evaluations."""

    def __init__(self, settings: WorkerSettings, model: Any, rng: np.random.Generator):
        from agents.search.gumbel import search_game  # imported when playing
        from asara_env.games import reward_schemes

        from .network import seat_policy

        players = int(settings.config.num_players)
        mapped = share_map(reward_schemes(settings.game)[settings.reward], players)
        if mapped is None:
            raise ValueError(f"the search cannot read values of the reward {settings.reward!r}")
        self.settings, self.rng = settings, rng
        self.game = search_game(settings.game, settings.backend)
        self.evaluator = NetEvaluator(seat_policy(model), *mapped)

    def __call__(self, state: Any, decisions: Decisions) -> Decided:
        """Each decision searched in full with probability `full` (its improved policy a
        target), else at `fast` simulations (playout cap randomisation)."""
        s = self.settings
        games, seats, _, masks = decisions
        full = np.ones(len(games), bool)
        if s.full < 1:
            full = self.rng.random(len(games)) < s.full
        actions = np.zeros(len(games), np.int64)
        policies = np.zeros(masks.shape, np.float32)
        for rows, sims in ((np.flatnonzero(full), s.simulations), (np.flatnonzero(~full), s.fast)):
            if len(rows):
                actions[rows], policies[rows] = self._search(state, games[rows], seats[rows], sims)
        return actions, policies, full

    def _search(
        self, state: Any, games: NDArray[np.int64], seats: NDArray[np.int64], simulations: int
    ) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
        from agents.search.gumbel import gumbel_search

        s = self.settings
        decision = gumbel_search(
            self.game,
            state,
            seats,
            self.evaluator,
            simulations,
            self.rng,
            games=games,
            c_scale=s.c_scale,
            value_net=s.leaf == NET_LEAF,
            playout=s.playout,
        )
        return decision.actions, decision.policies


IMPROVED, BEST = "improved", "best"  # WorkerSettings.flat_target
FLAT_TARGETS = (IMPROVED, BEST)


def improved_policy(
    logits: NDArray[np.floating],
    masks: NDArray[np.bool_],
    q: NDArray[np.floating],
    visits: NDArray[np.floating],
    c_scale: float,
) -> NDArray[np.float32]:
    """float32[n, A]: softmax(logits + sigma(q)) over each row's legal actions, sigma the
    Gumbel root's (`agents.search.mcts.sigma_of`: q a win share as it is, a row of another
    scale rescaled to [0, 1] over its legal actions, times (C_VISIT + visits) * c_scale);
    q: every legal action's mean reward; visits: float[n], the playouts of each action."""
    from agents.search.mcts import sigma_of

    sigma = sigma_of(np.nan_to_num(np.asarray(q, np.float64)), masks, visits, c_scale)
    z = np.where(masks, np.asarray(logits, np.float64) + sigma, -np.inf)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


def flat_searcher(settings: WorkerSettings, model: Any, rng: np.random.Generator) -> Searcher:
    """Flat Monte Carlo over playouts of `settings.playout` (module docstring)."""
    from agents.search.gumbel import search_game  # imported when playing
    from agents.search.mcts import Search, Settings

    from .network import seat_policy

    policy = seat_policy(model)

    game = search_game(settings.game, settings.backend)
    seed = int(rng.integers(2**63))
    flat = Search(
        game,
        Settings(
            sims=settings.simulations,
            playout=settings.playout,
            flat=True,
            opponents=settings.playout_mix,
            value=settings.search_reward,
        ),
        seed,
    )
    flat.rng = rng

    def search(state: Any, decisions: Decisions) -> Decided:
        games, seats, observations, masks = decisions
        decided = flat.run(state, games, seats)
        if settings.flat_target == BEST:
            policies = np.zeros(masks.shape, np.float32)
            policies[np.arange(len(decided.actions)), decided.actions] = 1.0
            return decided.actions, policies, np.ones(len(policies), bool)
        with torch.no_grad():
            obs = torch.as_tensor(np.ascontiguousarray(observations, np.float32))
            logits = policy.logits(obs).numpy()
        visits = np.maximum(1, np.rint(settings.simulations / masks.sum(axis=1)))
        improved = improved_policy(logits, masks, decided.q, visits, settings.c_scale)
        return decided.actions, improved, np.ones(len(improved), bool)

    return search


SEARCHERS: dict[str, Callable[[WorkerSettings, Any, np.random.Generator], Searcher]] = {
    "gumbel": GumbelSearcher,
    FLAT: flat_searcher,
    "prior": lambda settings, model, rng: prior_searcher(model, rng),
}


def make_searcher(settings: WorkerSettings, model: Any, rng: np.random.Generator) -> Searcher:
    """The searcher named `settings.search`, guided by `model`, drawing from `rng`."""
    return SEARCHERS[settings.search](settings, model, rng)
