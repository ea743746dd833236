"""Training: the SB3 VecEnv over the core agrees with the AEC env (observations, masks,
rewards, resets), the policy agent, and a tiny training and evaluation run end to end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402

from agents.policy_agent import PolicyAgent  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from asara_env import asara_v0  # noqa: E402
from asara_env.asara.config import GameConfig  # noqa: E402
from asara_env.asara.core import derived_seed, terminal_rewards  # noqa: E402
from training.asara import train  # noqa: E402
from training.asara.imitation import collect  # noqa: E402
from training.asara.vec_env import AsaraVecEnv  # noqa: E402
from training.evaluation.asara import evaluate
from training.ppo.run import whole_rollouts  # noqa: E402


def opponents_move(env, learner: str, twin) -> None:
    while not all(env.terminations.values()) and env.agent_selection != learner:
        obs = env.observe(env.agent_selection)
        env.step(twin.act(obs["observation"], obs["action_mask"]))


@pytest.mark.parametrize(
    "players, reward, variant, expansions",
    [
        (2, "win", "basic", ()),
        (3, "rank", "basic", ()),
        (4, "margin", "basic", ()),
        (2, "win", "pro", ("genie", "gifts")),  # R9: the expansions pass through
    ],
)
def test_the_vec_env_plays_the_aec_games_of_its_seeds(players, reward, variant, expansions):
    """One game slot, three games in a row: the learner's observation, mask, reward, done
    and the next game's start agree with the AEC env driven by a twin opponent."""
    seed = 40 + players
    config = GameConfig(num_players=players, variant=variant, expansions=expansions)
    vec = AsaraVecEnv(1, config, ("towers",), reward=reward, seed=seed)
    assert vec.config is config  # the config given, whole
    assert vec.config.expansions == expansions
    twin, rng = make_agent("asara", "towers", seed), np.random.default_rng(seed)
    obs = vec.reset()
    for game in range(3):
        env = asara_v0.env(
            num_players=players, variant=variant, expansions=expansions, reward=reward
        )
        env.reset(seed=derived_seed(seed, game))
        learner = f"player_{vec.learner_seat[0]}"
        opponents_move(env, learner, twin)
        while True:
            mine = env.observe(learner)
            assert np.array_equal(obs[0], mine["observation"])
            assert np.array_equal(vec.action_masks()[0], mine["action_mask"].astype(bool))
            action = int(rng.choice(np.flatnonzero(mine["action_mask"])))
            stepped, rewards, dones, infos = vec.step(np.array([action]))
            assert isinstance(stepped, np.ndarray)  # a Box space: one array per slot
            obs = stepped
            env.step(action)
            opponents_move(env, learner, twin)
            if dones[0]:
                break
            assert rewards[0] == 0.0
        prestige = np.array([infos[0]["final_prestige"]])
        assert all(env.terminations.values())
        assert prestige[0].tolist() == [env.infos[a]["final_prestige"] for a in env.agents]
        seat = int(learner.split("_")[1])  # the slot has already started its next game
        want = terminal_rewards(prestige, reward)[0, seat]
        assert rewards[0] == pytest.approx(float(want))
        assert np.array_equal(infos[0]["terminal_observation"], env.observe(learner)["observation"])


def test_vec_env_masks_are_never_empty_and_rewards_come_only_at_the_end():
    vec = AsaraVecEnv(8, GameConfig(3, "pro"), ("greedy", "random"), seed=1)
    vec.reset()
    rng, finished = np.random.default_rng(1), 0
    for _ in range(150):
        masks = vec.action_masks()
        assert masks.any(axis=1).all()
        actions = np.argmax(np.where(masks, rng.random(masks.shape), -1), axis=1)
        _, rewards, dones, infos = vec.step(actions)
        assert (rewards[~dones] == 0).all()
        assert all("terminal_observation" in infos[i] for i in np.flatnonzero(dones))
        finished += dones.sum()
    assert finished > 10


def test_vec_env_rejects_bad_opponents():
    with pytest.raises(ValueError, match="unknown agent"):
        AsaraVecEnv(2, GameConfig(2, "basic"), ("alphago",))
    with pytest.raises(ValueError, match="weights"):
        AsaraVecEnv(2, GameConfig(2, "basic"), ("random",), opponent_weights=[-1.0])
    env = AsaraVecEnv(2, GameConfig(2, "basic"), ("random", "greedy"), opponent_weights=[1.0, 3.0])
    before = list(env.opponents)
    with pytest.raises(ValueError, match="weights"):
        env.set_opponents(["towers"], [1.0, 2.0])
    assert env.opponents == before  # refused weights change nothing
    assert np.allclose(env.opponent_weights, [0.25, 0.75])


def test_a_tiny_training_run_produces_a_loadable_model_that_plays_legally(tmp_path):
    out = tmp_path / "run"
    argv = [
        "--steps",
        "1024",
        "--envs",
        "8",
        "--n-steps",
        "64",
        "--batch-size",
        "256",
        "--eval-every",
        "512",
        "--eval-games",
        "4",
        "--checkpoint-every",
        "512",
        "--bc-expert",
        "towers",
        "--bc-games",
        "4",
        "--bc-epochs",
        "1",
        "--snapshot-every",
        "512",
        "--out",
        str(out),
        "--no-progress",
    ]
    train.main(argv)
    for name in ("final.zip", "eval.csv", "learning_curve.png", "run.json", "bc.json"):
        assert (out / name).exists(), name
    assert list((out / "checkpoints").glob("*.zip"))
    model = MaskablePPO.load(out / "final.zip", device="cpu")
    rows = evaluate.evaluate(model, 2, "basic", 4, ["random"], seed=0)
    assert rows[0]["games"] == 4 and 0.0 <= rows[0]["win_rate"] <= 1.0
    curve = (out / "eval.csv").read_text().splitlines()[0].split(",")
    assert curve == [
        *rows[0],
        "steps",
        "settings",
    ]  # the evaluation's rows, one format for every game
    resumed = out / "resumed"
    train.main(
        [
            "--resume",
            str(out / "final.zip"),
            "--steps",
            "512",
            "--envs",
            "8",
            "--eval-every",
            "100000",
            "--eval-games",
            "2",
            "--out",
            str(resumed),
            "--no-progress",
        ]
    )
    assert MaskablePPO.load(resumed / "final.zip").num_timesteps >= 1024 + 512


class RecordedBar:
    """Stands in for SB3's progress bar (tqdm.rich): records its total and its count."""

    made: list[RecordedBar] = []

    def __init__(self, total: int) -> None:
        self.total, self.n = total, 0
        RecordedBar.made.append(self)

    def update(self, n: int) -> None:
        self.n += n

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    "asked, rollout, run", [(20_000, 2_048, 20_480), (2_048, 2_048, 2_048), (1, 64, 64)]
)
def test_steps_are_rounded_up_to_whole_rollouts(asked, rollout, run):
    assert whole_rollouts(asked, rollout) == run


def test_the_progress_bar_counts_to_the_steps_that_run_and_says_so(tmp_path, monkeypatch, capsys):
    """PPO collects whole rollouts (n-steps x envs): 100 steps asked run 128. SB3's own
    progress bar counts to the steps the run makes, which the run says once."""
    import stable_baselines3.common.callbacks as sb3_callbacks

    monkeypatch.setattr(sb3_callbacks, "tqdm", RecordedBar)
    RecordedBar.made.clear()
    out = tmp_path / "run"
    argv = ["--steps", "100", "--envs", "2", "--n-steps", "32", "--batch-size", "64"]
    argv += ["--bc-expert", "none", "--eval-games", "2", "--out", str(out)]
    train.main(argv)
    (bar,) = RecordedBar.made
    assert bar.total == bar.n == 128
    printed = capsys.readouterr().out
    assert (
        printed.count("100 steps asked, 128 run: whole rollouts of 64 (--n-steps 32 x --envs 2)")
        == 1
    )
    assert "done: 128 learner steps" in printed
    assert json.loads((out / "run.json").read_text())["learner_steps"] == 128


def test_the_policy_agent_plays_only_legal_actions_batched_as_single():
    vec = AsaraVecEnv(8, GameConfig(2, "basic"), ("random",), seed=2)
    model = MaskablePPO("MlpPolicy", vec, seed=0, device="cpu")
    obs = vec.reset()
    masks = vec.action_masks()
    for deterministic in (True, False):
        batched = PolicyAgent(model, 3, deterministic).act_batch(obs, masks)
        single = PolicyAgent(model, 3, deterministic)
        assert batched.tolist() == [single.act(o, m) for o, m in zip(obs, masks)]
        assert masks[np.arange(8), batched].all()


def test_vec_env_resets_continue_the_game_sequence_unless_seeded():
    vec = AsaraVecEnv(4, GameConfig(2, "basic"), ("random",), seed=9)
    first = vec.reset().copy()
    seeds = vec.core.seed.copy()
    vec.reset()
    assert not np.array_equal(vec.core.seed, seeds)  # new games
    vec.seed(9)
    assert np.array_equal(vec.reset(), first) and np.array_equal(vec.core.seed, seeds)
    assert vec.core.seed.tolist() == [derived_seed(9, g) for g in range(4)]


def test_behaviour_cloning_samples_are_the_experts_decisions():
    """ASARA's samples through the shared `collect`: every decision of the mover, legal,
    the outcomes the mover's terminal reward; seeded."""
    config = GameConfig(num_players=3)
    samples = collect(config, "towers", 3, seed=5, reward="rank", batch=2)
    assert len(samples) > 100 and samples.observations.dtype == np.float32
    assert samples.masks[np.arange(len(samples)), samples.actions].all()
    assert ((samples.outcomes >= -1) & (samples.outcomes <= 1)).all()
    again = collect(config, "towers", 3, seed=5, reward="rank", batch=2)
    assert all(np.array_equal(x, y) for x, y in zip(vars(again).values(), vars(samples).values()))


README = str(Path(__file__).resolve().parents[2] / "README.md")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--envs", "0"], "--envs: must be at least 1"),
        (["--steps", "-5"], "--steps: must be at least 1"),
        (["--seed", "-1"], "--seed: must be a non-negative int"),
        (["--opponents", "towers*-1"], "gives 'towers' the weight -1; weights must be > 0"),
        (["--opponents", "towers*0+tall"], "gives 'towers' the weight 0"),
        (["--opponents", "towers*abc"], "--opponents: must be a number, got 'abc'"),
        (["--opponents", "towers+towers"], "names 'towers' twice"),
        (["--opponents", "alphago"], "--opponents: names 'alphago' in 'alphago'; the names:"),
        (["--opponents", "towers:0.5,tall:0.5"], "names 'towers:0.5,tall:0.5' in"),
        (["--learning-rate", "-0.1"], "--learning-rate: must be a number > 0 and <= 1"),
        (["--n-steps", "0"], "--n-steps: must be at least 1"),
        (["--resume", "nonexist.zip"], "--resume: no file at nonexist.zip"),
        (["--resume", README], "is not a saved MaskablePPO model"),
        (["--eval-opponents", "nobody"], "--eval-opponents: unknown agents ['nobody']"),
        (["--expansions", "genie"], "professional variant"),
    ],
)
def test_bad_flags_are_one_line_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        train.parse_args(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err.strip().splitlines()[-1]


def test_the_evaluation_curve_may_be_against_a_shipped_model():
    args = train.parse_args(["--eval-opponents", "ppo_2p,towers"])
    assert args.eval_opponents == ["ppo_2p", "towers"]
