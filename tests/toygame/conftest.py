"""The test game joins every registry for the tests of this folder, and leaves after."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents import registry as agents_registry
from asara_env import games
from training import games as training_games

from .agents import GAME_AGENTS
from .card import CARD


@pytest.fixture(scope="module", autouse=True)
def toygame_registered() -> Iterator[str]:
    games.register(CARD)
    agents_registry.register_game(CARD.name, GAME_AGENTS)
    training_games.register_game(CARD.name, "tests.toygame")
    yield CARD.name
    training_games.unregister_game(CARD.name)
    agents_registry.unregister_game(CARD.name)
    games.unregister(CARD.name)
