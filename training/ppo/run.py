"""The training driver shared by every game: `asara-train` (training/asara/train.py) and
`basari-train` (training/basari/train.py) are this driver with a `GameSpec` each
(`python -m training.ppo.run GAME ...` runs any game's).

A run trains MaskablePPO with one learner seat against opponents drawn by weight:

- Opponents: `--opponents NAME*WEIGHT+...` (the one mixture grammar, docs/agents.md;
  weight 1 where omitted), names from the game's
  registry of baseline agents.
- Self-play league (`LeagueCallback`): every `--snapshot-every` learner steps a frozen copy
  of the policy (the game's `policy_agent`) joins the opponents with weight `--snapshot-weight`;
  only the newest `--max-snapshots` keep a weight.
- Warm start: `--bc-expert NAME` first clones that baseline's play from `--bc-games`
  self-play games (`--bc-epochs`; training/imitation.py), history in `bc.json`; the
  game's default may name one (ASARA: towers), `--bc-expert none` starts from scratch.
- Evaluation curve (`WinRateCallback`): every `--eval-every` steps the policy (most
  probable legal action) plays `--eval-games` seat-rotated games against copies of each of
  `--eval-opponents` (training/evaluation/evaluate.py's rows: win rate, Wilson interval, mean
  points), from the start where the run spans at least one interval, and always at the
  end; rows in `eval.csv` and TensorBoard (`tb/`), and at the end `learning_curve.png`.
- Checkpoints every `--checkpoint-every` steps in `checkpoints/`; the final model in
  `final.zip`; `--resume PATH` (a checkpoint .zip, or a run folder: its newest model)
  continues it for `--steps` MORE learner steps (additional, not total), on new games
  (league snapshots start afresh). Its hyper-parameters are the checkpoint's unless given.
- Output folder and its settings (training/runfolder.py, shared with every trainer):
  `--out` (default `runs/<game>-<players>p-<YYYYmmdd-HHMMSS>`, new for every run). The
  run's settings (every option but `--steps`, `--out`, `--resume`, `--force`,
  `--no-progress`) are recorded once, in `run.json`, when it starts. A folder that already
  holds something is refused before any work, unless the run continues it (`--resume` of
  that folder or of a checkpoint in it) or `--force` is given (the old folder is then moved
  aside to `<out>.old-<n>`, never deleted). A resumed run keeps the recorded settings not
  given on the command line; one given with another value is refused, naming each
  difference, unless `--change-settings` says the change is wanted: it is then recorded in
  run.json beside the original settings (`changes`, with the step it began at), eval.csv's
  `settings` column counts the changes in effect, and the learning curve marks the step.
  Every file is written atomically (a temporary file renamed over it); Ctrl-C saves the
  model so far as `interrupted.zip` (continue with `--resume OUT`).
- Steps: PPO collects whole rollouts of `--n-steps` x `--envs` learner decisions, so
  `--steps` is rounded up to a whole number of rollouts; a run that rounds says so once
  when it starts ("20,000 steps asked, 20,480 run: whole rollouts of 2,048 (--n-steps 128
  x --envs 16)"), and SB3's progress bar counts to the steps that run.
- Hyper-parameters: the game's `hyper` defaults, each a flag (`--learning-rate`, ...).
- `run.json`: `settings` and `changes` (above), then the last session's arguments as typed
  values (`args`) and the defaults they came from (`defaults`), wall time, rates, the final
  evaluation and the step count, plus what the game's `finish` hook adds (BASARI: every
  baseline at 2, 3, 4 players); `learner_steps` is the steps run (rounded up).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from asara_env.common.seeding import derived_seed
from commandline import command
from commandline.outputs import atomic_save, atomic_write_text
from training import runfolder
from training.evaluation.evaluate import TRAINED_PLAYERS

from .run_args import continues, parse_args, typed_args
from .spec import GameSpec, Row

if TYPE_CHECKING:  # torch and stable-baselines3 are imported once the arguments are checked
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList

    from .callbacks import WinRateCallback
    from .sb3_vec_env import BatchedVecEnv


def resumed(spec: GameSpec, args: argparse.Namespace) -> MaskablePPO | None:
    """The checkpoint to continue, if any, with the hyper-parameters of the flags (the
    checkpoint's own unless given, see `parse_args`)."""
    if not args.resume:
        return None
    from sb3_contrib import MaskablePPO

    hyper = {k: getattr(args, k) for k in spec.hyper}
    model = MaskablePPO.load(args.resume, device="cpu", **hyper)
    model.tensorboard_log = str(args.out / "tb")
    return model


def build_model(
    spec: GameSpec,
    args: argparse.Namespace,
    config: Any,
    env: BatchedVecEnv,
    model: MaskablePPO | None,
) -> MaskablePPO:
    """The resumed model on `env`, or a new one (behaviour-cloned first with --bc-expert)."""
    from sb3_contrib import MaskablePPO

    from training.imitation import clone
    from training.policy import MaskedPolicy

    if model is not None:
        model.set_env(env)
        return model
    hyper = {k: getattr(args, k) for k in spec.hyper}
    model = MaskablePPO(
        MaskedPolicy,
        env,
        policy_kwargs=spec.policy_kwargs(),
        seed=args.seed,
        tensorboard_log=str(args.out / "tb"),
        device="cpu",
        verbose=0,
        **hyper,
    )
    if args.bc_expert:
        samples = spec.collect(config, args.bc_expert, args.bc_games, args.seed + 1, args.reward)
        history = clone(model, samples, args.bc_epochs, seed=args.seed)
        atomic_write_text(args.out / "bc.json", json.dumps(history, indent=1))
        print(
            f"behaviour cloning of {args.bc_expert}: {len(samples)} decisions, "
            f"accuracy {history[-1]['accuracy']:.3f}",
            flush=True,
        )
    return model


def train(spec: GameSpec, args: argparse.Namespace) -> MaskablePPO:
    """One training run (see the module docstring); returns the trained model."""
    from .callbacks import plot_learning_curve

    began = time.perf_counter()
    previous = resumed(spec, args)
    done = previous.num_timesteps if previous is not None else 0
    here = continues(args)
    started = runfolder.start(args.out, args._settings, resuming=here, force=args.force, at=done)
    if started.moved is not None:
        print(f"--force: the old {args.out} is now {started.moved}", flush=True)
    if started.change:
        print(f"settings changed from step {done}: {runfolder.describe(started.change)}")
    config = spec.config(args)  # the game the options ask for, passed on whole
    names, weights = args.opponents
    env = spec.make_env(config, args, names, weights, derived_seed(args.seed, done))  # new games
    model = build_model(spec, args, config, env, previous)
    setattr(model, TRAINED_PLAYERS, config.num_players)  # saved with it: evaluate checks it
    setup_seconds = time.perf_counter() - began  # with the behaviour cloning
    planned = whole_rollouts(args.steps, model.n_steps * env.num_envs)  # what PPO will run
    evaluator, callbacks = _callbacks(spec, args, config, env, planned)
    if planned != args.steps:
        print(rounded_up_notice(args.steps, model.n_steps, env.num_envs), flush=True)
    start = time.perf_counter()
    try:
        model.learn(  # SB3's progress bar counts to the steps given: those that will run
            planned,
            callback=callbacks,
            progress_bar=not args.no_progress,
            reset_num_timesteps=not args.resume,
            tb_log_name="ppo",
        )
    except KeyboardInterrupt:
        atomic_save(model, args.out / "interrupted.zip")
        raise command.Interrupted(
            f"the model after {model.num_timesteps} steps is in {args.out / 'interrupted.zip'}; "
            f"continue it with --resume {args.out}"
        ) from None
    seconds = time.perf_counter() - start
    ran = model.num_timesteps - done
    atomic_save(model, args.out / "final.zip")
    info = {
        "args": typed_args(args),
        "defaults": args._defaults,
        "seconds": seconds,  # model.learn only
        "setup_seconds": setup_seconds,  # the environment and model, behaviour cloning
        "learner_steps": ran,  # --steps rounded up to whole rollouts
        "learner_steps_per_second": ran / seconds,
        "env_decisions_per_second": env.decisions / seconds,  # learner + opponents
        "final_eval": evaluator.evaluate(),
        "num_timesteps": model.num_timesteps,
    }
    if spec.finish is not None:
        info.update(spec.finish(model, args, info))
    info["wall_seconds"] = time.perf_counter() - began  # everything but the plot
    runfolder.update_record(args.out, info)
    marks = runfolder.change_marks(args.out)
    plot_learning_curve(args.out / "eval.csv", args.out / "learning_curve.png", marks)
    rate = env.decisions / seconds
    print(f"done: {ran:,} learner steps in {seconds:.0f} s ({rate:.0f} env decisions/s);")
    print(f"model in {args.out / 'final.zip'}")
    return model


def _callbacks(
    spec: GameSpec, args: argparse.Namespace, config: Any, env: BatchedVecEnv, planned: int
) -> tuple[WinRateCallback, CallbackList]:
    """The run's evaluation curve, and it with the checkpoints and the league as one."""
    from stable_baselines3.common.callbacks import CallbackList

    from .callbacks import AtomicCheckpoints, LeagueCallback, WinRateCallback

    eval_seed = args.seed + 7

    def win_rate(m: Any, opponent: str) -> Row:
        return spec.win_rate(m, config, opponent, args.eval_games, eval_seed)

    segment = runfolder.segment(args.out)
    curve = planned >= args.eval_every  # a run shorter than an interval: the end only
    evaluator = WinRateCallback(
        win_rate, args.eval_opponents, args.eval_every, args.out, segment, at_start=curve
    )
    league = LeagueCallback(
        env,
        args.snapshot_every,
        args.snapshot_weight,
        args.max_snapshots,
        args.seed + 1000,
        spec.policy_agent,
    )
    every = max(args.checkpoint_every // args.envs, 1)
    checkpoints = AtomicCheckpoints(every, str(args.out / "checkpoints"), "model")
    return evaluator, CallbackList([checkpoints, league, evaluator])


def whole_rollouts(steps: int, rollout: int) -> int:
    """The learner steps PPO runs when asked for `steps`: it collects whole rollouts of
    `rollout` (n_steps x envs) decisions until it has `steps`, so `steps` rounded up."""
    return -(-steps // rollout) * rollout


def rounded_up_notice(steps: int, n_steps: int, envs: int) -> str:
    """The line saying that `steps` are rounded up to whole rollouts, and why."""
    rollout = n_steps * envs
    return (
        f"{steps:,} steps asked, {whole_rollouts(steps, rollout):,} run: whole rollouts of "
        f"{rollout:,} (--n-steps {n_steps} x --envs {envs})"
    )


def game_spec(game: str) -> GameSpec:
    """The `GameSpec` of the game named `game` (training/<game>/train.py)."""
    from training.games import game_module

    spec: GameSpec = game_module(game, "train").SPEC
    return spec


def main(argv: list[str] | None = None) -> int:
    """`python -m training.ppo.run GAME [the game's training flags]`."""
    from training.games import split_game

    game, rest = split_game("python -m training.ppo.run", "Train a learner seat.", argv)
    spec = game_spec(game)
    train(spec, parse_args(spec, rest))
    return 0


main = command.run_main("python -m training.ppo.run")(main)


if __name__ == "__main__":
    sys.exit(main())
