"""Determinisations on the core's arrays (asara_env/asara/hidden_core.py): only what the
viewer knows decides them, the viewer cannot tell them from the game, their caches are the
core's own, and they are distributed as the reference `hidden.determinise`'s."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from asara_env.asara import core  # noqa: E402
from asara_env.asara.bridge import from_reference, to_reference  # noqa: E402
from asara_env.asara.config import GameConfig  # noqa: E402
from asara_env.asara.core.state import CoreState  # noqa: E402
from asara_env.asara.hidden import determinise, resample_hidden  # noqa: E402
from asara_env.asara.hidden_core import determinise_games  # noqa: E402
from asara_env.asara.reference.state import State  # noqa: E402
from tests.asara.hidden import r10_states  # noqa: E402

HIDDEN_FIELDS: tuple[str, ...] = ("hands", "draw_pile", "space_cards", "coloured")
HIDDEN_FIELDS += ("lighted_supply", "lighted_stack", "lights_drawn")


def worlds_of(state: State, viewer: int, n: int, seed: int) -> CoreState:
    root = from_reference([state])
    return determinise_games(
        root, np.zeros(n, np.int64), np.full(n, viewer), np.random.default_rng(seed)
    )


def test_core_determinisations_depend_only_on_what_the_seat_knows():
    """Two states the viewer cannot tell apart give the same worlds, bit for bit."""
    rng = np.random.default_rng(0)
    for state in r10_states()[::3]:
        for viewer in range(state.num_players):
            twin = resample_hidden(state, viewer, rng)
            twin.rng = np.random.default_rng(int(rng.integers(2**32)))  # other future chance
            assert core.states_equal(worlds_of(state, viewer, 3, 5), worlds_of(twin, viewer, 3, 5))


def test_core_determinisations_look_like_the_game_to_the_viewer():
    """The viewer's observation of every world is its observation of the game; the worlds'
    caches (build sizes, masks) are those the core computes; the hidden items vary."""
    varied = 0
    for state in r10_states()[::5]:
        viewer = state.seat
        root = from_reference([state])
        worlds = worlds_of(state, viewer, 4, 1)
        seen = core.observe(root, viewer)
        np.testing.assert_array_equal(core.observe(worlds, viewer), np.repeat(seen, 4, axis=0))
        again = from_reference([to_reference(worlds, i) for i in range(4)])
        np.testing.assert_array_equal(again.legal, worlds.legal)
        np.testing.assert_array_equal(again.build_sizes, worlds.build_sizes)
        assert (worlds.tape_pos == 0).all() and len({w.tobytes() for w in worlds.tape}) == 4
        varied += (
            len({worlds.draw_pile[i].tobytes() + worlds.hands[i].tobytes() for i in range(4)}) > 1
        )
    assert varied > 10


def _hidden_means(worlds: CoreState) -> np.ndarray:
    """The mean over the worlds of every hidden field's entries, as one vector."""
    return np.concatenate(
        [getattr(worlds, f).astype(np.float64).mean(axis=0).ravel() for f in HIDDEN_FIELDS]
    )


@pytest.mark.parametrize("pick", [0, 1, 2])
def test_core_determinisations_are_distributed_as_the_reference(pick):
    """The mean of every hidden entry (cards per colour in each hand, the pile, each
    face-down buyer, the windows) over 1500 worlds agrees with `hidden.determinise`'s
    within a loose bound."""
    rich = [s for s in r10_states() if s.hands.sum() > 6 and s.draw_pile.sum() > 6]
    state = rich[pick * len(rich) // 3]
    viewer, n = state.seat, 1500
    ours = worlds_of(state, viewer, n, 11)
    rng = np.random.default_rng(12)
    theirs = from_reference([determinise(state, viewer, rng) for _ in range(n)])
    a, b = _hidden_means(ours), _hidden_means(theirs)
    spread = np.concatenate(
        [getattr(theirs, f).astype(np.float64).std(axis=0).ravel() for f in HIDDEN_FIELDS]
    )
    assert (np.abs(a - b) <= 0.05 + 5 * spread / np.sqrt(n)).all()
    assert (a != _hidden_means(from_reference([state]))).any()  # something was redrawn


def test_numba_search_with_towers_playouts_reads_only_what_the_seat_knows():
    """The unguided numba search (core determinisations, compiled towers playouts) decides
    the same, with the same root statistics, in two states the seat cannot tell apart."""
    from agents.asara import ISMCTSAgent
    from tests.asara.test_search import _late_choices

    rng = np.random.default_rng(4)
    for config in (GameConfig(num_players=2), GameConfig(num_players=3, variant="pro")):
        for state in _late_choices(config, 44, 2):
            twin = resample_hidden(state, state.seat, rng)
            twin.rng = np.random.default_rng(int(rng.integers(2**32)))
            agents = [
                ISMCTSAgent(
                    seed=9,
                    sims=16,
                    wave=4,
                    horizon=8,
                    playout="towers",
                    value="margin",
                    backend="numba",
                )
                for _ in range(2)
            ]
            assert agents[0].act_state(state) == agents[1].act_state(twin)
            roots = [root for a in agents if (root := a.last_roots[0]) is not None]
            assert len(roots) == 2
            stats = [
                [(k, c.visits, c.avail, c.total.tolist()) for k, c in sorted(r.children.items())]
                for r in roots
            ]
            assert stats[0] == stats[1]


def test_core_rows_give_the_worlds_of_their_converted_states():
    """The unguided numba search asked through act_core draws its worlds from the core's
    own rows, without converting them: the same worlds, decisions and trees as from the
    reference states the rows convert to."""
    from agents.asara import ISMCTSAgent
    from asara_env.common.sampling import uniform_legal

    rng = np.random.default_rng(12)
    for players in (2, 4):
        batch = core.init(GameConfig(num_players=players), 6, seeds=players)
        for _ in range(20 * players):
            live = np.flatnonzero(~core.is_terminal(batch))
            masks = np.asarray(core.legal_action_mask(batch), bool)[live]
            core.step(batch, uniform_legal(masks, rng.random(len(live))), games=live)
        masks = np.asarray(core.legal_action_mask(batch), bool)
        rows = np.flatnonzero((masks.sum(axis=1) > 1) & ~core.is_terminal(batch))
        assert rows.size >= 2
        for row in rows.tolist():  # the worlds themselves
            a = worlds_of(to_reference(batch, row), int(batch.seat[row]), 8, 5)
            b = determinise_games(
                core.take(batch, np.array([row])), np.zeros(8, np.int64),
                np.full(8, batch.seat[row]), np.random.default_rng(5),
            )  # fmt: skip
            for name, field in vars(a).items():
                if isinstance(field, np.ndarray):
                    assert np.array_equal(field, getattr(b, name)), name
        agents = [
            ISMCTSAgent(seed=3, sims=24, wave=8, horizon=6, playout="towers", backend="numba")
            for _ in range(2)
        ]
        direct = agents[0].act_core(batch, rows)
        converted = agents[1].act_states([to_reference(batch, int(i)) for i in rows])
        assert direct.tolist() == converted.tolist()
        stats = [
            [
                [(k, c.visits, c.avail, c.total.tolist()) for k, c in sorted(r.children.items())]
                for r in a.last_roots
                if r is not None
            ]
            for a in agents
        ]
        assert stats[0] == stats[1] and len(stats[0]) == rows.size
