"""ASARA (Wolfgang Kramer and Michael Kiesling, 2010): caliphs' towers built from coloured
parts bought with cards in five markets.

The rules are `docs/asara/rules.md` (ids R1-R11). Layers (docs/architecture.md): the
definition (`constants`, `config`, `actions`, `phases`), the plain one-game reference engine
(`reference`), the vectorised core (`core`), the bridge between them (`bridge`, `hidden`)
and the environments (`env`, `gym_env`, rendering). Nothing here imports a BASARI module,
and this file imports no submodule, so `import asara_env.asara.constants` stays light.
"""
