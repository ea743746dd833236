"""The heuristic agents' choice compiled (agents/asara/heuristic_compiled.py): the same
action as the numpy agents' on every state of games without expansions, and the search's
numba backend deciding the same with it as with the agent's own act_batch."""

from __future__ import annotations

from typing import cast

import numpy as np
import pytest

pytest.importorskip("numba")

from agents.asara import heuristic_compiled  # noqa: E402
from agents.asara.heuristic import GreedyAgent, HeuristicAgent, TallAgent, TowersAgent  # noqa: E402
from agents.asara.search import FlatMCAgent  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from asara_env.asara.config import GameConfig  # noqa: E402
from asara_env.games import load_core  # noqa: E402
from tests.asara.games import CONFIGS, EXPANSION_CONFIGS, IDS  # noqa: E402

AGENTS = (TowersAgent, GreedyAgent, TallAgent)
BATCH, STEPS = 16, 200  # games per configuration, decisions stepped


def _compare_along_games(config: GameConfig, seed: int) -> int:
    """Steps BATCH games of `config` with mixed heuristic players; at every decision,
    asserts every agent's compiled choice, from the observations and from the state, is
    its numpy choice for the same uniforms.
    Returns the live decisions compared."""
    core, rng = load_core("asara", "numba"), np.random.default_rng(seed)
    state, compared = core.init(config, BATCH, seeds=seed), 0
    for _ in range(STEPS):
        live = ~core.is_terminal(state)
        if not live.any():
            break
        games = np.flatnonzero(live)
        obs = core.observe_games(state, games, state.seat[games])
        masks = core.legal_action_mask(state)[games].astype(bool)
        u = rng.random(len(games))
        for agent in AGENTS:
            plan = agent.plan
            want = agent().choose(obs, masks, u)
            np.testing.assert_array_equal(heuristic_compiled.choose(plan, obs, masks, u), want)
            from_state = heuristic_compiled.choose_games(plan, state, games, masks, u)
            np.testing.assert_array_equal(from_state, want)
        compared += len(games)
        mover = AGENTS[int(rng.integers(len(AGENTS)))]()
        core.step(state, mover.choose(obs, masks, u), games=games)
    return compared


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_compiled_choice_is_the_numpy_agents(config):
    assert _compare_along_games(config, seed=config.num_players) > BATCH * STEPS // 2


def test_compiled_choice_covers_games_without_expansions_only():
    assert all(heuristic_compiled.supports(c) for c in CONFIGS)
    assert not any(heuristic_compiled.supports(c) for c in EXPANSION_CONFIGS)


def test_compiled_choice_breaks_ties_by_the_uniform():
    """The first decision of a towers game whose best moves tie: different uniforms pick
    different ones among them, as the numpy agent does."""
    core, agent = load_core("asara", "numba"), TowersAgent()
    state = core.init(GameConfig(num_players=2), 1, seeds=0)
    while True:
        obs, masks = core.observe(state), core.legal_action_mask(state).astype(bool)
        scores = np.where(masks, agent.scores(obs, masks), -np.inf)
        if (scores == scores.max()).sum() > 1:
            break
        core.step(state, agent.choose(obs, masks, np.zeros(1)))
    u = np.linspace(0, 0.999, 64)
    obs, masks = np.repeat(obs, len(u), axis=0), np.repeat(masks, len(u), axis=0)
    got = heuristic_compiled.choose(TowersAgent.plan, obs, masks, u)
    np.testing.assert_array_equal(got, agent.choose(obs, masks, u))
    assert len(np.unique(got)) > 1


@pytest.mark.parametrize("spec", ["ismcts:12:wave=4", "flatmc:24"])
def test_search_with_compiled_playouts_decides_as_with_the_agent(spec, monkeypatch):
    """The towers playouts compiled draw the same random numbers and choose the same moves
    as the towers agent's act_batch: the numba backend's search decides the same with
    either, decision for decision."""
    from tests.asara.test_search import _late_choices

    states = _late_choices(GameConfig(num_players=2), seed=3, n=4)
    full = f"{spec}:playout=towers:horizon=6:value=margin:backend=numba"
    compiled, plain = (cast(FlatMCAgent, make_agent("asara", full, 7)) for _ in range(2))
    assert compiled._compiled_plan(GameConfig(num_players=2)) is TowersAgent.plan
    monkeypatch.setattr(plain, "_compiled_plan", lambda config: None)
    want = [plain.act_state(s) for s in states]
    assert [compiled.act_state(s) for s in states] == want
    assert compiled.playout_decisions == plain.playout_decisions


def test_search_uses_the_compiled_choice_only_for_plain_heuristics():
    agent = cast(FlatMCAgent, make_agent("asara", "flatmc:8:playout=towers:backend=numpy", 1))
    assert agent._compiled_plan(GameConfig(num_players=2)) is None
    agent = cast(FlatMCAgent, make_agent("asara", "flatmc:8:playout=towers:backend=numba", 1))
    assert agent._compiled_plan(GameConfig(num_players=2, expansions=("gifts",))) is None

    class Scored(HeuristicAgent):
        plan = TowersAgent.plan

        def scores(self, observations, masks):
            return np.zeros(masks.shape)

    agent.policy = Scored()
    assert agent._compiled_plan(GameConfig(num_players=2)) is None
