"""The tournament's chunks: fresh agents seeded per chunk, results independent of the other
chunks and of where they run (here, or as Ray tasks on a local instance) for ASARA and
BASARI, and a clear error without Ray."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from training.evaluation import tournament as T
from training.evaluation.asara import tournament as AT
from training.evaluation.basari import tournament as BT


def arrays(results: list[T.Played]) -> list[tuple[Any, ...]]:
    return [(r.players, r.seeds.tolist(), r.seating.tolist(), r.scores.tolist()) for r in results]


def test_each_chunk_is_played_by_fresh_agents_seeded_by_its_index():
    """A toy game whose agents are their seeds and whose seats score their agent's seed:
    every game shows which agents played it."""
    calls = []

    def play(players, agents, seating, seeds, bar, record):
        calls.append(len(seeds))
        return np.array([[agents[k] % 1000 for k in row] for row in seating], np.int64)

    toy = T.TournamentGame({"a", "b", "c"}, lambda name, seed: seed, play, (2, 3))
    (played,) = T.run_tournament(toy, ["a", "b", "c"], [3], 10, seed=4, chunk_size=5)
    assert calls == [5, 5, 2]  # 10 games rounded up to 12, chunks of 5
    for g, (row, score) in enumerate(zip(played.seating, played.scores)):
        expected = [T.sub_seed(4, 3, 1, int(k), g // 5) % 1000 for k in row]
        assert score.tolist() == expected


def test_a_chunk_does_not_depend_on_the_other_chunks_or_player_counts():
    names = ["random", "greedy"]
    both = T.run_tournament("asara", names, [2, 3], 4, seed=2, chunk_size=2)
    three = T.run_tournament("asara", names, [3], 4, seed=2, chunk_size=2)
    assert arrays(both[1:]) == arrays(three)
    (first_chunk,) = T.run_tournament("asara", names, [2], 2, seed=2, chunk_size=2)
    assert both[0].scores[:2].tolist() == first_chunk.scores.tolist()


def test_without_ray_use_ray_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(RuntimeError, match=r"need Ray.*pip install"):
        T.run_tournament("asara", ["random"], [2], 2, use_ray=True)
    for argv in (["--ray"], ["--address", "10.0.0.1:6379"]):
        with pytest.raises(SystemExit) as exc:
            BT.parse_args(argv)
        assert exc.value.code == 2
        assert "--ray / --address need Ray, which is not installed" in capsys.readouterr().err
    assert not AT.parse_args([]).ray  # local by default, Ray not imported


def test_a_local_tournament_does_not_import_ray():
    code = (
        "import sys; from training.evaluation.basari import tournament as BT; "
        "from training.evaluation import tournament as T; "
        "T.run_tournament('asara', ['random'], [2], 2); BT.tournament(['random'], [2], 2); "
        "print('ray' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


# ---------------------------------------------------------------------------- Ray
@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_plays_the_same_asara_games_as_a_local_run(local_ray):
    names = ["random", "greedy", "towers"]
    settings: dict[str, Any] = {"games": 5, "seed": 5, "chunk_size": 4}
    local = T.run_tournament("asara", names, [2, 3], **settings)
    remote = T.run_tournament("asara", names, [2, 3], **settings, use_ray=True)
    assert arrays(remote) == arrays(local)
    assert [len(T.chunks(len(r.seeds), 4)) for r in local] == [2, 2]  # 6 games each


def test_ray_basari_cli_writes_the_same_files_as_a_local_run(local_ray, tmp_path: Path, capsys):
    argv = ["--players", "2", "3", "--games", "6", "--chunk-size", "4", "--no-progress"]
    assert BT.main([*argv, "--out", str(tmp_path / "local")]) == 0
    assert BT.main([*argv, "--ray", "--out", str(tmp_path / "ray")]) == 0
    for name in ("games.csv", "summary.csv", "negotiation.csv", "ratings.csv", "results.json"):
        local, remote = (tmp_path / d / name for d in ("local", "ray"))
        assert remote.read_bytes() == local.read_bytes(), name
    assert capsys.readouterr().out.count("BASARI, choose start") == 2
