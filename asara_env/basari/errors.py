"""BASARI's exceptions (both are ValueErrors)."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal for its seat. The state is left unchanged."""

    def __init__(self, seat: int, action: object, name: str, phase: str, reason: str) -> None:
        self.seat, self.action, self.name, self.phase, self.reason = (
            seat,
            action,
            name,
            phase,
            reason,
        )
        who = f"for seat {seat} (player_{seat})" if seat >= 0 else "(the joint action)"
        super().__init__(f"illegal action {action!r} ({name}) {who} in phase {phase}: {reason}")


class CorruptStateError(ValueError):
    """A saved BASARI state or record that is malformed or breaks an invariant (B12)."""
