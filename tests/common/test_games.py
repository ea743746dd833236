"""The game cards and the registry (asara_env.games): every registered game is made,
loaded and played by name through one verb set; a new game registers without editing a
shared file; the package face is lazy and keeps its public names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import asara_env
from asara_env import games
from asara_env.common import outcome
from asara_env.games import CORE_VERBS, GAMES, GameCard
from tests.common.backends import NEEDS_NUMBA

ROOT = Path(__file__).resolve().parents[2]


def test_the_built_in_games_are_registered_by_name():
    assert games.available_games() == ("asara", "basari") == tuple(GAMES)
    assert asara_env.available_games() == games.available_games()
    assert GAMES["basari"].simultaneous and not GAMES["asara"].simultaneous
    assert all(card.player_counts == (2, 3, 4) for card in GAMES.values())
    with pytest.raises(TypeError):
        GAMES["chess"] = GAMES["asara"]  # type: ignore[index]  # read-only: use register


@pytest.mark.parametrize("name", ["asara", "basari"])
def test_make_returns_the_games_pettingzoo_env(name):
    env = asara_env.make(name, num_players=3)
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    assert env.agent_selection in env.possible_agents
    env.close()


def test_unknown_games_and_arguments_are_refused_by_name():
    with pytest.raises(ValueError, match=r"game must be one of \['asara', 'basari'\], got 'chess'"):
        games.make("chess")
    with pytest.raises(ValueError, match="num_players"):
        games.make("basari", num_players=9)
    with pytest.raises(ValueError, match=r"basari has no raw_env factory; it has \['env', 'par"):
        games.env_factory("basari", "raw_env")
    with pytest.raises(ValueError, match="kind must be one of"):
        games.env_factory("asara", "vector_env")
    assert games.env_factory("basari", "parallel_env") is asara_env.basari_v0.parallel_env
    assert games.env_factory("asara", "raw_env") is asara_env.raw_env


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal id per row of `mask` (bool[..., A]), uniformly."""
    weights = rng.random(mask.shape) * mask
    return weights.argmax(axis=-1)


@pytest.mark.parametrize("name", ["asara", "basari"])
def test_every_core_plays_whole_games_through_the_one_verb_set(name):
    core, config = games.load_core(name), games.load_config(name)(num_players=3)
    assert all(callable(getattr(core, verb)) for verb in CORE_VERBS)
    state, rng = core.init(config, 6, seeds=3), np.random.default_rng(0)
    for _ in range(20_000):
        if core.is_terminal(state).all():
            break
        mask = core.legal_action_mask(state)
        obs = core.observe(state)
        assert obs.shape[:-1] == mask.shape[:-1] and obs.dtype == np.float32
        core.step(state, _random_actions(mask, rng))
    assert core.is_terminal(state).all()
    scores = core.scores(state)
    assert scores.shape == (6, 3)
    won = outcome.winners(scores)
    assert won.any(axis=1).all()
    for scheme, rewards_of in games.reward_schemes(name).items():
        rewards = outcome.terminal_rewards(scores, scheme, games.reward_schemes(name))
        assert rewards.shape == (6, 3) and rewards.dtype == np.float32
        assert np.array_equal(rewards, rewards_of(scores, outcome.MARGIN_SCALE))
        assert np.array_equal(rewards, core.terminal_rewards(scores, scheme))


def test_a_new_game_registers_itself_and_leaves_again():
    card = GameCard(
        name="basari_twin",
        player_counts=(3, 4),
        config="asara_env.basari.config:BasariConfig",
        core="asara_env.basari.core",
        reward_schemes="asara_env.basari.core.outcome:REWARD_SCHEMES",
        env="asara_env.basari_v0:env",
        simultaneous=True,
    )
    try:
        assert games.register(card) is card
        assert games.available_games() == ("asara", "basari", "basari_twin")
        assert games.make("basari_twin", num_players=4).possible_agents[-1] == "player_3"
        games.register(card)  # the same card again: no change
        with pytest.raises(ValueError, match="already registered"):
            games.register(GameCard(**{**card.__dict__, "player_counts": (4,)}))
    finally:
        assert games.unregister("basari_twin") is card
    assert "basari_twin" not in GAMES
    with pytest.raises(TypeError, match="card must be a GameCard"):
        games.register("basari")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "change, error, words",
    [
        ({"name": "Basari!"}, ValueError, "name must be"),
        ({"player_counts": (4, 3)}, ValueError, "player_counts must be"),
        ({"player_counts": []}, ValueError, "player_counts must be"),
        ({"core": 7}, TypeError, "core must be an import reference"),
        ({"env": "asara_env.basari_v0:"}, ValueError, "env must be 'module' or 'module:attr"),
        ({"docs": "a b"}, ValueError, "docs must be"),
        ({"simultaneous": 1}, TypeError, "simultaneous must be a bool"),
    ],
)
def test_a_malformed_card_is_refused_naming_the_field(change, error, words):
    fields = {**GAMES["basari"].__dict__, **change}
    with pytest.raises(error, match=words):
        GameCard(**fields)


def test_a_core_without_the_verb_set_is_refused():
    hollow = {"name": "hollow", "core": "asara_env.common", "compiled_core": None}
    card = GameCard(**{**GAMES["asara"].__dict__, **hollow})
    with pytest.raises(TypeError, match=r"hollow's core asara_env.common lacks \['init'"):
        card.load_core()


@NEEDS_NUMBA
def test_a_compiled_core_without_the_verb_set_is_refused():
    hollow = {"name": "hollow", "compiled_core": "asara_env.common"}
    card = GameCard(**{**GAMES["asara"].__dict__, **hollow})
    assert card.load_core("numpy").__name__ == "asara_env.asara.core"
    with pytest.raises(TypeError, match=r"hollow's compiled core asara_env.common replaces none"):
        card.load_core("numba")


def test_the_package_face_keeps_its_public_names():
    from asara_env import GameConfig, IllegalActionError, basari_v0

    assert asara_env.GameConfig is GameConfig and GameConfig.__module__ == "asara_env.asara.config"
    assert asara_env.NUM_ACTIONS == 803
    group, fields = asara_env.decode(5)
    assert asara_env.encode(group, *fields) == 5
    assert asara_env.describe_action(5)
    assert callable(asara_env.env) and callable(asara_env.raw_env)
    assert asara_env.asara_v0.env is asara_env.env
    assert callable(basari_v0.parallel_env)
    assert issubclass(IllegalActionError, ValueError)
    assert issubclass(asara_env.CorruptStateError, ValueError)
    assert asara_env.GAMES is GAMES and asara_env.make is games.make
    assert {"make", "GAMES", "env", "basari_v0"} <= set(dir(asara_env))
    with pytest.raises(AttributeError, match="has no attribute 'chess'"):
        asara_env.chess  # noqa: B018


def loaded_after(statement: str) -> list[str]:
    code = f"import sys; {statement}; print('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_the_package_face_and_the_registry_load_no_game_until_asked():
    loaded = loaded_after("import asara_env")
    assert not [m for m in loaded if m.startswith(("asara_env.asara", "asara_env.basari"))]
    loaded = loaded_after("import asara_env; asara_env.available_games()")
    games_loaded = {m for m in loaded if m.startswith(("asara_env.asara", "asara_env.basari"))}
    assert games_loaded == {
        "asara_env.asara",
        "asara_env.asara.card",
        "asara_env.basari",
        "asara_env.basari.card",
    }
    assert "pettingzoo" not in {m.split(".")[0] for m in loaded}
