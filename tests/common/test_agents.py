"""The shared agent layer (agents/base.py, agents/registry.py, agents/models.py) for every
game: one base (empty masks refused, reseeding reproduces), one registry with one spec
grammar and one set of option errors, the shipped models by name."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from gymnasium import spaces

from agents.base import Agent, RandomAgent, ScoringAgent, check_batch, pick_best, uniform
from agents.models import MODELS, WEIGHTS, model_path
from agents.registry import (
    agent_names,
    agent_specs,
    check_agent,
    check_spec,
    game_agents,
    games,
    is_agent,
    make_agent,
    parse_spec,
    unknown_agents_error,
)
from asara_env.common.opponents import StateActor, choose_actions

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["asara", "basari"]
ASARA_MODEL = str(model_path("asara", "ppo_2p"))


def random_batch(rows: int = 12, actions: int = 9, seed: int = 0) -> tuple[np.ndarray, ...]:
    """Observations and masks with at least one legal action per row."""
    rng = np.random.default_rng(seed)
    masks = rng.random((rows, actions)) < 0.4
    masks[np.arange(rows), rng.integers(actions, size=rows)] = True
    return rng.random((rows, 5)).astype(np.float32), masks


# ------------------------------------------------------------------------------ the base
class Lowest(ScoringAgent):
    """Prefers low action ids (a scoring agent with ties)."""

    name = "lowest"

    def scores(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return -(np.arange(masks.shape[1]) // 2).astype(float)[None].repeat(len(masks), 0)


@pytest.mark.parametrize("agent_class", [RandomAgent, Lowest])
def test_an_empty_mask_is_refused_naming_its_row(agent_class: type[Agent[object]]) -> None:
    obs, masks = random_batch()
    masks[3] = False
    with pytest.raises(ValueError, match="row 3 is empty"):
        agent_class(0).act_batch(obs, masks)
    with pytest.raises(ValueError, match="is empty"):
        agent_class(0).act(obs[3], masks[3])


def test_batches_of_the_wrong_shape_are_refused() -> None:
    obs, masks = random_batch()
    with pytest.raises(ValueError, match=r"need obs \[B, N\] and masks \[B, A\]"):
        check_batch(obs[:3], masks)
    with pytest.raises(ValueError, match=r"need obs \[B, N\]"):
        RandomAgent(0).act_batch(obs[0], masks[0])


@pytest.mark.parametrize("agent_class", [RandomAgent, Lowest])
def test_reseeding_replays_the_same_choices_and_batched_equals_single(
    agent_class: type[Agent[object]],
) -> None:
    obs, masks = random_batch(40)
    agent = agent_class(7)
    first = agent.act_batch(obs, masks)
    assert masks[np.arange(len(masks)), first].all()
    agent.reseed(7)
    assert (agent.act_batch(obs, masks) == first).all()
    agent.reseed(7)
    assert [agent.act(o, m) for o, m in zip(obs, masks)] == first.tolist()
    if agent_class is RandomAgent:
        assert (agent_class(8).act_batch(obs, masks) != first).any()


def test_an_empty_batch_gives_no_actions() -> None:
    out = RandomAgent(0).act_batch(np.zeros((0, 5), np.float32), np.zeros((0, 9), bool))
    assert out.shape == (0,) and out.dtype == np.int64


def test_the_uniform_choice_breaks_ties_by_the_rows_double() -> None:
    masks = np.array([[False, True, True, False, True]] * 3)
    assert uniform(masks, np.array([0.0, 0.5, 0.99])).tolist() == [1, 2, 4]
    scores = np.where(masks, 1.0, -np.inf)
    assert pick_best(scores, np.array([0.0, 0.5, 0.99])).tolist() == [1, 2, 4]


def test_observation_agents_do_not_read_states_and_say_so() -> None:
    agent = RandomAgent(0)
    assert agent.needs_state is False and isinstance(agent, StateActor)
    with pytest.raises(TypeError, match="act_batch"):
        agent.act_games(object(), np.arange(2))


def test_the_shared_loop_asks_state_agents_for_act_games() -> None:
    class Spy(Agent[str]):
        needs_state = True

        def act_games(self, state: str, games: np.ndarray) -> np.ndarray:
            self.asked = (state, games.tolist())
            return np.full(len(games), 4, np.int64)

    spy, rand = Spy(0), RandomAgent(0)
    obs, masks = random_batch(4)
    mover = np.array([0, 1, 0, 1])
    actions = choose_actions([spy, rand], mover, obs, masks, "state", np.array([5, 6, 7, 8]))
    assert spy.asked == ("state", [5, 7]) and actions[[0, 2]].tolist() == [4, 4]
    assert masks[[1, 3], actions[[1, 3]]].all()


# ------------------------------------------------------------------------------ the registry
def test_every_game_with_agents_is_found_by_name() -> None:
    assert games() == GAMES
    for game in GAMES:
        names = agent_names(game)
        assert "random" in names and names[-1] == "policy"
        assert set(MODELS[game]) <= set(names)
        assert set(game_agents(game).baselines) <= set(names)
        assert list(agent_specs(game)) == names and len(agent_specs(game)) == len(names)
        assert all(
            type(make_agent(game, n, 0)) is game_agents(game).baselines[n] for n in names[:2]
        )
    searches = ["flatmc", "gumbel", "ismcts"]  # every game's (ASARA's own flatmc, ismcts)
    assert agent_names("asara") == [
        *[
            "greedy",
            "random",
            "tall",
            "towers",
            "ppo_2p",
            "ppo_4p",
            "sp_2p",
            "sp_4p",
            *searches,
            "policy",
        ]
    ]
    assert agent_names("basari") == ["points_first", "random", "value", "value_l1"] + [
        *["ppo_2p", "ppo_3p", "ppo_4p", "sp_2p", "sp_4p", *searches, "policy"]
    ]


def test_both_games_play_the_one_random_agent() -> None:
    a, b = make_agent("asara", "random", 3), make_agent("basari", "random", 3)
    assert type(a) is type(b) is RandomAgent
    obs, masks = random_batch()
    assert (a.act_batch(obs, masks) == b.act_batch(obs, masks)).all()


@pytest.mark.parametrize(
    "spec, parts",
    [
        ("towers", ("towers", {}, None)),
        ("flatmc:256", ("flatmc", {}, "256")),
        ("flatmc:sims=64:playout=towers", ("flatmc", {"sims": "64", "playout": "towers"}, None)),
        ("ismcts:8:c=0.5", ("ismcts", {"c": "0.5"}, "8")),
        ("policy:model=a/b.zip", ("policy", {"model": "a/b.zip"}, None)),
    ],
)
def test_the_grammar_takes_a_name_and_colon_separated_options(
    spec: str, parts: tuple[Any, ...]
) -> None:
    assert parse_spec(spec) == parts


@pytest.mark.parametrize(
    "spec, problem",
    [
        ("", "no agent name"),
        (":sims=3", "no agent name"),
        ("flatmc:8:16", "'16' is not key=value"),
        ("flatmc::", "'' is not key=value"),
        ("flatmc:=3", "'=3' needs a key and a value"),
        ("flatmc:sims=", "'sims=' needs a key and a value"),
        ("flatmc:sims=1:sims=2", "option 'sims' is given twice"),
    ],
)
def test_the_grammar_refuses_malformed_specs(spec: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_spec(spec)


def test_options_are_read_with_their_types() -> None:
    name, options = check_spec("asara", "ismcts:8:c=1:widen=1:playout=towers:value=margin")
    assert name == "ismcts"
    assert options == {"sims": 8, "c": 1.0, "widen": 1.0, "playout": "towers", "value": "margin"}
    assert type(options["sims"]) is int and type(options["c"]) is float
    spec = f"policy:model={ASARA_MODEL}:deterministic=FALSE"
    assert check_spec("basari", spec) == ("policy", {"model": ASARA_MODEL, "deterministic": False})
    assert check_agent("asara", "flatmc:64") == "flatmc:64"


@pytest.mark.parametrize(
    "game, spec, problem",
    [
        ("chess", "random", r"unknown game 'chess'; games with agents: \['asara', 'basari'\]"),
        ("asara", "alphago", r"unknown agent 'alphago' \(game asara\); known agents: \['greedy'"),
        ("basari", "flatmc2", r"unknown agent 'flatmc2' \(game basari\); known agents: .*'value'"),
        ("basari", "flatmc:playout=towers", r"option 'playout' must be one of \['points_first'"),
        ("basari", "ppo_5p", r"unknown agent 'ppo_5p' \(game basari\).*models: \['ppo_2p', "),
        ("asara", "ismcts:sims=abc", r"option 'sims' must be an integer, got 'abc'$"),
        ("asara", "ismcts:widen=2", r"option 'widen' must be in \(0, 1\], got 2$"),
        ("asara", "ismcts:widen=0", r"option 'widen' must be in \(0, 1\], got 0$"),
        ("asara", "ismcts:c=-0.5", r"option 'c' must be >= 0, got -0.5$"),
        ("asara", "ismcts:c=abc", r"option 'c' must be a number, got 'abc'$"),
        ("asara", "ismcts:c=inf", r"option 'c' must be a finite number"),
        ("asara", "flatmc:0", r"option 'sims' must be in \[1, 1000000\], got 0$"),
        ("asara", "flatmc:seconds=0", r"option 'seconds' must be in \(0, 3600\], got 0$"),
        ("asara", "flatmc:seconds=100000000", r"'seconds' must be in \(0, 3600\], got 100000000$"),
        ("basari", "gumbel:seconds=0", r"option 'seconds' must be in \(0, 3600\], got 0$"),
        ("basari", "ismcts:wave=5000", r"option 'wave' must be in \[1, 4096\], got 5000$"),
        ("asara", f"ismcts:sims={10**12}", r"'sims' must be in \[1, 1000000\], got 10{12}$"),
        ("asara", "flatmc:batch=100000", r"option 'batch' must be in \[1, 65536\]"),
        ("asara", "ismcts:wave=5000", r"option 'wave' must be in \[1, 4096\], got 5000$"),
        ("asara", "flatmc:horizon=1.5", r"option 'horizon' must be an integer"),
        ("asara", "flatmc:value=best", r"option 'value' must be one of \['win'"),
        ("asara", "flatmc:playout=flatmc", r"option 'playout' must be one of \['greedy'"),
        ("asara", "ismcts:expand=best", r"option 'expand' must be one of \['policy', 'random'\]"),
        ("asara", "flatmc:depth=3", r"flatmc has no option 'depth'; it takes \['backend', 'batch'"),
        ("asara", "towers:5", r"'5' is not key=value; it takes no options"),
        ("basari", "value:sims=3", r"value has no option 'sims'; it takes no options"),
        ("asara", "flatmc:64:sims=32", r"option 'sims' is given twice"),
        ("asara", "policy", r"policy needs model=\.\.\."),
        ("asara", "policy:model=nonexist.zip", r"option 'model' names no file: 'nonexist.zip'"),
        ("basari", "policy:model=nonexist.zip", r"option 'model' names no file: 'nonexist.zip'"),
        (
            "asara",
            "policy:model=README.md",
            r"option 'model' README.md is not a saved MaskablePPO model \(not a zip archive\)",
        ),
        (
            "basari",
            "policy:model=README.md",
            r"option 'model' README.md is not a saved MaskablePPO model \(not a zip archive\)",
        ),
        ("asara", f"policy:model={ASARA_MODEL}:deterministic=maybe", r"must be true or false"),
    ],
)
def test_every_bad_spec_is_one_line_naming_what_is_wrong(game: str, spec: str, problem: str):
    with pytest.raises(ValueError, match=problem) as error:
        make_agent(game, spec, 0)
    assert "\n" not in str(error.value)
    if game != "chess":
        assert not is_agent(game, spec) and spec not in agent_specs(game)
        assert unknown_agents_error(game, ["random", spec]) is not None


def test_a_game_that_is_not_a_name_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="game must be a game's name"):
        make_agent(cast(Any, ["asara"]), "random")


def test_specs_are_checked_per_game() -> None:
    assert "flatmc:64:playout=towers" in agent_specs("asara")
    assert "flatmc:64:playout=towers" not in agent_specs("basari")
    assert "flatmc:64:playout=value" in agent_specs("basari") and 3 not in agent_specs("asara")
    assert unknown_agents_error("basari", ["value", "ppo_4p"]) is None
    message = unknown_agents_error("basari", ["value", "towers", "value:x=1"])
    assert message is not None and message.startswith("unknown agent(s) ['towers']; known agents")
    assert unknown_agents_error("asara", ["random", "ismcts:sims=abc", "flatmc:0"]) == (
        "agent spec 'ismcts:sims=abc': option 'sims' must be an integer, got 'abc'"
    )


def test_importing_the_shared_modules_loads_no_game() -> None:
    code = (
        "import sys, agents, agents.base, agents.registry, agents.arena, agents.models, "
        "agents.policy_agent; agents.registry.agent_specs('basari'); "
        "print('\\n'.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    games_loaded = [
        m for m in out.stdout.split() if m.startswith(("agents.asara", "agents.basari"))
    ]
    assert not games_loaded and not [m for m in out.stdout.split() if m.startswith("asara_env")]


@pytest.mark.parametrize("game, other", [("asara", "basari"), ("basari", "asara")])
def test_a_games_agents_load_nothing_of_the_other_games_agents(game: str, other: str) -> None:
    code = f"import sys, agents.{game}.arena; print('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert not [m for m in out.stdout.split() if m.startswith(f"agents.{other}")]


# ------------------------------------------------------------------------------ the models
def test_every_games_models_are_named_files() -> None:
    assert set(MODELS) <= set(GAMES)
    for game, shipped in MODELS.items():
        for name, file in shipped.items():
            assert (
                model_path(game, name) == ROOT / "agents" / WEIGHTS / file
                and model_path(game, name).is_file()
            )
    with pytest.raises(
        ValueError, match=r"unknown basari model 'ppo_5p'; shipped models: \['ppo_2p', 'ppo_3p', "
    ):
        model_path("basari", "ppo_5p")


@pytest.mark.parametrize("game, name", [("asara", "ppo_2p"), ("basari", "ppo_4p")])
def test_the_shipped_models_play_by_name_and_by_path_in_both_games(game: str, name: str) -> None:
    pytest.importorskip("sb3_contrib")
    from agents.policy_agent import PolicyAgent

    agent = make_agent(game, name, 3)
    assert isinstance(agent, PolicyAgent) and agent.name == name
    policy = agent.model.policy
    actions, observations = policy.action_space, policy.observation_space
    assert isinstance(actions, spaces.Discrete) and isinstance(observations, spaces.Box)
    _, masks = random_batch(6, int(actions.n))
    obs = np.random.default_rng(1).random((6, observations.shape[0]), np.float32)
    chosen = agent.act_batch(obs, masks)
    assert masks[np.arange(6), chosen].all()
    path = model_path(game, name)
    assert (make_agent(game, f"policy:model={path}", 3).act_batch(obs, masks) == chosen).all()
    sampling = make_agent(game, f"policy:model={path}:deterministic=false", 3)
    assert masks[np.arange(6), sampling.act_batch(obs, masks)].all()


def test_one_mixture_grammar_reads_and_writes_every_weighted_mix() -> None:
    from agents.registry import mixture_text, read_mixture

    names = ("ppo_2p", "value", "random")
    mix = read_mixture("ppo_2p*2+value*0.25+random", names)
    assert mix == (("ppo_2p", 2.0), ("value", 0.25), ("random", 1.0))
    assert read_mixture(mixture_text(mix), names) == mix
    assert mixture_text(mix) == "ppo_2p*2+value*0.25+random"
    assert read_mixture("anything") == (("anything", 1.0),)  # no names: any name
    for text, message in [
        ("chess", "names 'chess' in 'chess'; the names: ['ppo_2p', 'random', 'value']"),
        ("value+value", "names 'value' twice in 'value+value'"),
        ("value*0", "gives 'value' the weight 0; weights must be > 0"),
        ("value*x", "must be a number, got 'x'"),
        ("value+", "names '' in 'value+'"),
        ("value:0.5,random:0.5", "names 'value:0.5,random:0.5'"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            read_mixture(text, names)


def test_every_weighted_mix_reads_through_the_one_grammar() -> None:
    """A search spec's `opponents=`, self-play's `--playout-mix` and PPO's `--opponents`
    read the same text to the same mixture."""
    from agents.registry import check_agent
    from training.ppo.run_args import opponents_parser
    from training.selfplay.searchspec import playout_mix, read_search

    text, names = "value*2+random", ("value", "random")
    search = read_search(f"flatmc:8:opponents={text}", ("win",))
    assert playout_mix("basari", search) == (("value", 2.0), ("random", 1.0))
    assert opponents_parser(names)(text) == (["value", "random"], [2.0, 1.0])
    check_agent("basari", f"flatmc:8:opponents={text}")
    with pytest.raises(ValueError, match="weights must be > 0"):
        check_agent("basari", "flatmc:8:opponents=value*0")
