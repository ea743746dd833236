"""The command-line reference page, generated from the console scripts' own parsers, so
it cannot drift from them: `python -m apps.cli_reference [PATH]` (`make docs`) writes
docs/cli.md, one section per console script (and per subcommand) with its `--help`.

Each script's parser is caught as the script builds it: its `main` runs with `--help`
while `ArgumentParser.parse_args` is replaced by a function that stops the script and
hands the parser back, so nothing runs and no script needs a parser-building hook.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from asara_env.common.files import atomic_write_text

DISTRIBUTION = "asara-env"
ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "cli.md"
PYPROJECT = ROOT / "pyproject.toml"
HELP_WIDTH = 88  # the columns argparse wraps --help to, fixed so the page is reproducible
INTRO = """# Command line

Every console script the package installs, with its `--help`. Each prints a one-line
message and exits with status 2 on a bad argument, before any work starts, and on an
install without an extra it needs, naming the extra ([Install](install.md)); any other
failure is one line and status 1 (add `--debug` for the traceback).

This page is generated from the scripts' parsers: `python -m apps.cli_reference`
(`make docs`) writes it again.
"""


class _Caught(BaseException):
    """Carries the parser out of a console script (a BaseException, so that no
    `except Exception` in the script stops it)."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__()
        self.parser = parser


@contextmanager
def _catching_parsers() -> Iterator[None]:
    original = argparse.ArgumentParser.parse_args

    def catch(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        raise _Caught(self)

    argparse.ArgumentParser.parse_args = catch  # type: ignore[method-assign]
    try:
        yield
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]


def parser_of(main: Callable[..., Any]) -> argparse.ArgumentParser:
    """The parser console-script function `main(argv)` builds (nothing else runs)."""
    with _catching_parsers():
        try:
            main(["--help"])
        except _Caught as caught:
            return caught.parser
    raise RuntimeError(f"{main.__module__}.{main.__name__} parsed no arguments")


def _script_targets() -> dict[str, str]:
    """Script name -> "module:function": from the repository's pyproject.toml (the source
    of truth in a checkout), else from the installed distribution's metadata."""
    if sys.version_info >= (3, 11) and PYPROJECT.is_file():
        import tomllib

        scripts: dict[str, str] = tomllib.loads(PYPROJECT.read_text())["project"]["scripts"]
        return scripts
    found = entry_points(group="console_scripts")
    return {e.name: e.value for e in found if e.dist and e.dist.name == DISTRIBUTION}


def console_scripts() -> dict[str, Callable[..., Any]]:
    """The package's console scripts by name, in name order."""
    scripts = {}
    for name, target in sorted(_script_targets().items()):
        module, _, function = target.partition(":")
        scripts[name] = getattr(importlib.import_module(module), function)
    return scripts


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _help(parser: argparse.ArgumentParser) -> str:
    return parser.format_help().rstrip()


def _section(level: str, title: str, parser: argparse.ArgumentParser) -> list[str]:
    lines = [f"{level} `{title}`", "", "```text", _help(parser), "```", ""]
    for name, sub in _subcommands(parser).items():
        lines += _section(level + "#", f"{title} {name}", sub)
    return lines


def render(scripts: dict[str, Callable[..., Any]] | None = None) -> str:
    """The page: INTRO, then each script's --help (and its subcommands')."""
    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(HELP_WIDTH)
    try:
        lines = [INTRO]
        for name, main in (console_scripts() if scripts is None else scripts).items():
            lines += _section("##", name, parser_of(main))
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else PAGE
    atomic_write_text(path, render())
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
