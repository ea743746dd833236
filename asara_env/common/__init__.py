"""Game-agnostic machinery every game of the package uses (imports only numpy).

- `outcome`: winners, win shares, places, ranks and the reward schemes, from final scores.
- `seeding`: derived per-game seeds.
- `validate`: the one check of configurations, seeds, batch sizes and game indices.
- `opponents`: the one opponents' loop over any turn-based batch (agents passed in).
- `layout`: observation layouts declared as named slices (`ObsSlice`, `slice_index`).
- `record`: replaying a game record's actions (`replay_actions`), the first refused one a
  corrupt-record error.
- `sampling`: a uniformly random legal action per row of a mask (`random_legal`), compiled
  where numba loads, the same draws either way.
- `files`: files written whole or not at all (`atomic_open`, `atomic_write_text`, ...),
  with the permissions `open()` gives.
- `status`: what a slow step is doing, said on a terminal while it runs (`status`).
"""
