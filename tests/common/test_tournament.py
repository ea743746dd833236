"""The tournament machinery written once for every game: balanced seating, statistics,
ratings, the game-neutral record (scores, points, rules as columns), a toy game plugged in
through `TournamentGame`, and the command that names its game."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from training.evaluation import tournament as T
from training.evaluation import tournament_report as R
from training.evaluation import tournament_stats as S

STRENGTH = {"weak": 1, "middling": 2, "strong": 3}


def toy_play(players, agents, seating, seeds, bar, record):
    """Each seat scores its agent's strength (an agent is its strength) times 10, plus the
    seed's parity as a folded tie-break; the points are the score without it."""
    return np.array([[10 * agents[k] + int(s) % 2 for k in row] for row, s in zip(seating, seeds)])


def toy_game(**kwargs) -> T.TournamentGame:
    return T.TournamentGame(STRENGTH, lambda name, seed: STRENGTH[name], toy_play, (2, 3), **kwargs)


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
    scores = np.array([[10, 10, 5], [7, 3, 7], [4, 4, 4], [1, 2, 3]])
    np.testing.assert_allclose(
        S.win_shares(scores),
        np.array([[1 / 2, 1 / 2, 0], [1 / 2, 0, 1 / 2], [1 / 3, 1 / 3, 1 / 3], [0, 0, 1]]),
    )
    np.testing.assert_allclose(
        S.ranks(scores), np.array([[1.5, 1.5, 3], [1.5, 3, 1.5], [2, 2, 2], [3, 2, 1]])
    )
    seating = np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]])
    played = T.Played(3, np.arange(4, dtype=np.uint64), seating, scores)
    rows = {r["agent"]: r for r in S.summarize(["a", "b", "c"], played)}
    # a: seats (g0 s0) 1/2, (g1 s2) 1/2, (g2 s1) 1/3, (g3 s0) 0
    assert rows["a"]["wins"] == pytest.approx(1 / 2 + 1 / 2 + 1 / 3)
    assert rows["a"]["win_rate"] == pytest.approx((1 / 2 + 1 / 2 + 1 / 3) / 4)
    assert rows["a"]["mean_points"] == pytest.approx((10 + 7 + 4 + 1) / 4)
    assert rows["a"]["mean_rank"] == pytest.approx((1.5 + 1.5 + 2 + 3) / 4)
    assert sum(r["wins"] for r in rows.values()) == pytest.approx(4)  # one win per game
    assert {r["games"] for r in rows.values()} == {4}


def test_ratings_order_a_dominant_agent_first():
    rng = np.random.default_rng(0)
    seating = np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1]] * 10)
    scores = rng.integers(0, 50, seating.shape)
    scores[seating == 0] = 99  # agent 0 always wins
    played = T.Played(3, np.arange(30, dtype=np.uint64)[::-1].copy(), seating, scores)
    twice = T.Played(2, np.arange(30, 33, dtype=np.uint64), np.array([[1, 1]] * 3), scores[:3, :2])
    ratings = S.rate_games(["strong", "x", "y"], [played, twice])
    assert ratings[0]["agent"] == "strong"
    assert {r["agent"]: r["games"] for r in ratings} == {"strong": 30, "x": 36, "y": 30}


def test_an_agent_in_both_seats_of_two_player_games_keeps_its_mean():
    # two seats of equal rating move by +d and -d (or 0 on a tie): the mean stays 25
    scores = np.random.default_rng(3).integers(0, 9, (40, 2))
    played = T.Played(2, np.arange(40, dtype=np.uint64), np.zeros((40, 2), np.int64), scores)
    (rating,) = S.rate_games(["self"], [played])
    assert rating["mu"] == pytest.approx(25.0, abs=1e-9)
    assert rating["sigma"] < 25 / 3 and rating["games"] == 80


# ---------------------------------------------------------------------------- any game
def test_the_tournament_machinery_plays_any_game_given_as_a_tournament_game():
    """A second game plugs in through TournamentGame: here a toy game whose score is the
    agent's own strength, so the strongest agent always wins and ranks follow strength."""
    strength = {"weak": 1, "middling": 2, "strong": 3}

    def play(players, agents, seating, seeds, bar, record):
        return np.array([[agents[k] for k in row] for row in seating], np.int64)

    toy = T.TournamentGame(strength, lambda name, seed: strength[name], play, (2, 3))
    names = list(strength)
    results = T.run_tournament(toy, names, [2, 3], 30, seed=1)
    for played in results:
        rows = {r["agent"]: r for r in S.summarize(names, played)}
        assert rows["strong"]["win_rate"] == 1.0 and rows["weak"]["win_rate"] == 0.0
        assert rows["weak"]["mean_rank"] > rows["middling"]["mean_rank"]
    with pytest.raises(ValueError, match="players must be among"):
        T.run_tournament(toy, names, [4], 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rotated_seating_puts_agent_zero_once_per_game_in_every_seat_in_turn(players):
    seating = T.rotated_seating(2 * players + 1, players)
    assert seating.shape == (2 * players + 1, players)
    assert (seating == 0).sum(axis=1).tolist() == [1] * (2 * players + 1)
    assert np.argmin(seating, axis=1).tolist() == [g % players for g in range(2 * players + 1)]
    assert set(np.unique(seating)) == {0, 1}


def test_the_record_has_scores_points_and_the_rules_as_columns(tmp_path: Path):
    game = toy_game(
        rules={"mode": "fast", "extras": ["b", "a"]},
        title="TOY, fast",
        points=lambda scores: scores // 10,
    )
    names = ["weak", "strong"]
    results = T.run_tournament(game, names, [2, 3], 3, seed=2)
    assert [r.rules for r in results] == [{"mode": "fast", "extras": ["b", "a"]}] * 2
    assert all(r.points is not None and np.array_equal(r.points, r.scores // 10) for r in results)
    report = R.report(game, names, results)
    assert report.title == "TOY, fast"
    R.write_report(tmp_path, {"game": "toy"}, report)
    with open(tmp_path / "games.csv") as f:
        reader = csv.DictReader(f)
        games = list(reader)
    assert reader.fieldnames == ["players", "game", "seed", "mode", "extras"] + [
        f"{what}_{s}" for what in ("seat", "score", "points") for s in range(3)
    ]
    assert {(g["mode"], g["extras"]) for g in games} == {("fast", "b+a")}
    for g in games:
        p = int(g["players"])
        assert [int(g[f"points_{s}"]) for s in range(p)] == [
            STRENGTH[g[f"seat_{s}"]] for s in range(p)
        ]
        assert all(g[f"score_{s}"] == "" for s in range(p, 3))
    summary = list(csv.DictReader((tmp_path / "summary.csv").read_text().splitlines()))
    strong = next(r for r in summary if r["agent"] == "strong" and r["players"] == "2")
    assert float(strong["mean_points"]) == 3.0 and strong["mode"] == "fast"
    assert not any("prestige" in name for name in (tmp_path / "games.csv").read_text())
    document = json.loads((tmp_path / "results.json").read_text())
    assert document["games"][0]["points"] == [STRENGTH[a] for a in document["games"][0]["seating"]]


def test_a_game_without_points_has_no_points_columns():
    results = T.run_tournament(toy_game(), ["weak", "strong"], [2], 2)
    assert results[0].points is None and results[0].rules == {}
    report = R.report(toy_game(), ["weak", "strong"], results)
    assert report.games_fields == ["players", "game", "seed"] + [
        f"{what}_{s}" for what in ("seat", "score") for s in range(3)
    ]
    assert "points" in report.text.splitlines()[0]  # the summary's column


def test_run_tournament_takes_a_game_by_name_and_requires_one():
    by_name = T.run_tournament("basari", ["random", "value"], [2], 2, seed=1)
    by_card = T.run_tournament(T.tournament_game("basari"), ["random", "value"], [2], 2, seed=1)
    assert by_name[0].scores.tolist() == by_card[0].scores.tolist()
    assert by_name[0].rules == {"start_mode": "choose"}
    with pytest.raises(ValueError, match=r"unknown game 'chess'; games: \['asara', 'basari'\]"):
        T.run_tournament("chess", ["random"], [2], 2)
    untyped: Any = T.run_tournament  # called without its game on purpose
    with pytest.raises(TypeError):
        untyped(["random"], [2], 2)


@pytest.mark.parametrize(
    "names, players, message",
    [
        (["weak", "x"], [2], "unknown agent"),
        (["weak"], [5], r"players must be among \(2, 3\)"),
        (["weak"], [2, 2], r"a player count is given twice in \[2, 2\]"),
    ],
)
def test_bad_settings_raise_value_errors(names, players, message):
    with pytest.raises(ValueError, match=message):
        T.run_tournament(toy_game(), names, players, games=2)


def test_a_chunk_size_below_one_is_refused():
    with pytest.raises(ValueError, match="chunk size must be at least 1, got 0"):
        T.run_tournament(toy_game(), ["weak"], [2], games=2, chunk_size=0)
