"""What every reachable state satisfies. Loading a saved state checks all of it, and the
property tests check it after every decision."""

from __future__ import annotations

import numpy as np

from asara_env.asara.actions import TARGETS
from asara_env.asara.constants import (
    CARDS_PER_COLOUR,
    CHEST_SPACES,
    DISPLAY_SIZE,
    LIGHTED_PER_COLOUR,
    MAX_TOWERS_PER_COLOUR,
    N_BUILD_MAX,
    N_CARD_COLOURS,
    N_GIFT_KINDS,
    N_TILE_COLOURS,
    N_YEARS,
    Area,
    Part,
    chests_in_play,
    gift_pile,
)
from asara_env.asara.phases import PHASE_GROUPS, Phase, full_tile_counts
from asara_env.asara.reference.rules import area_in_game, legal_actions, works
from asara_env.asara.reference.state import State, Tower


def violations(state: State) -> list[str]:
    """Every broken invariant of `state`, as sentences (empty when the state is sound)."""
    return [problem for _, problem in located_violations(state)]


def located_violations(state: State) -> list[tuple[str, str]]:
    """Every broken invariant of `state` as (the saved-state fields at fault, sentence),
    from the first check that fails."""
    for check, fields in CHECKS:
        problems = check(state)
        if problems:
            return [(fields, problem) for problem in problems]
    if not state.is_over and not legal_actions(state):
        return [("phase", f"seat {state.seat} has no legal action in phase {state.phase.name}")]
    return []


def _scalars(state: State) -> list[str]:
    p = state.num_players
    out = []
    if not 1 <= state.year <= N_YEARS:
        out.append(f"year {state.year} is not in 1..{N_YEARS}")
    for name in ("seat", "caliph"):
        if not 0 <= getattr(state, name) < p:
            out.append(f"{name} {getattr(state, name)} is not a seat of {p} players")
    if len(state.money) != p or len(state.prestige) != p:
        out.append("money and prestige need one entry per player")
    elif min(state.money) < 0:
        out.append(f"money may not be negative: {state.money}")
    elif min(state.prestige) < 0:
        out.append(f"prestige may not be negative: {state.prestige}")
    for name in ("hands", "draw_pile", "stacks", "displays", "supply", "lighted_supply"):
        if np.any(getattr(state, name) < 0):
            out.append(f"{name} has a negative count")
    return out


def _towers_total(state: State) -> np.ndarray:
    total = np.zeros_like(state.stacks)
    for tower in _all_towers(state):
        total[:, tower.colour, :] += tower.parts
    return total


def _all_towers(state: State) -> list[Tower]:
    return [t for seat in state.towers for col in seat for t in col]


def _tiles(state: State) -> list[str]:
    placed = state.stacks + state.displays + state.supply.sum(axis=0) + _towers_total(state)
    out = []
    if not np.array_equal(placed, full_tile_counts()):
        out.append(
            "the ordinary tiles do not add up to the game's 100 (R1): some are lost or doubled"
        )
    for part in Part:
        if state.displays[part].sum() > DISPLAY_SIZE[part]:
            out.append(
                f"the {part.name.lower()} display holds more than {DISPLAY_SIZE[part]} tiles"
            )
    return out


def _board_cards(state: State) -> np.ndarray:
    cards = np.zeros(N_CARD_COLOURS, np.int64)
    buyers = [b for area in state.spaces for b in area if b is not None] + state.coloured
    for buyer in buyers:
        for b in buyer.cards:
            cards[b] += 1
    return cards


def _cards(state: State) -> list[str]:
    total = state.hands.sum(axis=0) + state.draw_pile + _board_cards(state)
    if not np.all(total == CARDS_PER_COLOUR):
        return [f"buyer cards per colour are {total.tolist()}, not {CARDS_PER_COLOUR} each (R1)"]
    return []


def _lighted(state: State) -> list[str]:
    total = state.lighted_supply.sum(axis=0).copy()
    for colour, _ in state.lighted_stack:
        total[colour] += 1
    for colour in state.lights_drawn:
        total[colour] += 1
    for tower in _all_towers(state):
        total[tower.colour] += tower.lit
    expected = LIGHTED_PER_COLOUR if state.config.pro else 0
    if not np.all(total == expected):
        return [f"lighted windows per colour are {total.tolist()}, not {expected} each (R1, R7.2)"]
    bad = [
        x
        for x in state.lighted_stack
        if not (0 <= x[0] < N_TILE_COLOURS and -1 <= x[1] < state.num_players)
    ]
    return [f"bad lighted-stack entries {bad}"] if bad else []


def _towers(state: State) -> list[str]:
    out = []
    for s, seat in enumerate(state.towers):
        for c, col in enumerate(seat):
            if len(col) > MAX_TOWERS_PER_COLOUR:
                out.append(f"seat {s} has more than {MAX_TOWERS_PER_COLOUR} towers of colour {c}")
            for k, t in enumerate(col):
                where = f"seat {s} colour {c} tower #{k + 1}"
                building = state.phase == Phase.BUILD and s == state.seat
                out += _tower_problems(t, c, where, building)
    return out


def _tower_problems(t: Tower, colour: int, where: str, building: bool) -> list[str]:
    out = []
    if t.colour != colour:
        out.append(f"{where} has colour {t.colour}")
    if np.any(t.parts < 0) or t.lit_plain < 0 or t.lit_gold < 0:
        out.append(f"{where} has a negative count")
    for part in (Part.BASE, Part.TURRET):
        if t.parts[part].sum() > 1:
            out.append(f"{where} has more than one {part.name.lower()} (R4.2.2)")
    if not t.complete and not building:
        out.append(f"{where} lacks its base or turret (R4.2.6)")
    if t.free_windows(0) < 0 or t.free_windows(1) < 0:
        out.append(f"{where} has more lighted windows than windows to carry them (R7.2)")
    return out


def _board(state: State) -> list[str]:
    out = []
    for area in Area:
        buyers = [b for b in state.spaces[area] if b is not None]
        if buyers and not area_in_game(state, area):
            out.append(f"{area.name} is not in this configuration but holds buyers")
        ups = {b.cards[0] for b in buyers if b.face_up}
        colour = state.area_colour[area]
        if ups and ups != {colour}:
            out.append(
                f"{area.name} requires colour {colour} but holds face-up {sorted(ups)} (R3.2)"
            )
        if colour != -1 and not ups:
            out.append(f"{area.name} requires colour {colour} without a face-up card there (R3.2)")
        for b in buyers:
            if not 0 <= b.seat < state.num_players or len(b.cards) != (1 if b.face_up else 2):
                out.append(f"{area.name} holds a malformed buyer {b}")
    if any(len(b.cards) != 1 or b.face_up for b in state.coloured):
        out.append("the coloured building takes single face-down cards only (R3.4)")
    return out


def _phase(state: State) -> list[str]:
    ph = state.phase
    hand = state.hands[state.seat].sum()
    pending = {
        "market": state.market != -1 and ph not in (Phase.BUY, Phase.GIFT_BUY),
        "bribe_stack": state.bribe_stack != -1 and ph != Phase.BRIBE_TAKE,
        "lights_drawn": bool(state.lights_drawn) and ph != Phase.LIGHTS_KEEP,
        "build_left": state.build_left != 0 and ph != Phase.BUILD,
    }
    out = [f"{name} is set outside its phase ({ph.name})" for name, bad in pending.items() if bad]
    if ph == Phase.PLACE and hand == 0:
        out.append(f"seat {state.seat} is to place a buyer but holds no card")
    if ph in (Phase.BUY, Phase.GIFT_BUY) and state.market not in range(4):
        out.append(f"BUY needs a market part, got {state.market}")
    if ph == Phase.BRIBE_TAKE and state.bribe_stack not in range(4):
        out.append(f"BRIBE_TAKE needs a stack, got {state.bribe_stack}")
    if ph == Phase.LIGHTS_KEEP and not 1 <= state.lights_keep <= len(state.lights_drawn):
        out.append(f"LIGHTS_KEEP must keep 1..{len(state.lights_drawn)}, got {state.lights_keep}")
    if ph == Phase.BUILD:
        if not 1 <= state.build_left <= N_BUILD_MAX:
            out.append(f"BUILD needs 1..{N_BUILD_MAX} tiles left, got {state.build_left}")
        elif not works(state, state.seat).completable(state.build_left):
            out.append(f"the build cannot be finished with {state.build_left} tiles")
    if ph == Phase.GENIE and "genie" not in state.config.expansions:
        out.append("GENIE needs the genie expansion")
    if ph != Phase.GAME_OVER and not 0 <= int(ph) < len(PHASE_GROUPS):
        out.append(f"unknown phase {ph}")
    if ph == Phase.GAME_OVER and (
        state.final is None or state.year != N_YEARS or state.hands.sum()
    ):
        out.append("a finished game needs year 4, empty hands and a final scoring")
    if ph != Phase.GAME_OVER and state.final is not None:
        out.append("only a finished game has a final scoring")
    return out


def _gifts(state: State) -> list[str]:
    """R9.2: gift cards come from the pile; the pile empties by one card per chest a year;
    gifts wait to be carried out only while their placement's move waits."""
    out = []
    gifts_on = state.config.has_gifts
    laid = [k for chest in state.gifts for k in chest] + state.gift_queue
    if not gifts_on and (laid or state.gift_pile.any()):
        return ["gift cards exist without the gifts expansion"]
    counts = state.gift_pile + np.bincount(laid, minlength=N_GIFT_KINDS).astype(np.int64)
    if np.any(state.gift_pile < 0) or np.any(counts > gift_pile(state.config.pro)):
        out.append(f"the gift cards {counts.tolist()} exceed the pile of R9.2")
    chests = chests_in_play(state.config.pro)
    expected_pile = sum(gift_pile(state.config.pro)) - len(chests) * state.year
    if gifts_on and int(state.gift_pile.sum()) != max(expected_pile, 0):
        out.append(f"the gift pile holds {int(state.gift_pile.sum())} cards in year {state.year}")
    if any(state.gifts[k] for k in range(len(state.gifts)) if k not in chests):
        out.append("a chest not in play holds gifts")
    if any(len(chest) > state.year for chest in state.gifts):
        out.append("a chest holds more gifts than years have passed")
    gift_phase = state.phase in (Phase.GIFT_CARD, Phase.GIFT_BUY, Phase.GIFT_LIGHTS)
    waiting = state.pending_target >= 0
    if gift_phase and not gifts_on:
        out.append(f"{state.phase.name} needs the gifts expansion")
    if gift_phase != waiting or (state.gift_queue and not waiting):
        out.append("gifts are being carried out without a placement waiting, or vice versa")
    elif waiting:
        out += _waiting_placement(state, chests)
    return out


def _waiting_placement(state: State, chests: tuple[int, ...]) -> list[str]:
    """While gifts are carried out: the placement took the emptied chest's space."""
    if state.gift_chest not in chests or state.pending_target not in range(len(TARGETS)):
        return ["a waiting placement needs a chest in play and a placement target"]
    area, space = CHEST_SPACES[state.gift_chest]
    if TARGETS[state.pending_target].area != area or state.pending_space != space:
        return ["the waiting placement is not on the chest being emptied"]
    buyer = state.spaces[area][space]
    if buyer is None or buyer.seat != state.seat or state.gifts[state.gift_chest]:
        return ["the chest being emptied needs the buyer of the seat to move and no gifts left"]
    return []


# each check, and the saved-state fields it reads (named when a loaded state fails it)
CHECKS = (
    (_scalars, "year, seat, caliph, money, prestige"),
    (_tiles, "stacks, displays, supply, towers"),
    (_cards, "hands, draw_pile, spaces, coloured"),
    (_lighted, "lighted_supply, lighted_stack, lights_drawn, towers"),
    (_towers, "towers"),
    (_board, "spaces, area_colour, coloured"),
    (_phase, "phase"),
    (_gifts, "gift_pile, gifts, gift_queue, gift_chest, pending_target, pending_space"),
)
