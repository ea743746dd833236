"""Measuring, below learning: tournaments (`tournament`, its command `tournament_cli`, its
report and statistics), the ladder, heads-up matches and their plot, the evaluation of a
saved model, and the Ray jobs they share (`distribute`); per game, `<game>/` with the
game's agents as training uses them, its tournament game and commands, and its
evaluation. The trainers import this package; it imports none of them (only the seams
`training.games` and `training.game_agents` beside it)."""
