"""BASARI (Reinhard Staupe, 1998): merchants move round a bazaar by die, choose one of three
action cards at the same time, and barter gems for contested actions.

The rules are `docs/basari/rules.md` (ids B1-B16, environment design E1-E7). Layers, as for
ASARA (docs/architecture.md): the definition (`constants`, `config`, `actions`, `phases`,
`chance`), the plain one-game reference engine (`reference`), the vectorised core
(`core`), and the environments. Nothing here imports an ASARA module, and this file imports
no submodule, so `import asara_env.basari.constants` stays light.
"""
