"""Every game of the package as an OpenSpiel game (`pip install "asara-env[openspiel]"`,
Python 3.11-3.13). Importing this module imports `pyspiel` and registers each game whose
card names a `spiel` class as the Python game `python_<name>`:

    import pyspiel
    import asara_env.integrations.openspiel  # registers python_asara, python_basari

    game = pyspiel.load_game("python_asara", {"players": 3, "variant": "pro",
                                              "expansions": "genie+gifts", "seed": 7})
    state = game.new_initial_state()
    state.apply_action(5)  # the chance node: deal 5 of the seed's deals
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

The games' rules stay the package's: a state holds one game in the game's PettingZoo env
(its card's `spiel` class, `asara_env/<game>/spiel.py`), which moves, observes, scores,
saves and determinises it. docs/openspiel.md has the table of what works.

- Parameters: `players` (2-4), `reward` (the env's reward scheme: "win" or "rank"; the
  "margin" schemes have no bound to give OpenSpiel), `seed` and `deals` (below) and the
  game's own: ASARA's `variant` ("basic"/"pro") and `expansions` (joined by "+", since
  OpenSpiel's game strings separate parameters with commas: "genie", "gifts",
  "genie+gifts"; "" for none), BASARI's `start_mode` ("choose"/"random").
- Game type: ASARA is SEQUENTIAL, BASARI SIMULTANEOUS (`apply_actions`, one id per
  player; NOOP for a player without a decision; `pyspiel.convert_to_turn_based` gives its
  sequential form); both IMPERFECT_INFORMATION. Chance: EXPLICIT_STOCHASTIC with one
  chance node, the deal. All of a game's chance (ASARA's shuffles and draws from its
  seeded generator, BASARI's dice and coins as counter-based draws of the game seed)
  follows from one game seed, so the initial state is a chance node with `deals` equally
  likely outcomes: outcome k is the game the env deals with `reset(seed=seed)` (k = 0)
  or its k-th game after that (`derived_seed(seed, k)`). Exposing each draw as a chance
  node would re-state outside the engines where and how they draw; OpenSpiel's
  SAMPLED_STOCHASTIC mode cannot serialise a Python game (it asks for a generator state
  a Python game cannot give). Utility and its bounds come from the reward scheme: ASARA
  "win" and "rank" and BASARI "rank" ZERO_SUM in [-1, 1], BASARI "win" CONSTANT_SUM 1 in
  [0, 1]; rewards arrive at the end (TERMINAL), as the exact fractions the env's float32
  rewards round (`exact_rewards`).
- States: `legal_actions`, `action_to_string` (the game's action names), `returns` and
  `rewards` (the env's), `observation_tensor` and `information_state_tensor` (both the
  game's own encoder, the env's observation: everything the seat may know and nothing
  more; it is the seat's knowledge, not a perfect-recall record of the history),
  `observation_string` and `information_state_string` (a digest of that observation; the
  latter also counts the moves, so that positions at different moves never share it),
  `__str__` (the whole game: its saved game as JSON), `clone`, `serialize` (OpenSpiel
  pickles a Python state's attributes; the game pickles as its saved game,
  docs/<game>/state.md, and is rebuilt through the env's `load_game`) and
  `resample_from_infostate(player, sampler)` (the game as the player may imagine it,
  through the game's determinisation; the sampler's numbers seed it), which OpenSpiel's
  Python IS-MCTS bot calls. `pyspiel.serialize_game_and_state` and
  `pyspiel.deserialize_game_and_state` (or `pickle`) carry a state across processes
  once this module is imported there, between processes that trust each other only.
- Security: OpenSpiel serialises a Python game's state as a pickle (`pickle.dumps` of the
  state's `__dict__`), and `deserialize_state`, `deserialize_game_and_state` and
  `pickle.loads` unpickle it: a crafted string runs any code it likes while it is read,
  before this module sees anything. Never give them a string from anyone you do not
  trust (a network, an upload, a file of unknown origin). Across a trust boundary carry
  the saved game instead, `json.dumps(state.world.save())`, and read it with
  `game.load_state(json.loads(text))`: plain JSON, checked field by field by the game's
  engine. What the unpickled attributes may hold is checked as they are set (the
  adapter's own types and shapes: the game's world of this game's parameters, none
  after a dealt history; returns and rewards of one finite value per player within the
  utility's bounds; a move count within the game's length; no other attribute), which
  catches a damaged string but cannot make an untrusted one safe.
- Bounds: `deals` is at most `MAX_DEALS` (the chance node lists every outcome), and a
  chance outcome outside 0..deals-1 is refused.
- `game.load_state(saved)`: a state holding a game the package saved, in any format the
  game's env `load_game` reads (an env's `save_game()`, a game record, a terminal game's
  `--save`, the web page's download), for a game whose parameters match its
  configuration; its OpenSpiel history starts there.
- `Resampler(seed)`: that resampling drawn from a seeded generator, for
  `ISMCTSBot.set_resampler` (the bot's own draws from an unseeded sampler, so that its
  games differ from run to run); `TurnBasedResampler(seed)` the same for BASARI's
  turn-based form, where the others' choices of the step already made are hidden too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from asara_env import games
from asara_env.common import outcome
from asara_env.common.extras import missing_extra
from asara_env.common.seeding import derived_seed

try:
    import pyspiel
except ModuleNotFoundError as error:  # one line naming the extra (asara_env.common.extras)
    raise (missing_extra(error, "asara_env.integrations.openspiel") or error) from error

__all__ = [
    "Resampler",
    "SHARED_PARAMETERS",
    "SpielGame",
    "SpielState",
    "TurnBasedResampler",
    "World",
    "register_games",
    "short_name",
]

SHARED_PARAMETERS: dict[str, int | str] = {
    "players": 2,
    "reward": "win",
    "seed": 0,
    "deals": 2**16,
}
MAX_DEALS = 2**16  # the chance node lists its outcomes: OpenSpiel asks for all of them
SAMPLER_DRAWS = 4  # numbers taken from an OpenSpiel sampler to seed one determinisation
SAMPLER_SCALE = 2**32  # each becomes a 32-bit word of the seed
DIGEST_BYTES = 16
REWARD_DENOMINATOR = 12  # a multiple of every denominator of the bounded schemes' values


@dataclass(frozen=True)
class Utility:
    """What a reward scheme says about the game: OpenSpiel's utility kind and bounds."""

    kind: pyspiel.GameType.Utility
    low: float
    high: float
    total: float | None  # the returns' sum (zero- or constant-sum), None otherwise


# the reward schemes (asara_env.common.outcome) OpenSpiel can be told the bounds of
UTILITIES: dict[outcome.RewardScheme, Utility] = {
    outcome.zero_sum_win_rewards: Utility(pyspiel.GameType.Utility.ZERO_SUM, -1.0, 1.0, 0.0),
    outcome.rank_rewards: Utility(pyspiel.GameType.Utility.ZERO_SUM, -1.0, 1.0, 0.0),
    outcome.win_share_rewards: Utility(pyspiel.GameType.Utility.CONSTANT_SUM, 0.0, 1.0, 1.0),
}


class World(Protocol):
    """One game as a card's `spiel` class holds it (asara_env/<game>/spiel.py)."""

    def current_seat(self) -> int | None: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self, seat: int) -> list[int]: ...
    def apply(self, actions: Sequence[int]) -> NDArray[np.float64]: ...
    def observation(self, seat: int) -> NDArray[np.float32]: ...
    def action_name(self, seat: int, action: int) -> str: ...
    def save(self) -> dict[str, Any]: ...
    def determinise(self, seat: int, rng: np.random.Generator) -> World: ...


def short_name(game: str) -> str:
    """The OpenSpiel name of the package's game `game`: python_<game>."""
    return f"python_{game}"


def _world_class(game: str) -> Any:
    card = games.game_card(game)
    if card.spiel is None:
        raise ValueError(f"{game} has no OpenSpiel form (its card names no spiel class)")
    return games.resolve(card.spiel)


def _parameters(game: str) -> dict[str, int | str]:
    """The game's OpenSpiel parameters with their defaults: the shared ones and its own."""
    return {**SHARED_PARAMETERS, **_world_class(game).PARAMETERS}


def _utility(game: str, reward: str) -> Utility:
    schemes = games.reward_schemes(game)
    bounded = sorted(name for name, f in schemes.items() if f in UTILITIES)
    if reward not in bounded:
        raise ValueError(f"reward must be one of {bounded} in OpenSpiel, got {reward!r}")
    return UTILITIES[schemes[reward]]


def game_type(game: str, utility: Utility | None = None) -> pyspiel.GameType:
    """The OpenSpiel game type of `game` (the utility of its default reward scheme unless
    `utility` is given)."""
    card = games.game_card(game)
    params = _parameters(game)
    kind = (utility or _utility(game, str(params["reward"]))).kind
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"{game.upper()} (asara-env)",
        dynamics=dynamics.SIMULTANEOUS if card.simultaneous else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=kind,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(card.player_counts),
        min_num_players=min(card.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


class SpielGame(pyspiel.Game):
    """A game of the package as an OpenSpiel Python game; see the module docstring."""

    def __init__(self, game: str, params: Mapping[str, Any] | None = None) -> None:
        defaults = _parameters(game)
        unknown = sorted(set(params or {}) - set(defaults))
        if unknown:
            raise ValueError(
                f"{short_name(game)} takes the parameters {sorted(defaults)}, not {unknown}"
            )
        self.params: dict[str, Any] = {**defaults, **(params or {})}
        self.world_class = _world_class(game)
        players, seed = int(self.params["players"]), int(self.params["seed"])
        self.deals = int(self.params["deals"])
        if not 1 <= self.deals <= MAX_DEALS:
            raise ValueError(f"deals must be in [1, {MAX_DEALS}], got {self.deals}")
        if players not in games.game_card(game).player_counts:
            raise ValueError(
                f"players must be one of {games.game_card(game).player_counts}, got {players}"
            )
        if seed < 0:
            raise ValueError(f"seed must be >= 0, got {seed}")
        utility = self.utility = _utility(game, str(self.params["reward"]))
        self.num_actions, self.observation_size = self.world_class.sizes(self.params)
        self.max_length = int(self.world_class.max_game_length(self.params))
        super().__init__(
            game_type(game, utility),
            pyspiel.GameInfo(
                num_distinct_actions=self.num_actions,
                max_chance_outcomes=self.deals,
                num_players=players,
                min_utility=utility.low,
                max_utility=utility.high,
                utility_sum=utility.total,
                max_game_length=self.max_length,
            ),
            self.params,
        )

    def deal_seed(self, deal: int) -> int:
        """The game seed of chance outcome `deal`: the env's seed of its `deal`-th game
        after `reset(seed=seed)` (`seed` itself for deal 0)."""
        seed = int(self.params["seed"])
        return seed if deal == 0 else derived_seed(seed, deal)

    def new_world(self, deal: int) -> World:
        """The game of chance outcome `deal`, as the env deals it."""
        world: World = self.world_class.new(self.params, self.deal_seed(deal))
        return world

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def load_state(self, saved: object) -> SpielState:
        """A state holding a game the package saved, dealt, at its last position: any
        format the game's env `load_game` reads (`env.save_game()`, a game record, a
        terminal game's `--save`, the web page's download). A ValueError naming what is
        wrong: a malformed or illegal game, a configuration other than this game's
        parameters, a finished game (OpenSpiel's returns are the moves' rewards, and
        none is left). The state's history and move count start at that position."""
        world: World = self.world_class.load(self.params, saved)
        if world.is_terminal():
            raise ValueError("the saved game is over: load one with a move left to play")
        state = SpielState(self)
        state._world = world
        return state

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> SeatObserver:
        return SeatObserver(self.observation_size, iig_obs_type, params)


class SpielState(pyspiel.State):
    """One game of a `SpielGame`; see the module docstring. The initial state is the
    chance node that deals the game (its outcome is the game seed); every later state
    holds the game in its env."""

    ATTRIBUTES = frozenset({"_world", "_rewards", "_returns", "_moves"})

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        players = game.num_players()
        self._world: World | None = None
        self._rewards = np.zeros(players)
        self._returns = np.zeros(players)
        self._moves = 0

    def __setattr__(self, name: str, value: Any) -> None:
        """Every attribute checked as it is set, an unpickled one too (OpenSpiel's
        `deserialize_state` sets the string's attributes one by one): a ValueError unless
        it is the adapter's own, of its own type and shape (module docstring)."""
        if name not in self.ATTRIBUTES:
            raise ValueError(f"a {short_name(self._game_name())} state has no attribute {name!r}")
        problem = _attribute_problem(self, name, value)
        if problem:
            raise ValueError(f"a {short_name(self._game_name())} state's {name}: {problem}")
        super().__setattr__(name, value)

    def _game_name(self) -> str:
        return str(self.get_game().get_type().short_name).removeprefix("python_")

    @property
    def world(self) -> World:
        """The game this state holds (an error at the chance node, before the deal)."""
        if self._world is None:
            raise ValueError("the game is not dealt yet: apply a chance outcome first")
        return self._world

    @property
    def dealt(self) -> bool:
        return self._world is not None

    def current_player(self) -> int:
        if not self.dealt:
            return int(pyspiel.PlayerId.CHANCE)
        if self.world.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.world.current_seat()
        return int(pyspiel.PlayerId.SIMULTANEOUS) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.world.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals, equally likely (`deals` of them)."""
        deals = self.get_game().deals
        return [(deal, 1.0 / deals) for deal in range(deals)]

    def _apply_action(self, action: int) -> None:
        if not self.dealt:
            deals = self.get_game().deals
            if not 0 <= action < deals:
                raise ValueError(f"the deal must be a chance outcome in [0, {deals}), got {action}")
            self._world = self.get_game().new_world(int(action))
            return
        self._record(self.world.apply([action]))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        self._record(self.world.apply(actions))

    def _record(self, rewards: NDArray[np.float64]) -> None:
        rewards = exact_rewards(rewards)
        self._rewards = rewards
        self._returns = self._returns + rewards
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.world.action_name(player, action)

    def is_terminal(self) -> bool:
        return self.dealt and self.world.is_terminal()

    def rewards(self) -> list[float]:
        """The rewards of the last move."""
        return [float(r) for r in self._rewards]

    def returns(self) -> list[float]:
        return [float(r) for r in self._returns]

    def moves(self) -> int:
        """The moves played (a simultaneous game's joint action is one)."""
        return self._moves

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """The game as `player_id` may imagine it (the game's determinisation), seeded by
        numbers drawn from `probability_sampler` (a callable giving floats in [0, 1))."""
        words = [int(probability_sampler() * SAMPLER_SCALE) for _ in range(SAMPLER_DRAWS)]
        return self.imagined(player_id, np.random.default_rng(words))

    def imagined(self, player: int, rng: np.random.Generator) -> SpielState:
        """A copy of this state holding the game as `player` may imagine it."""
        twin: SpielState = self.clone()
        twin.take_position(self, self.world.determinise(player, rng))
        return twin

    def take_position(self, other: SpielState, world: World) -> None:
        """Hold `world`, with `other`'s moves and rewards so far."""
        self._world = world
        self._rewards, self._returns = other._rewards.copy(), other._returns.copy()
        self._moves = other._moves

    def __str__(self) -> str:
        return str(self.world) if self.dealt else "(the game is not dealt yet)"


def _attribute_problem(state: SpielState, name: str, value: Any) -> str:
    """'' if `value` may be the state's attribute `name`, else what is wrong with it."""
    game: SpielGame = state.get_game()
    if name == "_world":
        if value is None:
            return "the game is missing after a dealt history" if state.history() else ""
        if not isinstance(value, game.world_class) or dict(value.params) != game.params:
            return f"must be a game of this one's parameters, not a {type(value).__name__}"
        return ""
    if name == "_moves":
        whole = isinstance(value, int | np.integer) and not isinstance(value, bool)
        ok = whole and 0 <= value <= game.max_length
        return "" if ok else f"must be a move count in [0, {game.max_length}], got {value!r}"
    return _values_problem(game, value)


def _values_problem(game: SpielGame, value: Any) -> str:
    """'' if `value` may be a state's rewards or returns: float64[players], each within the
    utility's bounds, summing to the constant sum or to 0 (before the end)."""
    players, u = game.num_players(), game.utility
    if not isinstance(value, np.ndarray) or value.dtype != np.float64 or value.shape != (players,):
        got = f"{value.dtype}{list(value.shape)}" if isinstance(value, np.ndarray) else value
        return f"must be float64[{players}], got {got!r:.60}"
    if not (np.isfinite(value).all() and (value >= u.low).all() and (value <= u.high).all()):
        return f"each value must be in [{u.low}, {u.high}]"
    total = float(value.sum())
    if u.total is not None and not any(np.isclose(total, [0.0, u.total], atol=1e-9)):
        before = " (or 0 before the end)" if u.total else ""
        return f"must sum to {u.total}{before}, got {total}"
    return ""


def exact_rewards(rewards: NDArray[np.floating]) -> NDArray[np.float64]:
    """The env's float32 rewards as the fractions they round: every bounded scheme's
    values are fractions whose denominators divide REWARD_DENOMINATOR (1/k, -1/(n-k),
    places over n - 1, tied places halved), so that zero- and constant-sum returns sum
    exactly, as OpenSpiel checks."""
    return np.array(
        [float(Fraction(float(r)).limit_denominator(REWARD_DENOMINATOR)) for r in rewards]
    )


class SeatObserver:
    """OpenSpiel's Python observer: one seat's observation (the game's encoder) as the
    tensor, and a digest of it as the string (with the move count for an information
    state)."""

    def __init__(
        self, size: int, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, got {params!r}")
        single = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != single
        ):
            raise ValueError(
                "only the seat's own view (public and its private information) is available"
            )
        self.perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        self.tensor[:] = state.world.observation(player) if state.dealt else 0.0

    def string_from(self, state: SpielState, player: int) -> str:
        if not state.dealt:
            return f"seat {player} before the deal"
        seen = np.ascontiguousarray(state.world.observation(player))
        digest = hashlib.blake2b(seen.tobytes(), digest_size=DIGEST_BYTES).hexdigest()
        if self.perfect_recall:
            return f"seat {player} move {state.moves()} {digest}"
        return f"seat {player} {digest}"


class Resampler:
    """`resample_from_infostate` drawn from a seeded generator, for
    `ISMCTSBot.set_resampler`: OpenSpiel's IS-MCTS bot otherwise determinises with an
    unseeded `pyspiel.UniformProbabilitySampler`, so that its games differ from run to run
    whatever its `random_state`."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, state: Any, player: int) -> Any:
        """The game as `player` may imagine it (`SpielState.imagined`)."""
        return state.imagined(player, self.rng)


class TurnBasedResampler(Resampler):
    """`Resampler` for a simultaneous game's turn-based form
    (`pyspiel.convert_to_turn_based`): the game as the player to move may imagine it, the
    choices the players before it made in this step (which it has not seen) drawn
    uniformly among their legal actions."""

    def __call__(self, state: Any, player: int) -> Any:
        inner: SpielState = state.simultaneous_game_state()
        fresh = state.get_game().new_initial_state()
        fresh.apply_action(0)  # a deal, so that the form is at a simultaneous step
        fresh.simultaneous_game_state().take_position(
            inner, inner.world.determinise(player, self.rng)
        )
        while fresh.current_player() != player:
            legal = fresh.legal_actions()
            fresh.apply_action(int(legal[self.rng.integers(len(legal))]))
        return fresh


def register_games() -> list[str]:
    """Register every game whose card names a `spiel` class (once); their short names."""
    names = []
    known = set(pyspiel.registered_names())
    for game in games.available_games():
        if games.game_card(game).spiel is None:
            continue
        name = short_name(game)
        if name not in known:
            pyspiel.register_game(game_type(game), _registered_class(game))
        names.append(name)
    return names


def _registered_class(game: str) -> type[SpielGame]:
    """`SpielGame` of `game` as the class OpenSpiel's registry calls with the parameters.

    A class, as OpenSpiel's own Python games register, not a function: the registry is a
    C++ static that drops its references when the process exits, after the interpreter has
    finalized. Freeing a Python object then aborts the process ("Fatal Python error:
    PyThreadState_Get"); a class is never freed by that last reference (its `__mro__`
    refers to the class itself), a function would be once the module is cleared."""

    class RegisteredGame(SpielGame):
        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            super().__init__(game, params)

    RegisteredGame.__name__ = RegisteredGame.__qualname__ = f"SpielGame_{game}"
    return RegisteredGame


register_games()
