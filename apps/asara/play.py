"""Play ASARA in the terminal against agents.

    from apps.asara.play import play
    play(GameConfig(num_players=3), opponents=("greedy", "random"), seat=0, seed=7)

or from the shell: `asara play --players 3 --opponents greedy,random --seed 7`. The
expansions (R9) are switched on with `GameConfig(expansions=("gifts",))` or
`--expansions genie,gifts` (the Genie needs the professional variant).

You sit in `seat`; the opponents (agent specs: the baselines, the shipped models, the
search agents such as `flatmc:64` or `ismcts:64`) fill the other seats in order, seats
named P0..P3 (the specs listed once at the start). At each of your decisions the board is
drawn as your seat sees it (R10: the other hands stay hidden) with what happened since
your last decision: each opponent move as one line, as your seat may know it (R10.2: no
face-down cards), and each year's scoring (R6.2) as a table; then the legal moves,
numbered, tiles with their prices. A move you name that is not legal is refused with the
rules' reason. At the end the final scoring is printed.

`save_path` saves the game (`asara_env.common.record.SavedGame`: the game record and the
seats) when it ends, when the person quits and on Ctrl-C; `resume` (a saved game in any
format the project writes, read by `asara_env.common.record.load_game`) continues a game
from its last position. Opponent in seat s plays the game's decision d
seeded `apps.console.decision_seed(seed, s, d)`, so a resumed game plays on as it would
have.

The default `layout="compact"` fits a terminal of 80x24: the board in at most 80 columns
and about 18 lines (`asara_env.asara.render_compact`), the events since your last
decision under it when they fit (else first, a screenful at a time, and again with `l`),
the moves a page at a time below (`+` shows the next page). `layout="full"` draws the big
board of `render_view` (100 columns) and lists every move at once.
"""

from __future__ import annotations

import json
import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pettingzoo import AECEnv

from agents.asara.arena import act_in_env
from agents.registry import make_agent, unknown_agents_error
from apps.console import AGENT_SEED_OFFSET as AGENT_SEED_OFFSET  # the web page's seeds
from apps.console import (
    SCREEN_HEIGHT,
    Console,
    EventLog,
    SaveFile,
    as_number,
    columns,
    decision_seed,
    intro_line,
    wrapped,
)
from asara_env import asara_v0
from asara_env.asara.actions import (
    CARD_OPTIONS,
    NUM_ACTIONS,
    TARGETS,
    Group,
    decode,
    describe_action,
    public_description,
)
from asara_env.asara.config import GameConfig
from asara_env.asara.constants import CARD_NAMES, PRICE
from asara_env.asara.reference.engine import winners
from asara_env.asara.reference.record import GameRecord
from asara_env.asara.reference.rules import illegal_reason
from asara_env.asara.reference.scoring import YEAR_END_CATEGORIES, year_end_breakdown
from asara_env.asara.reference.serialize import state_from_dict
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render import LINE_WIDTH, scoring_table, wrap
from asara_env.asara.render_compact import COMPACT_WIDTH, render_compact
from asara_env.common.files import atomic_write_text
from asara_env.common.record import Resumed
from commandline.asara.options import config_text
from commandline.command import Interrupted

HELP = """\
How to answer:
  a number     play that move
  other text   list the moves whose name contains it ("bank", "red", "tower #2"); \
a move named that is not legal now is refused with the reason
  +, next      the next page of the moves listed
  m, moves     list all the moves again
  b, board     draw the board and the moves again
  l, log       what happened since your previous decision
  ?, help      this help
  q, quit      end the game (asks first; --save saves it)
Board: P0..P3 are seats; . a vacant space; [any] an area without a colour yet.
Full layout: (a+b) are face-down cards, ? a card you cannot see; red 3(1g) is three red \
tiles, one gold-decorated; (chest: asari 5, buy window) the gifts on a space, in the \
order laid (gifts expansion).
Compact layout: colours by their first 3 letters (bro brown, bla black, blu blue, ...); \
8:P2 space 8 taken by P2; red3(1g) as above; {$5,buy-win} the gifts on a chest; \
bas:bro1 whi2 your unbuilt bases (then tru, win, tur); red6(1g,1l) a red tower 6 tiles \
high, with 1 visible gold tile and 1 lighted window; prices: what a tile of each colour \
costs (gold costs the same)."""


@dataclass(frozen=True)
class Layout:
    """How the game is drawn: the board from the person's seat view, the columns every
    printed line keeps to, and the terminal's lines (None: every move listed at once)."""

    draw: Callable[[dict[str, Any]], str] | None  # None: the AEC env's own render() (render_view)
    width: int
    screen: int | None


LAYOUTS = {
    "compact": Layout(render_compact, COMPACT_WIDTH, SCREEN_HEIGHT),
    "full": Layout(None, LINE_WIDTH, None),
}
MIN_PAGE = 4  # lines of moves a page shows at least, however tall the board
MENU_LINES = 2  # a page's title and the prompt


DEFAULT_CONFIG = GameConfig(num_players=3)  # the game `play` sets up unless told


# ------------------------------------------------------------------------ the table
def lineup(config: GameConfig, opponents: str | Sequence[str], seat: int) -> list[str | None]:
    """The agent name of every seat of a game of `config` (None for the person); raises
    ValueError naming what is wrong with the request."""
    players = config.num_players
    names = opponents.split(",") if isinstance(opponents, str) else list(opponents)
    names = [name.strip() for name in names]
    unknown = unknown_agents_error("asara", names)  # a wrong name first: the count may follow
    if unknown:
        raise ValueError(unknown)
    if len(names) != players - 1:
        raise ValueError(
            f"{players} players need {players - 1} opponent(s), got {len(names)}: {names}"
        )
    if not 0 <= seat < players:
        raise ValueError(f"seat must be in 0..{players - 1}, got {seat}")
    return names[:seat] + [None] + names[seat:]


def seat_label(seat: int, names: Sequence[str | None]) -> str:
    """'P1', or 'P0 you' for the person: short, whatever the agent spec."""
    return f"P{seat}" + (" you" if names[seat] is None else "")


# ------------------------------------------------------------------------ listing moves
def price_text(colour: int) -> str:
    return f"{PRICE[colour]} asari"


MOVE_HEADS: dict[Group, Callable[[tuple[int, ...]], tuple[str, str]]] = {
    Group.PLACE: lambda f: (
        f"on {TARGETS[f[0]].name}",
        "+".join(CARD_NAMES[c] for c in CARD_OPTIONS[f[1]])
        + (" face down" if len(CARD_OPTIONS[f[1]]) > 1 else ""),
    ),
    Group.PLACE_COLOURED: lambda f: ("on the coloured building", f"{CARD_NAMES[f[0]]} face down"),
}
PRICED = (Group.BUY, Group.BRIBE_TAKE)  # their fields are (part, colour, gold)


def move_head(action: int) -> tuple[str, str]:
    """(heading, label): placements are grouped by target and labelled by the cards;
    tiles bought or taken carry their price (R1); every other move has no heading and its
    full name."""
    group, fields = decode(action)
    if group in MOVE_HEADS:
        return MOVE_HEADS[group](fields)
    return "", move_name(action)


def move_name(action: int) -> str:
    """The action's full name, with the price of a tile bought or taken (R1)."""
    group, fields = decode(action)
    price = f", {price_text(fields[1])}" if group in PRICED else ""
    return describe_action(action) + price


@dataclass
class Listing:
    """Numbered moves under a title, shown `size` lines at a time (all when None). A page
    that starts inside a target's group of placements repeats the group's heading."""

    title: str
    lines: list[str]
    heads: list[str] = field(default_factory=list)  # per line: its group's heading or ''
    size: int | None = None
    page: int = 0

    @property
    def pages(self) -> int:
        return 1 if self.size is None else max(1, math.ceil(len(self.lines) / self.size))

    def text(self) -> str:
        """The current page, its number in the title when there are several."""
        if self.size is None or self.pages == 1:
            return "\n".join([f"{self.title}:", *self.lines])
        first = self.page * self.size
        lines = self.lines[first : first + self.size]
        head = self.heads[first] if self.heads else ""
        if head and lines[0].startswith(" " * len(head)):
            lines[0] = head + lines[0][len(head) :]
        more = f"{self.title}, page {self.page + 1}/{self.pages} (+ for the next):"
        return "\n".join([more, *lines])


def moves_listing(moves: Sequence[int], width: int, size: int | None = None) -> Listing:
    """The legal moves numbered 1..k, placements one group per target."""
    groups: dict[str, list[str]] = {}
    for number, action in enumerate(moves, 1):
        head, label = move_head(action)
        groups.setdefault(head, []).append(f"{number}) {label}")
    pad = max(len(head) for head in groups) + 2
    listing = Listing(f"Your moves (1-{len(moves)})", [], [], size)
    for head, items in groups.items():
        text = f"  {head:<{pad}}"
        lines = wrap(text, items, "   ", width) if head else columns(items, width)
        listing.lines += lines
        listing.heads += [text if head else ""] * len(lines)
    return listing


def filtered_listing(
    moves: Sequence[int], text: str, width: int, size: int | None = None
) -> Listing | None:
    """The moves whose name contains `text` (full names), or None if there are none."""
    items = [
        f"{number}) {move_name(action)}"
        for number, action in enumerate(moves, 1)
        if text.lower() in move_name(action).lower()
    ]
    return Listing(f"Moves with {text!r}", columns(items, width), size=size) if items else None


# ------------------------------------------------------------------------ asking the person
QUIT = -1  # what `ask_move` returns when the person ends the game
UNIT = "decision"  # what a stopped game counts (every seat's)


@dataclass
class Turn:
    """One decision of the person: the board drawn, the events since their last decision,
    the legal moves, why any other move is refused, and the listing of moves shown last
    (which `+` pages through)."""

    console: Console
    board: str
    moves: list[int]
    layout: Layout
    log: EventLog
    why: Callable[[int], str | None]
    events: list[str] = field(default_factory=list)
    listing: Listing | None = None
    drawn: int = 0  # lines of the board and events last drawn

    @property
    def page_size(self) -> int | None:
        """Lines of moves that fit under the board and events, above the title and the
        prompt."""
        screen = self.layout.screen
        return None if screen is None else max(MIN_PAGE, screen - self.drawn - MENU_LINES)

    def show(self, listing: Listing) -> None:
        self.listing = listing
        self.console.print(listing.text())


def show_help(turn: Turn) -> int | None:
    turn.console.page(wrapped(HELP, turn.layout.width, "  "))
    return None


def show_moves(turn: Turn) -> int | None:
    turn.show(moves_listing(turn.moves, turn.layout.width, turn.page_size))
    return None


def next_page(turn: Turn) -> int | None:
    listing = turn.listing
    if listing is None or listing.pages == 1:
        turn.console.print("All the moves listed are shown (m lists every move).")
        return None
    listing.page = (listing.page + 1) % listing.pages
    turn.show(listing)
    return None


def show_board(turn: Turn) -> int | None:
    turn.drawn = turn.console.show_turn(turn.board, turn.events, MIN_PAGE + MENU_LINES)
    turn.events = []  # drawn again with `b`, they are behind `l`
    return show_moves(turn)


def show_log(turn: Turn) -> int | None:
    turn.console.show_log(turn.log)
    return None


def ask_quit(turn: Turn) -> int | None:
    return QUIT if turn.console.confirm("Really quit this game?") else None


COMMANDS: dict[str, Callable[[Turn], int | None]] = {
    "?": show_help,
    "help": show_help,
    "+": next_page,
    "next": next_page,
    "m": show_moves,
    "moves": show_moves,
    "b": show_board,
    "board": show_board,
    "l": show_log,
    "log": show_log,
    "q": ask_quit,
    "quit": ask_quit,
}


def complaint(answer: str, k: int) -> str:
    """What is wrong with an answer that is neither a move, a command nor a filter."""
    if not answer:
        return f"Empty answer: type a move number from 1 to {k} (? for help)."
    if as_number(answer) is not None:
        return f"{answer} is out of range: choose a move number from 1 to {k}."
    return f"{answer!r} is not a move number, a command or part of a move's name (? for help)."


def refusals(answer: str, why: Callable[[int], str | None]) -> list[str]:
    """Why the moves named by `answer` (the whole name, or part of it when only a few
    moves match) cannot be played now."""
    text = answer.lower()
    named = [a for a in range(NUM_ACTIONS) if describe_action(a).lower() == text]
    if not named:
        named = [a for a in range(NUM_ACTIONS) if text in describe_action(a).lower()]
    reasons = [(a, why(a)) for a in named[:MAX_REFUSALS] if len(named) <= MAX_REFUSALS]
    return [f"Not now: {describe_action(a)}: {reason}." for a, reason in reasons if reason]


MAX_REFUSALS = 3  # illegal moves explained for one answer at most


def ask_move(turn: Turn) -> int:
    """The person's choice among the turn's moves (an action id), or QUIT."""
    console, moves = turn.console, turn.moves
    show_board(turn)
    while True:
        more = ", + next page" if turn.listing is not None and turn.listing.pages > 1 else ""
        answer = console.ask(f"Your move [1-{len(moves)}{more}, ? for help]: ")
        if answer is None:
            return QUIT
        command = COMMANDS.get(answer.lower())
        if command is not None:
            chosen = command(turn)
            if chosen is not None:
                return chosen
            continue
        number = as_number(answer)
        if number is not None and 1 <= number <= len(moves):
            return moves[number - 1]
        matches = None
        if answer and number is None:
            matches = filtered_listing(moves, answer, turn.layout.width, turn.page_size)
        if matches is not None:
            turn.show(matches)
            continue
        refused = refusals(answer, turn.why) if answer and number is None else []
        for line in refused or [complaint(answer, len(moves))]:
            console.say(line)


# ------------------------------------------------------------------------ the game
def play(
    config: GameConfig = DEFAULT_CONFIG,
    opponents: str | Sequence[str] = ("greedy", "random"),
    seat: int = 0,
    seed: int | None = None,
    input_fn: Callable[[str], str] = input,
    print_fn: Callable[[str], None] = print,
    record_path: str | None = None,
    layout: str = "compact",
    resume: Resumed[State, int] | None = None,
) -> GameRecord:
    """Play one game in the terminal; returns its record (unfinished if the person quit;
    for a game resumed from a saved position, its actions since that position).
    `record_path` saves it (at the end, on quit, on Ctrl-C); `resume` continues a game
    (its configuration must be the lineup's). Raises ValueError for a bad lineup, layout
    or resumed game before the game starts."""
    names = lineup(config, opponents, seat)
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; known layouts: {sorted(LAYOUTS)}")
    if resume is not None:
        check_resumed(resume, config)
    style = LAYOUTS[layout]
    console = Console(input_fn, print_fn, style.width, style.screen)
    env = asara_v0.env(
        num_players=config.num_players,
        variant=config.variant,
        expansions=config.expansions,
        render_mode="ansi",
    )
    game_seed = start_env(env, seed, resume)
    agents = {
        s: make_agent("asara", name, decision_seed(game_seed, s, 0))
        for s, name in enumerate(names)
        if name is not None
    }
    record = GameRecord(config, game_seed)
    if resume is not None:
        for action in resume.actions:
            env.step(action)
            record.actions.append(action)
    save = SaveFile(None if record_path is None else Path(record_path), "asara", names)
    shown_seed = None if resume is not None and resume.start is not None else game_seed
    console.say(intro(config, names, shown_seed, len(record.actions)))

    def saved() -> dict[str, Any]:
        return record.to_dict() if resume is None else resume.record(record.actions)

    try:
        finished = play_turns(env, console, style, record, seat, names, agents)
    except KeyboardInterrupt:
        done = len(record.actions)
        raise Interrupted(save.stopped(console, saved(), done, UNIT, shown_seed)) from None
    if not finished:
        text = save.stopped(console, saved(), len(record.actions), UNIT, shown_seed)
        console.say(f"You quit: {text}.")
        return record
    console.print(final_text(saved_state(env), names, seat, style.width))
    if record_path is None:
        save_record(console, saved(), game_seed, None)
    else:
        save.write(console, saved())
    return record


def start_env(env: AECEnv, seed: int | None, resume: Resumed[State, int] | None) -> int:
    """Reset `env` to the new game of `seed`, or to the start of the resumed game; the
    seed the opponents' seeds derive from."""
    if resume is None:
        env.reset(seed=seed)
        return int(env.unwrapped.game_seed)
    if resume.start is None:
        env.reset(seed=resume.seed)
    else:
        env.reset(options={"state": resume.start})
    return resume.seed


def check_resumed(resume: Resumed[State, int], config: GameConfig) -> None:
    """A ValueError naming both configurations unless the resumed game is `config`'s."""
    if resume.config != config:
        raise ValueError(
            f"the saved game is {config_text(resume.config)}, not {config_text(config)}"
        )


def play_turns(
    env: AECEnv,
    console: Console,
    style: Layout,
    record: GameRecord,
    seat: int,
    names: Sequence[str | None],
    agents: dict[int, Any],
) -> bool:
    """Play from the env's position to the end; False if the person quit. Each opponent
    plays decision d seeded `decision_seed(game seed, seat, d)`."""
    log = EventLog()
    year = env.last()[4]["year"]
    for agent in env.agent_iter():
        observation, _, termination, truncation, info = env.last()
        if termination or info["year"] != year:
            log.add(year_end_text(saved_state(env), year, names))
            year = info["year"]
        if termination or truncation:
            break
        mover = env.unwrapped.possible_agents.index(agent)
        if mover == seat:
            moves = [int(a) for a in observation["action_mask"].nonzero()[0]]
            why = reasons(saved_state(env))
            action = ask_move(
                Turn(console, board(env, seat, style), moves, style, log, why, log.take())
            )
            if action == QUIT:
                return False
        else:
            agents[mover].reseed(decision_seed(record.seed, mover, len(record.actions)))
            action = act_in_env(agents[mover], env, observation)
            move = public_description(action, mover, seat)  # R10.2: no hidden cards
            log.add(f"{seat_label(mover, names)}: {move}")
        env.step(action)
        record.actions.append(int(action))
    console.page_groups(console.event_groups(log.take()))
    return True


def reasons(state: State) -> Callable[[int], str | None]:
    """Why an action is not legal in `state` (None if it is), in the rules' words."""
    return lambda action: illegal_reason(state, action)


def saved_state(env: AECEnv) -> State:
    """The game as a reference state (hidden information included: not for showing)."""
    return state_from_dict(env.unwrapped.save_game())


def board(env: AECEnv, seat: int, layout: Layout) -> str:
    """The board as `seat` sees it (R10), drawn in `layout`."""
    if layout.draw is None:
        return env.render()
    return layout.draw(seat_view(saved_state(env), seat))


def intro(
    config: GameConfig, names: Sequence[str | None], game_seed: int | None, played: int
) -> str:
    """The game's first lines: `apps.console.intro_line` (`game_seed` None: a game from
    a saved position) and the seats."""
    seats = ", ".join(f"P{s} {name or 'you'}" for s, name in enumerate(names))
    first = intro_line(config_text(config), game_seed, played, "decision")
    return f"{first}\nSeats: {seats}. Type ? for help."


YEAR_END_HEADS = {"towers": "towers", "gold": "gold", "lit": "lit", "caliph": "Caliph"}


def year_end_text(state: State, year: int, names: Sequence[str | None]) -> str:
    """The end-of-year scoring that just happened (R6.2), one row per seat: the points for
    towers, visible gold tiles, lighted windows and the Caliph, and the prestige after it
    (before the final scoring, after the 4th year)."""
    heads = ["seat", *(YEAR_END_HEADS[k] for k in YEAR_END_CATEGORIES), "points", "prestige"]
    rows: list[Sequence[str | int]] = []
    for s in range(state.num_players):
        points = year_end_breakdown(state.towers[s], state.caliph == s)
        final = state.final[s]["total"] if state.final is not None else 0
        total = sum(points.values())
        rows.append([seat_label(s, names), *points.values(), total, state.prestige[s] - final])
    widths = [max(len(str(x)) for x in column) for column in zip(heads, *rows)]
    table = [
        "  ".join(
            [str(row[0]).ljust(widths[0]), *(str(x).rjust(w) for x, w in zip(row[1:], widths[1:]))]
        )
        for row in [heads, *rows]
    ]
    return "\n".join(
        [
            f"End of year {year}: 1 prestige per tower, per visible gold tile and per lighted",
            "window in a seat's towers, and 1 for the Caliph (R6.2):",
            *table,
        ]
    )


def final_text(state: State, names: Sequence[str | None], seat: int, width: int) -> str:
    """The final scoring (R8) with the seats named, and whether the person won."""
    won = winners(state)
    verdict = "You won!" if seat in won else "You lost."
    title = textwrap.wrap(f"Game over. Final scoring (you are seat {seat}):", width)
    return "\n".join(["", *title, scoring_table(state, " "), verdict])


def save_record(console: Console, record: dict[str, Any], seed: int, path: str | None) -> None:
    """Write the record (seeded `seed`) as JSON to `path`, or where the person says if
    they want it."""
    asked = path is None
    while True:
        if path is None:
            if not console.confirm("Save the game record?"):
                return
            default = f"asara-{seed}.json"
            path = console.ask(f"File name [{default}]: ") or default
        try:
            atomic_write_text(Path(path), json.dumps(record))
        except OSError as e:  # an unwritable place: say so, and ask again if we asked
            console.print(f"Could not save to {path}: {e.strerror or e}.")
            if not asked:
                return
            path = None
            continue
        break
    console.print(f"Game record saved to {path} (replay it with asara_env.asara.reference.record).")
