"""The self-play trainer for every game: self-play with the shared search's Gumbel root on
the batched core, a replay buffer, a learner, on one machine or on Ray
(training/selfplay/run.py)."""
