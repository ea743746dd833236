"""Play BASARI in the terminal against agents.

    from apps.basari.play import play
    play(players=3, opponents=("value", "points_first"), seat=0, seed=7)

or from the shell: `basari play --players 3 --opponents value,points_first --seed 7`
(`--seat`, `--start-mode random`). You sit in `seat`; the opponents (agent specs of
`agents.agent_names("basari")`: the baselines, the shipped model `ppo_4p`,
`policy:model=PATH`) fill the other seats in order, opponent in seat s seeded
`derived_seed(seed, 1000 + s)`. At each of your decisions the board is drawn (archways,
merchants, start disks, carpets, every player's score, gems, lap and revealed card, the
running barter with its standing offer) with everything that happened since your last
decision (the cards revealed, every offer, accepts, forfeits, points), and your legal moves
are listed by number. A barter offer is built one gem at a time, then submitted (E2).
Everything in BASARI is public except the bundle another player is building, which is never
shown.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from agents.registry import agent_names, make_agent, unknown_agents_error
from apps import command
from apps.console import Console
from asara_env import basari_v0
from asara_env.basari.actions import describe_action
from asara_env.common.seeding import derived_seed

AGENT_SEED_OFFSET = 1000
N_NON_START_IDS = 11  # NOOP, 3 cards, ACCEPT, FORFEIT, 4 ADDs, SUBMIT
HELP = """\
How to answer:
  a number     play that move
  b, board     draw the board and the moves again
  ?, help      this help
  q, quit      end the game (asks first)
Cards: Die (roll, move, score 6 - roll), Points (the archway's number), Gemstones (the
archway's gems). Two players on one card barter for it; three or more cancel it.
An offer is built gem by gem ("add a red gem to the offer"), then submitted; a raise must
be higher than the standing offer (more gems, or as many with more of the better colours:
red > yellow > green > blue)."""


def lineup(players: int, opponents: str | Sequence[str], seat: int) -> list[str | None]:
    """The agent name of every seat (None for the person); ValueError says what is wrong."""
    names = opponents.split(",") if isinstance(opponents, str) else list(opponents)
    names = [n.strip() for n in names if n.strip()]
    if players not in (2, 3, 4):
        raise ValueError(f"players must be 2, 3 or 4, got {players}")
    if not 0 <= seat < players:
        raise ValueError(f"seat must be in 0..{players - 1}, got {seat}")
    if len(names) == 1:
        names *= players - 1
    if len(names) != players - 1:
        raise ValueError(f"need {players - 1} opponents (or one for all), got {len(names)}")
    problem = unknown_agents_error("basari", names)
    if problem:
        raise ValueError(problem)
    return [*names[:seat], None, *names[seat:]]


def play(
    players: int = 3,
    opponents: str | Sequence[str] = "value",
    seat: int = 0,
    seed: int = 0,
    start_mode: str = "choose",
    input_fn: Callable[[str], str] = input,
    print_fn: Callable[[str], None] = print,
) -> dict[str, Any] | None:
    """Play one game; returns the final infos of the person's seat (None if they quit)."""
    seats = lineup(players, opponents, seat)
    console = Console(input_fn, print_fn)
    env = basari_v0.parallel_env(num_players=players, start_mode=start_mode, render_mode="ansi")
    obs, infos = env.reset(seed=seed)
    me = env.possible_agents[seat]
    agents = {
        a: make_agent("basari", name, derived_seed(seed, AGENT_SEED_OFFSET + s))
        for s, (a, name) in enumerate(zip(env.possible_agents, seats))
        if name is not None
    }
    names = ", ".join(f"{a} ({n or 'you'})" for a, n in zip(env.possible_agents, seats))
    console.print(f"BASARI, {players} players, seed {seed}: {names}. Type ? for help.")
    while env.agents:
        actions = {
            a: agent.act(obs[a]["observation"], obs[a]["action_mask"])
            for a, agent in agents.items()
        }
        mask = obs[me]["action_mask"]
        if infos[me]["acting"]:
            move = ask_move(console, env, mask)
            if move is None:
                return None
            actions[me] = move
        else:
            actions[me] = int(np.flatnonzero(mask)[0])  # NOOP, the only legal action
        obs, _, _, _, infos = env.step(actions)
    console.print(board_text(env))
    final = infos[me]
    scores = ", ".join(f"{a} {int(x)}" for a, x in zip(env.possible_agents, final["final_scores"]))
    won = [a for a, w in zip(env.possible_agents, final["winners"]) if w]
    console.print(f"Final scores: {scores}. Winner(s): {', '.join(won)}.")
    console.print("You won!" if final["winners"][seat] else "You did not win this time.")
    return final


class TextBoard(Protocol):
    """What `ask_move` needs of the environment: its `render()`, text in render_mode="ansi"."""

    def render(self) -> str | None: ...


def board_text(env: TextBoard) -> str:
    """The board as text; ValueError if the environment does not render text."""
    text = env.render()
    if text is None:
        raise ValueError("the environment renders no text: make it with render_mode='ansi'")
    return text


def ask_move(console: Console, env: TextBoard, mask: np.ndarray) -> int | None:
    """The person's legal move, asked until the answer is one; None if they quit."""
    legal = np.flatnonzero(mask).tolist()
    n = len(mask) - N_NON_START_IDS  # START has one id per archway (E2)
    console.print(board_text(env))
    show_moves(console, legal, n)
    while True:
        answer = console.ask(f"Your move [1-{len(legal)}, ? for help]: ")
        if answer is None or answer.lower() in ("q", "quit"):
            if answer is None or console.confirm("Really quit?"):
                console.print("Game abandoned.")
                return None
            continue
        if answer in ("?", "help"):
            console.print(HELP)
        elif answer.lower() in ("b", "board"):
            console.print(board_text(env))
            show_moves(console, legal, n)
        elif not answer.isdigit():
            console.print(f"{answer!r} is not a move number: answer 1-{len(legal)}, ? for help.")
        elif not 1 <= int(answer) <= len(legal):
            console.print(f"There is no move {answer}: answer 1-{len(legal)}.")
        else:
            return legal[int(answer) - 1]


def show_moves(console: Console, legal: list[int], n_archways: int) -> None:
    console.print("Your moves:")
    for i, a in enumerate(legal, 1):
        console.print(f"  {i:>2}. {describe_action(a, n_archways)}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `basari`; a bad lineup is a usage error (exit status 2)."""
    parser = command.parser("basari", "BASARI in the terminal.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play against agents", formatter_class=command.Formatter)
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    p.add_argument(
        "--opponents",
        default="value",
        help=f"comma-separated, one per other seat or one for all; {agent_names('basari')}",
    )
    p.add_argument("--seat", type=command.bounded_int(0, 3, "a seat number"), default=0)
    p.add_argument("--seed", type=command.seed, default=0)
    p.add_argument("--start-mode", choices=("choose", "random"), default="choose")
    args = parser.parse_args(argv)
    try:
        lineup(args.players, args.opponents, args.seat)
    except ValueError as e:
        command.lineup_error(p, str(e))
    return args


@command.run_main("basari")
def main(argv: list[str] | None = None) -> int:
    """`basari play ...`; Ctrl-C ends with one line (exit status 130)."""
    args = parse_args(argv)
    play(args.players, args.opponents, args.seat, args.seed, args.start_mode)
    return 0


if __name__ == "__main__":
    sys.exit(main())
