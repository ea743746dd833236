"""The text rendering: what one seat sees (R10) and the full debugging view."""

from __future__ import annotations

import numpy as np
import pytest

from asara_env import GameConfig
from asara_env.asara.actions import TARGETS, Group, decode
from asara_env.asara.constants import (
    CARD_NAMES,
    CHEST_SPACES,
    COLOUR_NAMES,
    FINAL_CATEGORIES,
    GIFT_NAMES,
    N_CARD_COLOURS,
    N_TILE_COLOURS,
    Area,
)
from asara_env.asara.phases import Phase
from asara_env.asara.reference.engine import new_game, step
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.state import Buyer, State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render import LINE_WIDTH, render_full, render_view
from tests.asara.games import CONFIGS, IDS, game_states

PRO_3P = GameConfig(num_players=3, variant="pro")
# R9: the expansions, played with the reference engine
EXPANSION_CONFIGS = [
    GameConfig(num_players=2, variant="basic", expansions=("gifts",)),
    GameConfig(num_players=3, variant="pro", expansions=("genie",)),
    GameConfig(num_players=4, variant="pro", expansions=("genie", "gifts")),
]
EXPANSION_IDS = [
    f"{c.num_players}p-{c.variant}-{'+'.join(c.expansions)}" for c in EXPANSION_CONFIGS
]
ALL_CONFIGS, ALL_IDS = CONFIGS + EXPANSION_CONFIGS, IDS + EXPANSION_IDS
GIFTS_PRO = GameConfig(num_players=3, variant="pro", expansions=("gifts",))
KIND = {name: k for k, name in enumerate(GIFT_NAMES)}
CHEST = {area: k for k, (area, _) in enumerate(CHEST_SPACES)}


def seen(state: State, viewer: int) -> str:
    return render_view(seat_view(state, viewer))


def random_counts(rng: np.random.Generator, total: int, n: int) -> np.ndarray:
    return rng.multinomial(total, np.full(n, 1 / n)).astype(np.int64)


def random_cards(rng: np.random.Generator, n: int) -> tuple[int, ...]:
    return tuple(sorted(int(c) for c in rng.integers(N_CARD_COLOURS, size=n)))


def places(state: State) -> list[list[Buyer | None] | list[Buyer]]:
    """Every place a buyer can lie: the spaces of each area, then the coloured building."""
    return [*state.spaces, state.coloured]


def buyer(state: State, k: int, i: int) -> Buyer:
    """The buyer in place i of places(state)[k] (one that `hidden_buyers` names)."""
    b = places(state)[k][i]
    assert b is not None
    return b


def hidden_buyers(state: State, viewer: int) -> list[tuple[int, int]]:
    """(place, index) of every face-down buyer of a seat other than `viewer`."""
    return [
        (k, i)
        for k, place in enumerate(places(state))
        for i, b in enumerate(place)
        if b is not None and not b.face_up and b.seat != viewer
    ]


def resample_hidden(state: State, viewer: int, rng: np.random.Generator) -> State:
    """A copy of `state` with everything `viewer` cannot know (R10.2, R10.3) redrawn at
    random: other hands, the draw pile, others' face-down cards, others' lighted windows,
    the lighted windows others put back or are looking at. A viewer taking a gift looks
    through the draw pile or the lighted-window stack (R9.2): those it knows."""
    other = state.copy()
    acting = state.seat == viewer
    for s in range(state.num_players):
        if s != viewer:
            other.hands[s] = random_counts(rng, int(state.hands[s].sum()), N_CARD_COLOURS)
            held = int(state.lighted_supply[s].sum())
            other.lighted_supply[s] = random_counts(rng, held, N_TILE_COLOURS)
    if not (acting and state.phase == Phase.GIFT_CARD):
        other.draw_pile = random_counts(rng, int(state.draw_pile.sum()), N_CARD_COLOURS)
    for k, i in hidden_buyers(other, viewer):  # State.copy copies these lists
        b = buyer(other, k, i)
        places(other)[k][i] = Buyer(b.seat, random_cards(rng, len(b.cards)), False)
    for entry in other.lighted_stack:
        if entry[1] != viewer and not (acting and state.phase == Phase.GIFT_LIGHTS):
            entry[0] = int(rng.integers(N_TILE_COLOURS))
    if state.seat != viewer:
        drawn = rng.integers(N_TILE_COLOURS, size=len(state.lights_drawn))
        other.lights_drawn = [int(c) for c in drawn]
    return other


def sampled_states(config: GameConfig, seeds=(0, 1), every: int = 7) -> list[State]:
    return [s for seed in seeds for s in game_states(config, seed)[::every]]


# ------------------------------------------------------------------------ information (R10)
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_R10_view_rendering_ignores_what_the_viewer_cannot_know(config):
    rng = np.random.default_rng(5)
    changed = 0
    for state in sampled_states(config):
        for viewer in range(config.num_players):
            other = resample_hidden(state, viewer, rng)
            assert seen(other, viewer) == seen(state, viewer)
            changed += render_full(other) != render_full(state)
    assert changed > 0  # the resampling did change hidden information


def test_R10_others_face_down_cards_and_hands_are_hidden_own_are_shown():
    states = game_states(PRO_3P, 1)
    viewer = 0
    state = next(s for s in states if hidden_buyers(s, viewer) and s.hands[viewer].sum() >= 2)
    k, i = hidden_buyers(state, viewer)[0]
    owner, cards = buyer(state, k, i).seat, buyer(state, k, i).cards

    other = state.copy()
    swapped = tuple(sorted((c + 1) % N_CARD_COLOURS for c in cards))
    places(other)[k][i] = Buyer(owner, swapped, False)
    other.hands[owner] = np.roll(other.hands[owner], 1)
    assert seen(other, viewer) == seen(state, viewer)
    assert seen(other, owner) != seen(state, owner)  # the owner does see the change
    assert "?" in seen(state, viewer)

    mine = state.copy()
    mine.hands[viewer] = np.roll(mine.hands[viewer], 1)
    assert not np.array_equal(mine.hands[viewer], state.hands[viewer])
    assert seen(mine, viewer) != seen(state, viewer)


def test_R10_viewer_sees_own_hand_by_colour_others_only_its_size():
    state = game_states(PRO_3P, 0)[0]
    text = seen(state, 1).splitlines()
    hand = ", ".join(f"{CARD_NAMES[c]} {n}" for c, n in enumerate(state.hands[1]) if n)
    own = next(line for line in text if line.startswith("P1 (you)"))
    assert f"hand {state.hands[1].sum()}: {hand}" in own
    for s in (0, 2):
        line = next(line for line in text if line.startswith(f"P{s} "))
        assert f"hand {state.hands[s].sum()} " in line + " "
        assert f"hand {state.hands[s].sum()}:" not in line


def test_R7_2_lighted_windows_being_kept_are_shown_to_the_drawer_only():
    state = next(
        s
        for seed in range(6)
        for s in game_states(PRO_3P, seed)
        if s.phase == Phase.LIGHTS_KEEP and s.lights_drawn
    )
    drawn = ", ".join(COLOUR_NAMES[c] for c in state.lights_drawn)
    assert f"drawn: {drawn}" in seen(state, state.seat)
    watcher = (state.seat + 1) % state.num_players
    assert f"{len(state.lights_drawn)} unseen" in seen(state, watcher)
    assert f"drawn: {drawn}" in render_full(state)


def test_full_view_shows_every_hand_and_face_down_card():
    state = next(s for s in game_states(PRO_3P, 1) if hidden_buyers(s, 0))
    text = render_full(state)
    for k, i in hidden_buyers(state, 0):
        b = buyer(state, k, i)
        assert f"P{b.seat} ({'+'.join(CARD_NAMES[c] for c in b.cards)})" in text
    for s in range(state.num_players):
        hand = ", ".join(f"{CARD_NAMES[c]} {n}" for c, n in enumerate(state.hands[s]) if n)
        assert f"hand {state.hands[s].sum()}: {hand or '-'}" in text
    assert "?" not in text


# ------------------------------------------------------------------------ content
def test_header_shows_year_phase_turn_caliph_and_viewer():
    state = game_states(PRO_3P, 2)[40]
    state.caliph = 2
    text = seen(state, 1)
    assert f"year {state.year}/4" in text
    assert f"phase {state.phase.name}" in text
    assert f"to move: P{state.seat}" in text
    assert "Caliph: P2" in text
    assert "view of P1 (you)" in text


def test_money_and_prestige_of_every_player_are_shown():
    state = game_states(GameConfig(num_players=4), 3)[30]
    for s in range(4):
        state.money[s], state.prestige[s] = 101 + 11 * s, 70 + s
    lines = seen(state, 2).splitlines()
    for s in range(4):
        line = next(line for line in lines if line.startswith(f"P{s} "))
        assert f"money {101 + 11 * s}" in line
        assert f"prestige {70 + s}" in line


def test_area_required_colour_and_buyers_are_shown():
    state = game_states(GameConfig(num_players=2), 0)[0].copy()
    state.spaces[Area.BANK][2] = Buyer(1, (2,), True)
    state.area_colour[Area.BANK] = 2
    line = next(line for line in seen(state, 0).splitlines() if line.startswith("bank"))
    assert "[violet]" in line
    assert "12: P1 violet" in line
    assert "8: ." in line


@pytest.mark.parametrize("variant", ["basic", "pro"])
def test_pro_areas_are_drawn_only_in_the_pro_variant(variant):
    state = game_states(GameConfig(num_players=2, variant=variant), 0)[0]
    starts = {line.split()[0] for line in seen(state, 0).splitlines() if line}
    assert ({"tent", "lights"} <= starts) == (variant == "pro")
    assert {"bank", "spies", "caliph", "building", "coloured"} <= starts


def test_R8_final_scoring_is_shown_at_game_end_only():
    states = game_states(PRO_3P, 4)
    assert all("final scoring" not in seen(s, 0) for s in states[:-1:25])
    end = states[-1]
    assert end.is_over and end.final is not None
    lines = seen(end, 0).splitlines()
    start = next(i for i, line in enumerate(lines) if "final scoring" in line)
    for s, points in enumerate(end.final):
        row = lines[start + 2 + s].split()
        assert row[0] == f"P{s}"
        assert [int(x) for x in row[1:]] == [
            *(points[k] for k in FINAL_CATEGORIES),
            points["total"],
            end.prestige[s],
        ]
    best = max(end.prestige)
    winners = [f"P{s}" for s, p in enumerate(end.prestige) if p == best]
    assert lines[-1].startswith("winner(s): ")
    assert all(w in lines[-1] for w in winners)


# ------------------------------------------------------------------------ shape
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_renderings_are_short_lined_and_name_every_seat(config):
    for state in sampled_states(config, seeds=(2, 3), every=3):
        views = {v: seen(state, v) for v in range(config.num_players)}
        for viewer, text in [*views.items(), (None, render_full(state))]:
            assert max(map(len, text.splitlines())) <= LINE_WIDTH
            for s in range(config.num_players):
                assert f"\nP{s}" in text
            assert ("(you)" in text) == (viewer is not None)
            assert f"\nP{viewer} (you)" in text or viewer is None


# ------------------------------------------------------------------------ expansions (R9)
def board_line(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(start))


def pending_text(text: str) -> str:
    """The pending decision's lines as one (where a line was wrapped, one space)."""
    lines = text.split("\npending: ", 1)[1].split("\n-- board", 1)[0].splitlines()
    return " ".join(line.strip() for line in lines)


def state_in_phase(config: GameConfig, seed: int, phase: Phase) -> State:
    """The first state in `phase` of the random games seeded `seed`, `seed` + 1, ..."""
    return next(
        s for k in range(seed, seed + 20) for s in game_states(config, k) if s.phase == phase
    )


@pytest.mark.parametrize("expansions", [(), ("gifts",), ("genie",), ("genie", "gifts")])
def test_R9_1_the_genie_house_is_drawn_with_the_genie_only(expansions):
    state = new_game(GameConfig(num_players=2, variant="pro", expansions=expansions), 0)
    state.spaces[Area.GENIE][1] = Buyer(1, (3,), True)
    for text in (seen(state, 0), render_full(state)):
        starts = {line.split()[0] for line in text.splitlines() if line}
        assert ("genie" in starts) == ("genie" in expansions)
        if "genie" in expansions:
            assert board_line(text, "genie").endswith("3: . | 5: P1 green | 7: .")


def test_R9_1_a_genie_decision_says_so():
    state = state_in_phase(
        GameConfig(num_players=3, variant="pro", expansions=("genie",)), 0, Phase.GENIE
    )
    assert "pending: the Bottle Genie: choose the move of another space" in seen(state, state.seat)


def test_R9_2_the_gifts_on_each_chest_are_named_in_the_order_laid():
    state = new_game(GIFTS_PRO, 3)
    state.gifts[CHEST[Area.MARKET_BASE]] = [KIND["asari_5"], KIND["buy_window"]]
    state.gifts[CHEST[Area.BUILDING]] = [KIND["prestige_2"], KIND["card"], KIND["asari_3"]]
    state.gifts[CHEST[Area.LIGHTS]] = [KIND["lighted_window"]]
    state.gifts[CHEST[Area.MARKET_TRUNK]] = []
    state.spaces[Area.MARKET_TRUNK][0] = Buyer(2, (1,), True)
    state.gift_pile[:] = 0
    state.gift_pile[KIND["buy_base"]] = 7
    for text in [*(seen(state, v) for v in range(3)), render_full(state)]:
        assert board_line(text, "bases market").endswith(
            "[any]    . (chest: asari 5, buy window) | . | . | ."
        )
        assert "4: . (chest: prestige 2, buyer card, asari 3) | 5: ." in board_line(
            text, "building"
        )
        assert board_line(text, "lights").endswith(". (chest: lighted window) | . | .")
        assert "P2 yellow (chest: -) | . | ." in board_line(text, "trunks market")
        assert "gift pile 7" in board_line(text, "draw pile")


def test_R9_2_chests_only_with_the_gifts_and_the_lights_chest_only_with_pro():
    basic = new_game(GameConfig(num_players=2, expansions=("gifts",)), 1)
    text = seen(basic, 0)
    assert text.count("(chest: ") == 5 and "gift pile " in text
    assert {len(basic.gifts[k]) for k in range(5)} == {1}  # one gift laid on each chest
    pro = new_game(GameConfig(num_players=2, variant="pro", expansions=("gifts",)), 1)
    assert seen(pro, 0).count("(chest: ") == 6
    for plain in (new_game(PRO_3P, 1), new_game(GameConfig(num_players=2), 1)):
        assert "chest" not in seen(plain, 0) and "gift" not in render_full(plain)


def place_on(state: State, area: Area) -> None:
    """Step the first legal placement of the seat to move on `area`."""
    step(
        state,
        next(
            a
            for a in legal_actions(state)
            if decode(a)[0] == Group.PLACE and TARGETS[decode(a)[1][0]].area == area
        ),
    )


def test_R9_2_a_gift_decision_names_the_gift_and_what_is_still_to_carry_out():
    state = new_game(GIFTS_PRO, 2)
    state.gifts[CHEST[Area.MARKET_BASE]] = [KIND["card"], KIND["asari_5"], KIND["buy_window"]]
    place_on(state, Area.MARKET_BASE)
    assert state.phase == Phase.GIFT_CARD and state.gift_queue == [3, 7]
    for text in [*(seen(state, v) for v in range(3)), render_full(state)]:  # gifts are public
        pending = pending_text(text)
        assert pending.startswith(
            "gift from the bases market chest: take a buyer card from the draw pile"
        )
        assert "gifts still to carry out: asari 5, buy window" in pending
        assert pending.endswith("then the space's own move: the bases market")
        assert board_line(text, "bases market").endswith(" (chest: -) | . | . | .")


def test_R9_2_the_draw_pile_is_shown_to_the_gift_taker_only():
    state = state_in_phase(GIFTS_PRO, 0, Phase.GIFT_CARD)
    holds = ", ".join(f"{CARD_NAMES[c]} {n}" for c, n in enumerate(state.draw_pile) if n)
    assert f"the pile holds {holds}" in seen(state, state.seat)
    assert f"the pile holds {holds}" in render_full(state)
    for other in set(range(state.num_players)) - {state.seat}:
        text = seen(state, other)
        assert "take a buyer card from the draw pile" in text and "the pile holds" not in text
        changed = state.copy()
        changed.draw_pile = np.roll(changed.draw_pile, 1)
        assert seen(changed, other) == text


def test_R9_2_the_lighted_window_stack_is_shown_to_the_gift_taker_only():
    state = state_in_phase(
        GameConfig(num_players=2, variant="pro", expansions=("gifts",)), 0, Phase.GIFT_LIGHTS
    )
    colours = [c for c, _ in state.lighted_stack]
    counts = ", ".join(
        f"{n} {k}" for n, k in zip(COLOUR_NAMES, np.bincount(colours, minlength=5)) if k
    )
    mine = seen(state, state.seat)
    assert f"the stack holds {counts}" in mine
    other = seen(state, 1 - state.seat)
    assert "keep one window of the lighted-window stack, pay 4" in other
    assert "the stack holds" not in other
