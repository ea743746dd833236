"""The search agent (agents/asara/search.py) and the determinisations it draws
(asara_env/asara/hidden.py): only what the deciding seat knows, legal actions only,
deterministic given its seed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.asara import FlatMCAgent
from agents.asara.arena import act_in_env, play_batch, play_game
from agents.asara.search import estimate
from agents.registry import make_agent
from asara_env import asara_v0
from asara_env.asara.bridge import from_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.core import TURNS, is_terminal, scores, take, terminal_rewards
from asara_env.asara.hidden import determinise, resample_hidden
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from asara_env.common.opponents import play_opponents
from tests.asara.games import ALL_CONFIGS, ALL_IDS, game_states
from tests.asara.hidden import r10_states


def flatmc(spec: str, seed: int) -> FlatMCAgent:
    """The registry's agent for a `flatmc:...` or `ismcts:...` spec, as the FlatMCAgent
    it is (ISMCTSAgent is one too)."""
    agent = make_agent("asara", spec, seed)
    assert isinstance(agent, FlatMCAgent)
    return agent


def _late_choices(config: GameConfig, seed: int, n: int) -> list[Any]:
    """n states with more than one legal action from the last quarter of a random game
    (short playouts keep the tests fast)."""
    states = game_states(config, seed)
    late = [s for s in states[3 * len(states) // 4 :] if not s.is_over]
    return [s for s in late if len(legal_actions(s)) > 1][:n]


def test_r10_determinisations_depend_only_on_what_the_seat_knows():
    """Two states the seat cannot tell apart give the same determinisation, bit for bit:
    the hidden cards, windows and the game's generator are all redrawn."""
    rng = np.random.default_rng(0)
    for state in r10_states()[::3]:
        for viewer in range(state.num_players):
            twin = resample_hidden(state, viewer, rng)
            twin.rng = np.random.default_rng(int(rng.integers(2**32)))  # other future chance
            a = determinise(state, viewer, np.random.default_rng(5))
            b = determinise(twin, viewer, np.random.default_rng(5))
            assert state_to_dict(a) == state_to_dict(b)


def test_r10_determinisations_vary_and_keep_what_the_seat_knows():
    state = next(s for s in r10_states() if s.hands.sum() > 4 and s.draw_pile.sum() > 4)
    seat = state.seat
    worlds = [determinise(state, seat, np.random.default_rng(k)) for k in range(8)]
    assert all((w.hands[seat] == state.hands[seat]).all() for w in worlds)
    assert all(w.hands.sum() == state.hands.sum() for w in worlds)
    assert len({w.draw_pile.tobytes() for w in worlds}) > 1  # the unknown is redrawn
    core = from_reference(worlds)  # the core takes them as one batch
    assert (core.hands[:, seat] == state.hands[seat]).all()


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_search_plays_legal_actions_only(config):
    agent = FlatMCAgent(seed=1, sims=4)
    for state in _late_choices(config, 31, 3):
        assert agent.act_state(state) in legal_actions(state)
    assert agent.searches > 0


def test_search_reads_only_what_the_seat_knows():
    """The decision is the same in a state and in any state the seat cannot tell from it."""
    rng = np.random.default_rng(2)
    for config in ALL_CONFIGS[::4]:
        for state in _late_choices(config, 41, 2):
            twin = resample_hidden(state, state.seat, rng)
            twin.rng = np.random.default_rng(int(rng.integers(2**32)))
            a = FlatMCAgent(seed=9, sims=6).act_state(state)
            b = FlatMCAgent(seed=9, sims=6).act_state(twin)
            assert a == b


def test_search_is_deterministic_given_its_seed_and_seeds_matter():
    states = _late_choices(GameConfig(num_players=3, variant="pro"), 51, 6)
    first = [FlatMCAgent(seed=3, sims=8).act_state(s) for s in states]
    again = [FlatMCAgent(seed=3, sims=8).act_state(s) for s in states]
    assert first == again
    agent = FlatMCAgent(seed=3, sims=8)
    agent.act_state(states[0])
    assert agent.simulations >= 8  # the budget is spent: at least one playout per action


def test_a_single_legal_action_costs_nothing():
    config = GameConfig(num_players=2)
    state = next(s for s in game_states(config, 61) if len(legal_actions(s)) == 1)
    agent = FlatMCAgent(seed=0, sims=64)
    before = agent.rng.bit_generator.state
    assert agent.act_state(state) == legal_actions(state)[0]
    assert agent.simulations == 0 and agent.rng.bit_generator.state == before


def test_search_agents_refuse_observations_and_bad_settings():
    agent = flatmc("flatmc:8", 0)
    assert agent.sims == 8
    with pytest.raises(TypeError, match="needs its state"):
        agent.act_batch(np.zeros((1, 10), np.float32), np.ones((1, 10), bool))
    for bad in ("flatmc:sims=0", "flatmc:value=best", "flatmc:seconds=-1", "flatmc:depth=3"):
        with pytest.raises(ValueError):
            make_agent("asara", bad, 0)
    over = game_states(GameConfig(num_players=2), 3)[-1]
    with pytest.raises(ValueError, match="over"):
        agent.act_state(over)


def test_search_with_a_heuristic_playout_and_a_time_budget():
    state = _late_choices(GameConfig(num_players=2, variant="pro"), 71, 1)[0]
    agent = flatmc("flatmc:seconds=0.05:playout=greedy:value=margin", 4)
    assert agent.playout_name == "greedy" and agent.act_state(state) in legal_actions(state)
    assert agent.simulations >= len(legal_actions(state))


def test_search_agent_is_asked_through_the_core_in_the_arena():
    """The arena (tournaments, ladder) hands a search agent the core state of its games."""
    config = GameConfig(num_players=3, variant="pro", expansions=("gifts",))
    states = [s for seed in (81, 82) for s in _late_choices(config, seed, 2)]
    core = from_reference(states)
    seating = np.zeros((len(states), 3), np.int64)  # the search agent in every seat
    agent = flatmc("flatmc:2", 0)
    play_opponents(TURNS, core, np.full(len(states), -1), seating, [agent])  # to the end
    assert is_terminal(core).all() and agent.searches >= len(states)


def test_search_agent_finishes_a_saved_game_through_the_env():
    """The AEC env path (`asara play`, `play_game`): the agent reads env.state()."""
    config = GameConfig(num_players=2, variant="pro", expansions=("genie",))
    state = _late_choices(config, 91, 1)[0]
    env = asara_v0.env(num_players=2, variant="pro", expansions=("genie",))
    env.reset(options={"state": state_to_dict(state)})
    search = flatmc("flatmc:2", 1)
    agents = [search, make_agent("asara", "greedy", 2)]
    for name in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        seat = env.possible_agents.index(name)
        env.step(None if termination or truncation else act_in_env(agents[seat], env, obs))
    assert state_from_dict(env.unwrapped.save_game()).is_over and search.searches > 0


@pytest.mark.slow
def test_search_agent_plays_whole_games_in_the_arena_and_the_env():
    config = GameConfig(num_players=2)
    search = flatmc("flatmc:1", 5)
    agents = [search, make_agent("asara", "random", 6)]
    prestige = play_batch(config, agents, np.array([[0, 1], [1, 0]]), np.array([8, 9]))
    assert prestige.shape == (2, 2) and search.searches > 0
    again = play_batch(
        config,
        [make_agent("asara", "flatmc:1", 5), make_agent("asara", "random", 6)],
        [[0, 1], [1, 0]],
        [8, 9],
    )
    assert (again == prestige).all()
    final = play_game(
        config, [make_agent("asara", "flatmc:1", 5), make_agent("asara", "greedy", 6)], seed=8
    )
    assert final.shape == (2,)


def test_games_searched_together_get_legal_actions_and_their_full_budget():
    config = GameConfig(num_players=4, variant="pro", expansions=("genie", "gifts"))
    states = [s for seed in (101, 102, 103) for s in _late_choices(config, seed, 2)]
    for batch in (8, 4096):  # split into many playout batches, or one
        agent = FlatMCAgent(seed=2, sims=6, batch=batch)
        actions = agent.act_states(states)
        assert all(a in legal_actions(s) for a, s in zip(actions, states))
        wanted = sum(
            max(1, round(6 / len(legal_actions(s)))) * len(legal_actions(s)) for s in states
        )
        assert agent.simulations == wanted and agent.searches == len(states)
    single = FlatMCAgent(seed=2, sims=6)
    assert single.act_states(states[:1])[0] == FlatMCAgent(seed=2, sims=6).act_state(states[0])


def test_truncated_playouts_end_in_the_estimate():
    """After `horizon` decisions a playout is scored by `estimate`: the prestige now plus
    the final scoring as if the game ended now plus the towers' end-of-year points for the
    years left; a finished game by its final prestige."""
    config = GameConfig(num_players=2, variant="pro")
    states = game_states(config, 111)
    core = from_reference([states[len(states) // 2], states[-1]])
    guess = estimate(core)
    assert (guess[0] >= core.prestige[0]).all()
    assert (guess[1] == scores(core)[1]).all()
    agent = FlatMCAgent(seed=0, sims=2, horizon=0, value="margin")
    seat = np.zeros(1, np.int64)
    scored = agent.playout(take(core, [0]), seat)  # horizon 0: no decision
    assert (scored == terminal_rewards(guess[:1], "margin")).all()
    deeper = FlatMCAgent(seed=0, sims=2, horizon=3)
    played = take(core, [0])
    deeper.playout(played, seat)
    assert played.decisions[0] == core.decisions[0] + 3
