"""The search written once for every game (see docs/agents.md): information-set MCTS with
decoupled choices at simultaneous nodes, a PUCT or Gumbel root, flat Monte Carlo, playouts
or a network at the leaves, reaching a game only through its card's core and the
`SearchVerbs` of its agents table. Split by concern as mctx splits its search:

- `base.py`: `Settings`, the network callback `Evaluate`, the policy output `Decision`;
- `tree.py`: the nodes and each seat's edges;
- `selection.py`: the UCT/PUCT bandit with progressive widening and policy-first
  expansion, every seat's key at a node, the Gumbel root's draw and scores;
- `qtransforms.py`: the completed-Q `sigma_of`;
- `seq_halving.py`: sequential halving's rounds;
- `leaves.py`: playouts (and a mixture of opponents), horizon estimates, network values;
- `context.py`: what every part reads and counts (`SearchContext`), the budget's waves;
- `loop.py`: determinise, descend, evaluate, back up (never naming a policy);
- `policies.py`: `ismcts`, `gumbel`, `flatmc`, each a function composing the loop;
- `mcts.py`: `Search`, the entry (`run` -> `Decision`);
- `verbs.py`, `game.py`: what a game gives the search, and the game as the search sees it;
- `gumbel.py`: `gumbel_search`, the Gumbel root with a network (self-play's entry);
- `agent.py`: the agents `flatmc`, `ismcts` and `gumbel` of every game, one option table.
"""
