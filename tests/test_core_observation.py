"""core.observation: the vectorised encoder agrees with the reference one (single and
batched), the observation holds exactly what a seat may know (R10), and the core imports
only numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from games import CONFIGS, IDS, game_states

from asara_env import GameConfig
from asara_env.core.convert import from_reference
from asara_env.core.observation import (
    OBS_DIM,
    OBS_INDEX,
    OBS_SLICES,
    encode_view,
    observation_markdown,
    observe,
)
from asara_env.reference.state import Phase, State
from asara_env.reference.view import seat_view


def reference_obs(state: State, seat: int) -> np.ndarray:
    return encode_view(seat_view(state, seat))


def differing_slices(a: np.ndarray, b: np.ndarray) -> list[str]:
    return [name for name, sl in OBS_INDEX.items() if not np.array_equal(a[sl], b[sl])]


# ------------------------------------------------------------------------------ layout
def test_layout_tiles_the_vector():
    assert sum(s.size for s in OBS_SLICES) == OBS_DIM
    stops = [OBS_INDEX[s.name] for s in OBS_SLICES]
    assert stops[0].start == 0 and stops[-1].stop == OBS_DIM
    assert all(a.stop == b.start for a, b in zip(stops, stops[1:]))
    assert len({s.name for s in OBS_SLICES}) == len(OBS_SLICES)


def test_docs_are_generated_from_the_table():
    doc = Path(__file__).parents[1] / "docs" / "observation.md"
    assert doc.read_text() == observation_markdown(), "run `python -m asara_env.docs`"


# ------------------------------------------------------------------------------ conformance
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_observe_matches_encode_view_along_random_games(config):
    for seed in (1, 2, 3):
        for state in game_states(config, seed):
            core = from_reference([state])
            for seat in range(config.num_players):
                got, want = observe(core, seat)[0], reference_obs(state, seat)
                assert got.dtype == np.float32 and got.shape == (OBS_DIM,)
                assert np.array_equal(got, want), differing_slices(got, want)


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_observe_matches_encode_view_over_many_games(config):
    for seed in range(10, 40):
        for state in game_states(config, seed)[::3]:
            core = from_reference([state])
            for seat in range(config.num_players):
                assert np.array_equal(observe(core, seat)[0], reference_obs(state, seat))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_batched_observe_matches_row_by_row(config):
    states = [s for seed in (4, 5) for s in game_states(config, seed)[::6]][:50]
    core = from_reference(states)
    p = config.num_players
    seats = np.random.default_rng(0).integers(p, size=len(states))
    got = observe(core, seats)
    assert got.shape == (len(states), OBS_DIM) and got.dtype == np.float32
    for i, state in enumerate(states):
        assert np.array_equal(got[i], reference_obs(state, int(seats[i])))
    for seat in range(p):
        rows = observe(core, seat)
        assert all(np.array_equal(rows[i], reference_obs(s, seat)) for i, s in enumerate(states))


def test_viewer_sees_itself_first_and_padding_is_empty():
    state = game_states(GameConfig(num_players=3, variant="pro"), 1)[50]
    for seat in range(3):
        obs = observe(from_reference([state]), seat)[0]
        assert obs[OBS_INDEX["present"]].tolist() == [1, 1, 1, 0]
        assert obs[OBS_INDEX["money"]][0] == state.money[seat]
        assert obs[OBS_INDEX["money"]][1] == state.money[(seat + 1) % 3]
        assert obs[OBS_INDEX["supply"]].reshape(4, -1)[3].sum() == 0
        assert obs[OBS_INDEX["seat_to_move"]].argmax() == (state.seat - seat) % 3


def test_seats_outside_the_configuration_are_rejected():
    core = from_reference([game_states(GameConfig(num_players=2), 1)[0]])
    with pytest.raises(ValueError, match="seats must be in 0..1"):
        observe(core, 2)


# ------------------------------------------------------------------------------ R10
def _deal(pool: np.ndarray, rng: np.random.Generator) -> list[int]:
    """The cards (or windows) of a colour-count pool in random order."""
    items = np.repeat(np.arange(len(pool)), pool)
    return [int(x) for x in rng.permutation(items)]


def _resample_cards(state: State, viewer: int, rng: np.random.Generator) -> None:
    """Redeal every card the viewer cannot see: other hands, the draw pile, and the
    face-down cards of the others on the board and the coloured building (R3.6, R10.3)."""
    others = [s for s in range(state.num_players) if s != viewer]
    hidden = [
        (a, i)
        for a, area in enumerate(state.spaces)
        for i, b in enumerate(area)
        if b is not None and not b.face_up and b.seat != viewer
    ]
    hidden_coloured = [k for k, b in enumerate(state.coloured) if b.seat != viewer]
    pool = state.draw_pile + state.hands[others].sum(axis=0)
    for a, i in hidden:
        pool += np.bincount(state.spaces[a][i].cards, minlength=5)
    for k in hidden_coloured:
        pool += np.bincount(state.coloured[k].cards, minlength=5)
    cards = _deal(pool, rng)
    for s in others:
        n = int(state.hands[s].sum())
        state.hands[s] = np.bincount(cards[:n], minlength=5)
        cards = cards[n:]
    for a, i in hidden:
        b = state.spaces[a][i]
        state.spaces[a][i] = type(b)(b.seat, tuple(sorted(cards[:2])), False)
        cards = cards[2:]
    for k in hidden_coloured:
        state.coloured[k] = type(state.coloured[k])(state.coloured[k].seat, (cards.pop(0),), False)
    state.draw_pile = np.bincount(cards, minlength=5).astype(np.int64)


def _resample_lighted(state: State, viewer: int, rng: np.random.Generator) -> None:
    """Reshuffle every lighted window the viewer cannot know: the others' unbuilt ones, the
    stack positions it did not put back, and a draw that is not its own (R7.2, R10.2)."""
    others = [s for s in range(state.num_players) if s != viewer]
    unknown = [k for k, (_, owner) in enumerate(state.lighted_stack) if owner != viewer]
    drawn_hidden = state.phase == Phase.LIGHTS_KEEP and state.seat != viewer
    pool = state.lighted_supply[others].sum(axis=0)
    pool += np.bincount([state.lighted_stack[k][0] for k in unknown], minlength=5)
    if drawn_hidden:
        pool += np.bincount(state.lights_drawn, minlength=5)
    windows = _deal(pool, rng)
    for s in others:
        n = int(state.lighted_supply[s].sum())
        state.lighted_supply[s] = np.bincount(windows[:n], minlength=5)
        windows = windows[n:]
    for k in unknown:
        state.lighted_stack[k][0] = windows.pop(0)
    if drawn_hidden:
        state.lights_drawn = [int(c) for c in windows]


def resample_hidden(state: State, viewer: int, rng: np.random.Generator) -> State:
    """A state the viewer cannot tell from `state`."""
    twin = state.copy()
    _resample_cards(twin, viewer, rng)
    _resample_lighted(twin, viewer, rng)
    return twin


def r10_states() -> list[State]:
    picks = []
    for config in CONFIGS:
        picks += game_states(config, 21)[::4] + game_states(config, 22)[::9]
    return picks


def test_resampling_what_a_seat_cannot_know_leaves_its_observation_unchanged():
    rng = np.random.default_rng(3)
    changed = 0
    for state in r10_states():
        for viewer in range(state.num_players):
            twin = resample_hidden(state, viewer, rng)
            changed += not (
                np.array_equal(twin.hands, state.hands)
                and twin.lighted_stack == state.lighted_stack
                and np.array_equal(twin.lighted_supply, state.lighted_supply)
            )
            want = reference_obs(state, viewer)
            got = reference_obs(twin, viewer)
            assert np.array_equal(got, want), differing_slices(got, want)
            assert np.array_equal(observe(from_reference([twin]), viewer)[0], want)
    assert changed > 100, "the resampling should usually change the hidden information"


def _swap_own_card(state: State, viewer: int) -> bool:
    """Swap one card of the viewer's hand with a different colour from the draw pile."""
    for a in np.flatnonzero(state.hands[viewer]):
        for b in np.flatnonzero(state.draw_pile):
            if a != b:
                state.hands[viewer, [a, b]] += (-1, 1)
                state.draw_pile[[a, b]] += (1, -1)
                return True
    return False


def _swap_own_window(state: State, viewer: int) -> bool:
    """Swap one of the viewer's unbuilt lighted windows with a different one in the stack."""
    for a in np.flatnonzero(state.lighted_supply[viewer]):
        for entry in state.lighted_stack:
            if entry[0] != a:
                state.lighted_supply[viewer, [a, entry[0]]] += (-1, 1)
                entry[0] = int(a)
                return True
    return False


def _recolour_own_face_down(state: State, viewer: int) -> bool:
    """Swap a card of one of the viewer's face-down pairs with a different one from the pile."""
    for area in state.spaces:
        for i, b in enumerate(area):
            if b is None or b.face_up or b.seat != viewer:
                continue
            for c in np.flatnonzero(state.draw_pile):
                if c != b.cards[0]:
                    state.draw_pile[[c, b.cards[0]]] += (-1, 1)
                    area[i] = type(b)(viewer, tuple(sorted((int(c), b.cards[1]))), False)
                    return True
    return False


@pytest.mark.parametrize("change", [_swap_own_card, _swap_own_window, _recolour_own_face_down])
def test_changing_the_viewers_own_secrets_changes_its_observation(change):
    tried = 0
    for state in r10_states():
        for viewer in range(state.num_players):
            twin = state.copy()
            if change(twin, viewer):
                tried += 1
                assert not np.array_equal(reference_obs(twin, viewer), reference_obs(state, viewer))
    assert tried > 20


# ------------------------------------------------------------------------------ imports
