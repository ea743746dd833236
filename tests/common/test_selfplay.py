"""The self-play trainer (training/selfplay/): its targets, replay buffer, learner and
network, and the command end to end on small runs (the "prior" control instead of a
search, the numpy core: a few CPU-seconds each): iterations that run, checkpoints, a
resume that continues bit for bit, Ctrl-C that keeps the finished iterations, refusals."""

from __future__ import annotations

import csv
import json
import os
import signal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from agents.models import STRONGEST  # noqa: E402
from training.basari.selfplay import SPEC as BASARI  # noqa: E402
from training.selfplay import cli  # noqa: E402
from training.selfplay.buffer import (  # noqa: E402
    Positions,
    ReplayBuffer,
    check_policies,
    relative_outcomes,
)
from training.selfplay.learner import Learner, LearnerSettings, losses  # noqa: E402
from training.selfplay.network import new_model, scheme_total, seat_policy  # noqa: E402
from training.selfplay.search import improved_policy  # noqa: E402
from training.selfplay.searchspec import legacy_spec, read_search  # noqa: E402
from training.selfplay.workers import blocks  # noqa: E402

SMALL = [
    "--players", "2", "--search", "prior", "--backend", "numpy", "--start", "scratch",
    "--games", "2", "--updates", "2", "--batch-size", "16", "--eval-games", "2",
    "--eval-every", "2", "--checkpoint-every", "1", "--no-progress",
]  # fmt: skip


def positions(n: int, rng: np.random.Generator, size: int = 5, actions: int = 4) -> Positions:
    masks = rng.random((n, actions)) < 0.6
    masks[:, 0] = True
    policies = np.where(masks, rng.random((n, actions)), 0).astype(np.float32)
    policies /= policies.sum(axis=1, keepdims=True)
    return Positions(
        rng.random((n, size)).astype(np.float32),
        masks,
        policies,
        rng.random((n, 2)).astype(np.float32),
        np.arange(n, dtype=np.int64),
        np.ones(n, bool),
    )


# ---------------------------------------------------------------------- targets, buffer
def test_relative_outcomes_put_the_deciding_seat_first():
    rewards = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    out = relative_outcomes(rewards, np.array([0, 1, 1]), np.array([0, 2, 1]))
    assert out.tolist() == [[1, 2, 3], [6, 4, 5], [5, 6, 4]]


def test_a_policy_off_its_mask_or_not_summing_to_one_is_refused():
    masks = np.array([[True, False], [True, True]])
    check_policies(np.array([[1.0, 0.0], [0.5, 0.5]]), masks)
    with pytest.raises(ValueError, match="does not allow"):
        check_policies(np.array([[0.5, 0.5], [0.5, 0.5]]), masks)
    with pytest.raises(ValueError, match="sum to 1"):
        check_policies(np.array([[1.0, 0.0], [0.5, 0.4]]), masks)


def test_the_buffer_keeps_the_newest_positions_and_saves_them(tmp_path: Path):
    rng = np.random.default_rng(0)
    buffer = ReplayBuffer(10, 5, 4, 2)
    first, second = positions(6, rng), positions(7, rng)
    buffer.add(first)
    buffer.add(second)
    assert len(buffer) == 10 and buffer.added == 13
    assert np.array_equal(buffer.data.observations[-7:], second.observations)
    assert np.array_equal(buffer.data.observations[:3], first.observations[3:])
    buffer.save(tmp_path / "b.npz")
    again = ReplayBuffer(10, 5, 4, 2)
    again.load(tmp_path / "b.npz")
    assert again.added == 13
    assert np.array_equal(again.data.policies, buffer.data.policies)
    a, b = buffer.sample(np.random.default_rng(3), 8), again.sample(np.random.default_rng(3), 8)
    assert np.array_equal(a.outcomes, b.outcomes)


def test_blocks_split_the_games_in_order():
    parts = blocks(7, 3)
    assert [p.tolist() for p in parts] == [[0, 1, 2], [3, 4], [5, 6]]
    assert [p.tolist() for p in blocks(1, 3)] == [[0]]


# ---------------------------------------------------------------------- network, learner
def test_the_learner_fits_the_improved_policy_and_the_seat_values():
    rng = np.random.default_rng(1)
    model = new_model(5, 4, 2, seed=0)
    policy = seat_policy(model)
    buffer = ReplayBuffer(64, 5, 4, 2)
    buffer.add(positions(64, rng))
    before = [x.item() for x in losses(policy, buffer.data)]
    learner = Learner(policy, LearnerSettings(200, 64, 3e-3, 1.0, 0.0))
    learner.update(buffer, np.random.default_rng(2))
    after = [x.item() for x in losses(policy, buffer.data)]
    assert after[0] < before[0] - 0.05 and after[1] < before[1] / 2
    assert policy.seat_values(torch.zeros(3, 5)).shape == (3, 2)


def test_a_network_from_a_shipped_model_plays_and_values_as_it_did():
    from agents.models import _load, model_path
    from asara_env.games import reward_schemes

    path = model_path("basari", "ppo_2p")
    total = scheme_total(reward_schemes("basari")["win"], 2)
    assert total == 1.0  # BASARI's win shares sum to 1
    assert scheme_total(reward_schemes("asara")["win"], 3) == 0.0  # ASARA's win is zero-sum
    size, actions = BASARI.sizes(BASARI.config(cli.build_parser(BASARI).parse_args([])))
    model = new_model(size, actions, 2, 0, path, total)
    old = _load(path)
    obs = torch.as_tensor(np.random.default_rng(0).random((6, size)).astype(np.float32))
    with torch.no_grad():
        dist: Any = old.policy.get_distribution(obs).distribution
        want = dist.logits
        got = torch.log_softmax(seat_policy(model).logits(obs), 1)
        value = old.policy.predict_values(obs)[:, 0]
        seats = seat_policy(model).seat_values(obs)
    assert torch.allclose(want, got, atol=1e-5)
    assert torch.allclose(seats[:, 0], value, atol=1e-6)
    assert torch.allclose(seats.sum(1), torch.ones(6), atol=1e-5)  # (1 - v) for the other seat


def test_a_network_of_another_game_is_refused():
    from agents.models import model_path

    with pytest.raises(ValueError, match="another game"):
        new_model(364, 39, 2, 0, model_path("asara", "ppo_2p"))


# ---------------------------------------------------------------------- the command
def train(argv: list[str]) -> None:
    cli.main_of(BASARI, argv)


def weights(path: Path) -> dict[str, torch.Tensor]:
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(path, device="cpu").policy.state_dict()


def rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.open()))


def test_a_small_run_plays_learns_checkpoints_and_evaluates(tmp_path: Path):
    out = tmp_path / "r"
    train([*SMALL, "--iterations", "2", "--out", str(out)])
    progress = rows(out / "progress.csv")
    assert [r["iteration"] for r in progress] == ["1", "2"]
    assert all(int(r["positions"]) > 20 for r in progress)
    assert int(progress[1]["buffer"]) == sum(int(r["positions"]) for r in progress)
    evals = rows(out / "eval.csv")
    assert {(r["iteration"], r["opponent"]) for r in evals} == {
        (i, o) for i in ("0", "2") for o in (STRONGEST["basari"][2], "value")
    }
    record = json.loads((out / "run.json").read_text())
    assert record["settings"]["search"] == "prior" and record["counters"]["iteration"] == 2
    assert sorted(p.name for p in (out / "checkpoints").iterdir()) == [
        "iter-000001",
        "iter-000002",
    ]
    assert (out / "learning_curve.png").stat().st_size > 0 and (out / "tb").is_dir()


def test_a_resumed_run_continues_bit_for_bit(tmp_path: Path):
    straight, split = tmp_path / "straight", tmp_path / "split"
    train([*SMALL, "--iterations", "3", "--out", str(straight)])
    train([*SMALL, "--iterations", "2", "--out", str(split)])
    train(["--resume", str(split), "--iterations", "1", "--no-progress"])
    a, b = weights(straight / "model.zip"), weights(split / "model.zip")
    assert all(torch.equal(a[k], b[k]) for k in a)
    keys = ("iteration", "positions", "buffer", "policy_loss", "value_loss")
    assert [[r[k] for k in keys] for r in rows(straight / "progress.csv")] == [
        [r[k] for k in keys] for r in rows(split / "progress.csv")
    ]
    assert straight.joinpath("eval.csv").read_text().count("\n") == split.joinpath(
        "eval.csv"
    ).read_text().count("\n")


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_ctrl_c_keeps_the_finished_iterations(how: str, tmp_path: Path, monkeypatch):
    from commandline.command import Interrupted

    out = tmp_path / "r"
    real = Learner.update
    calls = []

    def update(self, buffer, rng):  # the second iteration's learner is interrupted
        calls.append(1)
        if len(calls) == 2 and how == "ctrl-c":
            raise KeyboardInterrupt
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGTERM)  # handled as Ctrl-C
        return real(self, buffer, rng)

    monkeypatch.setattr(Learner, "update", update)
    with pytest.raises(Interrupted, match="after iteration 1 .* --resume"):
        train([*SMALL, "--iterations", "3", "--out", str(out)])
    assert [p.name for p in (out / "checkpoints").iterdir()] == ["iter-000001"]
    saved = json.loads((out / "checkpoints" / "iter-000001" / "counters.json").read_text())
    kept = ReplayBuffer(10_000, 1, 1, 2)
    kept.load(out / "checkpoints" / "iter-000001" / "buffer.npz")
    assert saved["iteration"] == 1 and len(kept) == saved["positions"]  # rolled back


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--start", "nothing.zip"], "argument --start: nothing.zip is neither"),
        (["--search", "gumbel:0"], "argument --search: option sims='0' must be between"),
        (["--eval-opponents", "chess"], "argument --eval-opponents: unknown agent 'chess'"),
        (["--eval-opponents", "value,flatmc:sims=abc"], "option 'sims' must be an integer"),
        (["--eval-opponents", "policy:model=missing.zip"], "option 'model' names no file"),
        (["--reward", "money"], "argument --reward: invalid choice"),
        (["--search", "gumbel:8:playout=chess:value=win"], "playout must be one of"),
        (["--search", "gumbel:8:c_scale=0"], "option c_scale='0' must be between"),
        (["--search", "gumbel:8:opponents=random"], "gumbel takes no option 'opponents'"),
        (["--search", "gumbel:8:prior=ppo_2p"], "self-play's prior is the network it trains"),
        (["--search", "chess:8"], "search 'chess' is not one of"),
        (["--search", "gumbel:8:full=0.25"], "full=P below 1 needs fast=N"),
        (["--search", "flatmc:8:opponents=random+chess"], "names 'chess' in"),
        (["--search", "flatmc:8:opponents=random*0"], "weights must be > 0"),
        (["--search", "flatmc:8:value=money"], "option value='money'"),
        (["--search", "gumbel:8:value=margin"], "the Gumbel root reads win shares"),
        (["--start", "ppo_2p", "--hidden", "64"], "argument --hidden: sizes a network started"),
    ],
)
def test_bad_options_are_one_line_and_status_2(argv, message, tmp_path: Path, capsys):
    with pytest.raises(SystemExit) as e:
        train([*SMALL, *argv, "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err.strip()
    assert e.value.code == 2 and len(err.splitlines()) == 1 and message in err
    assert not (tmp_path / "r").exists()


def test_a_model_of_another_game_is_refused_at_parse_time(tmp_path: Path, capsys):
    from agents.models import model_path

    with pytest.raises(SystemExit) as e:
        train([*SMALL, "--start", str(model_path("asara", "ppo_2p")), "--out", str(tmp_path)])
    assert (
        e.value.code == 2 and "not a saved MaskablePPO model of basari" in capsys.readouterr().err
    )


def test_a_folder_holding_a_run_is_refused_unless_resumed_or_forced(tmp_path: Path, capsys):
    out = tmp_path / "r"
    train([*SMALL, "--iterations", "1", "--out", str(out)])
    with pytest.raises(SystemExit) as e:
        train([*SMALL, "--iterations", "1", "--out", str(out)])
    assert e.value.code == 2 and "already holds a self-play run" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        train(["--resume", str(out), "--search", "gumbel:8", "--no-progress"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and 'search "prior" -> "gumbel:8"' in err
    with pytest.raises(SystemExit) as e:
        train(["--resume", str(tmp_path / "empty"), "--no-progress"])
    assert e.value.code == 2 and "holds no self-play run" in capsys.readouterr().err
    train([*SMALL, "--iterations", "1", "--out", str(out), "--force"])
    assert (tmp_path / "r.old-1" / "model.zip").is_file() and (out / "model.zip").is_file()


# ---------------------------------------------------------------------- Ray
@pytest.mark.slow
def test_two_ray_workers_play_the_games_of_an_iteration(tmp_path: Path):
    """On a local Ray instance (2 CPUs): the same run twice gives the same network."""
    pytest.importorskip("ray")
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        first, second = tmp_path / "a", tmp_path / "b"
        for out in (first, second):
            train([*SMALL, "--iterations", "2", "--ray", "--workers", "2", "--out", str(out)])
        a, b = weights(first / "model.zip"), weights(second / "model.zip")
        assert all(torch.equal(a[k], b[k]) for k in a)
        assert [r["positions"] for r in rows(first / "progress.csv")] == [
            r["positions"] for r in rows(second / "progress.csv")
        ]
    finally:
        ray.shutdown()


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("ASARA_RAY_ADDRESS"), reason="needs a Ray cluster: ASARA_RAY_ADDRESS"
)
def test_a_run_on_a_ray_cluster_plays_on_every_node(tmp_path: Path):
    """On the cluster at ASARA_RAY_ADDRESS (docs/training.md: a head and a second node,
    one CPU each): one worker per CPU, and the workers land on every node."""
    pytest.importorskip("ray")
    import ray

    address = os.environ["ASARA_RAY_ADDRESS"]
    ray.init(address=address, log_to_driver=False)
    try:
        nodes = len([n for n in ray.nodes() if n["Alive"]])
        cpus = int(ray.cluster_resources()["CPU"])
        out = tmp_path / "r"
        train(
            [
                *SMALL,
                "--iterations",
                "1",
                "--address",
                address,
                "--workers",
                str(cpus),
                "--out",
                str(out),
            ]
        )
        record = json.loads((out / "run.json").read_text())
        assert nodes >= 2 and record["ray_nodes"] == nodes
        assert int(rows(out / "progress.csv")[0]["positions"]) > 20
    finally:
        ray.shutdown()


def test_the_comparison_puts_both_trainers_on_cpu_hours(tmp_path: Path, capsys):
    from training.selfplay import compare

    sp, ppo = tmp_path / "sp", tmp_path / "ppo"
    sp.mkdir()
    ppo.mkdir()
    head = "opponent,win_rate,ci_low,ci_high"
    (sp / "eval.csv").write_text(
        f"iteration,cpu_hours,{head}\n0,0.0,towers,0.9,0.8,0.95\n4,0.5,towers,0.92,0.85,0.96\n"
    )
    (ppo / "eval.csv").write_text(
        f"steps,{head}\n0,towers,0.1,0.05,0.2\n50,towers,0.3,0.2,0.4\n100,towers,0.5,0.4,0.6\n"
    )
    assert compare.ppo_points(ppo, "towers", 2.0)[1][0] == 1.0
    assert compare.selfplay_points(sp, "towers")[1][:2] == (0.5, 0.92)
    out = tmp_path / "c.png"
    argv = [
        "--selfplay",
        str(sp),
        "--ppo",
        str(ppo),
        "--ppo-cpu-hours",
        "2",
        "--opponent",
        "towers",
    ]
    assert compare.main([*argv, "--out", str(out)]) == 0 and out.stat().st_size > 0
    with pytest.raises(SystemExit) as e:
        compare.main([*argv, "--out", str(out)])
    assert e.value.code == 2 and "exists: --force" in capsys.readouterr().err


def test_the_search_reads_values_on_the_win_share_scale():
    from asara_env.games import reward_schemes
    from training.selfplay.search import share_map

    asara, basari = reward_schemes("asara"), reward_schemes("basari")
    two, four = share_map(asara["win"], 2), share_map(asara["win"], 4)
    assert two is not None and four is not None
    a, b = two  # zero-sum: +1 / -1
    assert (a * 1 + b, a * -1 + b) == pytest.approx((1.0, 0.0), abs=1e-6)
    a, b = four  # +1 / -1/3
    assert (a * 1 + b, a * (-1 / 3) + b) == pytest.approx((1.0, 0.0), abs=1e-6)
    assert share_map(basari["win"], 3) == pytest.approx((1.0, 0.0), abs=1e-6)  # win shares already
    assert share_map(asara["margin"], 2) is None and share_map(basari["rank"], 4) is None


def test_a_reward_the_search_cannot_read_is_refused(tmp_path: Path, capsys):
    argv = [*SMALL, "--search", "gumbel:8:prior=self:value=net", "--players", "3"]
    argv += ["--reward", "rank"]
    with pytest.raises(SystemExit) as e:
        train([*argv, "--out", str(tmp_path / "r")])
    assert e.value.code == 2 and "argument --reward" in capsys.readouterr().err


def test_a_reward_the_search_does_not_read_is_allowed_with_playout_leaves(tmp_path: Path):
    argv = [*SMALL, "--players", "3", "--reward", "rank", "--out", str(tmp_path / "r")]
    args = cli.parse_args(BASARI, [*argv, "--search", "gumbel:8:prior=self:playout=random"])
    assert args.reward == "rank" and read_search(args.search, ("win",)).leaf == "playout"


def test_an_iteration_with_the_gumbel_search_from_the_shipped_model(tmp_path: Path):
    """The real search at a tiny budget: every searched target a distribution over its
    mask, and the learner's first loss finite."""
    out = tmp_path / "r"
    argv = [a for a in SMALL if a not in ("--start", "scratch")]  # from the strongest model
    train(
        [*argv, "--search", "gumbel:8:prior=self:value=net", "--iterations", "1", "--out", str(out)]
    )
    kept = ReplayBuffer(100_000, 1, 1, 2)
    kept.load(out / "checkpoints" / "iter-000001" / "buffer.npz")
    searched = kept.data.masks.sum(axis=1) > 1
    assert searched.sum() > 20
    check_policies(kept.data.policies, kept.data.masks)
    assert np.isfinite(float(rows(out / "progress.csv")[0]["policy_loss"]))
    assert set(np.unique(kept.data.outcomes.sum(axis=1))) <= {1.0}  # BASARI's win shares


def test_an_iteration_whose_search_scores_leaves_by_playouts(tmp_path: Path):
    """playout=: the Gumbel root over playouts of a fixed policy (random here), its
    targets distributions over their masks, recorded in the run's settings."""
    out = tmp_path / "r"
    spec = "gumbel:8:prior=self:playout=random"
    train([*SMALL, "--search", spec, "--iterations", "1", "--out", str(out)])
    kept = ReplayBuffer(100_000, 1, 1, 2)
    kept.load(out / "checkpoints" / "iter-000001" / "buffer.npz")
    assert (kept.data.masks.sum(axis=1) > 1).sum() > 20
    check_policies(kept.data.policies, kept.data.masks)
    recorded = json.loads((out / "run.json").read_text())
    assert recorded["settings"]["search"] == spec


def test_a_search_spec_is_read_and_an_old_runs_flags_become_one():
    schemes = ("win", "margin")
    default = read_search("gumbel:32:prior=self:value=net", schemes)
    assert (default.search, default.simulations, default.leaf, default.full) == (
        "gumbel",
        32,
        "net",
        1.0,
    )
    flat = read_search("flatmc:8:playout=value:value=margin:opponents=value*2+random", schemes)
    assert (flat.search, flat.leaf, flat.search_reward, flat.playout) == (
        "flat",
        "playout",
        "margin",
        "value",
    )
    playouts = read_search("gumbel:32:prior=self:playout=random", schemes)
    assert (playouts.leaf, playouts.playout) == ("playout", "random")
    capped = read_search("gumbel:32:prior=self:value=net:full=0.25:fast=8", schemes)
    assert (capped.full, capped.fast) == (0.25, 8)
    old = {"search": "flat", "simulations": 8, "playout": "value", "playout_mix": "random=2,value"}
    assert legacy_spec({**old, "search_reward": "margin", "flat_target": "best"}) == (
        "flatmc:8:playout=value:value=margin:opponents=random*2+value:target=best"
    )
    assert legacy_spec({"search": "gumbel", "simulations": 32, "leaf": "net"}) == (
        "gumbel:32:prior=self:value=net"
    )
    assert legacy_spec({"search": "gumbel:32"}) is None


def test_flat_monte_carlo_against_a_mixture_trains_and_records_it(tmp_path: Path):
    out = tmp_path / "r"
    spec = "flatmc:8:opponents=random*2+value"
    train([*SMALL, "--search", spec, "--iterations", "1", "--out", str(out)])
    kept = ReplayBuffer(100_000, 1, 1, 2)
    kept.load(out / "checkpoints" / "iter-000001" / "buffer.npz")
    searched = kept.data.masks.sum(axis=1) > 1
    assert searched.sum() > 20
    check_policies(kept.data.policies, kept.data.masks)
    assert (kept.data.policies[searched].max(axis=1) < 1.0).all()  # improved, not one-hot
    recorded = json.loads((out / "run.json").read_text())
    assert recorded["settings"]["search"] == spec


def test_an_iteration_of_flat_monte_carlo_targets_its_chosen_actions(tmp_path: Path):
    """flatmc:...:target=best: every searched target one-hot (the flat search's choice)."""
    out = tmp_path / "r"
    spec = "flatmc:8:playout=random:target=best"
    train([*SMALL, "--search", spec, "--iterations", "1", "--out", str(out)])
    kept = ReplayBuffer(100_000, 1, 1, 2)
    kept.load(out / "checkpoints" / "iter-000001" / "buffer.npz")
    searched = kept.data.masks.sum(axis=1) > 1
    assert searched.sum() > 20
    check_policies(kept.data.policies, kept.data.masks)
    assert (kept.data.policies[searched].max(axis=1) == 1.0).all()


def test_the_improved_policy_moves_the_prior_by_the_searchs_q():
    """softmax(logits + (C_VISIT + n) * c_scale * q) over the legal actions: equal q keep
    the prior; a q higher by d multiplies an action's odds by exp((50 + n) * c_scale * d);
    a row of rewards outside [0, 1] is rescaled over its legal actions first."""
    logits = np.log(np.array([[0.5, 0.3, 0.2, 0.1]] * 3))
    masks = np.array([[True, True, True, False]] * 3)
    q = np.array([[0.5, 0.5, 0.5, np.nan], [0.5, 0.5, 0.7, np.nan], [-10.0, 0.0, 10.0, 99]])
    p = improved_policy(logits, masks, q, np.array([10.0, 10.0, 10.0]), 0.1)
    assert np.allclose(p[0], [0.5, 0.3, 0.2, 0.0], atol=1e-6)
    assert np.isclose(p[1, 2] / p[1, 0], 0.2 / 0.5 * np.exp(6.0 * 0.2), rtol=1e-5)
    assert np.isclose(p[1, 1] / p[1, 0], 0.3 / 0.5, rtol=1e-5) and p[1, 3] == 0
    rescaled = improved_policy(
        logits[:1], masks[:1], np.array([[0, 0.5, 1, 0]]), np.array([10.0]), 0.1
    )
    assert np.allclose(p[2], rescaled[0], atol=1e-6)
    assert np.allclose(p.sum(axis=1), 1, atol=1e-6)


def test_the_evaluator_gives_win_shares_in_seat_order_and_computes_only_what_is_read():
    """The seat head's outputs (+1 own, -1 the next seat) read through the win scheme's map
    (a=b=0.5): win shares 1 and 0, column k the seat k places after the observer; a head
    never read is never evaluated."""
    from training.selfplay.evaluator import NetEvaluator

    policy = seat_policy(new_model(5, 4, 2, seed=0, hidden=(8,)))
    with torch.no_grad():
        policy.value_net.weight.zero_()
        policy.value_net.bias.copy_(torch.tensor([1.0, -1.0]))
    evaluate = NetEvaluator(policy, 0.5, 0.5)
    _, values = evaluate(np.ones((3, 5), np.float32), np.ones((3, 4), bool))
    assert np.allclose(np.asarray(values), [[1.0, 0.0]] * 3)
    assert evaluate.evaluations == {"logits": 0, "values": 3}
    logits, _ = evaluate(np.ones((2, 5), np.float32), np.ones((2, 4), bool))
    assert np.asarray(logits, np.float64).shape == (2, 4)
    assert evaluate.evaluations == {"logits": 2, "values": 3}


def test_positions_without_a_policy_target_teach_only_the_value():
    rng = np.random.default_rng(4)
    batch = positions(16, rng)
    policy = seat_policy(new_model(5, 4, 2, seed=0, hidden=(8,)))
    ce, mse = losses(policy, batch)
    batch.targets[8:] = False
    batch.policies[8:] = batch.masks[8:] / batch.masks[8:].sum(axis=1, keepdims=True)
    ce_half, mse_half = losses(policy, batch)
    assert torch.isclose(mse, mse_half) and not torch.isclose(ce, ce_half)
    assert torch.isclose(ce_half, losses(policy, batch.take(np.arange(8)))[0])


def test_playout_cap_randomisation_marks_the_fast_searches(tmp_path: Path):
    """full=0.5:fast=2: about half of the searched positions carry a policy target."""
    out = tmp_path / "r"
    spec = "gumbel:8:prior=self:value=net:full=0.5:fast=2"
    train([*SMALL, "--search", spec, "--iterations", "1", "--out", str(out)])
    kept = ReplayBuffer(100_000, 1, 1, 2)
    kept.load(out / "checkpoints" / "iter-000001" / "buffer.npz")
    searched = kept.data.masks.sum(axis=1) > 1
    share = kept.data.targets[searched].mean()
    assert searched.sum() > 20 and 0.2 < share < 0.8
    assert kept.data.targets[~searched].all()


def test_a_run_from_scratch_defaults_to_a_cpu_sized_network_and_a_faster_rate(tmp_path: Path):
    scratch = cli.parse_args(BASARI, [*SMALL, "--out", str(tmp_path / "a")])
    assert (scratch.hidden, scratch.learning_rate) == ((128,), 1e-3)
    argv = [a for a in SMALL if a not in ("--start", "scratch")]
    shipped = cli.parse_args(BASARI, [*argv, "--out", str(tmp_path / "b")])
    assert (shipped.hidden, shipped.learning_rate) == (None, 1e-4)


def test_a_checkpoint_without_its_buffer_continues_with_an_empty_one(tmp_path: Path):
    out = tmp_path / "r"
    train([*SMALL, "--iterations", "1", "--out", str(out)])
    (out / "checkpoints" / "iter-000001" / "buffer.npz").unlink()
    train(["--resume", str(out), "--iterations", "1", "--no-progress"])
    progress = rows(out / "progress.csv")
    assert [r["iteration"] for r in progress] == ["1", "2"]
    assert progress[1]["buffer"] == progress[1]["positions"]  # refilled from empty


def test_a_run_recorded_with_the_older_search_flags_is_refused_naming_its_spec(
    tmp_path: Path, capsys
):
    out = tmp_path / "r"
    train([*SMALL, "--iterations", "1", "--out", str(out)])
    record = json.loads((out / "run.json").read_text())
    record["settings"] |= {"search": "prior", "simulations": 32, "leaf": "net"}
    (out / "run.json").write_text(json.dumps(record))
    with pytest.raises(SystemExit) as e:
        train(["--resume", str(out), "--iterations", "1", "--no-progress"])
    assert e.value.code == 2 and "--search 'prior' --change-settings" in capsys.readouterr().err
    again = ["--resume", str(out), "--search", "prior", "--change-settings", "--iterations", "1"]
    train([*again, "--no-progress"])
    assert [r["iteration"] for r in rows(out / "progress.csv")] == ["1", "2"]
