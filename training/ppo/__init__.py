"""PPO's driver for every game: the training run (`run`), its callbacks, the SB3 vector env
over a game's batched core (`sb3_vec_env`) and the export of a checkpoint to ship
(`export`)."""
