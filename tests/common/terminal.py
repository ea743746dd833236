"""A scripted terminal of 80x24 for the terminal games' tests: every printed line is
kept, and at each prompt the screen is the last 23 lines printed and the prompt."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

WIDTH, HEIGHT = 80, 24
MOVE = re.compile(r"Your move \[1-(\d+)")


class Terminal:
    """`print_fn` and `input_fn` of a game; `answer(prompt)` gives the answers."""

    def __init__(self, answer: Callable[[str], str]) -> None:
        self.answer = answer
        self.lines: list[str] = []
        self.screens: list[list[str]] = []  # what the person saw at each prompt
        self.answers: list[str] = []

    def print(self, text: str = "") -> None:
        self.lines += str(text).split("\n")

    def input(self, prompt: str) -> str:
        self.screens.append([*self.lines[-(HEIGHT - 1) :], prompt])
        reply = self.answer(prompt)
        self.answers.append(reply)
        self.lines.append(prompt + reply)
        return reply

    def too_wide(self) -> list[str]:
        return [line for line in self.lines if len(line) > WIDTH]


class Player:
    """Answers the k-th move prompt it decides with the k-th of a seeded list of numbers
    (so a resumed game can go on with the same answers), a pause with Enter, other
    questions from `replies` (prompt prefix -> answer); `script` answers first."""

    def __init__(self, seed: int, start: int = 0, script=(), replies=None, stop=None):
        rng = random.Random(seed)
        self.uniforms = [rng.random() for _ in range(4000)]
        self.decided = start
        self.script = list(script)
        self.replies = {"--": "", **(replies or {})}
        self.stop = stop  # after this many decisions: quit

    def __call__(self, prompt: str) -> str:
        move = MOVE.match(prompt)
        if move and self.script:
            return self.script.pop(0)
        if move and self.stop is not None and self.decided >= self.stop:
            self.script = []
            return "q"
        if move:
            k = int(move.group(1))
            self.decided += 1
            return str(1 + int(self.uniforms[self.decided - 1] * k))
        return next(a for p, a in self.replies.items() if prompt.startswith(p))
