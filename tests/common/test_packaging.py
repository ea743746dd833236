"""The package's install story, checked without building it (tests/integration/test_wheel.py
builds and installs it): pyproject's console scripts are the table of apps/scripts.py; each
optional module's extra in asara_env/common/extras.py is the pyproject extra that
installs it; a missing extra is one line naming it and exit status 2, before any work or
when found later; the shipped models folder holds exactly the files `MODELS` names."""

from __future__ import annotations

import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

import apps.scripts
from agents.models import MODELS, WEIGHTS, make_model_agent, weights_dir
from apps.scripts import SCRIPTS, Script
from asara_env.common.extras import EXTRAS, MissingExtraError, missing_extra, require
from commandline.command import run_main

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10 (requires-python) has no tomllib
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def extra_line(prog: str, module: str, extra: str) -> str:
    return (
        f"{prog}: error: this command needs the {extra!r} extra (module {module!r} is not "
        f"installed): pip install 'asara-env[{extra}]'\n"
    )


def uninstall(monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """`module` as if not installed: importing it raises ModuleNotFoundError, find_spec
    finds nothing."""
    monkeypatch.setitem(sys.modules, module, None)


def requirement_name(requirement: str) -> str:
    """The normalised distribution name of a requirement ("ray[rllib]==2.6" -> "ray")."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name, requirement
    return re.sub(r"[-_.]+", "-", name.group()).lower()


# ---------------------------------------------------------------------------- the tables
def test_pyprojects_console_scripts_are_the_scripts_table():
    expected = {s.name: f"apps.scripts:{s.name.replace('-', '_')}" for s in SCRIPTS}
    assert PROJECT["scripts"] == expected
    for script in SCRIPTS:
        assert getattr(apps.scripts, script.name.replace("-", "_")) is script


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_every_script_names_a_main_and_only_modules_an_extra_installs(script):
    import importlib

    module, _, function = script.target.partition(":")
    assert callable(getattr(importlib.import_module(module), function))
    assert set(script.needs) <= set(EXTRAS)


@pytest.mark.parametrize("module", sorted(EXTRAS))
def test_each_optional_modules_extra_installs_it(module):
    distributions = packages_distributions().get(module)
    if not distributions:
        pytest.skip(f"{module} is not installed here: its distribution is unknown")
    extra = PROJECT["optional-dependencies"][EXTRAS[module]]
    names = {requirement_name(r) for r in extra}
    assert {requirement_name(d) for d in distributions} & names, (module, extra)


def test_the_install_page_has_a_row_for_every_extra():
    page = (ROOT / "docs" / "install.md").read_text()
    for extra in PROJECT["optional-dependencies"]:
        assert f"\n| `{extra}` |" in page, extra


def test_the_license_is_mit_in_pep_639_form():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "asara-env contributors" in text
    assert not any(c.startswith("License ::") for c in PROJECT["classifiers"])


def test_the_weights_folder_holds_exactly_the_shipped_models():
    named = {file for models in MODELS.values() for file in models.values()}
    assert weights_dir() == ROOT / "agents" / WEIGHTS
    assert {p.name for p in weights_dir().iterdir() if p.suffix == ".zip"} == named


# ---------------------------------------------------------------------------- a missing extra
def test_require_names_the_first_missing_module_and_its_extra(monkeypatch):
    require("x", [])  # nothing asked, nothing raised
    uninstall(monkeypatch, "choix")
    require("the ladder", ["openskill"])
    with pytest.raises(MissingExtraError) as err:
        require("the ladder", ["openskill", "choix", "fastapi"])
    assert (err.value.module, err.value.extra, err.value.name) == ("choix", "tournament", "choix")
    assert str(err.value) == (
        "the ladder needs the 'tournament' extra (module 'choix' is not installed): "
        "pip install 'asara-env[tournament]'"
    )


def test_missing_extra_maps_only_modules_an_extra_installs():
    found = missing_extra(ModuleNotFoundError("no", name="sb3_contrib.common"), "it")
    assert found is not None and (found.module, found.extra) == ("sb3_contrib", "train")
    assert missing_extra(ModuleNotFoundError("no", name="no_such_module"), "it") is None
    assert missing_extra(ImportError("cannot import name x", name="torch"), "it") is None
    assert missing_extra(ValueError("torch"), "it") is None


@pytest.mark.parametrize("argv", [["--help"], ["--seed", "1"]])
def test_a_script_without_its_extra_is_one_line_and_exit_status_2(monkeypatch, capsys, argv):
    uninstall(monkeypatch, "fastapi")
    with pytest.raises(SystemExit) as exc:
        apps.scripts.asara_serve(argv)
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err == extra_line("asara-serve", "fastapi", "web")


def test_a_module_missing_when_the_command_is_imported_is_said_the_same_way(monkeypatch, capsys):
    uninstall(monkeypatch, "sb3_contrib")
    fresh = ("training.selfplay", "training.asara.selfplay")  # imported afresh, as by a new process
    for name in [m for m in sys.modules if m.startswith(fresh)]:
        monkeypatch.delitem(sys.modules, name)
    # the self-play command's module imports sb3_contrib when imported (the PPO trainer's
    # checks its arguments first, so its --help needs none)
    script = Script("asara-selfplay", "training.asara.selfplay:main")  # no needs checked first
    with pytest.raises(SystemExit) as exc:
        script(["--help"])
    assert exc.value.code == 2
    assert capsys.readouterr().err == extra_line("asara-selfplay", "sb3_contrib", "train")


def test_a_module_missing_while_a_command_runs_is_one_line_and_exit_status_2(
    monkeypatch, capsys, tmp_path
):
    uninstall(monkeypatch, "sb3_contrib")
    argv = ["--agents", "random,ppo_2p", "--players", "2", "--games", "2", "--no-progress"]
    with pytest.raises(SystemExit) as exc:
        apps.scripts.asara_tournament([*argv, "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1
    assert "the shipped model 'ppo_2p' needs the 'train' extra" in err
    assert "pip install 'asara-env[train]'" in err


def test_run_main_keeps_other_failures_as_status_1_and_debug_shows_the_error(capsys):
    def needs(module: str):
        def main(argv: list[str]) -> None:
            raise ModuleNotFoundError(f"No module named {module!r}", name=module)

        return main

    with pytest.raises(SystemExit) as exc:
        run_main("x")(needs("no_such_module"))([])
    assert exc.value.code == 1 and "x: error: No module named" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        run_main("x")(needs("openskill"))([])
    assert exc.value.code == 2
    assert capsys.readouterr().err == extra_line("x", "openskill", "tournament")
    with pytest.raises(ModuleNotFoundError):
        run_main("x")(needs("openskill"))(["--debug"])


def test_a_shipped_model_without_train_names_the_extra(monkeypatch):
    uninstall(monkeypatch, "torch")
    with pytest.raises(MissingExtraError, match=r"the shipped model 'ppo_4p' needs the 'train'"):
        make_model_agent("basari", "ppo_4p", 0)


def test_the_description_names_both_games_and_their_cores():
    description = PROJECT["description"]
    assert "ASARA" in description and "BASARI" in description
    assert "numba" in description and "gymnasium" in description


def test_the_readme_builds_the_wheel_it_installs():
    """A path under dist/ that the README installs from is written by a build command
    before it, in the same block: a clone has no dist/ folder."""
    readme = (ROOT / "README.md").read_text()
    for block in re.findall(r"^```bash\n(.*?)^```", readme, re.S | re.M):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if "dist/" in line and line.startswith("pip install"):
                built = [b for b in lines[:i] if b.startswith("python -m build --outdir dist")]
                assert built, f"{line!r} installs from dist/ before anything builds it"
