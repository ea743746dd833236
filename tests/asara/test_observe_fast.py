"""core.observation at batch speed: the vectorised `observe` writes the
same bytes as the implementation it replaced (tests/asara/observe_oracle.py) and as the
reference engine's encoding, on random states of every configuration, for one viewer or a
viewer per game, at the batch sizes of each of its code paths; `out=` reuses a buffer and
gives the same result as a fresh call; what a seat cannot know never changes its view."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from asara_env.asara.bridge import encode_view, to_reference
from asara_env.asara.core import autoreset, init, step, take
from asara_env.asara.core import observation as obs_module
from asara_env.asara.core.observation import OBS_DIM, OBS_INDEX, observe
from asara_env.asara.phases import Phase
from asara_env.asara.reference.view import seat_view
from tests.asara.games import ALL_CONFIGS, ALL_IDS
from tests.asara.observe_oracle import observe as oracle_observe

PRIVATE_PHASES = (Phase.LIGHTS_KEEP, Phase.GIFT_CARD, Phase.GIFT_LIGHTS)


def random_action(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per game (0 where there is none)."""
    ranks = np.cumsum(mask, axis=1)
    pick = (rng.random(len(mask)) * ranks[:, -1]).astype(np.int64)
    return np.argmax(ranks > pick[:, None], axis=1)


def played(config, batch: int, steps: int, seed: int = 0, every: int = 7):
    """Snapshots of `batch` games played by random legal actions (finished games restart),
    every `every` steps: the games drift apart to every point of play."""
    state, rng = init(config, batch, seeds=seed), np.random.default_rng(seed)
    for t in range(steps):
        step(state, random_action(state.legal, rng))
        autoreset(state)
        if t % every == 0:
            yield take(state, slice(None))


def differing(a: np.ndarray, b: np.ndarray) -> list[str]:
    return [name for name, sl in OBS_INDEX.items() if not np.array_equal(a[:, sl], b[:, sl])]


def assert_same_bytes(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), differing(got, want)


def viewers(state, rng: np.random.Generator) -> list[Any]:
    """The seat to move, a random seat per game, every seat as an int, and the default
    (None: the seat to move)."""
    p = state.config.num_players
    return [state.seat, rng.integers(p, size=len(state.seat)), *range(p), None]


# ------------------------------------------------------------------------------ the oracle
def check_same_bytes_as_before(config, batch: int, steps: int, every: int) -> None:
    rng, private = np.random.default_rng(1), 0
    for state in played(config, batch, steps, every=every):
        private += int(np.isin(state.phase, PRIVATE_PHASES).sum())
        for seat in viewers(state, rng):
            assert_same_bytes(observe(state, seat), oracle_observe(state, seat))
    if config.pro or config.has_gifts:  # LIGHTS_KEEP (R7.2), GIFT_CARD, GIFT_LIGHTS (R9.2)
        assert private > 0, "the states should include decisions only the mover sees"


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_same_bytes_as_before_on_random_states(config):
    check_same_bytes_as_before(config, batch=128, steps=150, every=15)


@pytest.mark.slow
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_same_bytes_as_before_over_whole_games(config):
    check_same_bytes_as_before(config, batch=400, steps=900, every=6)


@pytest.mark.parametrize("batch", [1, 6, 7, 64, 255, 256])
@pytest.mark.parametrize("config", ALL_CONFIGS[::4], ids=ALL_IDS[::4])
def test_same_bytes_at_every_batch_size(config, batch):
    """Table codes of fewer than 256 values (a batch's games, or 38 spaces each) take one
    numpy call, of more a few faster ones: both give the same rows."""
    rng = np.random.default_rng(batch)
    for state in played(config, batch=batch, steps=100, seed=batch, every=19):
        for seat in viewers(state, rng)[:3]:
            assert_same_bytes(observe(state, seat), oracle_observe(state, seat))


@pytest.mark.parametrize("config", ALL_CONFIGS[1::5], ids=ALL_IDS[1::5])
def test_same_bytes_for_batches_observed_in_chunks(config):
    batch = 2 * obs_module._CHUNK + 37
    rng = np.random.default_rng(7)
    for state in played(config, batch=batch, steps=60, every=29):
        out = np.full((batch, OBS_DIM), np.nan, np.float32)
        for seat in viewers(state, rng)[:3]:
            want = oracle_observe(state, seat)
            assert_same_bytes(observe(state, seat), want)
            assert_same_bytes(observe(state, seat, out=out), want)


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_same_as_the_reference_encoding(config):
    rng = np.random.default_rng(2)
    for state in played(config, batch=16, steps=200, seed=5, every=50):
        seats = rng.integers(config.num_players, size=16)
        got = observe(state, seats)
        for i in range(16):
            want = encode_view(seat_view(to_reference(state, i), int(seats[i])))
            assert np.array_equal(got[i], want), differing(got[i : i + 1], want[None])


# ------------------------------------------------------------------------------ out=
@pytest.mark.parametrize("config", ALL_CONFIGS[::4], ids=ALL_IDS[::4])
def test_out_is_reused_and_equals_a_fresh_call(config):
    rng = np.random.default_rng(3)
    out = np.full((128, OBS_DIM), np.nan, np.float32)  # garbage to overwrite
    for state in played(config, batch=128, steps=150, every=30):
        for seat in viewers(state, rng)[:2]:
            got = observe(state, seat, out=out)
            assert got is out
            assert_same_bytes(out, observe(state, seat))


def test_out_may_be_a_strided_view():
    state = next(played(ALL_CONFIGS[0], batch=16, steps=40, every=39))
    big = np.zeros((16, OBS_DIM + 7), np.float32)
    view = big[:, 3 : 3 + OBS_DIM]
    assert observe(state, 1, out=view) is view
    assert_same_bytes(np.ascontiguousarray(view), observe(state, 1))
    assert not big[:, :3].any() and not big[:, 3 + OBS_DIM :].any()


@pytest.mark.parametrize(
    "out",
    [
        np.zeros((4, OBS_DIM), np.float64),
        np.zeros((5, OBS_DIM), np.float32),
        np.zeros((4, OBS_DIM + 1), np.float32),
        np.zeros((4 * OBS_DIM,), np.float32),
        [[0.0] * OBS_DIM] * 4,
    ],
    ids=["float64", "batch", "width", "flat", "list"],
)
def test_a_wrong_out_is_refused(out):
    state = init(ALL_CONFIGS[0], 4, seeds=0)
    with pytest.raises(ValueError, match=r"out must be a float32 array of shape \(4, "):
        observe(state, 0, out=out)


def test_a_read_only_out_is_refused():
    state, out = init(ALL_CONFIGS[0], 4, seeds=0), np.zeros((4, OBS_DIM), np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out must be writeable"):
        observe(state, 0, out=out)


def test_an_empty_batch():
    state = take(init(ALL_CONFIGS[0], 3, seeds=0), np.array([], np.int64))
    assert observe(state, 1).shape == (0, OBS_DIM)


# ------------------------------------------------------------------------------ scratch image
@pytest.mark.parametrize("config", ALL_CONFIGS[::2], ids=ALL_IDS[::2])
def test_every_entry_is_written_on_every_call(config):
    """The int8 scratch image is reused between calls: garbage left in it never shows."""
    rng = np.random.default_rng(4)
    for state in played(config, batch=40, steps=100, every=33):
        want = oracle_observe(state, state.seat)
        obs_module._SCRATCH.image = rng.integers(-128, 128, (64, OBS_DIM), dtype=np.int8)
        assert_same_bytes(observe(state, state.seat), want)


def test_threads_have_their_own_scratch_image():
    states = [s for c in ALL_CONFIGS[:6] for s in played(c, batch=200, steps=60, every=59)]
    want = [oracle_observe(s, s.seat) for s in states]
    errors: list[str] = []

    def work(k: int) -> None:
        for _ in range(5):
            for i in np.random.default_rng(k).permutation(len(states)):
                if observe(states[i], states[i].seat).tobytes() != want[i].tobytes():
                    errors.append(f"thread {k}, state {i}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


# ------------------------------------------------------------------------------ R10
def hide_differently(state, viewer: int, rng: np.random.Generator) -> None:
    """Change, in place, what `viewer` cannot know (R10) and nothing it can: the colours of
    the other seats' hands and face-down buyer cards, the lighted windows in the stack it
    did not put back, the draw pile and the drawn windows unless it looks at them."""
    p = state.config.num_players
    mover = state.seat == viewer
    for s in range(p):
        if s != viewer:  # a permutation of colours keeps the hand size
            state.hands[:, s] = np.roll(state.hands[:, s], rng.integers(1, 5), axis=-1)
    hidden = (state.space_seat >= 0) & (state.space_seat != viewer) & ~state.space_face_up
    cards = state.space_cards
    recoloured = np.where(cards >= 0, (cards + rng.integers(1, 5)) % 5, cards)
    state.space_cards[...] = np.where(hidden[..., None], recoloured, cards)
    unseen = ~((state.phase == Phase.GIFT_LIGHTS) & mover)[:, None]
    others = (state.lighted_owner != viewer) & (state.lighted_stack >= 0) & unseen
    state.lighted_stack[others] = (state.lighted_stack[others] + 1) % 5
    pile = ~((state.phase == Phase.GIFT_CARD) & mover)
    state.draw_pile[pile] = np.roll(state.draw_pile[pile], 2, axis=-1)
    drawn = ~((state.phase == Phase.LIGHTS_KEEP) & mover)[:, None] & (state.lights_drawn >= 0)
    state.lights_drawn[drawn] = (state.lights_drawn[drawn] + 1) % 5


@pytest.mark.parametrize("p", [2, 3, 4])
def test_the_space_table_shows_no_card_but_face_up_ones_and_the_viewers_own(p):
    """The spaces' table reads every buyer's cards: its rows must not depend on a card
    the viewer cannot see (R10)."""
    table = obs_module._seat_tables(p)[0]
    # [seat + 1, face up + 1, card + 1, other card + 1, viewer + 1, feature]
    rows = table.rows.reshape(*table.dims, -1)
    for viewer in range(p):
        for seat in range(-1, p):
            down, up = rows[seat + 1, 1, :, :, viewer + 1], rows[seat + 1, 2, :, :, viewer + 1]
            assert (up == up[:, :1]).all(), "a face-up buyer shows its first card only"
            if seat != viewer:
                assert (down == down[:1, :1]).all(), "another seat's face-down cards show"
            else:  # the viewer's own cards show
                assert len({r.tobytes() for r in down.reshape(-1, down.shape[-1])}) > 1


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_what_a_seat_cannot_know_never_changes_its_view(config):
    rng, changed = np.random.default_rng(6), 0
    for state in played(config, batch=64, steps=160, every=40):
        for viewer in range(config.num_players):
            twin = take(state, slice(None))
            hide_differently(twin, viewer, rng)
            changed += not np.array_equal(twin.hands, state.hands)
            assert_same_bytes(observe(twin, viewer), observe(state, viewer))
            seats = np.full(64, viewer)
            out = np.empty((64, OBS_DIM), np.float32)
            assert_same_bytes(observe(twin, seats, out=out), oracle_observe(state, seats))
    assert changed > 0
