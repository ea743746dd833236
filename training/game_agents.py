"""What a game's training takes from the `agents` package, one seam for every game:
`TrainingAgents(game)` answers with `agents.registry` and `agents.models` for the game
named, so that a change of the agents' layout is a change here only. The `agents` package
is imported on first use (it is ASARA's face: a shared module loads no game). Each game's package
(training/<game>/__init__.py) binds its own and adds what is truly its own (its arena's
`play_batch`, ...).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agents.base import Agent
    from agents.policy_agent import PolicyAgent


@dataclass(frozen=True)
class TrainingAgents:
    """The agents of the game named `game`, as its training uses them."""

    game: str

    def agent_specs(self) -> Collection[str]:
        """Every agent spec: `spec in agent_specs()` checks one (options included);
        iterating gives the names a spec may start with."""
        import agents.registry as registry

        return registry.agent_specs(self.game)

    def spec_names(self) -> list[str]:
        """The names an agent spec may start with (baselines, shipped models, configurable
        agents, policy)."""
        import agents.registry as registry

        return registry.agent_names(self.game)

    def baselines(self) -> list[str]:
        """The baseline agents' names: the opponents a training run draws from."""
        import agents.registry as registry

        return list(registry.game_agents(self.game).baselines)

    def check(self, spec: str) -> str:
        """`spec` if it names an agent, else ValueError saying precisely what is wrong."""
        import agents.registry as registry

        return registry.check_agent(self.game, spec)

    def make_agent(self, spec: str, seed: int | None = None) -> Agent[Any]:
        """The agent of `spec` (a registry name with optional options), seeded."""
        import agents.registry as registry

        return registry.make_agent(self.game, spec, seed)

    def shipped_model(self, name: str) -> Path | None:
        """The file of the shipped model `name`, None for a name the game does not ship."""
        from agents.models import MODELS, model_path

        return model_path(self.game, name) if name in MODELS[self.game] else None

    def shipped_players(self, name: str) -> int | None:
        """The player count the shipped model `name` was trained for, None for a name the
        game does not ship."""
        from agents.models import MODELS, trained_players

        return trained_players(self.game, name) if name in MODELS[self.game] else None


def policy_agent(model: Any, seed: int | None = None) -> PolicyAgent:
    """A MaskablePPO model playing its most probable legal action."""
    from agents.policy_agent import PolicyAgent

    return PolicyAgent(model, seed)
