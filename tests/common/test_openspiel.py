"""Both games in OpenSpiel (asara_env.integrations.openspiel): OpenSpiel's own random
simulation test (with serialisation) on every configuration, its bots playing whole games,
serialised games replaying identically, resampling keeping what the player knows, and
every state saying what the package's env says for the same game and seed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel (the openspiel extra) has wheels for Python 3.11-3.13 only"
)

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import asara_env.integrations.openspiel as spiel  # noqa: E402
from asara_env.asara.env import raw_env  # noqa: E402
from asara_env.basari.env import BasariParallelEnv  # noqa: E402
from asara_env.common.record import SavedGame  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

ASARA_RULES = [
    {"variant": "basic", "expansions": ""},
    {"variant": "basic", "expansions": "gifts"},
    {"variant": "pro", "expansions": ""},
    {"variant": "pro", "expansions": "genie+gifts"},
]
BASARI_RULES = [{"start_mode": "choose"}, {"start_mode": "random"}]
CONFIGS = [("asara", {"players": p, **rules}) for p in (2, 3, 4) for rules in ASARA_RULES] + [
    ("basari", {"players": p, **rules}) for p in (2, 3, 4) for rules in BASARI_RULES
]
# OpenSpiel's random_sim_test per configuration: 12 x 10 + 6 x 15 = 210 games, each one
# cloned, observed and checked at every step and serialised at its first steps
SIMS = {"asara": 10, "basari": 15}


def config_id(case: tuple[str, dict[str, Any]]) -> str:
    game, params = case
    return game + "-" + "-".join(f"{v}" for v in params.values() if v != "")


def load(game: str, **params: Any) -> Any:
    return pyspiel.load_game(spiel.short_name(game), params)


def random_action(state: Any, player: int, rng: np.random.Generator) -> int:
    legal = state.legal_actions(player)
    return int(legal[rng.integers(len(legal))])


def step_randomly(state: Any, rng: np.random.Generator) -> list[int]:
    """One move of random legal actions (a joint one at a simultaneous node)."""
    if state.is_simultaneous_node():
        joint = [random_action(state, p, rng) for p in range(state.num_players())]
        state.apply_actions(joint)
        return joint
    action = random_action(state, state.current_player(), rng)
    state.apply_action(action)
    return [action]


@pytest.mark.parametrize("case", CONFIGS, ids=config_id)
def test_openspiels_random_simulation_test_passes(case):
    game, params = case
    seed = CONFIGS.index(case)  # another family of deals for each configuration
    loaded = load(game, seed=seed, **params)
    pyspiel.random_sim_test(loaded, num_sims=SIMS[game], serialize=True, verbose=False)


def test_the_game_types_say_what_is_true():
    asara, basari = load("asara"), load("basari", reward="rank")
    types = asara.get_type(), basari.get_type()
    assert types[0].dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert types[1].dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    for t in types:
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    win = load("basari").get_type()
    assert win.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (load("basari").min_utility(), load("basari").max_utility()) == (0.0, 1.0)
    assert (asara.min_utility(), asara.max_utility()) == (-1.0, 1.0)
    assert asara.num_distinct_actions() == 803 and asara.max_chance_outcomes() == 2**16


@pytest.mark.parametrize(
    "params",
    [
        {"reward": "margin"},
        {"players": 5},
        {"variant": "expert"},
        {"expansions": "dragons"},
        {"seed": -1},
        {"deals": 0},
        {"deals": 2**31 - 1},
        {"deals": spiel.MAX_DEALS + 1},
        {"board": 1},
    ],
    ids=str,
)
def test_bad_parameters_are_refused(params):
    with pytest.raises((ValueError, pyspiel.SpielError)):
        load("asara", **params)


class Lockstep:
    """The package's env of a configuration, reset with `seed`, with what it last said."""

    def __init__(self, game: str, params: dict[str, Any], seed: int) -> None:
        if game == "asara":
            expansions = tuple(e for e in str(params["expansions"]).split("+") if e)
            self.env = raw_env(params["players"], params["variant"], expansions)
            self.env.reset(seed=seed)
        else:
            self.env = BasariParallelEnv(params["players"], params["start_mode"])
            self.seen = self.env.reset(seed=seed)
        self.agents = self.env.possible_agents

    def view(self, seat: int) -> tuple[list[int], np.ndarray]:
        """(legal actions, observation) of `seat`."""
        agent = self.agents[seat]
        if isinstance(self.env, BasariParallelEnv):
            obs, infos = self.seen
            mask, observation = infos[agent]["action_mask"], obs[agent]["observation"]
        else:
            seen = self.env.observe(agent)
            mask, observation = seen["action_mask"], seen["observation"]
        return np.flatnonzero(mask).tolist(), observation

    def step(self, actions: list[int]) -> list[float]:
        """Play `actions` (one id, or one per seat); the rewards by seat."""
        if isinstance(self.env, BasariParallelEnv):
            obs, rewards, _, _, infos = self.env.step(dict(zip(self.agents, actions)))
            self.seen = obs, infos
        else:
            self.env.step(actions[0])
            rewards = self.env.rewards
        return [rewards.get(a, 0.0) for a in self.agents]


@pytest.mark.parametrize("case", [CONFIGS[1], CONFIGS[7], CONFIGS[11], *CONFIGS[12::2]])
def test_states_say_what_the_env_says_along_random_games(case):
    game, params = case
    loaded = load(game, seed=11, **params)
    rng = np.random.default_rng(3)
    for deal in (0, 5):
        state = loaded.new_initial_state()
        state.apply_action(deal)
        env = Lockstep(game, params, loaded.deal_seed(deal))
        if deal:  # deal k is the env's k-th game after reset(seed=seed)
            assert env.env.game_seed == spiel.derived_seed(11, deal)
        totals = np.zeros(params["players"])
        while not state.is_terminal():
            for seat in range(params["players"]):
                legal, obs = env.view(seat)
                assert state.legal_actions(seat) == legal
                assert np.array_equal(state.observation_tensor(seat), obs)
                assert np.array_equal(state.information_state_tensor(seat), obs)
            totals += env.step(step_randomly(state, rng))
        assert np.array_equal(np.float32(state.returns()), np.float32(totals))
        assert any(state.returns())


@pytest.mark.parametrize("game", ["asara", "basari"])
def test_serialised_games_replay_identically(game):
    loaded = load(game, players=3, seed=4)
    rng = np.random.default_rng(8)
    state = loaded.new_initial_state()
    state.apply_action(9)
    for _ in range(40):
        step_randomly(state, rng)
    text = pyspiel.serialize_game_and_state(loaded, state)
    _, twin = pyspiel.deserialize_game_and_state(text)
    assert json.loads(str(twin)) == state.world.save()  # the saved game went across
    assert twin.history() == state.history()
    while not state.is_terminal():
        assert str(twin) == str(state)
        actions = step_randomly(state, rng)
        if len(actions) > 1:
            twin.apply_actions(actions)
        else:
            twin.apply_action(actions[0])
    assert twin.is_terminal() and twin.returns() == state.returns()
    assert str(twin) == str(state)


def saved_formats(game: str, position: dict[str, Any]) -> list[Any]:
    """One position in two of the formats the package writes: an env's `save_game()`
    (through JSON, as a file holds it) and a terminal game's `--save`."""
    terminal_save = SavedGame(game, {"state": position, "actions": []}).to_dict()
    return [json.loads(json.dumps(position)), terminal_save]


@pytest.mark.parametrize("game", ["asara", "basari"])
def test_a_state_loads_from_a_saved_game_and_plays_on_identically(game):
    loaded = load(game, players=3, seed=4)
    rng = np.random.default_rng(6)
    live = loaded.new_initial_state()
    live.apply_action(2)
    for _ in range(30):
        step_randomly(live, rng)
    twins = [loaded.load_state(saved) for saved in saved_formats(game, live.world.save())]
    while not live.is_terminal():
        for twin in twins:
            assert str(twin) == str(live) and twin.current_player() == live.current_player()
            for player in range(3):
                assert twin.legal_actions(player) == live.legal_actions(player)
                assert twin.observation_tensor(player) == live.observation_tensor(player)
        actions = step_randomly(live, rng)
        for twin in twins:
            if len(actions) > 1:
                twin.apply_actions(actions)
            else:
                twin.apply_action(actions[0])
    assert all(twin.is_terminal() and twin.returns() == live.returns() for twin in twins)


@pytest.mark.parametrize("game", ["asara", "basari"])
def test_a_saved_game_that_cannot_be_loaded_is_refused_naming_why(game):
    other = {"asara": "basari", "basari": "asara"}[game]
    three = load(game, players=3).new_initial_state()
    three.apply_action(0)
    over = play(
        load(game, players=2).new_initial_state(),
        [pyspiel.make_uniform_random_bot(p, p) for p in range(2)],
    )
    someone_else = load(other, players=2).new_initial_state()
    someone_else.apply_action(0)
    two = load(game, players=2)
    bad = [
        (three.world.save(), "config"),
        (over.world.save(), "over"),
        (someone_else.world.save(), other.upper()),
        ([1, 2], "dict"),
    ]
    for saved, named in bad:
        with pytest.raises(ValueError, match=named):
            two.load_state(saved)


@pytest.mark.parametrize("outcome", [4, 100, 2**20])
def test_a_chance_outcome_outside_the_deals_is_refused(outcome):
    state = load("asara", deals=4).new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3]
    with pytest.raises((ValueError, pyspiel.SpielError), match="chance outcome|deal"):
        state.apply_action(outcome)
    assert state.is_chance_node() and not state.dealt  # still the deal to make
    state.apply_action(3)
    assert not state.is_chance_node()


def with_attributes(text: str, **attributes: Any) -> str:
    """A serialised game and state whose state's pickled attributes are replaced: what a
    damaged or crafted string holds (OpenSpiel reads them with pickle)."""
    import base64
    import pickle

    head, tag, encoded = text.rpartition("__dict__=")
    saved = pickle.loads(base64.b64decode(encoded))
    saved.update(attributes)
    return head + tag + base64.b64encode(pickle.dumps(saved)).decode()


def three_player_world() -> Any:
    state = load("asara", players=3).new_initial_state()
    state.apply_action(0)
    return state.world


@pytest.mark.parametrize(
    "attributes, named",
    [
        ({"_returns": np.full(7, 1e9)}, "_returns: must be float64[2]"),
        ({"_returns": np.array([1.0, 1.0])}, "_returns: must sum to 0.0"),
        ({"_rewards": np.array([5.0, -5.0])}, "_rewards: each value must be in [-1.0, 1.0]"),
        ({"_returns": [0.0, 0.0]}, "_returns: must be float64[2]"),
        ({"_moves": "x"}, "_moves: must be a move count"),
        ({"_moves": 10**9}, "_moves: must be a move count"),
        ({"_world": None}, "_world: the game is missing after a dealt history"),
        ({"_world": "a game"}, "_world: must be a game of this one's parameters"),
        ({"_world": three_player_world()}, "_world: must be a game of this one's parameters"),
        ({"evil": 1}, "has no attribute 'evil'"),
    ],
    ids=lambda v: str(v)[:40],
)
def test_unpickled_attributes_must_be_the_adapters_own(attributes, named):
    loaded = load("asara", players=2, seed=1)
    state = loaded.new_initial_state()
    state.apply_action(2)
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(loaded, state)
    _, twin = pyspiel.deserialize_game_and_state(text)  # the string as written reads back
    assert twin.world.save() == state.world.save()
    with pytest.raises(ValueError, match=re.escape(named)):
        pyspiel.deserialize_game_and_state(with_attributes(text, **attributes))


def test_across_a_trust_boundary_a_state_travels_as_json_through_load_state():
    """The route the docs give for strings from elsewhere: the saved game as JSON, read
    by `load_state` (checked by the engine), not OpenSpiel's pickle."""
    loaded = load("asara", players=2, seed=5)
    state = loaded.new_initial_state()
    state.apply_action(1)
    for _ in range(12):
        state.apply_action(state.legal_actions()[-1])
    text = json.dumps(state.world.save())
    twin = loaded.load_state(json.loads(text))
    assert twin.legal_actions() == state.legal_actions() and str(twin) == str(state)
    spoiled = json.loads(text)
    spoiled["money"] = "__import__('os').system('echo pwned')"
    with pytest.raises(ValueError):
        loaded.load_state(spoiled)
    for page in (spiel.__doc__ or "", (ROOT / "docs" / "openspiel.md").read_text()):
        said = " ".join(page.split())
        assert "pickle" in said and "Never give them a string from anyone you do not" in said
        assert "load_state" in said


@pytest.mark.parametrize("game", ["asara", "basari"])
def test_resampling_keeps_what_the_player_knows(game):
    loaded = load(game, players=3, seed=2)
    rng = np.random.default_rng(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = loaded.new_initial_state()
    state.apply_action(3)
    changed = 0
    for step in range(60):
        if step % 6 == 0:
            for player in range(3):
                world = state.resample_from_infostate(player, sampler)
                key = state.information_state_string(player)
                assert world.information_state_string(player) == key
                assert world.information_state_tensor(player) == state.information_state_tensor(
                    player
                )
                assert world.legal_actions(player) == state.legal_actions(player)
                assert world.history() == state.history()
                changed += str(world) != str(state)
        step_randomly(state, rng)
    assert changed  # the hidden cards, windows, bundles or seed were drawn again


def play(state: Any, bots: list[Any]) -> Any:
    """Play to the end: chance deals 0, every bot acts for its seat."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(0)
        elif state.is_simultaneous_node():
            state.apply_actions([bot.step(state) for bot in bots])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


@pytest.mark.parametrize("game", ["asara", "basari"])
def test_openspiels_bots_play_whole_games(game):
    loaded = load(game, players=2, seed=6)
    turn_based = (
        pyspiel.convert_to_turn_based(loaded) if game == "basari" else loaded
    )  # the tree searches need one player at a time
    total = loaded.utility_sum()  # 0 for ASARA's "win", 1 for BASARI's
    randoms = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(2)]
    assert sum(play(loaded.new_initial_state(), randoms).returns()) == total
    assert sum(play(turn_based.new_initial_state(), randoms).returns()) == total

    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = mcts.MCTSBot(turn_based, 2.0, 4, evaluator, random_state=rng)
    informed = ismcts.ISMCTSBot(turn_based, evaluator, 2.0, max_simulations=4, random_state=rng)
    if game == "basari":
        informed.set_resampler(spiel.TurnBasedResampler(seed=2))
    final = play(turn_based.new_initial_state(), [searcher, informed])
    assert final.is_terminal()
    assert turn_based.min_utility() <= min(final.returns())
    assert max(final.returns()) <= turn_based.max_utility()


def test_a_seeded_resampler_makes_is_mcts_play_the_same_game():
    game = load("asara", players=2, seed=3)

    def opening() -> list[int]:
        rng = np.random.RandomState(0)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=6, random_state=rng)
        bot.set_resampler(spiel.Resampler(seed=1))
        state = game.new_initial_state()
        state.apply_action(0)
        for _ in range(6):
            state.apply_action(bot.step(state))
        return list(state.history())

    assert opening() == opening()


# every registered game loaded and played a step, then the module's own references dropped,
# as the interpreter drops them when it finalizes; OpenSpiel's registry (a C++ static)
# lets go of what it holds only after that
EXIT_AFTER_LOADING = """
import gc
import pyspiel
import asara_env.integrations.openspiel as spiel
for name in spiel.register_games():
    state = pyspiel.load_game(name).new_initial_state()
    state.apply_action(0)
spiel.__dict__.clear()
del name, state
gc.collect()
"""


def test_the_process_exits_cleanly_after_registering_the_games():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", EXIT_AFTER_LOADING],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Fatal Python error" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
