"""Search agents for ASARA: determinised flat Monte Carlo on the batched core.

A search agent simulates the game, so unlike the baselines it reads the game state, not
the observation, but only through what the deciding seat knows: every decision begins by
drawing determinisations of the hidden information (`asara_env.asara.hidden.determinise`: the
others' hands, the draw pile, the face-down buyers, the unknown lighted windows and all
future chance redrawn from the agent's own generator). Two states the seat cannot tell
apart give the same decision, whatever the true hidden cards (tested).

FlatMCAgent ("flatmc"), per decision with A > 1 legal actions:

1. draw k determinisations as one core batch: unguided on the numba backend on the
   core's arrays (`asara_env.asara.hidden_core`, the same distribution as
   `hidden.determinise`, its own random stream), else with `hidden.determinise` and
   `from_reference`;
2. repeat each A times and play every legal action once in every determinisation (the
   same chance for all A actions of a determinisation: common random numbers);
3. play all k*A games on at once in the core with the playout policy, to the end, or for
   `horizon` decisions and then score them with `estimate` (the prestige now, plus the
   final scoring as if the game ended now, plus the towers' end-of-year points once per
   end of year to come; compiled on the numba backend: `agents.asara.estimate_compiled`);
4. score each action by the mean reward of the deciding seat (`value`: the `win`, `rank`
   or `margin` scheme of asara_env.common.outcome) and play the best (ties broken with
   the agent's generator).

Budget: `sims` playouts per decision (k = max(1, round(sims / A)), so at least one per
legal action), in playout batches of at most `batch` games; several games' decisions
asked at once (`act_states`, `act_core`: the arena asks for all the games where the agent
is to move) share the batches, which amortises numpy's per-call cost. Or `seconds` per
decision: rounds of max(1, batch // A) determinisations until the time is spent, one game
at a time. A decision with one legal action costs nothing (no search, no random numbers).
With `sims` the agent is deterministic given its seed and the decisions it is asked (in
the same groups); with `seconds` the number of rounds depends on the machine.

Playout policies (`playout`): "random" (uniform legal actions, no observation needed) or
any registered agent name (its `act_batch` on the core's observations, seeded from the
agent's seed), or an `Agent` instance (e.g. a `PolicyAgent`). On the numba backend, in
games without expansions, the heuristic agents (towers, greedy, tall) choose through
`agents.asara.heuristic_compiled`: the same moves and random numbers, compiled. Random
playouts are weak here (heads-up against towers they won 0 of 10 games at 128 simulations
to the end, 2 of 10 at 256 with horizon 20); the setting
measured in docs/performance.md is `flatmc:128:playout=towers:horizon=10:value=margin`: ten
decisions of towers against towers after each action, then `estimate`.

Guided by a trained network (`agents.network`, the `train` extra): `value=<model>` (a
shipped model, `ppo_2p`) or `value=net` (the network named by `prior`) scores the
playouts at the horizon (by default 0: no playout at all) with the model's value head
instead of `estimate`: the value of the searching seat's own observation of the world,
its win share, the rest shared evenly by the other seats; finished games by the `win`
scheme, the one the model was trained for. The network sees a determinisation of what
the searching seat knows, nothing more. `prior=<model>` (ismcts: PUCT priors) also names
the network of `value=net`.

Where agents are played: `agents.asara.arena.play_batch` (tournaments, ladder) calls
`act_games` (`act_core`) for the games where the agent is to move; the AEC env paths
(`agents.asara.arena.play_game`, `asara play`) call `act_env`. `act_batch` (observations
only) refuses: there is no state to search.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from pettingzoo import AECEnv

from agents.asara.heuristic import HeuristicAgent, Plan
from agents.base import Actions, Agent, pick_best
from agents.env_agent import env_agent, env_observation
from agents.models import MODELS
from agents.network import PolicyValueNet, load_net
from agents.registry import make_agent
from asara_env.asara.bridge import from_reference, to_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.core import is_terminal, legal_action_mask, scores, take
from asara_env.asara.core.outcome import REWARD_SCHEMES, terminal_rewards
from asara_env.asara.core.state import CoreState
from asara_env.asara.hidden import determinise
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_from_dict
from asara_env.asara.reference.state import State
from asara_env.common.backend import resolve_backend
from asara_env.common.batch import concatenate
from asara_env.common.outcome import check_scheme
from asara_env.common.sampling import uniform_legal
from asara_env.games import load_core

from .search_verbs import estimate, estimate_compiled, heuristic_compiled, hidden_core

__all__ = ["NET", "FlatMCAgent", "SearchAgent", "estimate", "heuristic_compiled"]

COMPACT_BELOW = 0.6  # playouts drop finished games once fewer than this share are live
NET = "net"  # value=net: the value head of the prior's network


class SearchAgent(Agent[CoreState]):
    """Base of the agents that search the game: they act on states, not observations."""

    needs_state = True

    def act_batch(self, observations: ArrayLike, action_masks: ArrayLike) -> Actions:
        raise TypeError(
            f"{self.name} searches the game and needs its state: call act_state, act_core "
            "or act_env (agents.asara.arena does)"
        )

    def act_state(self, state: State) -> int:
        """The action of the seat to move in a reference state (reads only what it knows)."""
        raise NotImplementedError

    def act_core(self, state: CoreState, rows: Sequence[int] | NDArray[np.int64]) -> Actions:
        """int64[len(rows)]: the action in each of games `rows` of a core batch, in order.
        The games' chance tapes are not carried over (`to_reference` without a generator)."""
        return np.array([self.act_state(to_reference(state, int(i))) for i in rows], np.int64)

    def act_games(self, state: CoreState, games: NDArray[np.int64]) -> Actions:
        """The shared opponents' loop (asara_env.common.opponents): `act_core` on the core
        state (the arena, the training VecEnv)."""
        if not isinstance(state, CoreState):
            raise TypeError(
                f"{self.name} plays on the core's batches (the arena, the VecEnv), "
                f"not on {type(state).__name__}; use act_env with a PettingZoo env"
            )
        return self.act_core(state, games)

    def act_env(self, env: AECEnv, agent_id: str | None = None) -> int:
        """The action of `agent_id` (by default the agent to move) in a PettingZoo ASARA
        env, searched from what its seat knows; a ValueError if it has no action now."""
        agent, _ = env_agent(env, agent_id)
        env_observation(env, agent)  # a ValueError if the agent has no decision now
        return self.act_state(state_from_dict(env.unwrapped.save_game()))


class FlatMCAgent(SearchAgent):
    """Determinised flat Monte Carlo on the core; see the module docstring. `backend`:
    the core the playouts are stepped and observed on ("numpy", "numba", None: the
    default, `asara_env.common.backend.resolve_backend`); the games are the same on both."""

    name = "flatmc"

    def __init__(
        self,
        seed: int | None = None,
        sims: int = 128,
        seconds: float | None = None,
        playout: str | Agent[object] = "random",
        value: str = "win",
        batch: int = 512,
        horizon: int | None = None,
        backend: str | None = None,
        prior: str | None = None,
    ):
        if sims < 1 or batch < 1:
            raise ValueError(f"sims and batch must be at least 1, got {sims} and {batch}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be positive, got {seconds}")
        if horizon is not None and horizon < 0:
            raise ValueError(f"horizon must be >= 0 decisions, got {horizon}")
        self.prior_net = None if prior is None else load_net("asara", prior)
        self.value_net = self._value_net(value, prior)
        if self.value_net is not None and horizon is None:
            horizon = 0  # the network's value replaces the playouts
        self.sims, self.seconds, self.batch, self.horizon = int(sims), seconds, int(batch), horizon
        self.value = "win" if self.value_net is not None else check_scheme(value, REWARD_SCHEMES)
        self.playout_name = playout if isinstance(playout, str) else playout.name
        self._playout_spec = playout
        self.simulations = 0  # playouts run so far (for rates)
        self._roots: dict[int, tuple[State, CoreState]] = {}  # `_root`'s, for one act_states
        # per reference state of an act_core call, the core batch and row it was read from
        self._given: dict[int, tuple[State, CoreState, int]] = {}
        self.searches = 0  # decisions searched (more than one legal action)
        self._plan_of: tuple[Agent[object] | None, GameConfig, Plan | None] | None = None
        self.playout_decisions = 0  # core decisions stepped in playouts (for rates)
        self.backend = resolve_backend(backend)
        self.core = load_core("asara", self.backend)  # steps and observes the playouts
        super().__init__(seed)

    @staticmethod
    def _value_net(value: str, prior: str | None) -> PolicyValueNet | None:
        """The network whose value head scores the horizon: `value` names a shipped model,
        or is "net" (the `prior`'s); None for a reward scheme."""
        if value in REWARD_SCHEMES:
            return None
        if value == NET:
            if prior is None:
                raise ValueError(
                    "value=net takes the value of the prior's network: name one with prior= "
                    "(ismcts), or name the model itself: value=ppo_2p"
                )
            return load_net("asara", prior)
        if value not in MODELS["asara"]:
            raise ValueError(
                f"value must be a reward scheme {sorted(REWARD_SCHEMES)}, {NET!r} or a "
                f"shipped model {sorted(MODELS['asara'])}, got {value!r}"
            )
        return load_net("asara", value)

    def reseed(self, seed: int | None) -> None:
        super().reseed(seed)
        self.policy = self._make_playout(self._playout_spec, seed)

    @staticmethod
    def _make_playout(spec: str | Agent[object], seed: int | None) -> Agent[object] | None:
        if not isinstance(spec, str):
            return spec
        if spec == "random":
            return None
        if seed is not None:  # the playout agent's own seed, derived from the searcher's
            seed = int(np.random.SeedSequence([seed, 1]).generate_state(1)[0])
        return make_agent("asara", spec, seed)

    # ---------------------------------------------------------------- the decision
    def act_state(self, state: State) -> int:
        return int(self.act_states([state])[0])

    def act_core(self, state: CoreState, rows: Sequence[int] | NDArray[np.int64]) -> Actions:
        """As `SearchAgent.act_core`, with the games searched together (`act_states`); the
        unguided worlds on the numba backend are drawn from the core's own rows (`_root`)."""
        states = [to_reference(state, int(i)) for i in rows]
        self._given = {id(s): (s, state, int(i)) for s, i in zip(states, rows)}
        try:
            return self.act_states(states)
        finally:
            self._given = {}

    def act_states(self, states: list[State]) -> np.ndarray:
        """int64[len(states)]: the action of the seat to move in each state. With a `sims`
        budget the games' simulations share playout batches of up to `batch` games (the
        decisions are those of one search per game, but the random numbers are drawn in
        batch order); with `seconds` each game is searched in turn."""
        if any(s.is_over for s in states):
            raise ValueError("a game is over: there is no decision to take")
        self._roots.clear()
        legal = [np.array(self._legal(s), np.int64) for s in states]
        chosen = np.array([a[0] for a in legal], np.int64)
        todo = [i for i, a in enumerate(legal) if len(a) > 1]
        if not todo:
            return chosen
        if self.seconds is not None:
            for i in todo:
                chosen[i] = self._timed_search(states[i], legal[i], self.seconds)
            return chosen
        totals = {i: np.zeros(len(legal[i])) for i in todo}
        counts = {i: np.zeros(len(legal[i])) for i in todo}
        for batch in self._batches([(i, len(legal[i])) for i in todo]):
            jobs = [(states[i], legal[i], k) for i, k in batch]
            for (i, _), values in zip(batch, self._simulate(jobs)):
                totals[i] += values.sum(axis=0)
                counts[i] += len(values)
        for i in todo:
            chosen[i] = self._best(legal[i], totals[i] / counts[i])
        return chosen

    def _legal(self, state: State) -> list[int]:
        """The legal actions of the seat to move, ascending: read from the core row's mask
        where `act_core` took the state from one (the same actions), else the reference
        rules'."""
        given = self._given.get(id(state))
        if given is not None and given[0] is state:
            legal: list[int] = np.flatnonzero(given[1].legal[given[2]]).tolist()
            return legal
        return legal_actions(state)

    def _best(self, actions: np.ndarray, means: np.ndarray) -> int:
        self.searches += 1
        return int(actions[pick_best(means[None], self.rng.random(1))[0]])

    def _batches(self, games: list[tuple[int, int]]) -> Iterator[list[tuple[int, int]]]:
        """Lists of (game, determinisations) whose playouts (determinisations x legal
        actions) fill batches of at most `batch` games; a game needs max(1, round(sims /
        A)) determinisations, split when they alone overflow a batch."""
        pieces = []
        for i, n in games:
            left, most = max(1, round(self.sims / n)), max(1, self.batch // n)
            while left > 0:
                pieces.append((i, min(most, left), n))
                left -= most
        batch: list[tuple[int, int]] = []
        rows = 0
        for i, k, n in pieces:
            if batch and rows + k * n > self.batch:
                yield batch
                batch, rows = [], 0
            batch.append((i, k))
            rows += k * n
        yield batch

    def _timed_search(self, state: State, actions: np.ndarray, seconds: float) -> int:
        """Rounds of max(1, batch // A) determinisations until `seconds` are spent."""
        start, k = time.perf_counter(), max(1, self.batch // len(actions))
        totals, counts = np.zeros(len(actions)), 0
        while counts == 0 or time.perf_counter() - start < seconds:
            values = self._simulate([(state, actions, k)])[0]
            totals, counts = totals + values.sum(axis=0), counts + len(values)
        return self._best(actions, totals / counts)

    def _simulate(self, jobs: list[tuple[State, np.ndarray, int]]) -> list[np.ndarray]:
        """Per job (state, its legal actions, k): float[k, A], the deciding seat's reward
        after each action in k determinisations, all jobs' playouts in one core batch."""
        worlds = self._worlds([(s, k) for s, _, k in jobs])
        first = np.cumsum([0] + [k for _, _, k in jobs])
        world = np.concatenate(
            [np.repeat(np.arange(k) + f, len(a)) for (_, a, k), f in zip(jobs, first)]
        )
        games = take(worlds, world)
        self.core.step(games, np.concatenate([np.tile(a, k) for _, a, k in jobs]))
        seats = np.concatenate([np.full(k * len(a), s.seat) for s, a, k in jobs])
        rewards = self.playout(games, seats)
        mine = rewards[np.arange(len(seats)), seats]
        self.simulations += len(seats)
        ends = np.cumsum([k * len(a) for _, a, k in jobs])
        return [v.reshape(k, len(a)) for v, (_, a, k) in zip(np.split(mine, ends[:-1]), jobs)]

    def _worlds(self, jobs: list[tuple[State, int]]) -> CoreState:
        """One core batch of k determinisations of each job's (state, k), in job order, for
        the seat to move in it: on the numba backend, unguided, drawn on the core's arrays
        (`asara_env.asara.hidden_core`) from the state's core row (`_root`); else drawn by
        `hidden.determinise` and converted (so the guided search decides alike on both
        backends)."""
        guided = self.prior_net is not None or self.value_net is not None
        if self.backend != "numba" or guided:
            return from_reference(
                [determinise(s, s.seat, self.rng) for s, k in jobs for _ in range(k)]
            )
        roots = [self._root(s) for s, _ in jobs]
        base = roots[0] if len(roots) == 1 else concatenate(roots)
        counts = [k for _, k in jobs]
        games = np.repeat(np.arange(len(jobs)), counts)
        viewers = np.repeat([s.seat for s, _ in jobs], counts)
        return hidden_core().determinise_games(base, games, viewers, self.rng)

    def _root(self, state: State) -> CoreState:
        """`state` as a one-game core batch, once per call of `act_states`: the row of the
        core batch act_core read it from, else converted (`from_reference`). The worlds are
        the same either way: they keep every field but the chance tape and the caches,
        which the determinisation redraws and recomputes (tested)."""
        key = id(state)
        if key not in self._roots or self._roots[key][0] is not state:
            given = self._given.get(key)
            if given is not None and given[0] is state:
                self._roots[key] = (state, take(given[1], np.array([given[2]], np.int64)))
            else:
                self._roots[key] = (state, from_reference([state]))
        return self._roots[key][1]

    def playout(self, games: CoreState, observers: NDArray[np.int64]) -> NDArray[np.float64]:
        """float[B, P]: the reward (the `value` scheme) of every seat in every game played
        to its end with the playout policy, or after `horizon` decisions its `leaf_rewards`
        for the searching seat `observers[i]` (the batch is advanced in place; finished
        games are dropped as it goes)."""
        rows = np.arange(len(games.seat))
        out = np.zeros((len(rows), games.config.num_players))
        depth = 0
        while True:
            done = is_terminal(games)
            if self.horizon is not None and depth >= self.horizon:
                out[rows] = self.leaf_rewards(games, observers[rows])
                return out
            finished = int(np.count_nonzero(done))
            live = None if finished == 0 else ~done  # None: no game has ended
            if finished == len(done) or finished / len(done) > 1 - COMPACT_BELOW:
                out[rows[done]] = terminal_rewards(scores(games)[done], self.value)
                if finished == len(done):
                    return out
                rows, games, live = rows[~done], take(games, np.flatnonzero(~done)), None
            self.playout_decisions += len(done) - finished
            self.core.step(games, self._playout_actions(games, live))
            depth += 1

    def leaf_rewards(self, games: CoreState, observers: NDArray[np.int64]) -> NDArray[np.float64]:
        """float[B, P]: the rewards of finished games; of the others, those of their
        `estimate`, or with a value network its value for the observer's observation (the
        searching seat's win share) and the rest of the share split evenly among the
        other seats."""
        if self.value_net is None:
            return terminal_rewards(self._estimate(games), self.value).astype(np.float64)
        live = ~is_terminal(games)
        if not live.any():
            return terminal_rewards(estimate(games), self.value).astype(np.float64)
        out = terminal_rewards(scores(games), self.value).astype(np.float64)
        rows = np.flatnonzero(live)
        view = take(games, rows)
        mine = np.clip(self.value_net.values(self.core.observe(view, observers[rows])), 0, 1)
        players = games.config.num_players
        out[rows] = ((1 - mine) / (players - 1))[:, None]
        out[rows, observers[rows]] = mine
        return out

    def _estimate(self, games: CoreState) -> NDArray[np.int64]:
        """`estimate(games)`, compiled on the numba backend (`agents.asara.estimate_compiled`)."""
        if self.backend == "numba":
            return estimate_compiled().estimate(games)
        return estimate(games)

    def _playout_actions(self, games: CoreState, live: NDArray[np.bool_] | None) -> np.ndarray:
        """int64[B]: the playout policy's action in every game, the games not `live`
        (None: all are) given a placeholder they ignore."""
        masks = legal_action_mask(games)
        if live is not None:  # finished games ignore their action; keep their rows pickable
            masks = masks.copy()
            masks[~live, 0] = True
        if self.policy is None:
            return uniform_legal(masks, self.rng.random(len(masks)))
        if live is None:
            every = np.arange(len(masks))
            return np.asarray(self._policy_actions(games, every, masks), np.int64)
        actions = np.zeros(len(masks), np.int64)
        rows = np.flatnonzero(live)
        actions[rows] = self._policy_actions(games, rows, masks[rows])
        return actions

    def _policy_actions(
        self, games: CoreState, rows: NDArray[np.int64], masks: NDArray[np.bool_]
    ) -> Actions:
        """int64[len(rows)]: the playout policy's action in each of games `rows` (not
        finished), whose legal actions are `masks`."""
        assert self.policy is not None
        plan = self._compiled_plan(games.config)
        if plan is None:
            seats = games.seat[rows].astype(np.int64)
            return self.policy.act_batch(self.core.observe_games(games, rows, seats), masks)
        u = self.policy.rng.random(len(rows))  # the same choices and random numbers as
        return heuristic_compiled().choose_games(plan, games, rows, masks, u)  # act_batch

    def _compiled_plan(self, config: GameConfig) -> Plan | None:
        """The plan of a heuristic playout policy whose choice the numba backend computes
        compiled (`agents.asara.heuristic_compiled`), None where the policy's own
        `act_batch` runs."""
        policy, known = self.policy, self._plan_of
        if known is None or known[0] is not policy or known[1] is not config:
            known = self._plan_of = (policy, config, self._find_plan(config))
        return known[2]

    def _find_plan(self, config: GameConfig) -> Plan | None:
        """`_compiled_plan`, looked up (once per policy and configuration)."""
        policy = self.policy
        if self.backend != "numba" or not isinstance(policy, HeuristicAgent):
            return None
        if type(policy).scores is not HeuristicAgent.scores:
            return None
        return policy.plan if heuristic_compiled().supports(config) else None
