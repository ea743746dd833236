"""The shared search (agents/search/) over every game's card: the Gumbel root's entry point,
the roots and flat Monte Carlo, what the search and its network may read (only the
deciding seat's information), BASARI's determinisation, and the bad options refused."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.registry import make_agent
from agents.search.agent import GameSearchAgent
from agents.search.game import SearchGame
from agents.search.gumbel import gumbel_search, search_game
from agents.search.leaves import draw_seats, joint_actions, seat_values
from agents.search.mcts import Search, Settings
from agents.search.selection import NO_GUIDE, Rule, select
from agents.search.tree import Node, backup
from asara_env.asara.bridge import from_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.hidden import resample_hidden
from asara_env.asara.reference.rules import legal_actions
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import init, observe, step
from asara_env.basari.hidden import determinise as basari_determinise
from asara_env.basari.phases import Phase
from asara_env.common.sampling import uniform_legal
from tests.asara.games import game_states

BACKEND = "numpy"


class RecordingNet:
    """A stand-in network: logits and values from a fixed hash of each observation, every
    call's observations kept (what the network was shown)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.seen: list[np.ndarray] = []

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.seen.append(obs.copy())
        h = np.abs(np.sin(obs.sum(axis=1, dtype=np.float64) * 12.9898 + 1.0))
        logits = np.sin(np.arange(masks.shape[1])[None, :] * (1.0 + h[:, None]))
        return logits, h


def basari_states(players: int, seed: int, every: int = 7) -> list[Any]:
    """Single-game BASARI core states along a random game, one every `every` steps, of
    every phase (SETUP, SELECT, BARTER with a bundle being built)."""
    rng = np.random.default_rng(seed)
    state = init(BasariConfig(num_players=players), 1, seeds=seed)
    out, t = [], 0
    while state.phase[0] != Phase.OVER:
        if t % every == 0 or (state.phase[0] == Phase.BARTER and state.pending.any()):
            out.append(step_copy(state))
        legal = state.legal[0]
        step(state, uniform_legal(legal, rng.random(players))[None])
        t += 1
    return out


def step_copy(state: Any) -> Any:
    from asara_env.common.batch import copy_state

    return copy_state(state)


def deciding_seat(state: Any) -> int:
    """A seat with more than one legal action in game 0 (-1 if none)."""
    choice = np.flatnonzero(state.legal[0].sum(axis=1) > 1)
    return int(choice[0]) if choice.size else -1


# ------------------------------------------------------------------ BASARI's determinisation
@pytest.mark.parametrize("players", [2, 4])
def test_basari_worlds_keep_what_the_seat_sees_and_redraw_the_rest(players):
    rng = np.random.default_rng(0)
    states = basari_states(players, 3, every=5)
    assert any(s.pending.any() for s in states)  # a bundle in progress is among them
    for state in states:
        for seat in range(players):
            worlds = basari_determinise(state, np.zeros(6, np.int64), np.full(6, seat), rng)
            seen = observe(state)[0, seat]
            assert all(np.array_equal(observe(worlds)[k, seat], seen) for k in range(6))
            assert len(set(worlds.seed.tolist())) == 6  # the chance to come is redrawn
            assert (worlds.pending.sum(axis=1) == state.pending[0].sum()).all()
            actor = int(state.to_act[0])
            if actor >= 0:
                assert (worlds.pending <= state.gems[0, actor]).all()
                if actor == seat:  # its own bundle stays
                    assert (worlds.pending == state.pending[0]).all()
            assert np.array_equal(worlds.legal[:, seat], np.repeat(state.legal[:, seat], 6, 0))


def test_basari_worlds_depend_only_on_what_the_seat_sees():
    for state in basari_states(3, 5, every=3):
        seat = deciding_seat(state)
        if seat < 0:
            continue
        twin = basari_determinise(
            state, np.zeros(1, np.int64), np.array([seat]), np.random.default_rng(9)
        )
        a = basari_determinise(
            state, np.zeros(4, np.int64), np.full(4, seat), np.random.default_rng(1)
        )
        b = basari_determinise(
            twin, np.zeros(4, np.int64), np.full(4, seat), np.random.default_rng(1)
        )
        assert all(
            np.array_equal(getattr(a, f), getattr(b, f)) for f in ("seed", "pending", "gems")
        )


# ------------------------------------------------------------------ the Gumbel root
def test_gumbel_search_returns_legal_actions_and_improved_policies():
    for game, states in (
        ("basari", basari_states(2, 11, every=9)[:6]),
        ("asara", asara_core_states(2, 3)),
    ):
        where = SearchGame(game, BACKEND)
        state = concat(states)
        seats = np.array([deciding_or_mover(where, state, i) for i in range(len(states))])
        net = RecordingNet(2)
        d = gumbel_search(where, state, seats, net, simulations=16, rng=4)
        masks = where.masks(state)[np.arange(len(seats)), seats]
        assert masks[np.arange(len(seats)), d.actions].all()
        assert np.allclose(d.policies.sum(axis=1), 1, atol=1e-5)
        assert (d.policies[~masks] == 0).all()
        again = gumbel_search(where, state, seats, RecordingNet(2), simulations=16, rng=4)
        assert np.array_equal(d.actions, again.actions) and np.array_equal(
            d.policies, again.policies
        )


# ------------------------------------------------------------------ only the seat's information
def test_basari_search_and_its_network_read_only_what_the_seat_sees():
    """States the seat cannot tell apart (another seed, another colour of someone else's
    bundle): the same decision, the same policy, the network shown the same observations."""
    where = SearchGame("basari", BACKEND)
    for state in basari_states(2, 13, every=11)[:5]:
        seat = deciding_seat(state)
        if seat < 0:
            continue
        twin = basari_determinise(
            state, np.zeros(1, np.int64), np.array([seat]), np.random.default_rng(3)
        )
        answers = []
        for s in (state, twin):
            net = RecordingNet(2)
            d = gumbel_search(where, s, np.array([seat]), net, simulations=8, rng=7)
            answers.append(
                (d.actions.tolist(), d.policies.tobytes(), [o.tobytes() for o in net.seen])
            )
        assert answers[0] == answers[1]


def test_asara_search_and_its_network_read_only_what_the_seat_knows():
    where = SearchGame("asara", BACKEND)
    rng = np.random.default_rng(2)
    for ref in late_choices(GameConfig(num_players=2), 41, 2):
        twin = resample_hidden(ref, ref.seat, rng)
        twin.rng = np.random.default_rng(int(rng.integers(2**32)))
        answers = []
        for s in (ref, twin):
            net = RecordingNet(2)
            d = gumbel_search(
                where, from_reference([s]), np.array([s.seat]), net, simulations=8, rng=7
            )
            answers.append(
                (d.actions.tolist(), d.policies.tobytes(), [o.tobytes() for o in net.seen])
            )
        assert answers[0] == answers[1]


# ------------------------------------------------------------------ roots, flat MC, toygame
@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:24:horizon=4",
        "gumbel:16:horizon=4",
        "flatmc:24:horizon=4",
        "ismcts:16:playout=value:horizon=3",
        "ismcts:24:horizon=4:widen=0.5:expand=policy:playout=value",
        "gumbel:16:horizon=4:widen=0.3:expand=policy",
    ],
)
def test_basari_search_agents_play_legal_actions_deterministically(spec):
    states = basari_states(3, 17, every=13)[:4]
    for state in states:
        seat = deciding_seat(state)
        if seat < 0:
            continue
        picks = [
            search_agent("basari", spec + ":backend=numpy", 5).act_seats(
                state, np.array([0]), np.array([seat])
            )
            for _ in range(2)
        ]
        assert picks[0] == picks[1]
        assert state.legal[0, seat, picks[0][0]]


def test_the_gumbel_root_can_play_its_improved_policys_most_probable_action():
    where = SearchGame("basari", BACKEND)
    states = basari_states(2, 11, every=9)[:6]
    state = concat(states)
    seats = np.array([deciding_or_mover(where, state, i) for i in range(len(states))])
    noisy = gumbel_search(where, state, seats, RecordingNet(2), simulations=16, rng=4)
    best = gumbel_search(
        where, state, seats, RecordingNet(2), simulations=16, rng=4, pick="improved"
    )
    assert np.array_equal(best.policies, noisy.policies)  # the same search, another move
    assert np.array_equal(best.actions, best.policies.argmax(axis=1))
    assert not np.array_equal(noisy.actions, best.actions)  # the root's move keeps its noise


# ------------------------------------------------------------------ bad options
@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("ismcts:0", "'sims'"),
        ("ismcts:16:playout=nobody", "'playout'"),
        ("gumbel:16:root=top", "'root'"),
        ("ismcts:16:value=net", "value=net"),
        ("ismcts:seconds=0", "'seconds'"),
        ("gumbel:seconds=4000", "'seconds'"),
        ("flatmc:seconds=soon", "'seconds'"),
        ("ismcts:widen=0", "'widen'"),
        ("ismcts:widen=1.5", "'widen'"),
        ("gumbel:expand=first", "'expand'"),
        ("flatmc:widen=0.5", "'widen'"),
        ("gumbel:pick=best", "'pick'"),
        ("ismcts:pick=improved", "pick=improved is the Gumbel root's"),
    ],
)
def test_bad_search_options_get_one_error_naming_the_option(spec, words):
    with pytest.raises(ValueError, match=words):
        make_agent("basari", spec, 0)


def test_a_prior_trained_for_another_player_count_is_refused():
    agent = search_agent("basari", "gumbel:8:prior=ppo_2p:value=net:backend=numpy", 0)
    state = basari_states(4, 1)[1]
    with pytest.raises(
        ValueError, match="option prior=ppo_2p: the model was trained for 2 players"
    ):
        agent.act_seats(state, np.array([0]), np.array([max(deciding_seat(state), 0)]))


def test_settings_refuse_a_budget_below_one():
    with pytest.raises(ValueError, match="sims"):
        Settings(sims=0)
    for seconds in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="seconds"):
            Settings(seconds=seconds)


# ------------------------------------------------------------------ the seconds budget
class TickingClock:
    """A clock that moves on `tick` seconds every time it is read (no real time)."""

    def __init__(self, tick: float) -> None:
        self.now, self.tick, self.reads = 0.0, tick, 0

    def __call__(self) -> float:
        now = self.now
        self.now += self.tick
        self.reads += 1
        return now


def timed_search(spec: str, seconds: float, tick: float) -> tuple[Search, Any, int]:
    """A BASARI search agent given `seconds` per decision, its clock ticking `tick` per
    read; the search, a 2-player state and its deciding seat."""
    agent = search_agent("basari", f"{spec}:seconds={seconds}:backend={BACKEND}", 3)
    agent.search.clock = TickingClock(tick)
    state = basari_states(2, 21)[2]
    return agent.search, state, deciding_seat(state)


@pytest.mark.parametrize(("seconds", "waves"), [(0.1, 1), (1.0, 4), (2.0, 7)])
def test_a_seconds_budget_runs_waves_until_the_clock_passes_it(seconds, waves):
    # read at the start (0) and after each wave (0.3, 0.6, ...): a wave begins while
    # the time read is below the budget, and the first one always
    search, state, seat = timed_search("ismcts:wave=4:horizon=2", seconds, 0.3)
    decision = search.run(state, np.array([0]), np.array([seat]))
    assert search.iterations == 4 * waves
    assert state.legal[0, seat, decision.actions[0]]


def test_a_seconds_budget_searches_each_decision_alone():
    search, state, seat = timed_search("ismcts:wave=4:horizon=2", 1.0, 0.3)
    both = concat([state, state])
    decision = search.run(both, np.array([0, 1]), np.array([seat, seat]))
    assert search.iterations == 2 * 4 * 4 and search.searches == 2
    assert all(state.legal[0, seat, a] for a in decision.actions)


def test_flat_seconds_budget_plays_rounds_of_every_action():
    search, state, seat = timed_search("flatmc:batch=16:horizon=2", 1.0, 0.3)
    actions = int(state.legal[0, seat].sum())
    search.run(state, np.array([0]), np.array([seat]))
    assert search.iterations == 4 * actions * max(1, 16 // actions)


def test_gumbel_seconds_budget_spends_each_halving_round_its_share():
    short, state, seat = timed_search("gumbel:wave=8:horizon=2", 0.2, 0.1)
    short.run(state, np.array([0]), np.array([seat]))
    long, _, _ = timed_search("gumbel:wave=8:horizon=2", 2.0, 0.1)
    decision = long.run(state, np.array([0]), np.array([seat]))
    assert long.iterations > short.iterations > 0
    assert long.clock.reads > short.clock.reads  # type: ignore[attr-defined]
    assert state.legal[0, seat, decision.actions[0]]


def test_the_gumbel_scale_defaults_to_mctx_and_sharpens_the_improved_policy():
    """c_scale is mctx's 0.1 by default, a non-positive one is refused, and a larger one
    moves the improved policy further from the prior (the same search otherwise)."""
    assert Settings().c_scale == pytest.approx(0.1)
    with pytest.raises(ValueError, match="c_scale"):
        Settings(c_scale=0.0)
    where = SearchGame("basari", BACKEND)
    states = basari_states(2, 11, every=9)[:6]
    state = concat(states)
    seats = np.array([deciding_or_mover(where, state, i) for i in range(len(states))])
    net = RecordingNet(2)
    masks = where.masks(state)[np.arange(len(seats)), seats]
    logits = np.where(masks, net(where.observe(state, seats), masks)[0], -np.inf)
    prior = np.exp(logits - logits.max(axis=1, keepdims=True))
    prior /= prior.sum(axis=1, keepdims=True)
    gaps = []
    for c_scale in (0.1, 1.0):
        d = gumbel_search(where, state, seats, net, simulations=16, rng=4, c_scale=c_scale)
        gaps.append(np.abs(d.policies - prior).sum())
    assert 0 < gaps[0] < gaps[1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shipped_values_are_read_as_win_shares(players):
    """ASARA's zero-sum `win` values and BASARI's `rank` values, mapped to the search's
    scale: every outcome's reward becomes the seat's win share (its 1 - place / (P - 1))."""
    from agents.search.agent import value_as_share
    from asara_env.common.outcome import (
        margin_over_best_rewards,
        places,
        rank_rewards,
        win_shares,
        zero_sum_win_rewards,
    )

    rng = np.random.default_rng(players)
    scores = np.stack([rng.permutation(players) for _ in range(20)]).astype(np.int64)
    won = value_as_share(
        zero_sum_win_rewards, players, zero_sum_win_rewards(scores).astype(np.float64)
    )
    assert np.allclose(won, win_shares(scores))
    ranked = value_as_share(rank_rewards, players, rank_rewards(scores).astype(np.float64))
    assert np.allclose(ranked, 1 - places(scores) / (players - 1))
    margins = margin_over_best_rewards(scores).astype(np.float64)
    assert np.array_equal(value_as_share(margin_over_best_rewards, players, margins), margins)


# ------------------------------------------------------------------ helpers
def search_agent(game: str, spec: str, seed: int) -> GameSearchAgent:
    """The registry's agent for a search spec, as the GameSearchAgent it is."""
    agent = make_agent(game, spec, seed)
    assert isinstance(agent, GameSearchAgent)
    return agent


def late_choices(config: GameConfig, seed: int, n: int) -> list[Any]:
    states = game_states(config, seed)
    late = [s for s in states[3 * len(states) // 4 :] if not s.is_over]
    return [s for s in late if len(legal_actions(s)) > 1][:n]


def asara_core_states(players: int, n: int) -> list[Any]:
    return [from_reference([s]) for s in late_choices(GameConfig(num_players=players), 7, n)]


def concat(states: list[Any]) -> Any:
    from asara_env.common.batch import concatenate

    return concatenate(states)


def deciding_or_mover(where: SearchGame, state: Any, i: int) -> int:
    masks = where.masks(state)[i]
    return int(np.argmax(masks.sum(axis=1)))


def test_search_counts_its_work():
    where = search_game("basari", BACKEND)
    state = basari_states(2, 21)[2]
    search = Search(where, Settings(sims=8, wave=4, horizon=2), seed=0)
    seat = deciding_seat(state)
    search.run(state, np.array([0]), np.array([seat]))
    assert search.iterations == 8 and search.searches == 1
    assert isinstance(make_agent("basari", "ismcts:8", 0), GameSearchAgent)


def test_the_ladder_times_a_search_agent_in_basaris_arena():
    from agents.basari.arena import play_batch
    from training.evaluation.ladder import TimedAgent

    timed = TimedAgent(make_agent("basari", "ismcts:8:horizon=2:backend=numpy", 0))
    other = make_agent("basari", "value", 1)
    seating = np.array([[0, 1], [1, 0]])
    scores = play_batch(
        BasariConfig(num_players=2), [timed, other], seating, np.arange(2, dtype=np.uint64)
    )
    assert scores.shape == (2, 2) and timed.choices > 0 and timed.cpu_seconds > 0


def test_the_shared_search_answers_the_applications_of_one_game():
    """ASARA's terminal game and web page ask `act_state` / `act_env`, BASARI's
    `choose_reference`: the shared search answers each with a legal action."""
    from agents.asara.arena import act_in_env
    from agents.basari.arena import choose_reference
    from asara_env import asara_v0
    from asara_env.basari.bridge import to_reference

    ref = late_choices(GameConfig(num_players=2), 43, 1)[0]
    agent = search_agent("asara", "gumbel:8:horizon=2:backend=numpy", 0)
    assert agent.act_state(ref) in legal_actions(ref)
    env = asara_v0.env(num_players=2)
    env.reset(seed=3)
    observation = env.last()[0]
    action = act_in_env(agent, env, observation)
    assert observation["action_mask"][action]
    state = next(s for s in basari_states(2, 9) if deciding_seat(s) >= 0)
    seat = deciding_seat(state)
    basari_agent = search_agent("basari", "ismcts:8:horizon=2:backend=numpy", 0)
    assert state.legal[0, seat, choose_reference(basari_agent, to_reference(state, 0), seat)]


def test_network_values_reach_the_seats_they_belong_to():
    """A value per row is the observer's (the rest shared out); a row of P values is
    ego-centric, column j the seat j places clockwise of the observer."""
    one = seat_values(np.array([0.8]), np.array([2]), 4)
    assert np.allclose(one, [[0.2 / 3, 0.2 / 3, 0.8, 0.2 / 3]])
    ego = seat_values(np.array([[0.5, 0.1, 0.3, 0.1]]), np.array([3]), 4)
    assert np.allclose(ego, [[0.1, 0.3, 0.1, 0.5]])


def test_basari_edges_hide_the_colour_of_another_seats_gem():
    from agents.basari.search_verbs import public_key
    from asara_env.basari.actions import Group

    config = BasariConfig(num_players=2)
    add = config.actions.offset(Group.ADD)
    ids = np.arange(config.n_actions)
    keys = public_key(config, ids)
    assert (keys[add : add + 4] == add).all()
    assert (
        np.delete(keys, np.arange(add, add + 4)) == np.delete(ids, np.arange(add, add + 4))
    ).all()


# ------------------------------------------------------------------ a mixture of playouts


def test_the_playout_mixture_is_drawn_by_its_weights_for_every_seat_but_the_observer():
    where = search_game("basari", BACKEND)
    settings = Settings(sims=8, flat=True, opponents=(("random", 3.0), ("value", 1.0)))
    observers = np.arange(20_000) % 4
    who = draw_seats(Search(where, settings, seed=5), observers, 4)
    assert who is not None and who.shape == (20_000, 4)
    assert (who[np.arange(20_000), observers] == -1).all()
    others = who[np.arange(4)[None, :] != observers[:, None]]
    assert set(np.unique(others)) == {0, 1}
    assert abs((others == 0).mean() - 0.75) < 0.02
    again = draw_seats(Search(where, settings, seed=5), observers, 4)
    assert again is not None and (again == who).all()  # the search's seed decides
    assert draw_seats(Search(where, Settings(sims=8, flat=True), seed=5), observers, 4) is None


def test_each_seat_of_a_world_is_played_by_the_policy_drawn_for_it():
    where = search_game("basari", BACKEND)
    state = basari_states(2, 21)[2]
    worlds = where.take(state, np.zeros(3, np.int64))
    search = Search(where, Settings(sims=8, flat=True, opponents=(("random", 1.0),)), seed=0)
    search.policy = lambda s, rng: np.full((3, 2), 7, np.int64)
    search.mixture = [lambda s, rng: np.full((len(s.phase), 2), 3, np.int64)]
    who = np.array([[-1, 0], [0, -1], [-1, -1]])
    assert joint_actions(search, worlds, who).tolist() == [[7, 3], [3, 7], [7, 7]]


def test_a_flat_search_against_a_mixture_decides_legally():
    where = search_game("basari", BACKEND)
    state = basari_states(2, 21)[2]
    seat = deciding_seat(state)
    settings = Settings(sims=16, flat=True, opponents=(("random", 1.0), ("value", 2.0)))
    decision = Search(where, settings, seed=0).run(state, np.array([0]), np.array([seat]))
    mask = where.masks(state)[0, seat]
    assert mask[decision.actions[0]] and decision.policies[0][~mask].sum() == 0


@pytest.mark.parametrize(
    "opponents, flat", [((("random", 0.0),), True), ((("random", 1.0),), False)]
)
def test_a_mixture_needs_flat_search_and_positive_weights(opponents, flat):
    with pytest.raises(ValueError, match="search option opponents"):
        Settings(flat=flat, opponents=opponents)


def test_flat_search_compares_the_actions_on_the_same_worlds(monkeypatch):
    """Every legal action of a flat decision is played in the same determinised worlds
    (common chance): each world's seed meets every legal action once."""
    where = search_game("basari", BACKEND)
    state = basari_states(2, 21)[2]
    seat = deciding_seat(state)
    legal = np.flatnonzero(where.masks(state)[0, seat])
    stepped: list[tuple[list[int], list[int]]] = []
    real_step = where.step

    def step(worlds, joint):
        stepped.append((worlds.seed.tolist(), np.asarray(joint)[:, seat].tolist()))
        real_step(worlds, joint)

    monkeypatch.setattr(where, "step", step)
    search = Search(where, Settings(sims=4 * len(legal), flat=True, horizon=0), seed=0)
    search.run(state, np.array([0]), np.array([seat]))
    seeds, actions = stepped[0]
    tried: dict[int, list[int]] = {}
    for world_seed, action in zip(seeds, actions):
        tried.setdefault(world_seed, []).append(action)
    assert len(tried) == 4
    assert all(sorted(a) == legal.tolist() for a in tried.values())


def test_a_flatmc_spec_takes_a_mixture_of_opponents():
    agent = make_agent("basari", "flatmc:16:playout=ppo_2p:opponents=ppo_2p*2+value+random*0.5")
    plain = make_agent("basari", "flatmc:16")
    assert isinstance(agent, GameSearchAgent) and isinstance(plain, GameSearchAgent)
    assert agent.settings.opponents == (("ppo_2p", 2.0), ("value", 1.0), ("random", 0.5))
    assert plain.settings.opponents == ()


@pytest.mark.parametrize(
    "spec, words",
    [
        ("flatmc:opponents=nobody", "names 'nobody'"),
        ("flatmc:opponents=value*0", "weight 0"),
        ("flatmc:opponents=value+value", "twice"),
        ("flatmc:opponents=value*much", "must be a number"),
        ("ismcts:opponents=value", "no option 'opponents'"),
    ],
)
def test_a_bad_mixture_of_opponents_is_refused_by_name(spec, words):
    with pytest.raises(ValueError, match=words):
        make_agent("basari", spec)


def test_flat_search_plays_its_playout_policys_choice_among_equal_actions():
    """Where every action scores alike (here: no playout, the scores unchanged by one
    step), flat Monte Carlo plays what its playout policy would, not a random action."""
    where = search_game("basari", BACKEND)
    state = basari_states(2, 21)[2]
    seat = deciding_seat(state)
    legal = np.flatnonzero(where.masks(state)[0, seat])

    def always(chosen: int) -> Any:
        def policy(worlds: Any, rng: np.random.Generator) -> np.ndarray:
            joint = np.argmax(where.masks(worlds), axis=2)  # the other seat's only action
            joint[:, seat] = chosen
            return joint

        return policy

    for chosen in legal.tolist():
        search = Search(where, Settings(sims=4 * len(legal), flat=True, horizon=0), seed=0)
        search.policy = always(chosen)
        assert search.run(state, np.array([0]), np.array([seat])).actions[0] == chosen


@pytest.mark.parametrize("flat", [True, False])
def test_a_decision_carries_each_tried_actions_mean_reward(flat):
    """Decision.q: the mean reward of every legal action tried at the root, NaN for the
    illegal ones; the flat search plays an action of the best mean, and its value is it."""
    where = search_game("basari", BACKEND)
    state = basari_states(2, 21)[2]
    seat = deciding_seat(state)
    mask = where.masks(state)[0, seat]
    decision = Search(where, Settings(sims=64, flat=flat), seed=3).run(
        state, np.array([0]), np.array([seat])
    )
    q = decision.q[0]
    assert np.isnan(q[~mask]).all() and ((q[mask] >= 0) & (q[mask] <= 1)).all()
    if flat:
        assert not np.isnan(q[mask]).any()
        assert q[decision.actions[0]] == np.nanmax(q) == decision.values[0]


# ------------------------------------------------------------------ widening, expansion
def chosen_keys(rule: Rule, below_root: bool, guide: int = NO_GUIDE) -> list[int]:
    """The keys a seat takes at one node over 10 visits among 10 always-legal keys (each
    choice counted and backed up with reward 0.5, as the loop does)."""
    node = Node(1)
    taken = []
    for i in range(10):
        key = select(node, 0, list(range(10)), rule, (i * 0.37) % 1, False, below_root, guide)
        edge = node.edge(0, key)
        edge.visits += 1
        backup([(node, [(0, key)])], np.array([0.5]))
        taken.append(key)
    return taken


def test_progressive_widening_lets_a_seat_try_a_new_key_only_every_so_often():
    """Below the root with widen=0.5 a new key is tried while fewer than floor(visits **
    0.5) are (visits 0, 4 and 9 of 10): 3 keys; at the root, or with widen=1, all 10."""
    assert len(set(chosen_keys(Rule(0.7, 0.5), below_root=True))) == 3
    assert len(set(chosen_keys(Rule(0.7, 0.5), below_root=False))) == 10
    assert len(set(chosen_keys(Rule(0.7, 1.0), below_root=True))) == 10


def test_policy_first_expansion_takes_the_playouts_key_while_it_is_untried():
    taken = chosen_keys(Rule(0.7, 1.0), below_root=True, guide=7)
    assert taken[0] == 7 and taken.count(7) == 1
