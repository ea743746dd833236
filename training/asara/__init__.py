"""ASARA's training: the learner VecEnv (`vec_env`), the training run's `GameSpec`
(`train`, `asara-train`), behaviour-cloning samples (`imitation`) and the self-play spec
(`selfplay`). ASARA's agents as training uses them, its tournament and its evaluation are
in training/evaluation/asara/."""
