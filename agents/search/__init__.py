"""The search written once for every game (see docs/agents.md): information-set MCTS with
decoupled choices at simultaneous nodes, a PUCT or Gumbel root, flat Monte Carlo, playouts
or a network at the leaves, reaching a game only through its card (its core and its
`SearchVerbs`).

- `verbs.py`: `SearchVerbs`, what a game gives the search (determinisation, playouts,
  leaf estimate, observation, public keys), named on its card; `load_verbs`.
- `game.py`: `SearchGame`, a game's core and verbs in the simultaneous form.
- `tree.py`: the nodes and the decoupled bandits.
- `mcts.py`: `Search` (the loop, the roots, flat Monte Carlo) and its `Settings`.
- `gumbel.py`: `gumbel_search`, the Gumbel root for a batch of states with a network
  callback (the self-play trainer's entry point).
- `agent.py`: the agents `flatmc`, `ismcts` and `gumbel` of every game's registry.
"""
