"""The bridge between ASARA's two engines: the reference engine's one-game `State` and the
vectorised core's `CoreState`. Neither engine imports the other; everything that needs
both (the differential tests, saved games in the environments, `encode_view`) goes
through here.

- `convert`: `from_reference` / `to_reference` and `generator_at` (chance carried across).
- `encode`: `encode_view`, a reference seat view as the core's observation vector.
- `game`: `TrackedGame`, one game held in the core that can still be saved, loaded,
  explained and drawn through the reference engine.
"""

from asara_env.asara.bridge.convert import from_reference, generator_at, to_reference
from asara_env.asara.bridge.encode import encode_view
from asara_env.asara.bridge.game import TrackedGame

__all__ = ["TrackedGame", "encode_view", "from_reference", "generator_at", "to_reference"]
