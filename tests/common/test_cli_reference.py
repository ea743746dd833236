"""docs/cli.md is what the console scripts' parsers say (apps/cli_reference.py)."""

import argparse

import pytest

from apps import cli_reference


def test_the_committed_page_is_the_generated_one():
    assert cli_reference.PAGE.read_text() == cli_reference.render(), "run `make docs`"


def test_every_console_script_and_subcommand_has_a_section():
    page = cli_reference.PAGE.read_text()
    for name, main in cli_reference.console_scripts().items():
        assert f"## `{name}`" in page
        for sub in cli_reference._subcommands(cli_reference.parser_of(main)):
            assert f"### `{name} {sub}`" in page


def test_catching_a_parser_runs_nothing_and_restores_argparse():
    ran = []

    def main(argv):
        parser = argparse.ArgumentParser(prog="demo")
        parser.add_argument("--speed", type=int, default=3, help="how fast")
        parser.parse_args(argv)
        ran.append(True)

    page = cli_reference.render({"demo": main})
    assert "## `demo`" in page and "--speed SPEED" in page and "how fast" in page
    assert not ran
    assert argparse.ArgumentParser.parse_args is not None
    assert argparse.ArgumentParser().parse_args([]) == argparse.Namespace()


def test_a_function_that_parses_nothing_is_an_error():
    with pytest.raises(RuntimeError, match="parsed no arguments"):
        cli_reference.parser_of(lambda argv: None)
