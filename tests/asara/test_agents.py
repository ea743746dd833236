"""The baseline agents: only legal actions on many random positions of every configuration,
deterministic given their seed, batched and single forms agree, clear errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.asara import AGENTS
from agents.asara.features import Seen, unpack
from agents.asara.heuristic import HeuristicAgent, asari_value
from agents.base import Agent, pick_best
from agents.registry import make_agent
from asara_env import NUM_ACTIONS, GameConfig, decode, encode
from asara_env.asara.actions import CARD_OPTIONS, GENIE_MOVES, TARGETS, Group
from asara_env.asara.bridge import encode_view
from asara_env.asara.constants import CHEST_SPACES, GIFT_NAMES, Area, Part
from asara_env.asara.core.observation import OBS_DIM
from asara_env.asara.phases import Phase
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import chest_at, legal_actions, target_space, works
from asara_env.asara.reference.state import Buyer, State
from asara_env.asara.reference.view import seat_view
from tests.asara.games import CONFIGS, IDS, game_states

NAMES = sorted(AGENTS)
HEURISTICS = [n for n in NAMES if n != "random"]
# R9: expansion games, played through the reference engine (the core follows)
EXPANSION_CONFIGS = [
    GameConfig(num_players=3, variant="pro", expansions=("genie", "gifts")),
    GameConfig(num_players=2, variant="basic", expansions=("gifts",)),
]
EXPANSION_IDS = ["3p-pro-genie-gifts", "2p-basic-gifts"]


def observe(state: State) -> tuple[np.ndarray, np.ndarray]:
    """The observation and action mask of the seat to move."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[legal_actions(state)] = 1
    return encode_view(seat_view(state, state.seat)), mask


def states(config, seeds=(41, 42)) -> list[State]:
    """The unfinished states along random games."""
    return [s for seed in seeds for s in game_states(config, seed)[:-1]]


def positions(config, seeds=(41, 42)) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the seat to move along random games (unfinished states)."""
    obs, masks = zip(*map(observe, states(config, seeds)))
    return np.array(obs), np.array(masks)


POSITIONS = {c: positions(c) for c in CONFIGS + EXPANSION_CONFIGS}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("config", CONFIGS + EXPANSION_CONFIGS, ids=IDS + EXPANSION_IDS)
def test_agents_choose_only_legal_actions_and_batched_equals_single(name, config):
    obs, masks = POSITIONS[config]
    batched = make_agent("asara", name, seed=5).act_batch(obs, masks)
    single = make_agent("asara", name, seed=5)
    one_by_one = [single.act(o, m) for o, m in zip(obs, masks)]
    assert masks[np.arange(len(masks)), batched].all()
    assert batched.tolist() == one_by_one


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "config", [CONFIGS[-1], EXPANSION_CONFIGS[0]], ids=[IDS[-1], "genie-gifts"]
)
def test_agents_are_deterministic_given_their_seed_and_seeds_matter(name, config):
    obs, masks = POSITIONS[config]
    runs = [make_agent("asara", name, seed).act_batch(obs, masks).tolist() for seed in (1, 1, 2)]
    assert runs[0] == runs[1]
    if name == "random":
        assert runs[0] != runs[2]


@pytest.mark.parametrize("name", NAMES)
def test_an_empty_mask_is_an_error_naming_the_row(name):
    masks = np.ones((2, NUM_ACTIONS), np.int8)
    masks[1] = 0
    with pytest.raises(ValueError, match="row 1"):
        make_agent("asara", name, 0).act_batch(np.zeros((2, OBS_DIM), np.float32), masks)


def test_unknown_agent_names_are_refused():
    with pytest.raises(ValueError, match="unknown agent 'alphago'.*greedy"):
        make_agent("asara", "alphago")


def test_pick_best_breaks_ties_uniformly_by_the_given_double():
    scores = np.array([[1.0, 3.0, 3.0, -np.inf, 3.0]] * 3)
    assert pick_best(scores, np.array([0.0, 0.5, 0.99])).tolist() == [1, 2, 4]


def _choices(name: str, keep) -> list[tuple[Any, ...]]:
    """Decoded choices of the agent on all positions where keep(unpacked obs) holds."""
    obs = np.concatenate([POSITIONS[c][0] for c in CONFIGS])
    masks = np.concatenate([POSITIONS[c][1] for c in CONFIGS])
    rows = keep(unpack(obs))
    assert rows.sum() > 50
    return [decode(int(a)) for a in make_agent("asara", name, 0).act_batch(obs[rows], masks[rows])]


def test_the_tall_plan_buys_dearer_colours_than_the_towers_plan():
    def dear(name):
        picks = _choices(name, lambda o: o["market"].any(axis=1))
        return np.mean([fields[1] >= 3 for _, fields in picks])  # black or white

    assert dear("tall") > dear("towers")


def test_the_towers_plan_goes_for_bases_and_turrets_more_than_the_tall_plan():
    def ends(name):
        picks = _choices(name, lambda o: o["phase"][:, 0] > 0)  # placements
        markets = [TARGETS[f[0]].area for g, f in picks if g == Group.PLACE and f[0] < 4]
        return np.mean([area in (Area.MARKET_BASE, Area.MARKET_TURRET) for area in markets])

    assert ends("towers") > ends("tall")


def test_seen_reads_the_viewers_own_facts():
    obs, _ = POSITIONS[CONFIGS[0]]
    seen = Seen(obs)
    o = unpack(obs)
    assert np.array_equal(seen.money, o["money"][:, 0])
    assert np.array_equal(seen.year, o["year"].argmax(axis=1) + 1)
    assert (seen.plot_cost() >= np.arange(1, 8)).all()


def test_every_registered_agent_is_an_agent_with_its_name():
    for name, cls in AGENTS.items():
        assert issubclass(cls, Agent) and cls.name == name


# ------------------------------------------------------------------------------ expansions (R9)
def test_r9_expansion_positions_reach_every_expansion_decision():
    phases = {
        c: set(unpack(POSITIONS[c][0])["phase"].argmax(axis=1).tolist()) for c in EXPANSION_CONFIGS
    }
    assert {Phase.GENIE, Phase.GIFT_CARD, Phase.GIFT_BUY, Phase.GIFT_LIGHTS} <= phases[
        EXPANSION_CONFIGS[0]
    ]
    assert {Phase.GIFT_CARD, Phase.GIFT_BUY} <= phases[EXPANSION_CONFIGS[1]]


@pytest.mark.parametrize("config", EXPANSION_CONFIGS, ids=EXPANSION_IDS)
def test_r9_seen_reads_chests_and_build_sizes_like_the_reference(config):
    games = states(config, seeds=(41, 43))
    seen = Seen(np.array([observe(s)[0] for s in games]))
    sizes, chests = seen.build_sizes(), seen.target_chest()
    for row, state in enumerate(games):
        allowed = works(state, state.seat).build_sizes() - {0}
        assert {n for n in range(1, 8) if sizes[row, n - 1]} == allowed
        gifts = [len(g) for g in state.gifts]
        assert seen.chest_gifts[row].sum(axis=1).tolist() == gifts
        for t, target in enumerate(TARGETS):
            space = target_space(state, target)
            chest = None if space is None else chest_at(state, target.area, space)
            if target.area == Area.LIGHTS and not config.pro:
                continue  # not in play: Seen gives the chest the space would have
            assert chests[row, t] == (-1 if chest is None else chest), (row, target.name)
    assert (seen.phase == [s.phase for s in games]).all()


def fresh(expansions: tuple[str, ...], seed: int = 3) -> State:
    """A 2-player professional game at its first decision."""
    return engine.new_game(GameConfig(num_players=2, variant="pro", expansions=expansions), seed)


def place_actions(target: str) -> list[int]:
    t = next(i for i, x in enumerate(TARGETS) if x.name == target)
    return [encode(Group.PLACE, t, o) for o in range(len(CARD_OPTIONS))]


def occupy(state: State, area: Area, spaces) -> None:
    """Put the other player's buyers on some spaces."""
    for i in spaces:
        state.spaces[area][i] = Buyer(1 - state.seat, (0,), True)


def scores(agent, obs: np.ndarray, mask: np.ndarray, actions: list[int]) -> np.ndarray:
    return agent.scores(obs[None], mask[None].astype(bool))[0, actions]


@pytest.mark.parametrize("name", HEURISTICS)
def test_r9_2_heuristics_take_a_chest_of_valuable_gifts(name):
    """Two +2 prestige and 6 Asari on the trunks market's chest draw every heuristic there;
    the same placement is credited with exactly the gifts' value, and no longer once the
    chest space is taken (the next buyer gets the second space)."""
    state = fresh(("gifts",))
    state.gifts = [[] for _ in CHEST_SPACES]
    plain, _ = observe(state)
    trunks = CHEST_SPACES.index((Area.MARKET_TRUNK, 0))
    state.gifts[trunks] = [GIFT_NAMES.index(g) for g in ("prestige_2", "asari_6", "prestige_2")]
    obs, mask = observe(state)
    agent = make_agent("asara", name, 0)
    assert isinstance(agent, HeuristicAgent)
    assert agent.act(obs, mask) in place_actions("the trunks market")

    legal = [a for a in place_actions("the trunks market") if mask[a]]
    gain = scores(agent, obs, mask, legal) - scores(agent, plain, mask, legal)
    worth = 4 + 6 * asari_value(agent.plan, Seen(obs))[0]
    assert np.allclose(gain, worth)

    occupy(state, Area.MARKET_TRUNK, [0])
    taken, mask = observe(state)
    state.gifts[trunks] = []
    empty, _ = observe(state)
    legal = [a for a in place_actions("the trunks market") if mask[a]]
    assert legal
    assert np.allclose(scores(agent, taken, mask, legal), scores(agent, empty, mask, legal))


def genie_position() -> State:
    """Two base-turret pairs in the supply (builds of 2 or 4 possible), every plot from 2
    taken: only the Genie can build them."""
    state = fresh(("genie",))
    for colour in (0, 1):
        state.supply[state.seat, Part.BASE, colour, 0] += 1
        state.supply[state.seat, Part.TURRET, colour, 0] += 1
    occupy(state, Area.BUILDING, range(1, 7))
    return state


GENIE_PLACES = [a for t in ("genie 3", "genie 5", "genie 7") for a in place_actions(t)]


@pytest.mark.parametrize("name", HEURISTICS)
def test_r9_1_heuristics_use_the_genie_to_build_when_the_plots_are_taken(name):
    state = genie_position()
    obs, mask = observe(state)
    assert not any(mask[a] for n in (2, 4) for a in place_actions(f"build {n}"))
    agent = make_agent("asara", name, 0)
    assert agent.act(obs, mask) in GENIE_PLACES

    state.money[state.seat] -= 3
    state.phase = Phase.GENIE
    obs, mask = observe(state)
    build4 = next(m for m, x in enumerate(GENIE_MOVES) if x.name == "build 4")
    assert agent.act(obs, mask) == encode(Group.GENIE_MOVE, build4)


@pytest.mark.parametrize("name", HEURISTICS)
def test_r9_1_heuristics_leave_the_genie_when_the_board_offers_the_same_move(name):
    """With every space vacant, a genie move is never worth its cost over the space itself."""
    state = fresh(("genie",))
    obs, mask = observe(state)
    assert any(mask[a] for a in GENIE_PLACES)
    assert make_agent("asara", name, 0).act(obs, mask) not in GENIE_PLACES


@pytest.mark.parametrize("name", HEURISTICS)
def test_r9_2_a_gift_card_follows_the_colour_most_areas_require(name):
    state = fresh(("gifts",))
    state.phase = Phase.GIFT_CARD
    for area in (Area.BANK, Area.SPIES, Area.MARKET_BASE):
        state.area_colour[area] = 3
    state.area_colour[Area.TENT] = 1
    obs, mask = observe(state)
    assert mask[encode(Group.GIFT_CARD, 3)]
    assert make_agent("asara", name, 0).act(obs, mask) == encode(Group.GIFT_CARD, 3)
