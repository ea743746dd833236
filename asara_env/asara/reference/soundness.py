"""What a loaded saved state must satisfy beyond the schema and the invariants: the fields of
a pending decision set exactly in its phase, a pending decision that can be completed (no
dead end after one more action), and a final scoring that is the one its towers and money
give. Each problem comes as (the field at fault, sentence)."""

from __future__ import annotations

from asara_env.asara.constants import LIGHTS_OPTIONS
from asara_env.asara.phases import Phase
from asara_env.asara.reference.scoring import final_scoring
from asara_env.asara.reference.state import State

GIFT_PHASES = (Phase.GIFT_CARD, Phase.GIFT_BUY, Phase.GIFT_LIGHTS)
PRO_PHASES = (Phase.LIGHTS_OPTION, Phase.LIGHTS_KEEP, Phase.GIFT_LIGHTS)


def load_problems(state: State) -> list[tuple[str, str]]:
    """Every problem of a loaded state the invariants do not already catch."""
    return _phase_fields(state) + _pending(state) + _final(state)


def _phase_fields(state: State) -> list[tuple[str, str]]:
    """Fields that belong to one decision are at their blank value outside it."""
    ph, out = state.phase, []
    if state.lights_keep != 0 and ph != Phase.LIGHTS_KEEP:
        out.append(("lights_keep", f"is {state.lights_keep} outside LIGHTS_KEEP (phase {ph.name})"))
    if ph not in GIFT_PHASES:
        blank = {
            "gift_chest": state.gift_chest == -1,
            "pending_target": state.pending_target == -1,
            "pending_space": state.pending_space == -1,
            "gift_queue": not state.gift_queue,
        }
        out += [
            (name, f"is set outside the gift phases (phase {ph.name})")
            for name, ok in blank.items()
            if not ok
        ]
    return out


def _pending(state: State) -> list[tuple[str, str]]:
    """The pending decision can be taken and leads on (R7.2: the windows need the pro
    variant, and a lighted-window option needs a window to draw)."""
    ph = state.phase
    if ph in PRO_PHASES and not state.config.pro:
        return [("phase", f"{ph.name} needs the pro variant (R7.2)")]
    if ph == Phase.LIGHTS_OPTION and not state.lighted_stack:
        return [("lighted_stack", "is empty, so no LIGHTS_OPTION can draw a window (R3.5)")]
    if ph == Phase.LIGHTS_KEEP and state.lights_keep > max(kept for *_, kept in LIGHTS_OPTIONS):
        return [("lights_keep", f"{state.lights_keep} is more than an option keeps (R7.2)")]
    return []


def _final(state: State) -> list[tuple[str, str]]:
    """R8: the final scoring is the one the towers and money give, and counted in prestige."""
    if state.final is None:
        return []
    expected = final_scoring(state.towers, state.money, state.config.pro)
    for s, (got, want) in enumerate(zip(state.final, expected)):
        if got != want:
            bad = next(k for k in want if got.get(k) != want[k])
            return [
                (f"final[{s}].{bad}", f"is {got.get(bad)}, the towers and money give {want[bad]}")
            ]
        if state.prestige[s] < want["total"]:
            return [(f"prestige[{s}]", f"{state.prestige[s]} is below the final scoring's total")]
    return []
