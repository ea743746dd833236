"""The games of the package as cards in one registry (pgx's `make`/`available_games`,
OpenSpiel's `register_game`): what a tool needs to know to run any game without naming it.

    from asara_env import games
    games.available_games()                 # ('asara', 'basari')
    env = games.make("basari", num_players=3)            # the game's PettingZoo (AEC) env
    core = games.load_core("asara")                      # CoreVerbs: init, step, ... bound once
    state = core.init(games.load_config("asara")(num_players=2), batch=64, seeds=0)
    games.reward_schemes("basari")["win"]               # the function behind reward="win"

A card holds names, not objects: every field that points into a game is a string, the
module (`"asara_env.asara.core"`) or `"module:attribute"`, imported only when asked for.
So the registry imports no game: listing the games loads each game's small `card` module
and nothing else, and importing one game never loads another.

A game joins by registering its card, without editing this file:

    games.register(GameCard(name="dice", player_counts=(2, 3), config="mygame.config:Cfg",
                            core="mygame.core", reward_schemes="mygame.core:REWARD_SCHEMES",
                            env="mygame.env:env"))

The built-in games' cards live in their folders (`asara_env/asara/card.py`,
`asara_env/basari/card.py`) and are registered on the registry's first use.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields
from functools import cache
from types import ModuleType
from typing import Any

from asara_env.common.backend import resolve_backend
from asara_env.common.outcome import RewardSchemes
from asara_env.common.status import slow_status

__all__ = [
    "CORE_VERBS",
    "ENV_KINDS",
    "CoreVerbs",
    "GAMES",
    "GameCard",
    "available_games",
    "bind_core",
    "env_factory",
    "game_card",
    "games_with",
    "load_config",
    "load_core",
    "make",
    "register",
    "resolve",
    "reward_schemes",
    "unregister",
    "warm_up",
]

# the verbs every game's core exposes, with one signature set: init(config, batch, seeds),
# step(state, actions), legal_action_mask(state), observe(state), is_terminal(state) and
# scores(state) (the final scores, tie-breaks folded in, that common.outcome's winners and
# terminal_rewards take). A turn-based game's masks, observations and actions are the
# seat to move's ([B, ...]); a simultaneous game's are every seat's ([B, P, ...]).
CORE_VERBS = ("init", "step", "legal_action_mask", "observe", "is_terminal", "scores")
ENV_KINDS = ("env", "raw_env", "parallel_env")  # the PettingZoo factories a card can name


@dataclass(frozen=True)
class CoreVerbs:
    """A game's core on one backend, looked up once: the verbs of CORE_VERBS bound as
    attributes, and the core's other names (`TURNS`, `step_observe`, `take`, ...) read
    through from `module`, then from `base`. On the numba backend `module` is the compiled
    core, which holds only what it compiles, and `base` the numpy core, which gives the
    rest. Envs, arenas and searches keep one and call through it on every step. It copies
    as itself and pickles as its (game, backend), so an env holding one deep-copies and
    travels to other processes."""

    game: str
    backend: str  # "numpy" or "numba", resolved
    module: ModuleType
    init: Callable[..., Any]
    step: Callable[..., Any]
    legal_action_mask: Callable[..., Any]
    observe: Callable[..., Any]
    is_terminal: Callable[..., Any]
    scores: Callable[..., Any]
    base: ModuleType | None = None

    @classmethod
    def of(
        cls, game: str, backend: str, module: ModuleType, base: ModuleType | None = None
    ) -> CoreVerbs:
        """The verbs of `module` (those it lacks from `base`), checked to be every one of
        CORE_VERBS; a `module` over a `base` must replace one of them at least."""
        found: dict[str, Any] = {v: getattr(module, v, getattr(base, v, None)) for v in CORE_VERBS}
        missing = [v for v, verb in found.items() if not callable(verb)]
        if missing:
            raise TypeError(f"{game}'s core {module.__name__} lacks {missing} of {CORE_VERBS}")
        if base is not None and all(found[v] is getattr(base, v, None) for v in CORE_VERBS):
            raise TypeError(
                f"{game}'s compiled core {module.__name__} replaces none of {CORE_VERBS}"
            )
        return cls(game, backend, module, base=base, **found)

    def __getattr__(self, name: str) -> Any:
        if name in ("module", "base"):  # not set yet (an object being rebuilt)
            raise AttributeError(name)
        if self.base is None or hasattr(self.module, name):
            return getattr(self.module, name)
        return getattr(self.base, name)

    def __deepcopy__(self, memo: dict[int, Any]) -> CoreVerbs:
        return self

    def __reduce__(self) -> tuple[Callable[..., CoreVerbs], tuple[str, str]]:
        return load_core, (self.game, self.backend)


_WARM: set[str] = set()  # the compiled cores warmed up in this process


def warm_up(game: str, module: ModuleType, notice: bool = True) -> float:
    """Compile `module`'s kernels (or load them from numba's on-disk cache) through its
    `warm_up()`, once per process; seconds taken (0 when already done or when the module
    has none). With `notice`, a warm-up that has to compile (numba's cache misses) says so
    on stderr when the compiler starts, and how long it took when it is done; one that
    loads from the cache but takes over a second says so on a terminal while it loads
    (`asara_env.common.status.slow_status`)."""
    warm = getattr(module, "warm_up", None)
    if warm is None or module.__name__ in _WARM:
        return 0.0
    from numba.core import event  # a compiled core is only there with numba

    compiling = _compile_notice_type()(game) if notice else None
    start = time.perf_counter()
    if compiling is None:
        warm()
    else:
        loading = f"{game}: loading the numba kernels from numba's cache"
        with (
            event.install_listener("numba:compile", compiling),
            slow_status(loading, unless=lambda: compiling.said),
        ):
            warm()
    seconds = time.perf_counter() - start
    _WARM.add(module.__name__)
    if compiling is not None and compiling.said:
        print(f"{game}: kernels compiled in {seconds:.0f} s", file=sys.stderr, flush=True)
    return seconds


@cache
def _compile_notice_type() -> type:
    from numba.core import event

    class CompileNotice(event.Listener):
        """Says once on stderr that `game`'s kernels compile, at numba's first compile."""

        def __init__(self, game: str) -> None:
            self.game, self.said = game, False

        def on_start(self, ev: object) -> None:
            if not self.said:
                self.said = True
                print(
                    f"{self.game}: compiling the numba kernels (up to a minute, once after an "
                    "install or a change of the rules' code; numba caches them) ...",
                    file=sys.stderr,
                    flush=True,
                )

        def on_end(self, ev: object) -> None:
            pass

    return CompileNotice


_NAME = re.compile(r"[a-z][a-z0-9_]*")
_REF = re.compile(r"[A-Za-z_][\w.]*(:[A-Za-z_]\w*)?")
BUILTIN_CARDS = ("asara_env.asara.card", "asara_env.basari.card")  # modules with a CARD


@dataclass(frozen=True)
class GameCard:
    """Everything the package's shared tools need to know about one game. The string
    fields are import references, "module" or "module:attribute" (see `resolve`).

    name: the registry key (lower case, e.g. "basari"). player_counts: the numbers of
    players the game supports. config: the config class (its `num_players` one of
    player_counts). core: the module exposing CORE_VERBS. reward_schemes: the dict of the
    env's `reward=` names -> scheme functions. env: the PettingZoo AEC factory `make`
    calls; raw_env / parallel_env: its other factories, if any. simultaneous: every seat
    acts every step (actions int[B, P]) rather than the seat to move (int[B]). gym_id /
    gym_env: the gymnasium id and its single-agent env class (`"module:Class"`), which
    `import asara_env` registers with gymnasium (`asara_env.gym_ids`). docs: the function
    that writes the game's generated docs. compiled_core: the module with numba kernels
    over the same state arrays (backend "numba"): the names it defines replace `core`'s,
    the others (and the verbs it leaves out) are `core`'s.
    pictures: the function `(out_dir, force) -> list[Path]` that draws the game's pictures
    for the docs with its SVG renderer (`python -m apps.screenshots`). spiel: the class
    that drives one game for its OpenSpiel form (`asara_env.integrations.openspiel`).
    """

    name: str
    player_counts: tuple[int, ...]
    config: str
    core: str
    reward_schemes: str
    env: str
    raw_env: str | None = None
    parallel_env: str | None = None
    simultaneous: bool = False
    gym_id: str | None = None
    gym_env: str | None = None
    docs: str | None = None
    compiled_core: str | None = None
    pictures: str | None = None
    spiel: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise ValueError(f"name must be lower-case letters, digits and _, got {self.name!r}")
        counts = self.player_counts
        if (
            not isinstance(counts, tuple)
            or not counts
            or not all(type(n) is int and n >= 1 for n in counts)
            or list(counts) != sorted(set(counts))
        ):
            raise ValueError(
                f"player_counts must be a tuple of increasing ints >= 1, got {counts!r}"
            )
        if not isinstance(self.simultaneous, bool):
            raise TypeError(f"simultaneous must be a bool, got {type(self.simultaneous).__name__}")
        for f in fields(self):
            if f.name not in ("name", "player_counts", "simultaneous", "gym_id"):
                _check_ref(f.name, getattr(self, f.name), optional=f.default is None)

    def load_core(self, backend: str | None = None) -> CoreVerbs:
        """The core's verbs on `backend` ("numpy", "numba" or None for the default, see
        `asara_env.common.backend.resolve_backend`), checked to be every one of CORE_VERBS
        and bound once. A game without a compiled core runs its numpy core on every
        backend."""
        chosen = resolve_backend(backend)
        ref = self.compiled_core if chosen == "numba" and self.compiled_core else self.core
        if ref != self.compiled_core:
            return CoreVerbs.of(self.name, chosen, importlib.import_module(ref))
        base = importlib.import_module(self.core)
        verbs = CoreVerbs.of(self.name, chosen, importlib.import_module(ref), base)
        warm_up(self.name, verbs.module)
        return verbs

    def env_factory(self, kind: str = "env") -> Callable[..., Any]:
        """The PettingZoo factory of `kind` (one of ENV_KINDS the card names)."""
        if kind not in ENV_KINDS:
            raise ValueError(f"kind must be one of {list(ENV_KINDS)}, got {kind!r}")
        ref = getattr(self, kind)
        if ref is None:
            named = [k for k in ENV_KINDS if getattr(self, k) is not None]
            raise ValueError(f"{self.name} has no {kind} factory; it has {named}")
        factory: Callable[..., Any] = resolve(ref)
        return factory


def _check_ref(field: str, ref: object, optional: bool) -> None:
    if ref is None and optional:
        return
    if not isinstance(ref, str):
        raise TypeError(f"{field} must be an import reference string, got {type(ref).__name__}")
    if not _REF.fullmatch(ref):
        raise ValueError(f"{field} must be 'module' or 'module:attribute', got {ref!r}")


def resolve(ref: str) -> Any:
    """The object an import reference names: a module ("pkg.mod") or one of its attributes
    ("pkg.mod:name"), imported now."""
    module, _, attribute = ref.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


# ------------------------------------------------------------------------------ the registry
_CARDS: dict[str, GameCard] = {}
_builtins_loaded = False


def _cards() -> dict[str, GameCard]:
    """The registered cards, the built-in games' registered on first use."""
    global _builtins_loaded
    if not _builtins_loaded:
        for module in BUILTIN_CARDS:
            card = importlib.import_module(module).CARD
            _CARDS.setdefault(card.name, card)
        _builtins_loaded = True
    return _CARDS


class _Registry(Mapping[str, GameCard]):
    """A read-only view of the registered cards by name; `register` adds to it."""

    def __getitem__(self, name: str) -> GameCard:
        return _cards()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_cards())

    def __len__(self) -> int:
        return len(_cards())

    def __repr__(self) -> str:
        return f"GAMES({sorted(_cards())})"


GAMES: Mapping[str, GameCard] = _Registry()


def register(card: GameCard, replace: bool = False) -> GameCard:
    """Add `card` to the registry (a ValueError if its name is taken, unless `replace`)."""
    if not isinstance(card, GameCard):
        raise TypeError(f"card must be a GameCard, got {type(card).__name__}")
    cards = _cards()
    if card.name in cards and not replace and cards[card.name] != card:
        raise ValueError(f"a game named {card.name!r} is already registered")
    cards[card.name] = card
    return card


def unregister(name: str) -> GameCard:
    """Remove game `name` from the registry (e.g. a test's game); returns its card."""
    card = game_card(name)
    del _cards()[name]
    return card


def available_games() -> tuple[str, ...]:
    """The registered games' names, in registration order."""
    return tuple(_cards())


def games_with(module: str) -> tuple[str, ...]:
    """The registered games, in registration order, that have the module `module` names
    once `{game}` in it is the game's name (`"apps.{game}.web"`: the games with a web
    page), found without importing it (its parent packages are imported): what a layer
    above offers per game follows the cards, never a list of its own."""
    return tuple(name for name in _cards() if _module_exists(module.format(game=name)))


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


def game_card(name: str) -> GameCard:
    """The card of game `name`; a ValueError naming the registered games otherwise."""
    cards = _cards()
    if not isinstance(name, str) or name not in cards:
        raise ValueError(f"game must be one of {list(cards)}, got {name!r}")
    return cards[name]


def make(name: str, **kwargs: Any) -> Any:
    """Game `name`'s PettingZoo AEC env, made with `kwargs` (the game's env arguments)."""
    return game_card(name).env_factory("env")(**kwargs)


def env_factory(name: str, kind: str = "env") -> Callable[..., Any]:
    """Game `name`'s PettingZoo factory of `kind` ("env", "raw_env" or "parallel_env")."""
    return game_card(name).env_factory(kind)


def load_core(name: str, backend: str | None = None) -> CoreVerbs:
    """Game `name`'s vectorised core on `backend` ("numpy", "numba", None: the default):
    its CORE_VERBS bound once, its other names read through (`CoreVerbs`)."""
    return game_card(name).load_core(backend)


def bind_core(name: str, core: CoreVerbs | str | None) -> CoreVerbs:
    """Game `name`'s core verbs from `core`: verbs already bound (of that game) as they
    are, a backend name or None looked up once (`load_core`)."""
    if isinstance(core, CoreVerbs):
        if core.game != name:
            raise ValueError(f"core must be {name}'s verbs, got {core.game}'s")
        return core
    return load_core(name, core)


def load_config(name: str) -> type:
    """Game `name`'s config class."""
    config: type = resolve(game_card(name).config)
    return config


def reward_schemes(name: str) -> RewardSchemes:
    """Game `name`'s reward schemes: its env's `reward=` names -> scheme functions."""
    schemes: RewardSchemes = resolve(game_card(name).reward_schemes)
    return schemes
