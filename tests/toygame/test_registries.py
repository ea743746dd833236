"""A third game's card (registered by this folder's conftest) makes it appear wherever the
layers list the games: training's, the agents', the command line's player counts; the web
page only offers a game with a page module, which the test game has not."""

from __future__ import annotations

from agents import registry as agents_registry
from apps.webgame import web_games
from asara_env import games
from commandline.command import player_counts
from training.games import training_games

from .card import CARD


def test_the_test_games_card_brings_it_to_every_registry():
    assert games.available_games() == ("asara", "basari", CARD.name)
    assert training_games() == ["asara", "basari", CARD.name]
    assert agents_registry.games() == ["asara", "basari", CARD.name]
    assert player_counts(CARD.name) == CARD.player_counts
    assert web_games() == ("asara", "basari")  # no apps/toygame/web.py
