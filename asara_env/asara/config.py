"""Game configuration: players, variant, expansions, starting seat."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from asara_env.asara.constants import (
    KNOWN_EXPANSIONS,
    LIGHTS_OPTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_CARDS,
    N_LIGHTED,
    N_TILE_COLOURS,
    N_YEARS,
    TILES_PER_COLOUR,
    gift_pile,
)
from asara_env.common.validate import check_choice, check_int, check_names

VARIANTS = ("basic", "pro")


@dataclass(frozen=True)
class GameConfig:
    """One game's configuration. Invalid values raise `ValueError` naming the problem.

    num_players: 2..4. variant: "basic" or "pro" (R7). expansions: one name or a sequence
    of names from ("genie", "gifts") (R9), kept sorted. start_seat: the seat that starts
    year 1 and holds the Caliph tile (R6.1).
    """

    num_players: int = 4
    variant: str = "basic"
    expansions: tuple[str, ...] = field(default=())
    start_seat: int = 0

    def __post_init__(self) -> None:
        n = check_int("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        object.__setattr__(self, "num_players", n)
        check_choice("variant", self.variant, VARIANTS)
        expansions = check_names("expansions", self.expansions, KNOWN_EXPANSIONS, "expansion")
        object.__setattr__(self, "expansions", expansions)
        object.__setattr__(self, "start_seat", check_int("start_seat", self.start_seat, 0, n - 1))
        if "genie" in self.expansions and self.variant != "pro":
            raise ValueError("the 'genie' expansion needs the professional variant (variant='pro')")

    @property
    def pro(self) -> bool:
        return self.variant == "pro"

    @property
    def has_genie(self) -> bool:
        """The Bottle Genie expansion (R9.1) is in play."""
        return "genie" in self.expansions

    @property
    def has_gifts(self) -> bool:
        """The Gifts of the Caliph expansion (R9.2) is in play."""
        return "gifts" in self.expansions

    @property
    def max_decisions(self) -> int:
        """An upper bound on the decisions of one game. Each placement moves at least one
        card to the board (45 per year); a turn asks at most 3 non-build sub-decisions
        (bribery 2; lighted windows 1 + 2 kept), one more with the Genie (R9.1); a build
        asks one per tile, and at most all 100 tiles and 15 lighted windows are ever built;
        each gift card asks at most one decision (R9.2)."""
        subdecisions = 1 + max(kept for _, _, kept in LIGHTS_OPTIONS) if self.pro else 2
        subdecisions += self.has_genie
        tiles = sum(TILES_PER_COLOUR) * N_TILE_COLOURS + (N_LIGHTED if self.pro else 0)
        gifts = sum(gift_pile(self.pro)) if self.has_gifts else 0
        return N_YEARS * N_CARDS * (1 + subdecisions) + tiles + gifts

    def to_dict(self) -> dict[str, Any]:
        return {
            "num_players": self.num_players,
            "variant": self.variant,
            "expansions": list(self.expansions),
            "start_seat": self.start_seat,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameConfig:
        if not isinstance(d, dict):
            raise ValueError(f"config must be a dict, got {type(d).__name__}")
        unknown = set(d) - {"num_players", "variant", "expansions", "start_seat"}
        if unknown:
            raise ValueError(f"unknown config keys: {sorted(unknown)}")
        return cls(
            num_players=d.get("num_players", 4),
            variant=d.get("variant", "basic"),
            expansions=d.get("expansions", ()),
            start_seat=d.get("start_seat", 0),
        )
