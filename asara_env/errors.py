"""The project's exceptions."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal in the current state. The state is left unchanged."""

    def __init__(self, action: object, name: str, seat: int, phase: str, reason: str) -> None:
        self.action, self.name, self.seat, self.phase, self.reason = (
            action,
            name,
            seat,
            phase,
            reason,
        )
        super().__init__(
            f"illegal action {action!r} ({name}) for seat {seat} in phase {phase}: {reason}"
        )


class CorruptStateError(ValueError):
    """A saved game state that is malformed or breaks the rules' invariants. `field` is the
    path of the field at fault (`towers[1][3][0].parts`), named first in the message."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message if field is None else f"{field}: {message}")
        self.field = field
