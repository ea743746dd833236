"""The search agents of every game (`flatmc`, `ismcts`, `gumbel`), built by the registry
from a spec such as `ismcts:128:playout=value:horizon=10` or
`gumbel:32:prior=ppo_2p:value=net`.

A search agent reads the game state, through what its seat knows only (the game's
`determinise`), so the loops that hold a state ask it: `act_games(state, games)` in a
turn-based game (the seat to move decides), `act_seats(state, games, seats)` in a
simultaneous one (each listed seat decides without seeing the others' choices of the
step). A PettingZoo env's loop asks `act_env(env, agent_id=None)`, in the AEC and the
parallel envs of every game: the agent named (or an AEC env's agent to move) decides on
the env's game determinised for its seat, so other seats' hidden state is redrawn, never
read. `act_batch` (observations only) refuses. A decision with one legal action costs
nothing.

Budget: `sims` iterations per decision (flat Monte Carlo: playouts), or `seconds=S`
instead: each decision searched alone for S wall seconds (`agents.search.mcts`; at least
one wave). With `sims` the agent is deterministic given its seed and the decisions it is
asked (in the same groups); with `seconds` the work done depends on the machine.

Opponents (flatmc only): `opponents=ppo_2p*2+value*2+random` plays every other seat of
each playout world by one policy of that mixture, drawn per world by the weights (`*W`,
1 if not given; the names are playouts), the agent's own later moves by `playout`: the
action is the best against that population rather than a best reply to `playout` alone.

Tree (ismcts, gumbel): `widen=W` (0 < W <= 1, default 1) widens progressively below the
root: a seat takes an untried key at a node only while it has tried fewer than
floor(visits ** W) there; `expand=policy` takes the untried key of the playout policy's
move first (default `random`: one drawn).

Networks: `prior=<model>` (a shipped model of the game, `agents.models.MODELS`) gives
the priors of PUCT below the root and the logits of the Gumbel root; `value=net` scores
the leaves by that network's value head (the observer's own observation of the leaf's
world), `value=<model>` by another model's. A model trained for another player count
than the game's is refused at the first decision (one ValueError naming the option).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache, partial
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from agents.base import Actions, Agent
from agents.env_agent import env_agent, env_observation
from agents.models import MODELS, TRAINED_ON, trained_players
from agents.spec import (
    MAX_BATCH,
    MAX_SECONDS,
    MAX_SIMS,
    MAX_WAVE,
    AgentKind,
    Option,
    read_mixture,
)
from asara_env.common import batch as batches
from asara_env.common.backend import BACKENDS
from asara_env.common.outcome import share_map
from asara_env.games import GAMES, reward_schemes

from .game import SearchGame, one_torch_thread
from .gumbel import search_game
from .mcts import EXPANSIONS, PICKS, ROOTS, Decision, Evaluate, Search, Settings

NET = "net"  # value=net: the value head of the prior's network
KINDS = ("flatmc", "ismcts", "gumbel")


def value_as_share(
    scheme: Callable[..., NDArray[np.float32]] | None, players: int, values: NDArray[Any]
) -> NDArray[Any]:
    """A value head's `values`, trained on reward `scheme` (a game's reward-scheme function,
    `agents.models.TRAINED_ON`) at `players` seats, on the search's scale, the win share (0
    to 1), through the scheme's declared share map (`asara_env.common.outcome.share_map`:
    ASARA's zero-sum `win` as (v (P - 1) + 1) / P, BASARI's `rank` as 1 - place / (P - 1),
    (v + 1) / 2); a scheme without one leaves them as they are."""
    found = None if scheme is None else share_map(scheme, players)
    return values if found is None else values * found.a + found.b


def network_evaluator(game: str, model: str) -> Evaluate:
    """The search's network callback for shipped model `model` of `game`: the policy's
    log-probabilities as logits and the value head's estimate of the observer's win share
    (the value of the reward it was trained on, `TRAINED_ON`, read as a win share)."""
    from agents.network import load_net

    net = load_net(game, model)
    players = trained_players(game, model)
    scheme = reward_schemes(game)[TRAINED_ON[game][model]]
    one_torch_thread()

    def evaluate(
        observations: NDArray[np.float32], masks: NDArray[np.bool_]
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        priors = net.priors(observations, masks)
        logits = np.log(np.maximum(priors, 1e-30))
        return logits, value_as_share(scheme, players, net.values(observations))

    return evaluate


def env_batch(game: SearchGame, env: Any) -> Any:
    """The game of a PettingZoo env as a one-game core batch of its own: the game's
    `env_state` verb, else a copy of the env's `core` (`env.unwrapped.core`). In the AEC
    form of a simultaneous game it is the position at the start of the step, without the
    actions other agents have given in it."""
    verb = game.verbs.env_state
    if verb is not None:
        return verb(env)
    core = getattr(env.unwrapped, "core", None)
    if core is None:
        raise TypeError(
            f"act_env: {type(env.unwrapped).__name__} shows no core and {game.name}'s search "
            "verbs have no env_state"
        )
    return batches.take(core, np.zeros(1, np.int64))


class GameSearchAgent(Agent[Any]):
    """A search agent of any game; see the module docstring."""

    needs_state = True

    def __init__(
        self,
        seed: int | None = None,
        *,
        game: str,
        kind: str = "ismcts",
        sims: int = 128,
        seconds: float | None = None,
        playout: str = "random",
        value: str = "win",
        horizon: int | None = None,
        c: float | None = None,
        wave: int = 32,
        considered: int = 16,
        root: str | None = None,
        prior: str | None = None,
        backend: str | None = None,
        batch: int = 1024,
        opponents: str = "",
        widen: float = 1.0,
        expand: str = "random",
        pick: str = "root",
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        root = root or ("gumbel" if kind == "gumbel" else "puct")
        if root not in ROOTS:
            raise ValueError(f"root must be one of {ROOTS}, got {root!r}")
        if pick != "root" and root != "gumbel":
            raise ValueError(f"option pick={pick} is the Gumbel root's: use gumbel or root=gumbel")
        self.name = kind
        self.game_name, self.prior_name = game, prior
        self.search_game = search_game(game, backend)
        self.value_model = self._value_model(game, value, prior)
        scheme = "win" if self.value_model is not None else value
        if self.value_model is not None and horizon is None:
            horizon = 0
        default_c = 1.25 if prior is not None else 0.7
        self.settings = Settings(
            sims=sims,
            seconds=seconds,
            wave=wave,
            c=default_c if c is None else c,
            playout=playout,
            horizon=horizon,
            value=scheme,
            root=root,
            considered=considered,
            batch=batch,
            flat=kind == "flatmc",
            opponents=self._mixture(opponents),
            widen=widen,
            expand=expand,
            pick=pick,
        )
        self.search_game.playout(playout, None)  # an unknown playout is refused now
        if self.value_model is None:
            self.search_game.check_scheme(scheme)
        self._checked: set[int] = set()
        super().__init__(seed)

    def _mixture(self, opponents: str) -> tuple[tuple[str, float], ...]:
        """The `opponents` option read: ((playout name, weight), ...), () if empty."""
        if not opponents:
            return ()
        try:
            return read_mixture(opponents, self.search_game.playout_names)
        except ValueError as e:
            raise ValueError(f"option opponents {e}") from None

    @staticmethod
    def _value_model(game: str, value: str, prior: str | None) -> str | None:
        """The model whose value head scores the leaves: `value` itself, or the prior's
        for "net"; None for a reward scheme."""
        if value == NET:
            if prior is None:
                raise ValueError(
                    "option value=net takes the value head of the prior's network: name one "
                    "with prior=, or name a model: value=ppo_2p"
                )
            return prior
        return value if value in MODELS.get(game, {}) else None

    def reseed(self, seed: int | None) -> None:
        super().reseed(seed)
        prior, value = self.prior_name, self.value_model
        evaluate = None
        if prior is not None or value is not None:
            evaluate = self._evaluator(prior, value)
        self.search = Search(
            self.search_game,
            self.settings,
            seed,
            evaluate,
            prior=prior is not None,
            value_net=value is not None,
        )
        self.search.rng = self.rng

    def _evaluator(self, prior: str | None, value: str | None) -> Evaluate:
        if prior is None or value is None or prior == value:
            return network_evaluator(self.game_name, prior or value or "")
        logits_of = network_evaluator(self.game_name, prior)
        values_of = network_evaluator(self.game_name, value)

        def evaluate(
            observations: NDArray[np.float32], masks: NDArray[np.bool_]
        ) -> tuple[NDArray[np.floating], NDArray[np.floating]]:
            return logits_of(observations, masks)[0], values_of(observations, masks)[1]

        return evaluate

    # ------------------------------------------------------------------ counters
    @property
    def searches(self) -> int:
        return self.search.searches

    @property
    def simulations(self) -> int:
        return self.search.iterations

    # ------------------------------------------------------------------ acting
    def act_batch(self, observations: ArrayLike, action_masks: ArrayLike) -> Actions:
        raise TypeError(
            f"{self.name} searches the game and needs its state: ask act_env(env, agent_id) "
            "in a PettingZoo env; the arena asks act_games (turn-based) or act_seats "
            "(simultaneous)"
        )

    def act_games(self, state: Any, games: NDArray[np.int64]) -> Actions:
        """int64[len(games)]: the seat to move's action in each of `games` (turn-based)."""
        games = np.asarray(games, np.int64)
        return self.act_seats(state, games, self.search_game.to_move(state)[games])

    def act_state(self, state: Any) -> int:
        """The seat to move's action in one reference game (a turn-based game's; the
        game's `from_reference` verb makes it a core batch)."""
        convert = self.search_game.verbs.from_reference
        if convert is None:
            raise TypeError(f"{self.game_name}'s search verbs have no from_reference")
        return int(self.act_games(convert(state), np.zeros(1, np.int64))[0])

    def act_env(self, env: Any, agent_id: str | None = None) -> int:
        """The action of `agent_id` (an AEC env: by default its agent to move; a parallel
        env: the agent named) in a PettingZoo env of the game, searched from what that
        agent may see: the env's game (`env_batch`) determinised for its seat, as in the
        arena. A ValueError for an unknown agent or one without a legal action now."""
        agent, seat = env_agent(env, agent_id)
        env_observation(env, agent)  # a ValueError if the agent has no decision now
        state = env_batch(self.search_game, env)
        return int(self.act_seats(state, np.zeros(1, np.int64), np.array([seat]))[0])

    def act_seats(self, state: Any, games: NDArray[np.int64], seats: NDArray[np.int64]) -> Actions:
        """int64[len(games)]: seat seats[i]'s action in game games[i] of `state`."""
        return self.decide(state, games, seats).actions

    def decide(self, state: Any, games: NDArray[np.int64], seats: NDArray[np.int64]) -> Decision:
        """The search's whole answer (actions, policies, root values)."""
        self._check_players(int(state.config.num_players))
        return self.search.run(state, np.asarray(games, np.int64), np.asarray(seats, np.int64))

    def _check_players(self, players: int) -> None:
        if players in self._checked:
            return
        for option, model in (("prior", self.prior_name), ("value", self.value_model)):
            trained = None if model is None else trained_players(self.game_name, model)
            if trained is not None and trained != players:
                raise ValueError(
                    f"option {option}={model}: the model was trained for {trained} players, "
                    f"this game has {players}"
                )
        self._checked.add(players)


@cache
def shared_kinds(game: str) -> Mapping[str, AgentKind]:
    """The registry's `AgentKind`s of the search agents of `game` (flatmc, ismcts,
    gumbel), with the options each takes (the registry adds them to every game's)."""
    if game not in GAMES:  # a game without a card has no core to search
        return {}
    models = tuple(sorted(MODELS.get(game, {})))
    playouts = search_game(game).playout_names
    options: dict[str, Option] = {
        "sims": Option("int", low=1, high=MAX_SIMS),
        "seconds": Option("float", low=0, low_open=True, high=MAX_SECONDS),  # instead of sims
        "playout": Option("str", choices=playouts),
        "value": Option("str", choices=(*reward_schemes(game), NET, *models)),
        "horizon": Option("int", low=0),
        "backend": Option("str", choices=BACKENDS),
        "batch": Option("int", low=1, high=MAX_BATCH),
        "c": Option("float", low=0),
        "wave": Option("int", low=1, high=MAX_WAVE),
        "prior": Option("str", choices=models),
    }
    tree = {
        **options,
        "root": Option("str", choices=ROOTS),
        "considered": Option("int", low=1),
        "widen": Option("float", low=0, low_open=True, high=1),  # progressive widening
        "expand": Option("str", choices=EXPANSIONS),  # the untried key taken first
        "pick": Option("str", choices=PICKS),  # the Gumbel root's move
    }
    flat = {k: v for k, v in options.items() if k not in ("c", "wave", "prior")}
    flat["opponents"] = Option("mix", choices=playouts)
    takes = {"flatmc": flat, "ismcts": tree, "gumbel": tree}
    return {
        kind: AgentKind(partial(_build, game, kind), takes[kind], main="sims") for kind in KINDS
    }


def _build(game: str, kind: str, seed: int | None, **options: Any) -> GameSearchAgent:
    return GameSearchAgent(seed, game=game, kind=kind, **options)
