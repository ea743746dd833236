"""DICE AUCTION's game card: the only thing the registry is told."""

from asara_env.games import GameCard

CARD = GameCard(
    name="toygame",
    player_counts=(2, 3, 4),
    config="tests.toygame.rules:ToyConfig",
    core="tests.toygame.core",
    reward_schemes="tests.toygame.core:REWARD_SCHEMES",
    env="tests.toygame.env:env",
    raw_env="tests.toygame.env:raw_env",
    parallel_env="tests.toygame.env:parallel_env",
    simultaneous=True,
)
