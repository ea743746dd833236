"""BASARI training through the shared driver (training/ppo/run.py): weighted opponents and
league snapshots in the VecEnv, checkpoints, the evaluation curve, resume, run.json and
the final evaluation, behaviour cloning of a baseline, and reproducible runs."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from agents.basari import AGENTS as BASARI_AGENTS  # noqa: E402
from agents.policy_agent import PolicyAgent  # noqa: E402
from asara_env.basari.config import BasariConfig  # noqa: E402
from training.basari import train as basari_train  # noqa: E402
from training.basari.imitation import collect  # noqa: E402
from training.basari.vec_env import BasariVecEnv  # noqa: E402
from training.evaluation.basari import policy_agent  # noqa: E402
from training.evaluation.evaluate import TRAINED_PLAYERS  # noqa: E402
from training.imitation import clone  # noqa: E402
from training.ppo.callbacks import LeagueCallback  # noqa: E402

TINY = [
    "--players",
    "2",
    "--envs",
    "8",
    "--n-steps",
    "32",
    "--batch-size",
    "128",
    "--n-epochs",
    "2",
]


def tiny_model(env: BasariVecEnv, seed: int = 0) -> MaskablePPO:
    kwargs = basari_train.policy_kwargs() | {"net_arch": [32]}
    return MaskablePPO(
        "MlpPolicy", env, n_steps=32, batch_size=128, n_epochs=1, seed=seed,
        policy_kwargs=kwargs, device="cpu",
    )  # fmt: skip


def play(env: BasariVecEnv, steps: int) -> int:
    """Random legal learner moves; the number of games finished."""
    rng, finished = np.random.default_rng(0), 0
    env.reset()
    for _ in range(steps):
        masks = env.action_masks()
        _, _, done, _ = env.step(np.where(masks, rng.random(masks.shape), -1).argmax(axis=1))
        finished += int(done.sum())
    return finished


def test_opponents_are_drawn_by_weight() -> None:
    env = BasariVecEnv(
        16, BasariConfig(4), ("random", "value"), seed=3, opponent_weights=[0.0, 1.0]
    )
    env.reset()
    others = env.seat_agent[env.seat_agent >= 0]
    assert others.size == 16 * 3 and (others == 1).all()
    with pytest.raises(ValueError, match="weights"):
        env.set_opponents(["random"], [-1.0])
    with pytest.raises(ValueError, match="weights"):
        env.set_opponents(["random", "value"], [1.0])


def test_a_policy_snapshot_plays_the_opponent_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    env = BasariVecEnv(6, BasariConfig(2), ("random",), seed=1)
    snapshot = PolicyAgent(tiny_model(env), seed=5)
    asked = []
    act_batch = snapshot.act_batch

    def spy(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions = act_batch(obs, masks)
        assert masks[np.arange(len(masks)), actions].all()
        asked.append(len(masks))
        return actions

    monkeypatch.setattr(snapshot, "act_batch", spy)
    env.set_opponents(["random", snapshot], [0.0, 1.0])
    assert play(env, 50) > 0
    assert sum(asked) > 0 and (env.seat_agent[env.seat_agent >= 0] == 1).all()


def test_league_snapshots_join_the_basari_opponents() -> None:
    env = BasariVecEnv(
        8, BasariConfig(4), ("value", "points_first"), seed=2, opponent_weights=[3.0, 1.0]
    )
    model = tiny_model(env)
    league = LeagueCallback(env, every=64, weight=0.5, most=2, seed=10, snapshot=policy_agent)
    model.learn(256, callback=league)
    env.reset()  # new games: their opponents are drawn from the league
    assert len(league.snapshots) >= 3
    assert env.opponents[:2] == league.base and env.opponents[2:] == league.snapshots
    assert all(isinstance(s, PolicyAgent) for s in env.opponents[2:])
    assert (env.seat_agent >= 2).any()
    k = len(league.snapshots)  # the base's weights (normalised), 0.5 for the newest two
    raw = np.array([0.75, 0.25] + [0.0] * (k - 2) + [0.5, 0.5])
    assert np.allclose(env.opponent_weights, raw / raw.sum())


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("basari") / "run"
    argv = [*TINY, "--steps", "512", "--seed", "4", "--out", str(out), "--no-progress"]
    argv += ["--eval-every", "256", "--eval-games", "4", "--eval-opponents", "random,value"]
    argv += ["--checkpoint-every", "256", "--snapshot-every", "256"]
    argv += ["--bc-expert", "points_first", "--bc-games", "4", "--bc-epochs", "1"]
    argv += ["--final-games", "4", "--final-players", "2", "3"]
    assert basari_train.main(argv) == 0
    return out


def test_a_run_writes_checkpoints_curve_and_reports(run_dir: Path) -> None:
    assert sorted(p.name for p in (run_dir / "checkpoints").glob("*.zip")) == [
        "model_256_steps.zip",
        "model_512_steps.zip",
    ]
    rows = list(csv.DictReader((run_dir / "eval.csv").open()))
    assert [(r["steps"], r["opponent"]) for r in rows] == [
        (s, o) for s in ("8", "264", "512") for o in ("random", "value")
    ]  # at the start (after the first step of 8 games), every 256 steps, at the end
    assert all(0 <= float(r["ci_low"]) <= float(r["win_rate"]) <= float(r["ci_high"]) for r in rows)
    assert all(float(r["fair_share"]) == 0.5 and float(r["mean_points"]) > 0 for r in rows)
    assert (run_dir / "learning_curve.png").stat().st_size > 1000
    assert list((run_dir / "tb").rglob("events.out.tfevents.*"))
    info = json.loads((run_dir / "run.json").read_text())
    assert info["num_timesteps"] == 512 and info["seconds"] > 0
    assert [r["opponent"] for r in info["final_eval"]] == ["random", "value"]
    expected = [(p, name) for p in (2, 3) for name in BASARI_AGENTS]
    assert [(r["players"], r["opponent"]) for r in info["baselines"]] == expected
    report = json.loads((run_dir / "eval.json").read_text())
    assert report["eval"] == info["baselines"] and report["num_timesteps"] == 512
    bc = json.loads((run_dir / "bc.json").read_text())
    assert len(bc) == 1 and 0 < bc[0]["accuracy"] <= 1


def test_resume_continues_the_step_count(run_dir: Path) -> None:
    out = run_dir.parent / "resumed"
    argv = ["--resume", str(run_dir / "final.zip"), "--steps", "256", "--envs", "8"]
    argv += ["--eval-every", "100000", "--eval-games", "2", "--eval-opponents", "random"]
    argv += ["--final-games", "2", "--final-players", "2", "--out", str(out), "--no-progress"]
    assert basari_train.main(argv) == 0
    model = MaskablePPO.load(out / "final.zip", device="cpu")
    assert model.num_timesteps == 512 + 256
    assert model.n_steps == 32  # the checkpoint's hyper-parameters, not the defaults
    assert json.loads((out / "run.json").read_text())["num_timesteps"] == 768
    rows = list(csv.DictReader((out / "eval.csv").open()))
    assert [r["steps"] for r in rows] == ["768"]  # shorter than --eval-every: the end only
    assert getattr(model, TRAINED_PLAYERS) == 4  # the player count of the run that saved it


def test_the_same_seed_gives_the_same_run(tmp_path: Path) -> None:
    def once(name: str, seed: int) -> list[np.ndarray]:
        argv = [*TINY, "--steps", "256", "--seed", str(seed), "--out", str(tmp_path / name)]
        argv += ["--eval-every", "100000", "--eval-games", "2", "--eval-opponents", "value"]
        argv += ["--final-games", "2", "--final-players", "2", "--no-progress"]
        basari_train.main(argv)
        model = MaskablePPO.load(tmp_path / name / "final.zip", device="cpu")
        return [p.detach().numpy().copy() for p in model.policy.parameters()]

    a, b, c = once("a", 1), once("b", 1), once("c", 2)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_behaviour_cloning_learns_the_experts_choices() -> None:
    """Cloned on `value`'s decisions, the policy picks the expert's action on held-out
    decisions far more often than the untrained net and than a uniform legal choice."""
    config = BasariConfig(num_players=3)
    train_set = collect(config, "value", 24, seed=1, reward="rank")
    test_set = collect(config, "value", 8, seed=2, reward="rank")
    assert train_set.masks[:, 1:].any(axis=1).all()  # only real decisions (more than NOOP)
    assert train_set.masks[np.arange(len(train_set)), train_set.actions].all()
    assert ((train_set.outcomes >= -1) & (train_set.outcomes <= 1)).all()
    env = BasariVecEnv(4, BasariConfig(3), ("value",), seed=0)

    def accuracy(model: MaskablePPO) -> float:
        agent = PolicyAgent(model, seed=0)
        return float(
            (agent.act_batch(test_set.observations, test_set.masks) == test_set.actions).mean()
        )

    model = MaskablePPO("MlpPolicy", env, policy_kwargs=basari_train.policy_kwargs(), seed=0)
    before = accuracy(model)
    history = clone(model, train_set, epochs=6, seed=0)
    after = accuracy(model)
    chance = float((1 / test_set.masks.sum(axis=1)).mean())
    assert history[-1]["accuracy"] > history[0]["accuracy"]
    assert after > before + 0.1 and after > chance + 0.2, (before, chance, after)


def test_defaults_and_bad_flags() -> None:
    args = basari_train.parse_args([])
    assert args.players == 4 and args.opponents == (["value", "random"], [0.5, 0.5])
    assert args.final_players == [2, 3, 4] and args.final_games == 400
    assert args.learning_rate == basari_train.HYPER["learning_rate"]
    args = basari_train.parse_args(["--opponents", "value*0.7+points_first*0.3"])
    assert args.opponents == (["value", "points_first"], [0.7, 0.3])
    for bad in (
        ["--opponents", "towers"],
        ["--eval-opponents", "towers"],
        ["--final-players", "5"],
    ):
        with pytest.raises(SystemExit):
            basari_train.parse_args(bad)
