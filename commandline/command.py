"""What every console script shares: typed, bounded argparse types, a parser that shows
its defaults, and `run_main`, the wrapper that turns any failure into one line.

A usage error (a bad value) is the parser's: exit status 2 and one line on stderr naming
the argument, before any work starts. A module of an extra that is not installed is also
one line and exit status 2, naming the extra to install (`exit_missing_extra`). Any other
failure ends with exit status 1 and one
line (`--debug` anywhere on the command line, or ASARA_DEBUG=1, shows the traceback
instead); Ctrl-C ends with exit status 130 and one line saying what was saved.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from asara_env.common.extras import MissingExtraError, missing_extra

SEED_LIMIT = 2**63  # seeds are 63-bit (asara_env.common.seeding)
R = TypeVar("R")


class Interrupted(Exception):
    """Raised on Ctrl-C by a command that saved what it had finished (the message says
    what and where); `run_main` prints it and exits with status 130."""


class Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """--help shows every option's default (unless None, False or already said) and keeps
    the description's line breaks."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default is None or action.default is False or "default" in text:
            return action.help
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """An `ArgumentParser` whose usage errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {text} (--help lists the options)\n")


def parser(prog: str, description: str | None = None) -> argparse.ArgumentParser:
    """A `Parser` whose --help shows the defaults."""
    return Parser(prog=prog, description=description, formatter_class=Formatter)


# ---------------------------------------------------------------------------- types
def bounded_int(low: int, high: int | None = None, what: str = "int") -> Callable[[str], int]:
    """An argparse type: an int in [low, high] (no upper bound if `high` is None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {what}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            least = "a non-negative int" if low == 0 else f"at least {low}"
            top = "" if high is None else f" and at most {high}"
            top = " below 2**63" if high == SEED_LIMIT - 1 else top
            raise argparse.ArgumentTypeError(f"must be {least}{top}, got {value}")
        return value

    parse.__name__ = what
    return parse


def bounded_float(
    low: float, high: float | None = None, open_low: bool = False
) -> Callable[[str], float]:
    """An argparse type: a finite number in [low, high] ((low, high] with `open_low`)."""
    bound = f"{'>' if open_low else '>='} {low:g}" + ("" if high is None else f" and <= {high:g}")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
        too_low = value <= low if open_low else not value >= low
        too_high = not value < float("inf") or (high is not None and value > high)
        if too_low or too_high:
            raise argparse.ArgumentTypeError(f"must be a number {bound}, got {text}")
        return value

    parse.__name__ = "number"
    return parse


seed = bounded_int(0, SEED_LIMIT - 1, "a non-negative int")
positive = bounded_int(1, None, "a positive int")
non_negative = bounded_int(0, None, "a non-negative int")
non_negative_float = bounded_float(0.0)


def existing_file(text: str) -> Path:
    """An argparse type: the path of a readable file."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no file at {text}")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"{text} is not readable")
    return path


def writable_problem(path: Path) -> str:
    """'' if a file (or folder) could be created or replaced at `path`, else why not."""
    if path.is_dir():
        return f"{path} is a folder"
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        return f"{parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{parent} is not writable"
    return ""


def writable_file(text: str) -> Path:
    """An argparse type: a path where a file can be written (its folder exists and is
    writable; checked before any work)."""
    path = Path(text)
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"no folder {path.parent} to write {text} in")
    problem = writable_problem(path)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return path


def writable_dir(text: str) -> Path:
    """An argparse type: a folder that exists or can be made, and is writable."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a folder")
    if path.is_dir():
        if not os.access(path, os.W_OK | os.X_OK):
            raise argparse.ArgumentTypeError(f"{text} is not writable")
        return path
    problem = writable_problem(path)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return path


def player_counts(game: str) -> tuple[int, ...]:
    """The player counts game `game`'s card allows (`asara_env.games`)."""
    from asara_env.games import game_card

    return game_card(game).player_counts


def add_players_argument(
    parser: argparse.ArgumentParser,
    game: str,
    default: int | list[int] | None,
    help: str = "seats per game",
    many: bool = False,
    flag: str = "--players",
) -> None:
    """`--players` (or `flag`): one of the player counts of `game`'s card (with `many`,
    one or more, `default` then a list)."""
    parser.add_argument(
        flag,
        type=int,
        nargs="+" if many else None,
        choices=player_counts(game),
        default=default,
        help=help,
    )


def add_save_arguments(parser: argparse.ArgumentParser, game: str) -> None:
    """A terminal game's --save, --resume and --force."""
    parser.add_argument(
        "--save",
        type=writable_file,
        metavar="FILE",
        help="save the game (JSON) here when it ends, when you quit and on Ctrl-C (the path "
        "is checked before the game)",
    )
    parser.add_argument(
        "--resume",
        type=existing_file,
        metavar="FILE",
        help=f"continue a {game} game from its last position: a file of --save, the web "
        "page's download, a game record or an env's save_game()",
    )
    parser.add_argument("--force", action="store_true", help="let --save replace an existing file")


def check_save_path(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A usage error unless `--save` may be written: a new file, the file being resumed,
    or any file with --force."""
    path, resumed = args.save, args.resume
    if path is None or not path.exists():
        return
    if args.force or (resumed is not None and path.samefile(resumed)):
        return
    parser.error(f"argument --save: {path} exists: --force to replace it, or name another file")


def check_new_files(
    parser: argparse.ArgumentParser, args: argparse.Namespace, names: tuple[str, ...]
) -> None:
    """A usage error (before any work) if an output option of `names` (dests, e.g.
    "save_record") names an existing file and `args.force` is not set, or two of them name
    the same file."""
    given = [(n, getattr(args, n)) for n in names if getattr(args, n) is not None]
    for name, path in given:
        option = "--" + name.replace("_", "-")
        if path.exists() and not args.force:
            parser.error(
                f"argument {option}: {path} exists: --force to replace it, or name another file"
            )
    paths = [Path(path).resolve() for _, path in given]
    if len(set(paths)) < len(paths):
        options = ", ".join("--" + n.replace("_", "-") for n, _ in given)
        parser.error(f"argument {options.split(', ')[-1]}: {options} name the same file")


def lineup_error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """A usage error of a play command's lineup (`--players`, `--seat`, `--opponents`),
    the argument named from the message."""
    flag = next((f for f in ("seat", "players") if message.startswith(f)), "opponents")
    parser.error(f"argument --{flag}: {message}")


# ---------------------------------------------------------------------------- running
MISSING_EXTRA_STATUS = 2  # an extra to install is a usage error: nothing has run


def exit_missing_extra(prog: str, error: MissingExtraError) -> NoReturn:
    """One line on stderr naming the extra `error` asks for; exit status 2."""
    print(f"{prog}: error: {error}", file=sys.stderr)
    raise SystemExit(MISSING_EXTRA_STATUS)


def run_main(prog: str) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """A decorator for a console script's `main(argv=None)`: `--debug` is taken off the
    command line; a module of an uninstalled extra is one line naming the extra and exit
    status 2; any other exception becomes one line on stderr and exit status 1 (the
    traceback with --debug), Ctrl-C one line and exit status 130. A usage error's
    SystemExit (status 2) passes through untouched."""

    def wrap(main: Callable[..., R]) -> Callable[..., R]:
        @functools.wraps(main)
        def wrapped(argv: list[str] | None = None, *rest: Any, **kw: Any) -> R:
            args = list(sys.argv[1:] if argv is None else argv)
            debug = "--debug" in args or os.environ.get("ASARA_DEBUG") == "1"
            args = [a for a in args if a != "--debug"]
            try:
                return main(args, *rest, **kw)
            except KeyboardInterrupt:
                print(f"{prog}: interrupted", file=sys.stderr)
                raise SystemExit(130) from None
            except Interrupted as e:
                print(f"{prog}: interrupted; {e}", file=sys.stderr)
                raise SystemExit(130) from None
            except Exception as e:
                missing = missing_extra(e, "this command")
                if missing is not None and not debug:
                    exit_missing_extra(prog, missing)
                if debug:
                    raise
                text = " ".join(str(e).split()) or type(e).__name__
                print(f"{prog}: error: {text} (--debug shows the traceback)", file=sys.stderr)
                raise SystemExit(1) from None

        return wrapped

    return wrap


def positive_int(text: str) -> int:
    """An argparse `type`: a whole number above 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number above 0, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number above 0, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """An argparse `type`: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a finite number above 0, got {text!r}")
    return value


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The web page's address and limits (`asara serve`, `asara-serve`, `basari-serve`)."""
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (checked before anything loads)",
    )
    port = bounded_int(0, 65535, "a port number")
    parser.add_argument(
        "--port", type=port, default=8000, help="port to listen on (0: any free one, printed)"
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer requests whose Host header names NAME (repeatable; '*': any). "
        "By default only localhost, 127.0.0.1, ::1 and --host itself: a page on another "
        "site cannot reach the server through its own name (DNS rebinding)",
    )
    parser.add_argument(
        "--trust-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="take a client's address from the X-Forwarded-For header of requests that come "
        "from ADDRESS, a reverse proxy in front of the server (repeatable or comma-separated; "
        "'*': any). By default the header is ignored: a client's address is its connection's",
    )
    add_serve_limits(parser)


def add_serve_limits(parser: argparse.ArgumentParser) -> None:
    """The web page's limits: games held, idle time, game threads, records, body size."""
    parser.add_argument(
        "--max-games",
        type=positive_int,
        default=200,
        help="games held at once (and as many uploads); a new one evicts its client's least "
        "recently used when that client holds --max-client-games, else, when full, the least "
        "recently used of the client holding the most (default 200)",
    )
    parser.add_argument(
        "--max-client-games",
        type=positive_int,
        default=20,
        help="games (and uploads) held for one client: a browser, by a cookie, or a "
        "program that sends none, by its address (default 20)",
    )
    parser.add_argument(
        "--idle-minutes",
        type=positive_float,
        default=60.0,
        help="a game unused this long is evicted (default 60)",
    )
    parser.add_argument(
        "--game-threads",
        type=positive_int,
        default=4,
        help="threads playing the games' moves and the opponents' replies; other requests "
        "never wait for them (default 4)",
    )
    parser.add_argument(
        "--game-queue",
        type=bounded_int(0, None, "a non-negative int"),
        default=32,
        help="moves waiting for a game thread; more are refused at once with 503 (default 32)",
    )
    parser.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="DIR",
        help="write each finished game evicted here first (default: nowhere; a folder, made "
        "if missing, checked before anything loads)",
    )
    parser.add_argument(
        "--max-body-kib",
        type=positive_int,
        default=256,
        help="largest request body in KiB; larger ones get 413 (default 256)",
    )
    parser.add_argument(
        "--api-docs",
        action="store_true",
        help="serve the API's own pages (/docs, /redoc, /openapi.json); off by default",
    )
