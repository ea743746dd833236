"""ASARA's game card (`asara_env.games`): where the registry finds its config, core,
reward schemes, environments and docs. Only names: importing this loads nothing else."""

from asara_env.games import GameCard

CARD = GameCard(
    name="asara",
    player_counts=(2, 3, 4),
    config="asara_env.asara.config:GameConfig",
    core="asara_env.asara.core",
    compiled_core="asara_env.asara.core.compiled",
    reward_schemes="asara_env.asara.core.outcome:REWARD_SCHEMES",
    env="asara_env.asara.env:env",
    raw_env="asara_env.asara.env:raw_env",
    simultaneous=False,
    gym_id="asara_env/Asara-v0",
    gym_env="asara_env.asara.gym_env:AsaraGymEnv",
    docs="asara_env.asara.docs:write_docs",
    spiel="asara_env.asara.spiel:AsaraWorld",
)
