"""Evaluate a saved model against opponents, for every game (`asara-evaluate`,
`basari-evaluate`, or `python -m training.evaluation.evaluate GAME ...`).

    asara-evaluate --model ppo_2p --players 2 --games 2000
    basari-evaluate --model ppo_4p --players 4 --games 400 --opponents value,points_first

`--model` is a shipped model's name (ASARA: ppo_2p, ppo_4p; BASARI: ppo_2p, ppo_3p, ppo_4p)
or the path of a saved MaskablePPO .zip; a file that is not one, or a model of another game
(its observation or action space), is refused before any game is played, and so is a
model trained for another player count than `--players` unless `--any-players` is given
(the count a model was trained for: a shipped model's, by name or by path, the one every
trainer saves in the model, self-play's included, else the `run.json` of the run it lies
in; a model that says nothing of its count is refused unless `--any-players`); an opponent
that is a model (a shipped one, or `policy:model=FILE`) is held to the same count. For each
opponent the model (its most probable legal action at each decision) plays one seat and copies of
the opponent the others, the model's seat rotated through every seat (game g: seat g mod P,
`training.evaluation.tournament.rotated_seating`), with the game's seeds derived from `--seed`, 256
games stepped together. Prints the model's win rate (a win shared by k winners counts 1/k)
with a 95% Wilson interval and its mean points, with a progress bar on stderr (`--quiet`:
none); `--out` also writes evaluation_<P>p.json and a bar plot, atomically; if those files
exist already the command is refused before any game (`--force` replaces them). The game's
rules are its own flags (ASARA: `--variant`, `--expansions`; BASARI: `--start-mode`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from asara_env.common.outcome import win_shares
from commandline import command as cli
from commandline.outputs import atomic_open, atomic_write_text
from training.games import game_main, game_module
from training.runfolder import TRAINED_PLAYERS, run_players

from .tournament import Rows, TournamentGame, chunks, rotated_seating
from .tournament_cli import GAMES, TournamentCommand, agent_list
from .tournament_stats import wilson_interval

BATCH = 256  # games stepped together: the agents draw their numbers in this order


@dataclass(frozen=True)
class EvaluateCommand:
    """A game's evaluation: its tournament command (agents, rules options, the game) and
    what playing a model needs besides."""

    tournament: TournamentCommand
    prog: str
    opponents: tuple[str, ...]  # the default opponents: the baselines
    default_players: int
    default_games: int
    shipped_model: Callable[[str], Path | None]  # a shipped model's file by name, else None
    shipped_players: Callable[[str], int | None]  # the count a shipped model was trained for
    policy_agent: Callable[[Any, int], Any]  # (model, seed) -> an agent playing it
    spaces: Callable[[int], tuple[int, int]]  # players -> (observation entries, actions)
    game_seeds: Callable[[int, int, int], np.ndarray]  # (seed, players, games) -> uint64[G]


# ---------------------------------------------------------------------------- playing
def win_rate(
    command: EvaluateCommand,
    game: TournamentGame,
    model: Any,
    players: int,
    opponent: str,
    games: int,
    seed: int,
    bar: Any = None,
) -> dict[str, Any]:
    """The model (greedy actions, seeded `seed`) in one seat against copies of `opponent`
    (seeded seed + 1) in the others, seats rotated; its win shares (1/k for k winners)
    with a 95% Wilson interval, and its mean points. `bar`: a tqdm bar advanced by one per
    game, or None."""
    seating = rotated_seating(games, players)
    seeds = command.game_seeds(seed, players, games)
    agents = [command.policy_agent(model, seed), game.make_agent(opponent, seed + 1)]
    scores = np.zeros(seating.shape, np.int64)
    for part in chunks(games, BATCH):
        scores[part] = game.play(players, agents, seating[part], seeds[part], bar, None)
    learner = seating == 0  # one seat per game, in game order
    share = win_shares(scores)[learner]
    low, high = wilson_interval(float(share.sum()), games)
    points = game.points(scores) if game.points else scores
    return {
        "players": players,
        "opponent": opponent,
        "games": games,
        "win_rate": float(share.mean()),
        "ci_low": low,
        "ci_high": high,
        "fair_share": 1 / players,
        "mean_points": float(points[learner].mean()),
    }


def evaluate(
    command: EvaluateCommand,
    game: TournamentGame,
    model: Any,
    players: int,
    opponents: list[str],
    games: int,
    seed: int,
    progress: bool = False,
) -> Rows:
    """One `win_rate` row per opponent; `progress` shows a tqdm bar over all the games
    (on stderr)."""
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games * len(opponents), unit="game", desc="evaluate")
    rows = [win_rate(command, game, model, players, name, games, seed, bar) for name in opponents]
    if bar is not None:
        bar.close()
    return rows


# ---------------------------------------------------------------------------- output
def table(rows: Rows) -> str:
    """The rows as printed: opponents, games, win rate, interval, mean points."""
    lines = [f"{'opponents':<18} {'games':>6} {'win rate':>9} {'95% Wilson':>16} {'points':>9}"]
    for r in rows:
        who = f"{r['players'] - 1} x {r['opponent']}"
        interval = f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
        lines.append(
            f"{who:<18} {r['games']:>6} {r['win_rate']:>9.3f} {interval:>16} "
            f"{r['mean_points']:>9.1f}"
        )
    return "\n".join(lines)


def plot(rows: Rows, players: int, png: Path) -> None:
    """Bars: the model's win rate with its interval against each opponent, the fair share."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    names = [r["opponent"] for r in rows]
    rates = [r["win_rate"] for r in rows]
    errors = [
        [r["win_rate"] - r["ci_low"] for r in rows],
        [r["ci_high"] - r["win_rate"] for r in rows],
    ]
    ax.bar(names, rates, yerr=errors, capsize=4, color="tab:purple")
    ax.axhline(1 / players, color="grey", linestyle="--", label=f"fair share 1/{players}")
    ax.set_ylim(0, 1)
    ax.set_ylabel("model win rate (95% Wilson)")
    copies = "1 copy" if players == 2 else f"{players - 1} copies"
    ax.set_title(f"{players} players: the model against {copies} of each")
    ax.legend()
    fig.tight_layout()
    with atomic_open(png, "wb") as f:
        fig.savefig(f, dpi=100, format="png")
    plt.close(fig)


# ---------------------------------------------------------------------------- command line
def load_model(command: EvaluateCommand, text: str, players: int) -> tuple[Any, Path]:
    """(the model, its file) of `--model` (a shipped name or a path); ValueError saying
    what is wrong: no such file, not a saved MaskablePPO model, another game's spaces."""
    path = command.shipped_model(text) or Path(text)
    if not path.is_file():
        raise ValueError(f"no model at {text} (a shipped model's name or a .zip file)")
    import zipfile

    if not zipfile.is_zipfile(path):
        raise ValueError(f"{text} is not a saved MaskablePPO model (not a .zip file)")
    from agents.policy_agent import load_model as load_saved_model

    try:
        model = load_saved_model(path)
    except Exception as e:  # any failure to read it: the file is not a model
        raise ValueError(f"{text} is not a saved MaskablePPO model ({e})") from None
    entries, actions = command.spaces(players)
    shape, space = model.observation_space.shape or (), model.action_space
    if len(shape) != 1 or shape[0] > entries or getattr(space, "n", None) != actions:
        raise ValueError(
            f"{text} plays observations of shape {shape} and the actions {space}; "
            f"{command.tournament.game} at {players} players has {entries} observation "
            f"entries and {actions} actions: a model of another game?"
        )
    return model, path


def parse_args(command: EvaluateCommand, argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `command`'s evaluation; `args.game` is the `TournamentGame` and
    `args.model` the loaded model (its file in `args.model_path`): every check is made
    before a game is played."""
    description = "Evaluate a saved model against opponents, seats rotated."
    p = cli.parser(command.prog, description)
    p.add_argument("--model", required=True, help="a shipped model's name or a .zip path")
    cli.add_players_argument(p, command.tournament.game, command.default_players)
    command.tournament.add_rules(p)
    p.add_argument("--games", type=GAMES, default=command.default_games, help="games per opponent")
    p.add_argument(
        "--opponents",
        type=agent_list(command.tournament),
        default=list(command.opponents),
        help=f"comma-separated agents (default: {','.join(command.opponents)})",
    )
    p.add_argument("--seed", type=cli.seed, default=2026, help="seeds the games and agents")
    p.add_argument(
        "--out", type=cli.writable_dir, help="folder for evaluation_<P>p.json and the plot"
    )
    p.add_argument("--force", action="store_true", help="replace the files of an earlier --out")
    p.add_argument(
        "--any-players",
        action="store_true",
        help="evaluate a model trained for another player count than --players",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    args.game = command.tournament.make_game(p, args)
    taken = [f for f in output_files(args) if f.exists()]
    if taken and not args.force:
        p.error(
            f"argument --out: {args.out} already holds {taken[0].name}; replace it with "
            "--force, or name a new --out"
        )
    try:
        name = args.model
        args.model, args.model_path = load_model(command, name, args.players)
        if not args.any_players:
            check_players(command, name, args.model, args.model_path, args.players)
    except ValueError as e:
        p.error(f"argument --model: {e}")
    try:
        check_opponent_models(command, args.opponents, args.players, args.any_players)
    except ValueError as e:
        p.error(f"argument --opponents: {e}")
    return args


def check_opponent_models(
    command: EvaluateCommand, opponents: list[str], players: int, any_players: bool
) -> None:
    """A ValueError unless each opponent that is a model (a shipped one by name, or
    `policy:model=FILE`, whose file must be a model of this game) is held, as `--model`
    is, to `players` (`check_players`); `any_players` lets any count by."""
    from agents.registry import check_spec

    shipped = shipped_names(command)
    for spec in opponents:
        name, options = check_spec(command.tournament.game, spec)
        if name == "policy":
            text = str(options["model"])
            model, path = load_model(command, text, players)
        elif name in shipped:
            text, model, path = name, None, command.shipped_model(name) or Path(name)
        else:
            continue
        if not any_players:
            check_players(command, text, model, path, players)


def trained_players(command: EvaluateCommand, text: str, model: Any, path: Path) -> int | None:
    """The player count the model of `--model text` was trained for: a shipped model's
    (by name, or its file by path), the one its trainer saved in the model
    (`trained_players`: every trainer's models, self-play's included), else the one the
    run whose folder holds it records; None where nothing says."""
    shipped = command.shipped_players(text)
    if shipped is not None:
        return shipped
    saved = getattr(model, TRAINED_PLAYERS, None)
    if isinstance(saved, int) and not isinstance(saved, bool):
        return saved
    for name in shipped_names(command):
        file = command.shipped_model(name)
        if file is not None and same_file(file, path):
            return command.shipped_players(name)
    return run_players(path)


def shipped_names(command: EvaluateCommand) -> list[str]:
    """The names of the game's shipped models."""
    from agents.models import MODELS

    return list(MODELS.get(command.tournament.game, {}))


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths hold the same file, or copies of it (the same bytes)."""
    if a.resolve() == b.resolve():
        return True
    return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()


def check_players(
    command: EvaluateCommand, text: str, model: Any, path: Path, players: int
) -> None:
    """A ValueError naming both counts if the model was trained for another player count
    than `players`, or saying that nothing tells its count."""
    trained = trained_players(command, text, model, path)
    if trained is None:
        raise ValueError(
            f"{text} does not say which player count it was trained for (no count saved in "
            f"it, no run.json of its run); --any-players evaluates it at {players} players"
        )
    if trained != players:
        raise ValueError(
            f"{text} was trained for {trained} players, not {players} (--players); "
            f"--any-players evaluates it at {players} all the same"
        )


def run_command(command: EvaluateCommand, argv: list[str] | None = None) -> int:
    """Parse the arguments, play the games, print (and with --out write) the results."""
    args = parse_args(command, argv)
    rows = evaluate(
        command,
        args.game,
        args.model,
        args.players,
        args.opponents,
        args.games,
        args.seed,
        progress=not args.quiet,
    )
    print(f"{args.model_path}: {args.players} players, {args.game.title}, {args.games} games each")
    print(table(rows))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        json_path, png = output_files(args)
        atomic_write_text(json_path, json.dumps(rows, indent=1))
        plot(rows, args.players, png)
        print(f"written to {args.out}/")
    return 0


def output_files(args: argparse.Namespace) -> list[Path]:
    """The files `--out` receives (none without it)."""
    if args.out is None:
        return []
    return [args.out / f"evaluation_{args.players}p.{ext}" for ext in ("json", "png")]


def game_evaluation(game: str) -> EvaluateCommand:
    """The `EvaluateCommand` of the game named `game` (training/<game>/evaluate.py)."""
    command: EvaluateCommand = game_module(game, "evaluate").COMMAND
    return command


main = game_main(
    "python -m training.evaluation.evaluate",
    "Evaluate a saved model.",
    game_evaluation,
    run_command,
)


if __name__ == "__main__":
    sys.exit(main())
