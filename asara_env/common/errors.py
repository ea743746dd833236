"""The package's exceptions, one hierarchy for every game (both are ValueErrors).

try:
    core.step(state, actions)
except asara_env.IllegalActionError as refused:   # any game's refusal
    print(refused.seat, refused.action, refused.name, refused.phase, refused.reason)
"""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal for its seat; the state is left unchanged. `seat` is the
    seat that sent it (-1 when the fault is not one seat's, e.g. a batch of the wrong
    shape), `action` what was sent, `name` its human-readable name ("?" if it names no
    action), `phase` the name of the pending decision and `reason` why it was refused."""

    def __init__(self, seat: int, action: object, name: str, phase: str, reason: str) -> None:
        self.seat, self.action, self.name, self.phase, self.reason = (
            seat,
            action,
            name,
            phase,
            reason,
        )
        who = f"for seat {seat} (player_{seat})" if seat >= 0 else "(no single seat)"
        super().__init__(f"illegal action {action!r} ({name}) {who} in phase {phase}: {reason}")


class CorruptStateError(ValueError):
    """A saved game state or record that is malformed or breaks the rules' invariants.
    `field` is the path of the field at fault (`towers[1][3][0].parts`), named first in the
    message; None when the fault is not one field's."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message if field is None else f"{field}: {message}")
        self.field = field
