"""Every agent of both games (baselines, shipped models, `policy`, every search) acts in
the game's PettingZoo envs through one call, `act_env(env, agent_id=None)`: the AEC envs
of both games and BASARI's parallel env; whole BASARI parallel games played by the shared
searches; and a search in an env reads only what its agent may see."""

from __future__ import annotations

import copy
import importlib.util
from functools import cache
from typing import Any

import numpy as np
import pytest

from agents.models import model_path
from agents.registry import agent_names, make_agent
from agents.search.game import SearchGame
from asara_env import asara_v0, basari_v0
from asara_env.asara.hidden import resample_hidden
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from asara_env.common.sampling import uniform_legal

BACKEND = "numpy"
PLAYERS = 2
STEPS = 6  # env steps each agent plays from a new game
SEARCHES = {
    "flatmc": f"flatmc:4:horizon=2:backend={BACKEND}",
    "ismcts": f"ismcts:4:horizon=2:backend={BACKEND}",
    "gumbel": f"gumbel:4:horizon=2:backend={BACKEND}",
}
# playouts to the end: the chance to come decides the searched move if the search reads it
TO_THE_END = {kind: f"{kind}:8:backend={BACKEND}" for kind in SEARCHES}
ENVS = {
    ("asara", "env"): asara_v0.env,
    ("basari", "env"): basari_v0.env,
    ("basari", "parallel_env"): basari_v0.parallel_env,
}


def make_env(game: str, kind: str, players: int = PLAYERS) -> Any:
    options = {"illegal_action": "raise"} if game == "basari" else {}
    return ENVS[game, kind](num_players=players, backend=BACKEND, **options)


def every_spec(game: str) -> list[str]:
    """A spec of every agent name of `game`: the searches with small budgets, `policy`
    on the shipped 2-player model's file."""
    policy = f"policy:model={model_path(game, 'ppo_2p')}"
    names = agent_names(game)
    assert {"policy", *SEARCHES} <= set(names)
    return [SEARCHES.get(n, policy if n == "policy" else n) for n in names]


def play_aec(env: Any, agent: Any, steps: int) -> int:
    """`steps` AEC steps, each live agent's action asked of `agent` through act_env;
    the count of actions it gave."""
    given = 0
    for _ in env.agent_iter(steps):
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        action = agent.act_env(env)
        assert observation["action_mask"][action]
        env.step(action)
        given += 1
    return given


def play_parallel(env: Any, agents: dict[str, Any], seed: int, steps: int | None = None) -> int:
    """A game of a parallel env (or its first `steps` steps), each agent's action asked
    of `agents[agent]` through act_env; the steps played."""
    observations, _ = env.reset(seed=seed)
    played = 0
    while env.agents and (steps is None or played < steps):
        actions = {a: agents[a].act_env(env, a) for a in env.agents}
        assert all(observations[a]["action_mask"][x] for a, x in actions.items())
        observations, *_ = env.step(actions)
        played += 1
    return played


@pytest.mark.parametrize(("game", "kind"), list(ENVS))
def test_every_agent_acts_through_act_env(game, kind):
    env = make_env(game, kind)
    for spec in every_spec(game):
        agent: Any = make_agent(game, spec, 0)  # a search counts its `searches`
        if kind == "parallel_env":
            one = dict.fromkeys(env.possible_agents, agent)
            assert play_parallel(env, one, seed=4, steps=STEPS) == STEPS, spec
        else:
            env.reset(seed=4)
            assert play_aec(env, agent, STEPS) > 0, spec
        if spec.split(":")[0] in SEARCHES:
            assert agent.searches > 0, spec  # it searched, not only forced moves


def test_three_searches_play_whole_basari_parallel_games():
    env = make_env("basari", "parallel_env", players=3)
    for seed in (1, 2):
        agents: dict[str, Any] = {
            a: make_agent("basari", spec, seed + i)
            for i, (a, spec) in enumerate(zip(env.possible_agents, SEARCHES.values()))
        }
        assert play_parallel(env, agents, seed=seed) > 0
        assert not env.agents  # played to the end
        assert all(agent.searches > 0 for agent in agents.values())


@pytest.mark.parametrize("kind", list(SEARCHES))
def test_a_search_in_an_env_decides_as_in_the_arena(kind):
    """act_env on an env's game is the arena's question (`act_seats`) on the same game."""
    for env, _, agent in TWINS["basari"]():
        seat = env.possible_agents.index(agent)
        in_env = make_agent("basari", TO_THE_END[kind], 5).act_env(env, agent)
        arena: Any = make_agent("basari", TO_THE_END[kind], 5)
        assert in_env == arena.act_seats(env.core, np.zeros(1, np.int64), np.array([seat]))[0]


def test_an_aec_env_asks_the_agent_named():
    """BASARI's AEC form: any live agent of the step may be asked, each from the step's
    start; ASARA's: an agent that is not to move has no action."""
    env = make_env("basari", "env")
    env.reset(seed=6)
    other = env.possible_agents[1]
    assert env.agent_selection != other
    for spec in ("value", SEARCHES["gumbel"]):
        action = make_agent("basari", spec, 0).act_env(env, other)
        assert env.observe(other)["action_mask"][action]
    env = make_env("asara", "env")
    env.reset(seed=6)
    for spec in ("towers", SEARCHES["gumbel"], SEARCHES["ismcts"]):
        with pytest.raises(ValueError, match="player_1 has no legal action now"):
            make_agent("asara", spec, 0).act_env(env, "player_1")


@pytest.mark.parametrize("spec", ["random", SEARCHES["flatmc"]])
def test_a_parallel_env_needs_the_agent_named(spec):
    env = make_env("basari", "parallel_env")
    env.reset(seed=0)
    agent = make_agent("basari", spec, 0)
    with pytest.raises(ValueError, match="name one"):
        agent.act_env(env)
    with pytest.raises(ValueError, match="unknown agent 'player_7'"):
        agent.act_env(env, "player_7")


def test_a_finished_game_has_no_action_to_ask():
    env = make_env("basari", "parallel_env")
    play_parallel(env, dict.fromkeys(env.possible_agents, make_agent("basari", "value", 0)), 3)
    for spec in ("value", SEARCHES["ismcts"]):
        with pytest.raises(ValueError, match="no legal action now"):
            make_agent("basari", spec, 0).act_env(env, "player_0")


# ------------------------------------------------------------------ only what the agent sees
Twins = list[tuple[Any, Any, str]]


def basari_twins(seed: int, positions: int, every: int = 3) -> Twins:
    """(env, twin, agent): BASARI parallel envs at positions of a random game where
    `agent` has a choice, the twin's game seed (every die, coin and draw to come) another:
    positions no agent can tell apart."""
    env, rng = make_env("basari", "parallel_env"), np.random.default_rng(seed)
    env.reset(seed=seed)
    out: Twins = []
    choices = 0
    while env.agents and len(out) < positions:
        masks = {a: env.observe(a)["action_mask"].astype(bool) for a in env.agents}
        choosing = [a for a, m in masks.items() if m.sum() > 1]
        choices += bool(choosing)
        if choosing and choices % every == 0:
            saved, twin = env.save_game(), make_env("basari", "parallel_env")
            twin.load_game({**saved, "seed": saved["seed"] + 1_000_003})
            out.append((copy.deepcopy(env), twin, choosing[0]))
        env.step({a: int(uniform_legal(m[None], rng.random(1))[0]) for a, m in masks.items()})
    assert len(out) == positions
    return out


def asara_twins(seed: int, positions: int, every: int = 20) -> Twins:
    """(env, twin, agent): ASARA AEC envs at positions of a random game where `agent`, to
    move, has a choice, the twin's cards and windows that agent cannot see and its chance
    to come redrawn."""
    env, rng = make_env("asara", "env"), np.random.default_rng(seed)
    env.reset(seed=seed)
    out: Twins = []
    choices = 0
    while not any(env.terminations.values()) and len(out) < positions:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"].astype(bool)
        choices += bool(mask.sum() > 1)
        if mask.sum() > 1 and choices % every == 0:
            state = state_from_dict(env.save_game())
            hidden = resample_hidden(state, state.seat, rng)
            hidden.rng = np.random.default_rng(int(rng.integers(2**32)))
            twin = make_env("asara", "env")
            twin.load_game(state_to_dict(hidden))
            out.append((copy.deepcopy(env), twin, agent))
        env.step(int(uniform_legal(mask[None], rng.random(1))[0]))
    assert len(out) == positions
    return out


# made once: acting reads an env and changes nothing
TWINS = {"basari": cache(lambda: basari_twins(8, 4)), "asara": cache(lambda: asara_twins(11, 4))}
GAME_KINDS = [(game, kind) for game in TWINS for kind in SEARCHES]


def twin_picks(game: str, kind: str) -> list[bool]:
    """Per pair of twins of `game`, whether a search of `kind` (seed 5, playouts to the
    end) decided alike in both for the agent named."""
    same = []
    for env, twin, agent in TWINS[game]():
        picks = [make_agent(game, TO_THE_END[kind], 5).act_env(e, agent) for e in (env, twin)]
        same.append(picks[0] == picks[1])
    return same


@pytest.mark.parametrize("game", list(TWINS))
def test_twins_look_alike_to_their_agent_and_differ_in_what_it_cannot_see(game):
    for env, twin, agent in TWINS[game]():
        assert env.save_game() != twin.save_game()
        seen = [e.observe(agent) for e in (env, twin)]
        assert all(np.array_equal(seen[0][k], seen[1][k]) for k in seen[0])
        assert seen[0]["action_mask"].sum() > 1


@pytest.mark.parametrize(("game", "kind"), GAME_KINDS)
def test_a_search_in_an_env_decides_alike_in_twins(game, kind):
    assert all(twin_picks(game, kind))


@pytest.mark.parametrize(("game", "kind"), GAME_KINDS)
def test_a_search_that_read_the_hidden_state_would_tell_twins_apart(game, kind, monkeypatch):
    """The check above can fail: a search whose worlds are the env's game itself, nothing
    hidden redrawn, decides differently in some twins."""
    monkeypatch.setattr(
        SearchGame, "determinise", lambda self, state, games, *_: self.take(state, games)
    )
    if importlib.util.find_spec("agents.asara.search") is not None:  # ASARA's own searches
        monkeypatch.setattr("agents.asara.search.determinise", lambda state, *_: state.copy())
    assert not all(twin_picks(game, kind))
