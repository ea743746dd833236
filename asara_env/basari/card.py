"""BASARI's game card (`asara_env.games`): where the registry finds its config, core,
reward schemes, environments and docs. Only names: importing this loads nothing else."""

from asara_env.games import GameCard

CARD = GameCard(
    name="basari",
    player_counts=(2, 3, 4),
    config="asara_env.basari.config:BasariConfig",
    core="asara_env.basari.core",
    compiled_core="asara_env.basari.core.compiled",
    reward_schemes="asara_env.basari.core.outcome:REWARD_SCHEMES",
    env="asara_env.basari_v0:env",
    parallel_env="asara_env.basari_v0:parallel_env",
    simultaneous=True,
    gym_id="asara_env/Basari-v0",
    gym_env="asara_env.basari.gym_env:BasariGymEnv",
    docs="asara_env.basari.docs:write_docs",
    spiel="asara_env.basari.spiel:BasariWorld",
    pictures="asara_env.basari.docs:write_pictures",
)
