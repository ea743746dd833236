"""BASARI's training: the learner VecEnv (`vec_env`), the training run's `GameSpec`
(`train`, `basari-train`), behaviour-cloning samples (`imitation`) and the self-play spec
(`selfplay`). BASARI's agents as training uses them, its tournament and its evaluation are
in training/evaluation/basari/."""
