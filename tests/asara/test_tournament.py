"""The tournament harness: balanced seating, statistics, ratings, files and the CLI."""

from __future__ import annotations

import csv
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from training import tournament as T
from training import tournament_cli as C
from training import tournament_report as R
from training import tournament_stats as S

ROOT = Path(__file__).resolve().parents[2]


def run_cli(tmp_path: Path, *args: str, out: str = "out") -> Path:
    argv = ["--agents", "random", "--players", "2", "--games", "4", "--no-progress"]
    C.main([*argv, *args, "--out", str(tmp_path / out)])
    return tmp_path / out


# ---------------------------------------------------------------------------- scheduling
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("num_agents", [1, 2, 3, 4, 5, 6])
def test_every_agent_sits_in_every_seat_equally_often(num_agents, players):
    seating = T.schedule(num_agents, players, 50, np.random.default_rng(1))
    assert len(seating) == -(-50 // players) * players  # rounded up to whole blocks
    counts = np.stack([(seating == k).sum(axis=0) for k in range(num_agents)])  # [agent, seat]
    assert (counts == counts[:, :1]).all(), counts
    assert counts.sum() == seating.size


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("num_agents", [1, 2, 3, 5])
def test_whole_rounds_give_every_agent_the_same_number_of_games(num_agents, players):
    round_games = players * len(T.lineups(num_agents, players))
    seating = T.schedule(num_agents, players, 2 * round_games, np.random.default_rng(2))
    seats = np.bincount(seating.ravel(), minlength=num_agents)
    assert (seats == seats[0]).all(), seats
    if num_agents >= players:  # nobody sits twice at one table
        assert all(len(set(row)) == players for row in seating.tolist())


def test_schedule_is_seeded():
    a = T.schedule(5, 3, 30, np.random.default_rng(7))
    np.testing.assert_array_equal(a, T.schedule(5, 3, 30, np.random.default_rng(7)))
    assert not np.array_equal(a, T.schedule(5, 3, 30, np.random.default_rng(8)))


# ---------------------------------------------------------------------------- statistics
def wilson_by_formula(wins: float, n: int, z: float = 1.959963984540054):
    p = wins / n
    centre = p + z**2 / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return (centre - spread) / (1 + z**2 / n), (centre + spread) / (1 + z**2 / n)


@pytest.mark.parametrize(
    "wins, n, published",
    [(0, 10, (0.0, 0.2775)), (5, 10, (0.2366, 0.7634)), (10, 10, (0.7225, 1.0))],
)
def test_wilson_interval_known_values(wins, n, published):
    low, high = S.wilson_interval(wins, n)
    assert (low, high) == pytest.approx(wilson_by_formula(wins, n), abs=1e-12)
    assert (low, high) == pytest.approx(published, abs=5e-5)


def test_wilson_interval_contains_the_rate_and_narrows():
    for wins, n in [(0, 1), (1, 1), (2.5, 7), (333, 1000)]:
        low, high = S.wilson_interval(wins, n)
        assert 0 <= low <= wins / n <= high <= 1
    assert np.diff(S.wilson_interval(50, 100)) > np.diff(S.wilson_interval(500, 1000))
    assert S.wilson_interval(0, 0) == (0.0, 1.0)


def test_shared_wins_count_one_over_k_and_tied_ranks_are_averaged():
    prestige = np.array([[10, 10, 5], [7, 3, 7], [4, 4, 4], [1, 2, 3]])
    np.testing.assert_allclose(
        S.win_shares(prestige),
        [[1 / 2, 1 / 2, 0], [1 / 2, 0, 1 / 2], [1 / 3, 1 / 3, 1 / 3], [0, 0, 1]],
    )
    np.testing.assert_allclose(
        S.ranks(prestige), [[1.5, 1.5, 3], [1.5, 3, 1.5], [2, 2, 2], [3, 2, 1]]
    )
    seating = np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]])
    played = T.Played(3, np.arange(4, dtype=np.uint64), seating, prestige)
    rows = {r["agent"]: r for r in S.summarize(["a", "b", "c"], played)}
    # a: seats (g0 s0) 1/2, (g1 s2) 1/2, (g2 s1) 1/3, (g3 s0) 0
    assert rows["a"]["wins"] == pytest.approx(1 / 2 + 1 / 2 + 1 / 3)
    assert rows["a"]["win_rate"] == pytest.approx((1 / 2 + 1 / 2 + 1 / 3) / 4)
    assert rows["a"]["mean_prestige"] == pytest.approx((10 + 7 + 4 + 1) / 4)
    assert rows["a"]["mean_rank"] == pytest.approx((1.5 + 1.5 + 2 + 3) / 4)
    assert sum(r["wins"] for r in rows.values()) == pytest.approx(4)  # one win per game
    assert {r["games"] for r in rows.values()} == {4}


def test_ratings_order_a_dominant_agent_first():
    rng = np.random.default_rng(0)
    seating = np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1]] * 10)
    prestige = rng.integers(0, 50, seating.shape)
    prestige[seating == 0] = 99  # agent 0 always wins
    played = T.Played(3, np.arange(30, dtype=np.uint64)[::-1].copy(), seating, prestige)
    twice = T.Played(
        2, np.arange(30, 33, dtype=np.uint64), np.array([[1, 1]] * 3), prestige[:3, :2]
    )
    ratings = S.rate_games(["strong", "x", "y"], [played, twice])
    assert ratings[0]["agent"] == "strong"
    assert {r["agent"]: r["games"] for r in ratings} == {"strong": 30, "x": 36, "y": 30}


def test_an_agent_in_both_seats_of_two_player_games_keeps_its_mean():
    # two seats of equal rating move by +d and -d (or 0 on a tie): the mean stays 25
    prestige = np.random.default_rng(3).integers(0, 9, (40, 2))
    played = T.Played(2, np.arange(40, dtype=np.uint64), np.zeros((40, 2), np.int64), prestige)
    (rating,) = S.rate_games(["self"], [played])
    assert rating["mu"] == pytest.approx(25.0, abs=1e-9)
    assert rating["sigma"] < 25 / 3 and rating["games"] == 80


# ---------------------------------------------------------------------------- files, CLI
def test_cli_writes_csv_json_and_png(tmp_path):
    out = tmp_path / "results"
    cmd = [sys.executable, "-m", "training.tournament_cli", "--agents", "random", "--players", "2",
           "3", "--games", "3", "--seed", "5", "--out", str(out)]  # fmt: skip
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "win rate" in done.stdout and "Plackett-Luce" in done.stdout
    with open(out / "games.csv") as f:
        games = list(csv.DictReader(f))
    assert [int(g["players"]) for g in games] == [2] * 4 + [3] * 3  # 3 rounded up to 4 for P=2
    assert all(g["seat_0"] == "random" and g["prestige_1"] for g in games)
    assert games[0]["seat_2"] == "" and games[-1]["seat_2"] == "random"
    document = json.loads((out / "results.json").read_text())
    assert document["settings"]["seed"] == 5
    assert document["settings"]["chunk_size"] == T.CHUNK_SIZE == 256
    assert len(document["games"]) == 7 and len(document["summary"]) == 2
    assert [int(g["seed"]) for g in games] == [g["seed"] for g in document["games"]]
    assert (out / "summary.csv").read_text().startswith("players,agent,games,wins,win_rate")
    assert (out / "ratings.csv").exists()
    assert (out / "win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_game_seeds_follow_the_documented_derivation(tmp_path):
    from asara_env.asara.core import derived_seed

    out = run_cli(tmp_path, "--seed", "11")
    with open(out / "games.csv") as f:
        seeds = [int(g["seed"]) for g in csv.DictReader(f)]
    assert seeds == [derived_seed(T.sub_seed(11, 2, 2), g) for g in range(4)]


def test_same_seed_same_csv_other_seed_other_games(tmp_path):
    a, b = run_cli(tmp_path, out="a"), run_cli(tmp_path, out="b")
    c = run_cli(tmp_path, "--seed", "1", out="c")
    for name in ("games.csv", "summary.csv", "ratings.csv", "results.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert (a / "games.csv").read_bytes() != (c / "games.csv").read_bytes()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--agents", "random,nosuchagent"], "unknown agent.*nosuchagent"),
        (["--agents", "random,random"], "named twice"),
        (["--players", "5"], "invalid choice: 5"),
        (["--games", "0"], "at least 1"),
        (["--seed", "-3"], "non-negative"),
        (["--chunk-size", "0"], "--chunk-size: must be at least 1"),
        (["--expansions", "gifts,dragons"], r"unknown expansion\(s\) \['dragons'\]"),
        (["--expansions", "genie"], "'genie' expansion needs the professional variant"),
    ],
)
def test_bad_arguments_are_argparse_errors(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        C.parse_args(args)
    assert exc.value.code == 2
    assert re.search(message, capsys.readouterr().err)


@pytest.mark.parametrize(
    "names, players, message",
    [
        (["random", "x"], [2], "unknown agent"),
        (["random"], [5], r"players must be among \(2, 3, 4\)"),
        (["random"], [2, 2], r"a player count is given twice in \[2, 2\]"),
    ],
)
def test_bad_settings_raise_value_errors(names, players, message):
    with pytest.raises(ValueError, match=message):
        T.run_tournament(names, players, games=2)


def test_a_chunk_size_below_one_is_refused():
    with pytest.raises(ValueError, match="chunk size must be at least 1, got 0"):
        T.run_tournament(["random"], [2], games=2, chunk_size=0)


# ---------------------------------------------------------------------------- expansions (R9)
def test_expansions_reach_the_game_configuration(monkeypatch):
    configs = []

    def fake_play_batch(config, agents, seating, seeds, batch_size, bar):
        configs.append(config)
        return np.zeros(seating.shape, np.int64)

    monkeypatch.setattr(T, "play_batch", fake_play_batch)
    args = C.parse_args(["--variant", "pro", "--expansions", "gifts, genie", "--players", "2", "3"])
    assert args.expansions == ("gifts", "genie")
    results = T.run_tournament(
        ["random"], [2, 3], 2, variant=args.variant, expansions=args.expansions
    )
    assert [(c.num_players, c.variant, c.expansions) for c in configs] == [
        (2, "pro", ("genie", "gifts")),
        (3, "pro", ("genie", "gifts")),
    ]
    assert [r.rules for r in results] == [{"variant": "pro", "expansions": "genie+gifts"}] * 2
    assert C.parse_args([]).expansions == ()
    assert R.rules_title("pro", ("genie", "gifts")) == "ASARA, pro rules + genie + gifts"


def test_cli_with_expansions_names_them_in_every_output(tmp_path, capsys):
    out = run_cli(tmp_path, "--variant", "pro", "--expansions", "genie,gifts")
    assert capsys.readouterr().out.startswith("ASARA, pro rules + genie + gifts\n")
    with open(out / "games.csv") as f:
        games = list(csv.DictReader(f))
    assert len(games) == 4
    assert all((g["variant"], g["expansions"]) == ("pro", "genie+gifts") for g in games)
    with open(out / "summary.csv") as f:
        (row,) = csv.DictReader(f)
    assert (row["variant"], row["expansions"]) == ("pro", "genie+gifts")
    document = json.loads((out / "results.json").read_text())
    assert document["settings"]["expansions"] == ["genie", "gifts"]
    assert document["games"][0]["expansions"] == "genie+gifts"
    plain = run_cli(tmp_path, out="plain")
    with open(plain / "games.csv") as f:
        assert {(g["variant"], g["expansions"]) for g in csv.DictReader(f)} == {("basic", "")}


def test_the_tournament_machinery_plays_any_game_given_as_a_tournament_game():
    """A second game plugs in through TournamentGame: here a toy game whose score is the
    agent's own strength, so the strongest agent always wins and ranks follow strength."""
    from training.tournament import TournamentGame, run_tournament
    from training.tournament_stats import summarize

    strength = {"weak": 1, "middling": 2, "strong": 3}

    def play(players, agents, seating, seeds, bar, record):
        return np.array([[agents[k] for k in row] for row in seating], np.int64)

    toy = TournamentGame(strength, lambda name, seed: strength[name], play, (2, 3))
    names = list(strength)
    results = run_tournament(names, [2, 3], 30, seed=1, game=toy)
    for played in results:
        rows = {r["agent"]: r for r in summarize(names, played)}
        assert rows["strong"]["win_rate"] == 1.0 and rows["weak"]["win_rate"] == 0.0
        assert rows["weak"]["mean_rank"] > rows["middling"]["mean_rank"]
    with pytest.raises(ValueError, match="players must be among"):
        run_tournament(names, [4], 4, game=toy)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rotated_seating_puts_agent_zero_once_per_game_in_every_seat_in_turn(players):
    seating = T.rotated_seating(2 * players + 1, players)
    assert seating.shape == (2 * players + 1, players)
    assert (seating == 0).sum(axis=1).tolist() == [1] * (2 * players + 1)
    assert np.argmin(seating, axis=1).tolist() == [g % players for g in range(2 * players + 1)]
    assert set(np.unique(seating)) == {0, 1}
