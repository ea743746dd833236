"""Game-agnostic machinery every game of the package uses (imports only numpy).

- `outcome`: winners, win shares, ranks and the reward schemes, from final scores.
- `seeding`: derived per-game seeds.
- `validate`: the one check of configurations, seeds, batch sizes and game indices.
"""
