"""The conformance battery, written once for every registered game (OpenSpiel's
`basic_tests`, pgx's `api_test`): each check takes a `Subject`, one game in one
configuration, and uses only what the registry gives (`asara_env.games`: the card, the
core's verbs, its `FIELD_SPECS`, its reward schemes, its env factories) and, where a game
has one, its test adapter `tests/<game>/battery.py`.

An adapter is optional; every name in it is optional too:
- `CONFIGS`: the configurations to check (default: `config(num_players=n)` per count);
  `config_id(config)`: a test id for one;
- `policy(state, mask, rng)`: the actions a random game plays (default: uniform over the
  mask), e.g. to make games end sooner;
- `MAX_STEPS`: the steps after which a random game is given up (default 3000);
- `ENV_KWARGS`: the keyword sets the PettingZoo tests make envs with (default: one per
  player count);
- `lockstep(config, seed)`: play a few random games in the core and the reference engine
  side by side, asserting they agree (the differential check; skipped without it); a game
  with a compiled core takes `backend=` too, the core to check.

A core may have `autoreset(state) -> bool[B]` (the games it restarted); the autoreset check
runs where it does. Scheme sums are by scheme function (`SCHEME_SUMS`).
"""

from __future__ import annotations

import importlib
import importlib.util
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from asara_env import games
from asara_env.common import batch
from asara_env.common.errors import IllegalActionError
from asara_env.common.outcome import MARGIN_SCALE
from asara_env.common.seeding import derived_seed

REFUSED = (IllegalActionError, ValueError, TypeError)


# ----------------------------------------------------------------------------- subjects
def adapter(game: str) -> ModuleType | None:
    """`tests.<game>.battery`, or None for a game without one."""
    name = f"tests.{game}.battery"
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        found = None
    return importlib.import_module(name) if found else None


def configs(game: str) -> list[Any]:
    """The configurations of `game` the battery checks."""
    extra = adapter(game)
    if extra is not None and hasattr(extra, "CONFIGS"):
        return list(extra.CONFIGS)
    config = games.load_config(game)
    return [config(num_players=n) for n in games.game_card(game).player_counts]


def config_id(game: str, config: Any) -> str:
    extra = adapter(game)
    if extra is not None and hasattr(extra, "config_id"):
        return f"{game}-{extra.config_id(config)}"
    return f"{game}-{config.num_players}p"


def env_kwargs(game: str) -> list[dict[str, Any]]:
    extra = adapter(game)
    if extra is not None and hasattr(extra, "ENV_KWARGS"):
        return list(extra.ENV_KWARGS)
    return [{"num_players": n} for n in games.game_card(game).player_counts]


@dataclass
class Subject:
    """One game in one configuration, as the registry gives it."""

    game: str
    config: Any
    card: games.GameCard
    core: games.CoreVerbs
    extra: ModuleType | None
    backend: str = "numpy"

    @classmethod
    def of(cls, game: str, config: Any, backend: str = "numpy") -> Subject:
        """`backend`: the core's ("numpy", or "numba" for the game's compiled core)."""
        core = games.load_core(game, backend)
        return cls(game, config, games.game_card(game), core, adapter(game), backend)

    @property
    def players(self) -> int:
        return int(self.config.num_players)

    def init(self, n: int, seeds: Any) -> Any:
        return self.core.init(self.config, n, seeds=seeds)

    def actions(self, state: Any, rng: np.random.Generator) -> np.ndarray:
        """Legal random actions: int[B] (turn-based) or int[B, P] (simultaneous)."""
        mask = self.core.legal_action_mask(state)
        if self.extra is not None and hasattr(self.extra, "policy"):
            return np.asarray(self.extra.policy(state, mask, rng))
        noise = np.where(mask, rng.random(mask.shape), -1.0)
        return np.argmax(noise, axis=-1)

    def play(self, state: Any, steps: int, rng: np.random.Generator) -> list[np.ndarray]:
        """Step `state` `steps` times with random legal actions; return them."""
        taken = []
        for _ in range(steps):
            taken.append(self.actions(state, rng))
            self.core.step(state, taken[-1])
        return taken

    def play_out(self, state: Any, rng: np.random.Generator) -> None:
        """Play until every game has ended (or MAX_STEPS)."""
        limit = getattr(self.extra, "MAX_STEPS", 3000)
        for _ in range(limit):
            if self.core.is_terminal(state).all():
                return
            self.core.step(state, self.actions(state, rng))


def array_fields(state: object) -> tuple[str, ...]:
    """The array fields of a game's core state (the cached `batch.array_fields` takes a
    hashable argument, which mypy grants a plain `type` but not type[Any])."""
    state_type: type = type(state)
    return batch.array_fields(state_type)


def per_game_seeds(seed: int, n: int) -> np.ndarray:
    return np.array([derived_seed(seed, i) for i in range(n)], np.uint64)


# ------------------------------------------------------------------------------- checks
def check_fields_and_masks(s: Subject) -> None:
    """Every field keeps its FIELD_SPECS dtype and shape (each letter one size, "P" the
    players); every live game has a legal action (per seat, for a simultaneous game);
    masks are bool[B, (P,) A]; observations float32, finite, batch first."""
    n, rng = 16, np.random.default_rng(0)
    state = s.init(n, seeds=1)
    specs = s.core.FIELD_SPECS
    assert tuple(specs) == array_fields(state), "FIELD_SPECS and the state differ"
    mask = s.core.legal_action_mask(state)
    dims = {"P": s.players, "A": mask.shape[-1]}
    for _ in range(120):
        for name, spec in specs.items():
            arr = getattr(state, name)
            assert arr.dtype == np.dtype(spec.dtype), f"{name}: {arr.dtype} != {spec.dtype}"
            assert arr.shape[0] == n and len(arr.shape) == 1 + len(spec.shape), name
            for size, dim in zip(arr.shape[1:], spec.shape):
                if isinstance(dim, str):
                    assert dims.setdefault(dim, size) == size, f"{name}: {dim} is {size}"
                else:
                    assert size == dim, name
        mask = s.core.legal_action_mask(state)
        live = ~np.asarray(s.core.is_terminal(state), bool)
        lead = (n, s.players) if s.card.simultaneous else (n,)
        assert mask.dtype == bool and mask.shape[:-1] == lead
        assert mask[live].any(axis=-1).all(), "a live game (or seat) without a legal action"
        obs = np.asarray(s.core.observe(state))
        assert obs.dtype == np.float32 and obs.shape[0] == n and np.isfinite(obs).all()
        if not live.any():
            break
        s.core.step(state, s.actions(state, rng))


def check_seeded_determinism(s: Subject) -> None:
    """The same seeds and actions give byte-identical batches; other seeds other games;
    the games of one batch are different games."""
    a, b, c = s.init(8, seeds=7), s.init(8, seeds=7), s.init(8, seeds=8)
    assert batch.states_equal(a, b)
    taken = s.play(a, 30, np.random.default_rng(1))
    for actions in taken:
        s.core.step(b, actions)
    assert batch.states_equal(a, b)
    s.play(c, 30, np.random.default_rng(1))
    fields = [f for f in array_fields(a) if f != "seed"]
    assert any(not np.array_equal(getattr(a, f), getattr(c, f)) for f in fields)
    rows = {b"".join(getattr(a, f)[i].tobytes() for f in fields) for i in range(8)}
    assert len(rows) > 1, "every game of the batch is the same game"


def check_batch_independence(s: Subject) -> None:
    """Game i of a batch plays as the same seed played alone."""
    seeds = per_game_seeds(9, 6)
    whole = s.init(6, seeds=seeds)
    alone = {g: s.init(1, seeds=seeds[g : g + 1]) for g in (0, 3, 5)}
    rng = np.random.default_rng(4)
    for _ in range(80):
        actions = s.actions(whole, rng)
        s.core.step(whole, actions)
        for g, one in alone.items():
            s.core.step(one, actions[g : g + 1])
    for g, one in alone.items():
        assert batch.states_equal(batch.take(whole, [g]), one), f"game {g}"


def _bad_slot(s: Subject, mask: np.ndarray, live: np.ndarray) -> tuple[int, ...] | None:
    """(game,) or (game, seat) of a live decision with an illegal id, or None."""
    for index in np.argwhere(~mask.all(axis=-1)):
        if live[index[0]] and mask[tuple(index)].any():
            return tuple(int(i) for i in index)
    return None


def check_refused_actions_change_nothing(s: Subject) -> None:
    """An illegal id, an id out of range, a wrong shape and a non-int dtype are refused
    (IllegalActionError, a ValueError) and leave the batch byte-identical."""
    state, rng = s.init(8, seeds=3), np.random.default_rng(3)
    s.play(state, 5, rng)
    mask = s.core.legal_action_mask(state)
    live = ~np.asarray(s.core.is_terminal(state), bool)
    actions = s.actions(state, rng)
    before = batch.copy_state(state)
    slot = _bad_slot(s, mask, live)
    assert slot is not None, "no live decision with an illegal id to try"
    illegal = actions.copy()
    illegal[slot] = int(np.flatnonzero(~mask[slot])[0])
    with pytest.raises(IllegalActionError):
        s.core.step(state, illegal)
    assert batch.states_equal(state, before)
    n_actions = mask.shape[-1]
    for value in (-1, n_actions):
        wrong = actions.copy()
        wrong[slot] = value
        with pytest.raises(REFUSED):
            s.core.step(state, wrong)
        assert batch.states_equal(state, before)
    for wrong in (actions[:-1], actions.astype(np.float64) + 0.5, actions[..., None]):
        with pytest.raises(REFUSED):
            s.core.step(state, wrong)
        assert batch.states_equal(state, before)


def check_finished_games_stay_finished(s: Subject) -> None:
    """A finished game ignores the actions sent to it: stepping the batch on leaves it
    byte-identical (and finished)."""
    state, rng = s.init(8, seeds=6), np.random.default_rng(6)
    s.play_out(state, rng)
    done = np.flatnonzero(np.asarray(s.core.is_terminal(state), bool))
    assert len(done), "no game ended"
    frozen = batch.take(state, done)
    s.core.step(state, s.actions(state, rng))
    assert batch.states_equal(batch.take(state, done), frozen)
    assert np.asarray(s.core.is_terminal(state), bool)[done].all()


def check_autoreset(s: Subject) -> None:
    """Where the core has `autoreset`: it restarts exactly the finished games (as live
    games, the game seeded derived_seed(seed, 1) where the state keeps a seed) and leaves
    every other game byte-identical."""
    autoreset = getattr(s.core, "autoreset", None)
    if autoreset is None:
        pytest.skip(f"{s.game}'s core has no autoreset")
    state, rng = s.init(8, seeds=4), np.random.default_rng(4)
    s.play_out(state, rng)
    done = np.asarray(s.core.is_terminal(state), bool)
    assert done.any(), "no game ended"
    before = batch.copy_state(state)
    reset = np.asarray(autoreset(state), bool)
    assert reset.tolist() == done.tolist()
    assert not np.asarray(s.core.is_terminal(state), bool)[reset].any()
    kept = np.flatnonzero(~reset)
    assert batch.states_equal(batch.take(state, kept), batch.take(before, kept))
    if "seed" in array_fields(state):
        for g in np.flatnonzero(reset):
            fresh = s.init(1, seeds=np.array([derived_seed(int(before.seed[g]), 1)], np.uint64))
            assert batch.states_equal(batch.take(state, [g]), fresh), f"game {g}"
    assert not np.asarray(autoreset(state), bool).any()


def _margin_sum(n: int) -> float | None:
    return 0.0 if n == 2 else None


# scheme function name -> the sum of its rewards for n seats (None: no fixed sum)
SCHEME_SUMS: dict[str, Callable[[int], float | None]] = {
    "zero_sum_win_rewards": lambda n: 0.0,
    "rank_rewards": lambda n: 0.0,
    "margin_over_mean_rewards": lambda n: 0.0,
    "margin_over_mean_points": lambda n: 0.0,  # BASARI's: on the points only, zero-sum
    "margin_over_best_rewards": _margin_sum,
    "win_share_rewards": lambda n: 1.0,
}


def check_rewards_sum_as_each_scheme_says(s: Subject) -> None:
    """Random games played out: every reward scheme of the card gives float32[G, P], the
    zero-sum schemes summing to 0 and the share schemes to 1 in every game."""
    state = s.init(12, seeds=5)
    s.play_out(state, np.random.default_rng(5))
    done = np.asarray(s.core.is_terminal(state), bool)
    assert done.any(), "no game ended"
    score = np.asarray(s.core.scores(state))[done]
    assert score.shape == (int(done.sum()), s.players)
    for name, scheme in games.reward_schemes(s.game).items():
        rewards = scheme(score, MARGIN_SCALE)
        assert rewards.dtype == np.float32 and rewards.shape == score.shape, name
        sums = SCHEME_SUMS.get(scheme.__name__)
        assert sums is not None, f"declare the sum of {scheme.__name__} in SCHEME_SUMS"
        expected = sums(s.players)
        if expected is not None:
            np.testing.assert_allclose(rewards.sum(axis=-1), expected, atol=1e-5, err_msg=name)


def check_lockstep_with_the_reference(s: Subject) -> None:
    """A few random games played in the core and the reference engine side by side."""
    lockstep = getattr(s.extra, "lockstep", None)
    if lockstep is None:
        pytest.skip(f"{s.game} has no reference adapter (tests/{s.game}/battery.py: lockstep)")
    on_backend = {"backend": s.backend} if s.card.compiled_core else {}
    lockstep(s.config, seed=11, **on_backend)


CHECKS: dict[str, Callable[[Subject], None]] = {
    "fields_and_masks": check_fields_and_masks,
    "seeded_determinism": check_seeded_determinism,
    "batch_independence": check_batch_independence,
    "refused_actions": check_refused_actions_change_nothing,
    "finished_games": check_finished_games_stay_finished,
    "autoreset": check_autoreset,
    "reward_sums": check_rewards_sum_as_each_scheme_says,
    "lockstep": check_lockstep_with_the_reference,
}


# ---------------------------------------------------------------------------- the envs
def check_pettingzoo(game: str, kwargs: dict[str, Any]) -> None:
    """PettingZoo's api_test and seed_test on the AEC env, parallel_api_test on the
    parallel env where the card names one."""
    from pettingzoo.test import api_test, parallel_api_test, seed_test

    factory = games.env_factory(game)
    with warnings.catch_warnings():  # dict observations: PettingZoo warns as for chess
        warnings.simplefilter("ignore", UserWarning)
        api_test(factory(**kwargs), num_cycles=200)
        seed_test(lambda: factory(**kwargs), num_cycles=200)
        if games.game_card(game).parallel_env is not None:
            parallel_api_test(games.env_factory(game, "parallel_env")(**kwargs), num_cycles=200)
