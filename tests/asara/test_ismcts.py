"""Information-set MCTS (agents/asara/ismcts.py): legal actions only, deterministic given its
seed, blind to what its seat cannot know, its budget kept, and a correct tree."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.asara import ISMCTSAgent, TowersAgent
from agents.asara.arena import play_batch, play_game
from agents.asara.ismcts import PUBLIC_KEY, Node
from agents.registry import agent_names, agent_specs, make_agent, unknown_agents_error
from asara_env.asara.actions import (
    CARD_OPTIONS,
    NUM_ACTIONS,
    Group,
    decode,
    encode,
    public_description,
)
from asara_env.asara.bridge import from_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.core import legal_action_mask, scores, terminal_rewards
from asara_env.asara.core.observation import observe
from asara_env.asara.hidden import resample_hidden
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.state import State
from tests.asara.games import ALL_CONFIGS, ALL_IDS, game_states
from tests.asara.test_search import _late_choices
from training.evaluation.asara import check
from training.evaluation.asara.tournament import LADDER
from training.evaluation.ladder import Entry, parse_entry

CHEAP = "ismcts:2:horizon=0"  # two iterations scored by `estimate` after the tree


def _edges(node: Node):
    """(parent, key, child) of every edge below `node`."""
    for key, child in node.children.items():
        yield node, key, child
        yield from _edges(child)


def _ismcts(spec: str, seed: int) -> ISMCTSAgent:
    """The registry's agent for an `ismcts:...` spec, as the ISMCTSAgent it is."""
    agent = make_agent("asara", spec, seed)
    assert isinstance(agent, ISMCTSAgent)
    return agent


def _root(agent: ISMCTSAgent, i: int = 0) -> Node:
    """The tree of the last call's state i (None only for a state without a choice)."""
    root = agent.last_roots[i]
    assert root is not None
    return root


def _stats(root: Node) -> list[tuple[Any, ...]]:
    """The edges in the order they were expanded, with their statistics."""
    return [(k, c.visits, c.avail, c.total.tolist()) for _, k, c in _edges(root)]


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_ismcts_plays_whole_games_with_legal_actions_only(config):
    """A whole game through the arena: the core refuses an illegal action (IllegalActionError),
    so every decision of the search was legal."""
    agent = _ismcts(CHEAP, 1)
    others = [make_agent("asara", "random", 2)]
    seating = np.array([[0] + [1] * (config.num_players - 1)])
    prestige = play_batch(config, [agent, *others], seating, [5])
    assert prestige.shape == (1, config.num_players)
    assert agent.searches > 0 and agent.iterations == 2 * agent.searches


def test_ismcts_plays_legal_actions_in_late_positions():
    for config in ALL_CONFIGS[::3]:
        agent = ISMCTSAgent(seed=1, sims=6, wave=4, horizon=3)
        for state in _late_choices(config, 31, 2):
            assert agent.act_state(state) in legal_actions(state)


def test_ismcts_is_deterministic_given_its_seed_and_seeds_matter():
    states = _late_choices(GameConfig(num_players=3, variant="pro"), 51, 5)
    first = [ISMCTSAgent(seed=3, sims=12, wave=5, horizon=4).act_state(s) for s in states]
    again = [ISMCTSAgent(seed=3, sims=12, wave=5, horizon=4).act_state(s) for s in states]
    assert first == again

    def tree(seed: int) -> list[tuple[Any, ...]]:
        agent = ISMCTSAgent(seed=seed, sims=12, wave=5, horizon=4)
        agent.act_state(states[0])
        return _stats(_root(agent))

    assert tree(3) == tree(3) and tree(3) != tree(4)


def test_ismcts_reads_only_what_the_seat_knows():
    """The decision and the whole tree are the same in a state and in any state the seat
    cannot tell from it (other hidden cards and windows, other future chance)."""
    rng = np.random.default_rng(2)
    for config in ALL_CONFIGS[::4]:
        for state in _late_choices(config, 41, 2):
            twin = resample_hidden(state, state.seat, rng)
            twin.rng = np.random.default_rng(int(rng.integers(2**32)))
            a, b = (ISMCTSAgent(seed=9, sims=10, wave=4, horizon=3) for _ in range(2))
            assert a.act_state(state) == b.act_state(twin)
            tree_a = [(k, c.visits, c.avail, c.total.tolist()) for _, k, c in _edges(_root(a))]
            tree_b = [(k, c.visits, c.avail, c.total.tolist()) for _, k, c in _edges(_root(b))]
            assert tree_a == tree_b


@pytest.mark.parametrize("sims,wave", [(10, 4), (7, 32), (9, 1)])
def test_ismcts_spends_exactly_its_budget(sims, wave):
    """`sims` iterations per searched decision, whatever the wave size, also when several
    games are searched together; each iteration passes the root once."""
    config = GameConfig(num_players=4, variant="pro", expansions=("genie", "gifts"))
    states = [s for seed in (101, 102) for s in _late_choices(config, seed, 2)]
    agent = ISMCTSAgent(seed=2, sims=sims, wave=wave, horizon=2, batch=8)
    actions = agent.act_states(states)
    assert all(a in legal_actions(s) for a, s in zip(actions, states))
    assert agent.iterations == sims * len(states) and agent.searches == len(states)
    assert [_root(agent, i).visits for i in range(len(states))] == [sims] * len(states)
    single = ISMCTSAgent(seed=2, sims=sims, wave=wave, horizon=2)
    single.act_state(states[0])
    assert single.iterations == sims


def test_a_single_legal_action_costs_nothing():
    state = next(
        s for s in game_states(GameConfig(num_players=2), 61) if len(legal_actions(s)) == 1
    )
    agent = ISMCTSAgent(seed=0, sims=64)
    before = agent.rng.bit_generator.state
    assert agent.act_state(state) == legal_actions(state)[0]
    assert agent.iterations == 0 and agent.searches == 0
    assert agent.rng.bit_generator.state == before and agent.last_roots == [None]


def test_ismcts_refuses_bad_options_naming_them():
    agent = _ismcts("ismcts:8:c=0.3:wave=4:playout=towers:horizon=5:value=margin", 0)
    assert (agent.sims, agent.c, agent.wave) == (8, 0.3, 4)
    assert agent.playout_name == "towers" and agent.horizon == 5 and agent.value == "margin"
    bad = {
        "ismcts:c=-1": "c ",
        "ismcts:c=nan": "c ",
        "ismcts:wave=0": "wave",
        "ismcts:sims=0": "sims",
        "ismcts:value=best": "option .value. must be one of",
        "ismcts:seconds=-1": "seconds",
        "ismcts:horizon=-2": "horizon",
        "ismcts:depth=3": "depth",
        "ismcts:expand=best": "expand",
        "ismcts:widen=0": "widen",
        "ismcts:widen=1.5": "widen",
        "ismcts:c=": "c=",
    }
    for spec, named in bad.items():
        with pytest.raises(ValueError, match=named):
            make_agent("asara", spec, 0)
    with pytest.raises(TypeError, match="needs its state"):
        agent.act_batch(np.zeros((1, 10), np.float32), np.ones((1, 10), bool))
    over = game_states(GameConfig(num_players=2), 3)[-1]
    with pytest.raises(ValueError, match="over"):
        agent.act_state(over)


def test_the_others_hidden_moves_are_one_edge():
    """R10.2: another seat's face-down pair on a space is one edge whatever its cards (the
    smallest id of the public class); face-up cards and the seat's own moves stay apart."""
    for target in (0, 5, 12):
        pairs = [encode(Group.PLACE, target, o) for o, c in enumerate(CARD_OPTIONS) if len(c) == 2]
        singles = [
            encode(Group.PLACE, target, o) for o, c in enumerate(CARD_OPTIONS) if len(c) == 1
        ]
        assert len(set(PUBLIC_KEY[pairs].tolist())) == 1 and PUBLIC_KEY[pairs[0]] == min(pairs)
        assert PUBLIC_KEY[singles].tolist() == singles
    kept = [encode(Group.LIGHTS_KEEP, c) for c in range(5)]
    assert len(set(PUBLIC_KEY[kept].tolist())) == 1
    for a in range(NUM_ACTIONS):  # a key is a move of the same public description
        assert public_description(int(PUBLIC_KEY[a]), 0, 1) == public_description(a, 0, 1)


def test_the_tree_is_keyed_by_what_the_observer_sees():
    """Every edge of another seat is a public class; some of them gather hidden moves, and
    the observer's own edges are its actions."""
    config = GameConfig(num_players=3)
    states = [s for s in game_states(config, 12)[:60] if len(legal_actions(s)) > 1][::6]
    hidden_classes = 0
    for state in states:
        agent = ISMCTSAgent(seed=4, sims=48, wave=8, horizon=2)
        agent.act_state(state)
        for _, key, child in _edges(_root(agent)):
            if child.mover != state.seat:
                assert PUBLIC_KEY[key] == key
                group, f = decode(key)
                hidden_classes += group == Group.PLACE and len(CARD_OPTIONS[f[1]]) == 2
        assert set(_root(agent).children) <= set(legal_actions(state))
    assert hidden_classes > 0


def test_tree_statistics_add_up():
    """Visits: the root's equals the iterations, a node's children's at most its own, every
    visit backed up; availability at least the visits; one reward per seat per visit."""
    config = GameConfig(num_players=2, variant="pro")
    for state in _late_choices(config, 71, 3) + _late_choices(GameConfig(num_players=4), 72, 2):
        agent = ISMCTSAgent(seed=5, sims=40, wave=8, horizon=3, value="win")
        agent.act_state(state)
        root = _root(agent)
        assert root.visits == root.backed == 40
        assert sum(c.visits for c in root.children.values()) == 40
        for _, _, child in _edges(root):
            assert child.avail >= child.visits == child.backed >= 1
            assert sum(c.visits for c in child.children.values()) <= child.visits
            assert child.total.shape == (state.num_players,)
            assert (np.abs(child.total) <= child.visits + 1e-6).all()  # win rewards in [-1, 1]
        assert agent.tree_decisions >= 40  # every iteration stepped at least the root's move


def _last_choice() -> tuple[State, list[int], np.ndarray]:
    """A last decision of a game whose actions all end it, one of them scoring best for
    the seat to move: (state, actions, the seat's margin reward after each)."""
    config = GameConfig(num_players=2, variant="pro")  # seed 2 has one
    for seed in range(2, 40):
        for state in game_states(config, seed)[-30:]:
            actions = legal_actions(state) if not state.is_over else []
            if len(actions) < 2:
                continue
            after = [state.copy() for _ in actions]
            for t, a in zip(after, actions):
                engine.step(t, a)
            if all(t.is_over for t in after):
                score = scores(from_reference(after))
                value = terminal_rewards(score, "margin")[:, state.seat]
                if (value == value.max()).sum() == 1:
                    return state, actions, value
    raise AssertionError("no decisive last decision found")


def test_ismcts_finds_the_best_last_move():
    """When every action ends the game and one scores best, the search plays it, and it is
    the most visited root child, with the exact final margin as its mean."""
    state, actions, value = _last_choice()
    best = actions[int(np.argmax(value))]
    for seed in range(3):
        agent = ISMCTSAgent(seed=seed, sims=30, wave=6, value="margin", c=0.1)
        assert agent.act_state(state) == best
        root = _root(agent)
        kids = root.children
        assert kids[best].visits > max(c.visits for a, c in kids.items() if a != best)
        for a, v in zip(actions, value):
            assert kids[a].mean(state.seat) == pytest.approx(float(v), abs=1e-6)
            assert not kids[a].children  # the game is over: a leaf


def test_ismcts_with_a_time_budget_and_through_the_env():
    state = _late_choices(GameConfig(num_players=2, variant="pro"), 71, 1)[0]
    agent = _ismcts("ismcts:seconds=0.05:playout=greedy:value=margin:horizon=4", 4)
    assert agent.act_state(state) in legal_actions(state) and agent.iterations >= agent.wave
    config = GameConfig(num_players=2)
    final = play_game(
        config, [make_agent("asara", CHEAP, 1), make_agent("asara", "greedy", 2)], seed=8
    )
    assert final.shape == (2,)


def test_ismcts_is_named_wherever_agents_are_named():
    """The tournament's and `asara play`'s spec checks, the ladder's entries."""
    spec = "ismcts:64:playout=towers:horizon=10:value=margin"
    assert spec in agent_specs("asara") and "ismcts" in agent_names("asara")
    assert unknown_agents_error("asara", [spec, "ismcts:8:c=0.5:wave=4"]) is None
    error = unknown_agents_error("asara", ["ismcts:8:depth=1"])
    assert error is not None and "ismcts:8:depth=1" in error
    assert parse_entry(f"is={spec}", check) == Entry("is", spec)
    assert any(parse_entry(e, check).spec.startswith("ismcts") for e in LADDER.default_agents)


def test_expansions_try_the_playout_policy_move_first():
    """With a towers playout, the first root edge expanded is one of towers' best moves
    (towers reads only the seat's observation, the same in every determinisation)."""
    tried = 0
    for state in _late_choices(GameConfig(num_players=2), 81, 4):
        core = from_reference([state])
        mask = legal_action_mask(core)
        scores = np.where(mask, TowersAgent().scores(observe(core, core.seat), mask), -np.inf)
        best = np.flatnonzero(scores[0] == scores[0].max())
        agent = ISMCTSAgent(seed=1, sims=4, wave=4, playout="towers", horizon=1)
        agent.act_state(state)
        first = next(iter(_root(agent).children))
        assert first in best
        tried += len(best) < len(legal_actions(state))
    assert tried > 0  # towers preferred some moves: the check could fail


def test_progressive_widening_keeps_nodes_below_the_root_narrow():
    """Below the root a node has at most max(1, floor((visits - 1) ** widen)) children
    (one more only when none of them is legal in a world); the root tries every move;
    widen=1 lets every visit expand (plain SO-ISMCTS), which grows wider trees."""
    state = _late_choices(GameConfig(num_players=2), 91, 1)[0]
    widths = {}
    for widen in (0.5, 1.0):
        agent = ISMCTSAgent(seed=6, sims=96, wave=8, horizon=2, widen=widen)
        agent.act_state(state)
        root = _root(agent)
        assert set(root.children) == set(legal_actions(state))
        below = [c for _, _, c in _edges(root) if c.children]
        widths[widen] = max(len(c.children) for c in below)
        if widen < 1:
            assert all(len(c.children) <= max(1, int((c.visits - 1) ** widen)) for c in below)
    assert widths[1.0] > widths[0.5]
