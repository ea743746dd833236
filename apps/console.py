"""The terminal pieces every game's terminal front end uses: where the game talks to the
person (`Console`), what happened since the person's last decision (`EventLog`), fitting
a decision's screen into the terminal (`Console.show_turn`, `Console.page`), the saved
game written on quit and at the end (`SaveFile`), the opponents' seeds, answers read as
numbers, items set in columns, help wrapped on word boundaries.

A screen of `height` lines holds the last `height` lines printed, the prompt included.
At each decision the board, the events since the person's last decision and the moves
are shown together when they fit; when they do not, the events are shown first a
screenful at a time, each screenful held by a pause prompt, and the board then says
that `l` shows them again.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path

from asara_env.common.record import SavedGame, write_saved_game
from asara_env.common.seeding import derived_seed

SCREEN_WIDTH = 80  # the terminal the compact layouts fit
SCREEN_HEIGHT = 24
EVENTS_TITLE = "Since your last decision:"
CONTINUE = "-- Enter: continue --"
EVENTS_ABOVE = "(What happened since your last decision is above; l shows it again.)"
ENTRY = re.compile(r"^(\s+\S.*?\s{2,})\S")  # an indented list entry: its name, the gap
AGENT_SEED_OFFSET = 1000  # opponent in seat s: derived_seed(game seed, 1000 + s), then the decision


def decision_seed(game_seed: int, seat: int, decision: int) -> int:
    """The seed an opponent in `seat` plays decision `decision` (the game's action count so
    far) with: a game resumed from a save plays on exactly as it would have."""
    return derived_seed(derived_seed(game_seed, AGENT_SEED_OFFSET + seat), decision)


def wrapped(text: str, width: int, indent: str = "") -> list[str]:
    """`text` (paragraphs split at newlines) broken between words to `width` columns, the
    continuation lines indented by `indent` plus the line's own leading spaces; an
    indented entry of a list ("  q, quit   end the game") continues under its text."""
    lines: list[str] = []
    for line in text.splitlines():
        entry = ENTRY.match(line)
        lead = " " * len(entry.group(1)) if entry else line[: len(line) - len(line.lstrip())]
        indent_here = "" if entry else indent
        lines += textwrap.wrap(
            line,
            width,
            subsequent_indent=lead + indent_here,
            break_long_words=False,
            break_on_hyphens=False,
        ) or [""]
    return lines


@dataclass
class EventLog:
    """What happened since the person's last decision (`recent`: events, a table being
    one event of several lines) and what happened before it (`last`, for `l`)."""

    recent: list[str] = field(default_factory=list)
    last: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        if text.strip("\n"):
            self.recent.append(text.strip("\n"))

    def take(self) -> list[str]:
        """The recent events, now cleared (and kept for `l`)."""
        taken, self.recent = self.recent, []
        if taken:
            self.last = taken
        return taken


@dataclass
class Console:
    """Where the game talks to the person: `input`/`print` unless a test scripts them;
    `height` lines of `width` columns (height None: a screen without a bottom, every line
    kept)."""

    input: Callable[[str], str]
    print: Callable[[str], None]
    width: int = SCREEN_WIDTH
    height: int | None = SCREEN_HEIGHT

    def confirm(self, question: str) -> bool:
        return (self.ask(f"{question} [y/N] ") or "").lower() in ("y", "yes")

    def ask(self, prompt: str) -> str | None:
        """The stripped answer, or None at the end of the input (Ctrl-D)."""
        try:
            return self.input(prompt).strip()
        except EOFError:
            self.print("")
            return None

    def say(self, text: str) -> None:
        """`text` printed with every line broken between words to the width."""
        self.print("\n".join(wrapped(text, self.width, "  ")))

    def page(self, lines: Sequence[str]) -> bool:
        """`lines` a screenful at a time, each held by a pause prompt (no pause without a
        bottom); False if the input ended during a pause."""
        return self.page_groups([[line] for line in lines])

    def page_groups(self, groups: Sequence[Sequence[str]]) -> bool:
        """The groups of lines a screenful at a time, a group never split across two
        unless it is longer than a screen."""
        lines = [line for group in groups for line in group]
        if self.height is None:
            self.print("\n".join(lines))
            return True
        starts = list(accumulate(len(group) for group in groups))[:-1]
        step, first = self.height - 1, 0
        while first < len(lines):
            end = min(first + step, len(lines))
            cuts = [s for s in starts if first < s <= end]
            if end < len(lines) and cuts:
                end = max(cuts)
            self.print("\n".join(lines[first:end]))
            if self.ask(CONTINUE) is None:
                return False
            first = end
        return True

    def event_groups(self, events: Sequence[str]) -> list[list[str]]:
        """The events under their title, each indented and broken between words to the
        width."""
        if not events:
            return []
        groups = [wrapped(f"  {e}".replace("\n", "\n  "), self.width, "  ") for e in events]
        return [[EVENTS_TITLE, *groups[0]], *groups[1:]]

    def events_block(self, events: Sequence[str]) -> list[str]:
        """`event_groups` as lines."""
        return [line for group in self.event_groups(events) for line in group]

    def show_turn(self, board: str, events: Sequence[str], keep: int) -> int:
        """The board and the events since the person's last decision, with `keep` lines
        left for the moves and the prompt; returns the lines printed. Events that do not
        fit are shown first (`page_groups`) and the board points to them instead."""
        lines = board.splitlines()
        block = self.events_block(events)
        if self.height is not None and len(lines) + len(block) + keep > self.height:
            self.page_groups(self.event_groups(events))
            block = [EVENTS_ABOVE]
        self.print(board)
        if block:
            self.print("\n".join(block))
        return len(lines) + len(block)

    def show_log(self, log: EventLog) -> None:
        """The `l` command: what happened before the person's last decision or this one."""
        if log.last:
            self.page_groups(self.event_groups(log.last))
        else:
            self.print("Nothing has happened since your last decision.")


@dataclass
class SaveFile:
    """Where a terminal game is saved (`path` None: nowhere): written whole on quit, on
    Ctrl-C and at the end, by the shared format of `asara_env.common.record`."""

    path: Path | None
    game: str
    seats: list[str | None]

    def write(self, console: Console, record: dict[str, object], quiet: bool = False) -> bool:
        """Save `record` (the game's record dict); says where (unless `quiet`), or why not.
        True if saved."""
        if self.path is None:
            return False
        try:
            write_saved_game(self.path, SavedGame(self.game, dict(record), list(self.seats)))
        except OSError as e:
            console.say(f"Could not save to {self.path}: {e.strerror or e}.")
            return False
        if not quiet:
            console.print(f"Game saved to {self.path}.")
            console.say("Continue it with --resume and this file.")
        return True

    def stopped(
        self, console: Console, record: dict[str, object], done: int, unit: str, seed: int | None
    ) -> str:
        """Save a game the person stopped (quit or Ctrl-C) and return what every game then
        says, once: how far it got (`done` `unit`s, every seat's counted), its seed (None:
        a game from a saved position, which no seed plays again) and where it is kept."""
        saved = self.write(console, record, quiet=True)
        moves = f"{done} {unit}{'' if done == 1 else 's'} of all seats"
        if saved:
            kept = f"saved in {self.path}: continue it with --resume {self.path}"
        else:
            kept = "not saved" + (" (--save FILE keeps a game)" if self.path is None else "")
        seeded = "" if seed is None else f", seed {seed}"
        return f"the game stopped after {moves}{seeded}; it is {kept}"


def columns(items: Sequence[str], width: int, indent: str = "  ") -> list[str]:
    """The items left-aligned in as many equal columns as fit in `width`."""
    cell = max(map(len, items)) + 3
    per_line = max(1, (width - len(indent)) // cell)
    rows = [items[i : i + per_line] for i in range(0, len(items), per_line)]
    return [indent + "".join(item.ljust(cell) for item in row).rstrip() for row in rows]


def as_number(answer: str) -> int | None:
    try:
        return int(answer)
    except ValueError:
        return None


def intro_line(config: str, seed: int | None, played: int, unit: str) -> str:
    """A game's first line: its configuration, and how to play it again (its seed) or
    where it was continued (after `played` `unit`s; from a saved position when `seed` is
    None)."""
    done = f"{played} {unit}{'' if played == 1 else 's'}"
    if seed is None:
        return f"{config}, continued from a saved position" + (f" after {done}." if played else ".")
    again = f"continued after {done}" if played else f"play it again with --seed {seed}"
    return f"{config}, seed {seed} ({again})."
