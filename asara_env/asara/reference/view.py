"""What one seat may know (R10): the public state plus that seat's private information.

`seat_view(state, seat)` is the reference for every observation encoding: two states that
differ only in what `seat` cannot know give equal views.
"""

from __future__ import annotations

from typing import Any

from asara_env.asara.constants import N_TILE_COLOURS
from asara_env.asara.phases import Phase
from asara_env.asara.reference.state import Buyer, State, Tower


def _buyer(b: Buyer | None, seat: int) -> dict[str, Any] | None:
    if b is None:
        return None
    shown = b.face_up or b.seat == seat  # R3.6: face-down colours are private to the owner
    return {
        "seat": b.seat,
        "n_cards": len(b.cards),
        "face_up": b.face_up,
        "cards": list(b.cards) if shown else None,
    }


def _tower(t: Tower) -> dict[str, Any]:
    return {"parts": t.parts.tolist(), "lit_plain": t.lit_plain, "lit_gold": t.lit_gold}


def public_view(state: State) -> dict[str, Any]:
    """R10.1: what every player knows."""
    return {
        "config": state.config.to_dict(),
        "year": state.year,
        "phase": state.phase.name,
        "seat_to_move": state.seat,
        "caliph": state.caliph,
        "money": list(state.money),
        "prestige": list(state.prestige),
        "hand_sizes": state.hands.sum(axis=1).tolist(),
        "draw_pile_size": int(state.draw_pile.sum()),
        "stacks": state.stacks.tolist(),
        "displays": state.displays.tolist(),
        "supply": state.supply.tolist(),
        "lighted_held": state.lighted_supply.sum(axis=1).tolist(),
        "lighted_stack_size": len(state.lighted_stack),
        "towers": [[[_tower(t) for t in col] for col in seat] for seat in state.towers],
        "area_colour": list(state.area_colour),
        "market": state.market,
        "bribe_stack": state.bribe_stack,
        "lights_drawn_count": len(state.lights_drawn),
        "lights_keep": state.lights_keep,
        "build_left": state.build_left,
        "final": state.final,
        "gifts": [list(chest) for chest in state.gifts],  # R9.2: face up on the chests
        "gift_pile": state.gift_pile.tolist(),  # its composition follows from the gifts laid
        "gift_queue": list(state.gift_queue),
        "gift_chest": state.gift_chest,
        "pending_target": state.pending_target,
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """R10: the public view plus `seat`'s hand, face-down cards, lighted windows and what
    it has seen of the lighted-window stack."""
    view = public_view(state)
    view["viewer"] = seat
    view["spaces"] = [[_buyer(b, seat) for b in area] for area in state.spaces]
    view["coloured"] = [_buyer(b, seat) for b in state.coloured]
    view["hand"] = state.hands[seat].tolist()
    view["lighted_supply"] = state.lighted_supply[seat].tolist()
    view["lighted_stack_known"] = [c if owner == seat else None for c, owner in state.lighted_stack]
    own_draw = state.phase == Phase.LIGHTS_KEEP and state.seat == seat
    view["lights_drawn"] = list(state.lights_drawn) if own_draw else None
    acting = state.seat == seat
    # R9.2: who takes a gift card or window looks through the draw pile or the stack
    looks = acting and state.phase == Phase.GIFT_CARD
    view["draw_pile_seen"] = state.draw_pile.tolist() if looks else None
    looks = acting and state.phase == Phase.GIFT_LIGHTS
    # by colour: the stack is shuffled right after the look, so its order is never of use
    view["lighted_stack_seen"] = lighted_counts(state) if looks else None
    return view


def lighted_counts(state: State) -> list[int]:
    """The lighted-window stack's windows by colour."""
    return [sum(c == colour for c, _ in state.lighted_stack) for colour in range(N_TILE_COLOURS)]
