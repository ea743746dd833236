"""One round of expert iteration (training/asara/expert_iteration.py) on a tiny run: the
targets are the search's root visits over legal actions, the outcomes the movers' win
rewards, and distillation lowers the network's cross-entropy to the targets."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from asara_env.asara.config import GameConfig

pytest.importorskip("sb3_contrib")

from training.asara import expert_iteration as xit  # noqa: E402

SIMS = 6
TINY = f"ismcts:{SIMS}:prior=ppo_2p:value=net:wave={SIMS}"  # a cheap guided search
GAMES, SEED = 2, 5


@pytest.fixture(scope="module")
def targets() -> xit.Targets:
    return xit.self_play(GameConfig(num_players=2), TINY, GAMES, SEED, batch=GAMES)


def test_targets_are_root_visits_over_legal_actions(targets):
    assert len(targets) > 0 and set(targets.games.tolist()) == set(range(GAMES))
    assert (targets.visits[~targets.masks] == 0).all()
    searched = targets.masks.sum(axis=1) > 1
    # every iteration of a search descends through exactly one root edge
    assert (targets.visits[searched].sum(axis=1) == SIMS).all()
    assert (targets.visits[~searched].sum(axis=1) == 1).all()
    pi = xit.visit_distribution(targets.visits)
    assert np.allclose(pi.sum(axis=1), 1.0) and (pi[~targets.masks] == 0).all()


def test_outcomes_are_win_rewards_shared_by_a_games_positions(targets):
    assert set(np.unique(targets.outcomes).tolist()) <= {-1.0, 0.0, 1.0}
    for g in range(GAMES):
        outcomes = set(targets.outcomes[targets.games == g].tolist())
        assert 1 <= len(outcomes) <= 2  # the winner's and the loser's (or one tie)


def test_self_play_is_deterministic_given_its_seed():
    first, again = (xit.self_play(GameConfig(num_players=2), TINY, 1, SEED + 1) for _ in "ab")
    assert np.array_equal(first.visits, again.visits)
    assert np.array_equal(first.observations, again.observations)


def test_pruned_targets_drop_the_roots_single_tries():
    visits = np.array([[5.0, 1.0, 2.0, 0.0], [1.0, 1.0, 0.0, 0.0]])
    assert np.allclose(xit.visit_distribution(visits), [[5 / 8, 1 / 8, 2 / 8, 0], [0.5, 0.5, 0, 0]])
    assert np.allclose(
        xit.visit_distribution(visits, prune=True), [[5 / 6, 0, 1 / 6, 0], [0.5, 0.5, 0, 0]]
    )


def test_distillation_lowers_the_cross_entropy_to_the_targets(targets):
    model = xit.load_model("ppo_2p")
    history = xit.distil(model, targets, targets.take(np.arange(0)), epochs=3, lr=1e-4)
    assert [row["epoch"] for row in history] == [0, 1, 2, 3]
    first, last = history[0], history[-1]
    assert last["train_cross_entropy"] < first["train_cross_entropy"]
    assert last["train_value_mse"] < first["train_value_mse"]
    assert np.isnan(last["held_cross_entropy"])
    untouched = xit.scores(xit.load_model("ppo_2p").policy, targets)
    assert untouched["cross_entropy"] == pytest.approx(first["train_cross_entropy"], rel=1e-5)


def test_command_writes_its_outputs_and_refuses_to_overwrite(targets, tmp_path: Path):
    saved = tmp_path / "saved.npz"
    targets.save(saved)
    out = tmp_path / "run"
    argv = ["--targets", str(saved), "--epochs", "1", "--holdout", "0.5", "--out", str(out)]
    report = xit.main(argv)
    assert {p.name for p in out.iterdir()} == {xit.TARGETS, xit.DISTILLED, xit.REPORT, "run.json"}
    assert json.loads((out / xit.REPORT).read_text())["history"] == report["history"]
    assert report["train_positions"] + report["held_positions"] == len(targets)
    assert report["held_positions"] > 0
    reloaded = xit.Targets.load(out / xit.TARGETS)
    assert np.array_equal(reloaded.visits, targets.visits)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert xit.main(argv) == report  # the same command: the finished run, nothing redone
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    with pytest.raises(SystemExit) as exc:
        xit.main([*argv[:3], "2", *argv[4:]])  # other settings
    assert exc.value.code == 2
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    xit.main([*argv[:3], "2", *argv[4:], "--force"])
    assert (tmp_path / "run.old-1" / xit.DISTILLED).is_file()


def test_an_interrupted_self_play_keeps_its_batches_and_the_same_command_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    argv = ["--expert", TINY, "--games", "2", "--batch", "1", "--seed", str(SEED)]
    argv += ["--epochs", "1", "--holdout", "0", "--out", str(out)]
    played: list[int] = []
    real = xit._play

    def play_once(*args: object) -> xit.Targets:
        if played:
            raise KeyboardInterrupt  # Ctrl-C during the second game
        played.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(xit, "_play", play_once)
    with pytest.raises(SystemExit) as exc:
        xit.main(argv)
    assert exc.value.code == 130
    err = capsys.readouterr().err
    assert f"1 of 2 self-play games are kept in {out / xit.SELF_PLAY}" in err
    assert [p.name for p in (out / xit.SELF_PLAY).iterdir()] == ["games-0-0.npz"]
    resumed_games = []

    def count(game: object, agent: object, index: np.ndarray, seeds: np.ndarray) -> xit.Targets:
        resumed_games.extend(index.tolist())
        return real(game, agent, index, seeds)  # type: ignore[arg-type]

    monkeypatch.setattr(xit, "_play", count)
    xit.main(argv)
    assert resumed_games == [1]  # only the game not kept
    whole = xit.self_play(GameConfig(num_players=2), TINY, 2, SEED, batch=1)
    assert np.array_equal(xit.Targets.load(out / xit.TARGETS).visits, whole.visits)
