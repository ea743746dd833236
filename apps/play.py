"""Play ASARA in the terminal against agents.

    from apps.play import play
    play(players=3, variant="basic", opponents=("greedy", "random"), seat=0, seed=7)

or from the shell: `asara play --players 3 --opponents greedy,random --seed 7`. The
expansions (R9) are switched on with `expansions=("gifts",)` or `--expansions genie,gifts`
(the Genie needs the professional variant).

You sit in `seat`; the opponents (agent names from `agents.AGENTS`) fill the other seats in
order. At each of your decisions the board is drawn as your seat sees it (R10: the other
hands stay hidden) and the legal moves are listed by number; each opponent move is printed
as one line. At the end the final scoring is printed and the game record (configuration,
seed and actions, `asara_env.reference.record`) can be saved as JSON for `replay`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agents import AGENTS, make_agent
from asara_env import asara_v0
from asara_env.actions import CARD_OPTIONS, TARGETS, Group, decode, describe_action
from asara_env.common.seeding import derived_seed
from asara_env.config import GameConfig
from asara_env.constants import CARD_NAMES
from asara_env.reference.engine import winners
from asara_env.reference.record import GameRecord
from asara_env.reference.serialize import state_from_dict
from asara_env.render import LINE_WIDTH, scoring_table, wrap

HELP = """\
How to answer:
  a number     play that move
  other text   list only the moves whose name contains it (e.g. "bank", "red", "tower #2")
  m, moves     list all the moves again
  b, board     draw the board and the moves again
  ?, help      this help
  q, quit      end the game (asks first)
Board: P0..P3 are seats; (a+b) are face-down cards; ? a card you cannot see;
red 3(1g) is three red tiles, one of them gold-decorated; . a vacant space;
(chest: asari 5, buy window) the gifts lying on a space, in the order laid (gifts expansion)."""

AGENT_SEED_OFFSET = 1000  # opponent in seat s plays with derived_seed(game seed, 1000 + s)


@dataclass
class Console:
    """Where the game talks to the person: `input`/`print` unless a test scripts them."""

    input: Callable[[str], str]
    print: Callable[[str], None]

    def confirm(self, question: str) -> bool:
        return (self.ask(f"{question} [y/N] ") or "").lower() in ("y", "yes")

    def ask(self, prompt: str) -> str | None:
        """The stripped answer, or None at the end of the input (Ctrl-D)."""
        try:
            return self.input(prompt).strip()
        except EOFError:
            self.print("")
            return None


# ------------------------------------------------------------------------ the table
def lineup(
    players: int,
    variant: str,
    opponents: str | Sequence[str],
    seat: int,
    expansions: Sequence[str] = (),
) -> tuple[GameConfig, list[str | None]]:
    """The configuration and the agent name of every seat (None for the person); raises
    ValueError naming what is wrong with the request."""
    config = GameConfig(num_players=players, variant=variant, expansions=tuple(expansions))
    names = opponents.split(",") if isinstance(opponents, str) else list(opponents)
    names = [name.strip() for name in names]
    if len(names) != players - 1:
        raise ValueError(
            f"{players} players need {players - 1} opponent(s), got {len(names)}: {names}"
        )
    unknown = [name for name in names if name not in AGENTS]
    if unknown:
        raise ValueError(f"unknown agent(s) {unknown}; known agents: {sorted(AGENTS)}")
    if not 0 <= seat < players:
        raise ValueError(f"seat must be in 0..{players - 1}, got {seat}")
    return config, names[:seat] + [None] + names[seat:]


def seat_label(seat: int, names: Sequence[str | None]) -> str:
    return f"P{seat} ({names[seat] or 'you'})"


# ------------------------------------------------------------------------ listing moves
MOVE_HEADS: dict[Group, Callable[[tuple[int, ...]], tuple[str, str]]] = {
    Group.PLACE: lambda f: (
        f"on {TARGETS[f[0]].name}",
        "+".join(CARD_NAMES[c] for c in CARD_OPTIONS[f[1]])
        + (" face down" if len(CARD_OPTIONS[f[1]]) > 1 else ""),
    ),
    Group.PLACE_COLOURED: lambda f: ("on the coloured building", f"{CARD_NAMES[f[0]]} face down"),
}


def move_head(action: int) -> tuple[str, str]:
    """(heading, label): placements are grouped by target and labelled by the cards;
    every other move has no heading and its full name."""
    group, fields = decode(action)
    if group in MOVE_HEADS:
        return MOVE_HEADS[group](fields)
    return "", describe_action(action)


def columns(items: Sequence[str], indent: str = "  ") -> list[str]:
    """The items left-aligned in as many equal columns as fit in LINE_WIDTH."""
    cell = max(map(len, items)) + 3
    per_line = max(1, (LINE_WIDTH - len(indent)) // cell)
    rows = [items[i : i + per_line] for i in range(0, len(items), per_line)]
    return [indent + "".join(item.ljust(cell) for item in row).rstrip() for row in rows]


def moves_text(moves: Sequence[int]) -> str:
    """The legal moves numbered 1..k, placements one line per target."""
    groups: dict[str, list[str]] = {}
    for number, action in enumerate(moves, 1):
        head, label = move_head(action)
        groups.setdefault(head, []).append(f"{number}) {label}")
    width = max(len(head) for head in groups) + 2
    lines = [f"Your moves (1-{len(moves)}):"]
    for head, items in groups.items():
        lines += wrap(f"  {head:<{width}}", items, "   ") if head else columns(items)
    return "\n".join(lines)


def filtered_text(moves: Sequence[int], text: str) -> str | None:
    """The moves whose name contains `text` (full names), or None if there are none."""
    items = [
        f"{number}) {describe_action(action)}"
        for number, action in enumerate(moves, 1)
        if text.lower() in describe_action(action).lower()
    ]
    return "\n".join([f"Moves with {text!r}:", *columns(items)]) if items else None


# ------------------------------------------------------------------------ asking the person
QUIT = -1  # what `ask_move` returns when the person ends the game


def show_help(console: Console, board: str, moves: Sequence[int]) -> int | None:
    console.print(HELP)
    return None


def show_moves(console: Console, board: str, moves: Sequence[int]) -> int | None:
    console.print(moves_text(moves))
    return None


def show_board(console: Console, board: str, moves: Sequence[int]) -> int | None:
    console.print(board)
    return show_moves(console, board, moves)


def ask_quit(console: Console, board: str, moves: Sequence[int]) -> int | None:
    return QUIT if console.confirm("Really quit this game?") else None


COMMANDS: dict[str, Callable[[Console, str, Sequence[int]], int | None]] = {
    "?": show_help,
    "help": show_help,
    "m": show_moves,
    "moves": show_moves,
    "b": show_board,
    "board": show_board,
    "q": ask_quit,
    "quit": ask_quit,
}


def as_number(answer: str) -> int | None:
    try:
        return int(answer)
    except ValueError:
        return None


def complaint(answer: str, k: int) -> str:
    """What is wrong with an answer that is neither a move, a command nor a filter."""
    if not answer:
        return f"Empty answer: type a move number from 1 to {k} (? for help)."
    if as_number(answer) is not None:
        return f"{answer} is out of range: choose a move number from 1 to {k}."
    return f"{answer!r} is not a move number, a command or part of a move's name (? for help)."


def ask_move(console: Console, board: str, moves: Sequence[int]) -> int:
    """The person's choice among `moves` (an action id), or QUIT."""
    show_board(console, board, moves)
    while True:
        answer = console.ask(f"Your move [1-{len(moves)}, ? for help]: ")
        if answer is None:
            return QUIT
        command = COMMANDS.get(answer.lower())
        if command is not None:
            chosen = command(console, board, moves)
            if chosen is not None:
                return chosen
            continue
        number = as_number(answer)
        if number is not None and 1 <= number <= len(moves):
            return moves[number - 1]
        matches = filtered_text(moves, answer) if answer and number is None else None
        console.print(matches or complaint(answer, len(moves)))


# ------------------------------------------------------------------------ the game
def play(
    players: int = 3,
    variant: str = "basic",
    opponents: str | Sequence[str] = ("greedy", "random"),
    seat: int = 0,
    seed: int | None = None,
    input_fn: Callable[[str], str] = input,
    print_fn: Callable[[str], None] = print,
    record_path: str | None = None,
    expansions: Sequence[str] = (),
) -> GameRecord:
    """Play one game in the terminal; returns its record (unfinished if the person quit).
    Raises ValueError for a bad lineup (see `lineup`) before the game starts."""
    config, names = lineup(players, variant, opponents, seat, expansions)
    console = Console(input_fn, print_fn)
    env = asara_v0.env(
        num_players=players, variant=variant, expansions=config.expansions, render_mode="ansi"
    )
    env.reset(seed=seed)
    game_seed = env.unwrapped.game_seed
    agents = {
        s: make_agent(name, derived_seed(game_seed, AGENT_SEED_OFFSET + s))
        for s, name in enumerate(names)
        if name is not None
    }
    console.print(intro(config, names, game_seed))
    record = GameRecord(config, game_seed)
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            break
        mover = env.unwrapped.possible_agents.index(agent)
        if mover == seat:
            moves = [int(a) for a in observation["action_mask"].nonzero()[0]]
            action = ask_move(console, env.render(), moves)
            if action == QUIT:
                n = len(record.actions)
                console.print(f"You quit after {n} decision(s), seed {game_seed}.")
                return record
        else:
            action = agents[mover].act(observation["observation"], observation["action_mask"])
            console.print(f"{seat_label(mover, names)}: {describe_action(action)}")
        env.step(action)
        record.actions.append(int(action))
    console.print(final_text(state_from_dict(env.unwrapped.save_game()), names, seat))
    save_record(console, record, record_path)
    return record


def intro(config: GameConfig, names: Sequence[str | None], game_seed: int) -> str:
    seats = ", ".join(seat_label(s, names) for s in range(len(names)))
    expansions = "".join(f" + {e}" for e in config.expansions)
    return (
        f"ASARA, {config.num_players} players, {config.variant} rules{expansions}, "
        f"seed {game_seed} "
        f"(play it again with --seed {game_seed}).\nSeats: {seats}. Type ? for help."
    )


def final_text(state, names: Sequence[str | None], seat: int) -> str:
    won = winners(state)
    verdict = "You won!" if seat in won else "You lost."
    seats = ", ".join(seat_label(s, names) for s in range(len(names)))
    return f"\nGame over. Final scoring ({seats}):\n{scoring_table(state)}\n{verdict}"


def save_record(console: Console, record: GameRecord, path: str | None) -> None:
    """Write the record as JSON to `path`, or where the person says if they want it."""
    if path is None:
        if not console.confirm("Save the game record?"):
            return
        default = f"asara-{record.seed}.json"
        path = console.ask(f"File name [{default}]: ") or default
    with open(path, "w") as f:
        json.dump(record.to_dict(), f)
    console.print(f"Game record saved to {path} (replay it with asara_env.reference.record).")
