"""`TrackedGame`: one game stepped in the vectorised core (B = 1) that keeps the origin of
its chance, so that it can at any point be turned back into the reference game it is: to
save it, to explain why an action is illegal, and to draw a seat's view of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from asara_env.asara.bridge.convert import from_reference, generator_at, to_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.core import init
from asara_env.asara.core.state import CoreState
from asara_env.asara.reference.rules import illegal_reason
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view


@dataclass
class TrackedGame:
    """One game in the core plus its chance origin (a PCG64 `bit_generator.state`)."""

    core: CoreState
    chance_origin: Mapping[str, Any]

    @classmethod
    def new(cls, config: GameConfig, seed: int) -> TrackedGame:
        """The reference game `new_game(config, seed)`, set up in the core."""
        core = init(config, 1, seeds=np.array([seed], np.uint64))
        return cls(core, np.random.default_rng(seed).bit_generator.state)

    @classmethod
    def load(cls, saved: dict[str, Any], config: GameConfig | None = None) -> TrackedGame:
        """A saved game (docs/asara/state.md), validated (`CorruptStateError` names what is wrong);
        with `config`, a game of another configuration is refused with a ValueError."""
        game = state_from_dict(saved)
        if config is not None and game.config != config:
            raise ValueError(
                f"the saved game's config {game.config.to_dict()} is not {config.to_dict()}"
            )
        return cls(from_reference([game]), game.rng.bit_generator.state)

    def reference(self) -> State:
        """The game as a reference State, its generator at the same point of chance."""
        rng = generator_at(self.chance_origin, int(self.core.tape_pos[0]))
        return to_reference(self.core, 0, rng)

    def save(self) -> dict[str, Any]:
        """The whole game, hidden information included, as a saved-game dict."""
        return state_to_dict(self.reference())

    def illegal_reason(self, action: int) -> str:
        """Why `action` is not legal now (the reference engine's words)."""
        return illegal_reason(self.reference(), action) or "not legal now"

    def seat_view(self, seat: int) -> dict[str, Any]:
        """What `seat` may know of the game (R10), as the reference engine gives it."""
        return seat_view(self.reference(), seat)
