"""The reference engine's state: one game, plain Python objects and small numpy count tables.

Tile stacks and the draw pile are kept as multisets (counts). They are shuffled whenever
anyone could learn their order (R4.5, R6.1), so drawing uniformly from the counts is the
same game as drawing from the top of a shuffled stack, and no hidden order exists. The
lighted-window stack keeps its order: returned windows go to the bottom (R7.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from asara_env.asara.config import GameConfig
from asara_env.asara.constants import (
    N_AREAS,
    N_CARD_COLOURS,
    N_CHESTS,
    N_GIFT_KINDS,
    N_GOLD,
    N_PARTS,
    N_TILE_COLOURS,
    SPACE_VALUES,
    Area,
    Part,
)
from asara_env.asara.phases import Phase, full_tile_counts


@dataclass
class Tower:
    """One tower: its colour, its tiles by part and gold, and its lighted windows."""

    colour: int
    parts: np.ndarray = field(default_factory=lambda: np.zeros((N_PARTS, N_GOLD), np.int64))
    lit_plain: int = 0  # lighted windows lying on plain windows
    lit_gold: int = 0  # 1 if a lighted window covers the gold window

    @property
    def height(self) -> int:  # R4.2.7: lighted windows add no height
        return int(self.parts.sum())

    @property
    def lit(self) -> int:
        return self.lit_plain + self.lit_gold

    @property
    def visible_gold(self) -> int:  # R6.2: a covered gold window does not count
        return int(self.parts[:, 1].sum()) - self.lit_gold

    def has(self, part: int) -> bool:
        return bool(self.parts[part].sum() > 0)

    @property
    def complete(self) -> bool:  # R4.2.6
        return self.has(Part.BASE) and self.has(Part.TURRET)

    def free_windows(self, gold: int) -> int:
        """Windows of this kind (plain 0 / gold 1) without a lighted window on them."""
        covered = self.lit_gold if gold else self.lit_plain
        return int(self.parts[Part.WINDOW, gold]) - covered

    def copy(self) -> Tower:
        return Tower(self.colour, self.parts.copy(), self.lit_plain, self.lit_gold)


@dataclass
class Buyer:
    """Cards one player placed on one space (or one card on the coloured building)."""

    seat: int
    cards: tuple[int, ...]  # card colours, sorted
    face_up: bool


@dataclass
class State:
    """Everything about one game. P = number of players; seats are 0..P-1 clockwise."""

    config: GameConfig
    rng: np.random.Generator  # the game's only source of chance
    year: int  # 1..4
    phase: Phase
    seat: int  # the seat to decide now
    caliph: int  # seat holding the Caliph tile
    money: list[int]  # [P] Asari behind each screen
    prestige: list[int]  # [P] prestige track
    hands: np.ndarray  # int[P, card colour] cards in hand
    draw_pile: np.ndarray  # int[card colour]
    stacks: np.ndarray  # int[part, colour, gold] face-down tile stacks
    displays: np.ndarray  # int[part, colour, gold] face-up market tiles
    supply: np.ndarray  # int[P, part, colour, gold] unbuilt tiles behind screens
    lighted_supply: np.ndarray  # int[P, colour] unbuilt lighted windows
    lighted_stack: list[list[int]]  # top first: [colour, seat that put it back or -1]
    towers: list[list[list[Tower]]]  # [P][colour] towers, in the order they were started
    area_colour: list[int]  # [area] required card colour, -1 = none yet (R3.2)
    spaces: list[list[Buyer | None]]  # [area][space] buyer on each space
    coloured: list[Buyer]  # cards on the coloured building, in order
    market: int = -1  # BUY: the part type of the market bought from
    bribe_stack: int = -1  # BRIBE_TAKE: the stack searched
    lights_drawn: list[int] = field(default_factory=list)  # LIGHTS_KEEP: drawn, not yet kept
    lights_keep: int = 0  # LIGHTS_KEEP: windows still to keep
    build_left: int = 0  # BUILD: tiles still to place
    # R9.2 gifts (all empty without the expansion)
    gift_pile: np.ndarray = field(default_factory=lambda: np.zeros(N_GIFT_KINDS, np.int64))
    gifts: list[list[int]] = field(default_factory=lambda: [[] for _ in range(N_CHESTS)])
    gift_queue: list[int] = field(default_factory=list)  # gifts still to carry out, in order
    gift_chest: int = -1  # the chest whose gifts are being carried out
    pending_target: int = -1  # the placement target whose move follows the gifts
    pending_space: int = -1  # the space (index within its area) that placement took
    decisions: int = 0  # decisions taken so far
    # final-scoring breakdown per seat, once the game is over
    final: list[dict[str, Any]] | None = None

    @property
    def num_players(self) -> int:
        return self.config.num_players

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.GAME_OVER

    def copy(self) -> State:
        """A deep copy, including the random generator's state."""
        rng = np.random.Generator(type(self.rng.bit_generator)())
        rng.bit_generator.state = self.rng.bit_generator.state
        return State(
            config=self.config,
            rng=rng,
            year=self.year,
            phase=self.phase,
            seat=self.seat,
            caliph=self.caliph,
            money=list(self.money),
            prestige=list(self.prestige),
            hands=self.hands.copy(),
            draw_pile=self.draw_pile.copy(),
            stacks=self.stacks.copy(),
            displays=self.displays.copy(),
            supply=self.supply.copy(),
            lighted_supply=self.lighted_supply.copy(),
            lighted_stack=[list(x) for x in self.lighted_stack],
            towers=[[[t.copy() for t in col] for col in seat] for seat in self.towers],
            area_colour=list(self.area_colour),
            spaces=[list(area) for area in self.spaces],
            coloured=list(self.coloured),
            market=self.market,
            bribe_stack=self.bribe_stack,
            lights_drawn=list(self.lights_drawn),
            lights_keep=self.lights_keep,
            build_left=self.build_left,
            gift_pile=self.gift_pile.copy(),
            gifts=[list(g) for g in self.gifts],
            gift_queue=list(self.gift_queue),
            gift_chest=self.gift_chest,
            pending_target=self.pending_target,
            pending_space=self.pending_space,
            decisions=self.decisions,
            final=None if self.final is None else [dict(d) for d in self.final],
        )


def empty_state(config: GameConfig, rng: np.random.Generator) -> State:
    """A state before set-up: all tiles in the stacks, nothing dealt."""
    p = config.num_players
    return State(
        config=config,
        rng=rng,
        year=1,
        phase=Phase.PLACE,
        seat=config.start_seat,
        caliph=config.start_seat,
        money=[0] * p,
        prestige=[0] * p,
        hands=np.zeros((p, N_CARD_COLOURS), np.int64),
        draw_pile=np.zeros(N_CARD_COLOURS, np.int64),
        stacks=full_tile_counts(),
        displays=np.zeros((N_PARTS, N_TILE_COLOURS, N_GOLD), np.int64),
        supply=np.zeros((p, N_PARTS, N_TILE_COLOURS, N_GOLD), np.int64),
        lighted_supply=np.zeros((p, N_TILE_COLOURS), np.int64),
        lighted_stack=[],
        towers=[[[] for _ in range(N_TILE_COLOURS)] for _ in range(p)],
        area_colour=[-1] * N_AREAS,
        spaces=[[None] * len(SPACE_VALUES[Area(a)]) for a in range(N_AREAS)],
        coloured=[],
    )
