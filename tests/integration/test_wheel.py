"""The package as a user installs it: the wheel and the sdist built once from the
repository (`python -m build`), each installed with its dependencies from the package
index into a fresh venv outside the repository, on every supported Python found on the
machine; there the installed Python runs installed_check.py (imports, both games, the
shipped models) and every console script's --help. On a base install a script that needs
an extra says which one, in one line with exit status 2; on 3.11, where torch's CPU
build is at hand, the same venv then gets the `train` and `web` extras and every script
runs.

`pytest -m wheel tests/integration -s` prints the wheel's size and contents."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from agents.models import CARD_SUFFIX, MODELS, WEIGHTS
from apps.scripts import SCRIPTS
from asara_env.common.extras import DISTRIBUTION, EXTRAS

# every shipped model's file and its card
SHIPPED = {
    f"agents/{WEIGHTS}/{Path(file).stem}{suffix}"
    for models in MODELS.values()
    for file in models.values()
    for suffix in (Path(file).suffix, CARD_SUFFIX)
}

pytestmark = [pytest.mark.integration, pytest.mark.wheel]

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("installed_check.py")
BUILD_INPUTS = (
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "asara_env",
    "agents",
    "commandline",
    "apps",
    "training",
)
PACKAGES = ("asara_env", "agents", "commandline", "apps", "training")
SUPPORTED = ("3.10", "3.11", "3.12", "3.13")  # pyproject's classifiers
TRAIN_PYTHON = "3.11"  # the Python whose torch CPU wheel (the train extra's pin) is at hand
BASE_ONLY = tuple(v for v in SUPPORTED if v != TRAIN_PYTHON)
TORCH = "torch==2.13.0"
EXTRAS_WITH_TRAIN = "train,web"  # with these every console script runs
STEP_LIMIT = 600  # seconds for one build, install or check
HIDDEN_ENV = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")


def python_of(version: str) -> str | None:
    """An interpreter of Python `version` ("3.12"): pyenv's newest, else one on PATH."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found = sorted(pyenv.glob(f"{version}.*/bin/python{version}"), key=lambda p: p.parts)
    return str(found[-1]) if found else shutil.which(f"python{version}")


def clean_env() -> dict[str, str]:
    """This process's environment without what would import the repository's code."""
    return {k: v for k, v in os.environ.items() if k not in HIDDEN_ENV}


def run(args: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    """`args` run in `cwd`, output captured; fails the test, output shown, when it fails."""
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=STEP_LIMIT,
        check=False,
    )
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """{"wheel": path, "sdist": path}, built once from a copy of the repository's inputs
    (the build writes nothing into the checkout); the wheel is built from the sdist."""
    work = tmp_path_factory.mktemp("build")
    source = work / "source"
    source.mkdir()
    for name in BUILD_INPUTS:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    run([sys.executable, "-m", "build", "--outdir", work / "dist", source], work)
    (wheel,), (sdist,) = (work / "dist").glob("*.whl"), (work / "dist").glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


def fresh_venv(version: str, where: Path) -> Path:
    """The bin folder of a new venv of Python `version` at `where` (skips the test when the
    machine has no such Python)."""
    python = python_of(version)
    if python is None:
        pytest.skip(f"no Python {version} on this machine")
    run([python, "-m", "venv", where], where.parent)
    return where / "bin"


def install(bin_dir: Path, *requirements: str | Path) -> None:
    """pip install `requirements` into the venv, dependencies resolved from the index (no
    byte-compiling of every installed module: what runs is compiled when imported)."""
    pip: list[str | Path] = [bin_dir / "python", "-m", "pip", "install", "--quiet", "--no-compile"]
    run([*pip, *requirements], bin_dir)


def expected_help(needs: tuple[str, ...], name: str, installed: bool) -> tuple[int, str]:
    """(exit status, what --help prints to find in it) of script `name` needing `needs`:
    its usage, or without its extra the one line naming the extra of the first module."""
    if installed or not needs:
        return 0, "usage:"
    extra = EXTRAS[needs[0]]
    return 2, (
        f"{name}: error: this command needs the {extra!r} extra (module {needs[0]!r} is not "
        f"installed): pip install '{DISTRIBUTION}[{extra}]'\n"
    )


def check_scripts_help(bin_dir: Path, cwd: Path, extras_installed: bool) -> None:
    """Every console script's --help (all started at once): its usage, or (without its
    extra) the one line."""
    processes = {
        script.name: subprocess.Popen(
            [str(bin_dir / script.name), "--help"],
            cwd=cwd,
            env=clean_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for script in SCRIPTS
    }
    outputs = {name: p.communicate(timeout=STEP_LIMIT) for name, p in processes.items()}
    for script in SCRIPTS:
        status, text = expected_help(script.needs, script.name, extras_installed)
        (stdout, stderr), code = outputs[script.name], processes[script.name].returncode
        assert code == status, f"{script.name} exited {code}: {stdout}{stderr}"
        if status == 0:
            assert text in stdout, f"{script.name} --help: {stdout}"
        else:
            assert stderr == text and not stdout, f"{script.name}: {stderr}"


# ---------------------------------------------------------------------------- contents
def test_the_wheel_holds_the_packages_models_license_and_metadata(dist):
    with zipfile.ZipFile(dist["wheel"]) as wheel:
        names = set(wheel.namelist())
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        metadata = wheel.read(f"{info}/METADATA").decode()
        entry_points = wheel.read(f"{info}/entry_points.txt").decode()
    files = set(SHIPPED)
    files |= {f"{package}/py.typed" for package in PACKAGES} | {f"{info}/licenses/LICENSE"}
    assert files <= names, sorted(files - names)
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    assert "Classifier: License ::" not in metadata  # PEP 639: the expression alone
    for script in SCRIPTS:
        assert f"{script.name} = apps.scripts:{script.name.replace('-', '_')}" in entry_points
    size = dist["wheel"].stat().st_size
    print(f"\n{dist['wheel'].name}: {size} bytes, {len(names)} files")
    for name in sorted(n for n in names if not n.endswith(".py")):
        print(f"  {name}")


def test_the_sdist_holds_the_models_and_license(dist):
    import tarfile

    with tarfile.open(dist["sdist"]) as sdist:
        names = {name.partition("/")[2] for name in sdist.getnames()}
    files = set(SHIPPED)
    assert files | {"LICENSE", "README.md", "pyproject.toml"} <= names


# ---------------------------------------------------------------------------- installs
def check_base_install(bin_dir: Path, cwd: Path) -> None:
    """The installed check and every script's --help, no extra installed."""
    print(run([bin_dir / "python", "-I", CHECK], cwd).stdout)
    check_scripts_help(bin_dir, cwd, extras_installed=False)


@pytest.mark.parametrize("version", BASE_ONLY)
def test_the_wheel_installs_and_runs_without_extras(dist, version, tmp_path):
    bin_dir = fresh_venv(version, tmp_path / "venv")
    install(bin_dir, dist["wheel"])
    check_base_install(bin_dir, tmp_path)


def test_the_wheel_runs_without_extras_then_with_train_plays_a_shipped_model(dist, tmp_path):
    bin_dir = fresh_venv(TRAIN_PYTHON, tmp_path / "venv")
    install(bin_dir, dist["wheel"])
    check_base_install(bin_dir, tmp_path)
    install(bin_dir, TORCH)
    install(bin_dir, f"{DISTRIBUTION}[{EXTRAS_WITH_TRAIN}] @ {dist['wheel'].as_uri()}")
    print(run([bin_dir / "python", "-I", CHECK, "--train"], tmp_path).stdout)
    check_scripts_help(bin_dir, tmp_path, extras_installed=True)
    out = tmp_path / "tournament"
    tournament: list[str | Path] = [bin_dir / "asara-tournament", "--agents", "random,ppo_2p"]
    run([*tournament, "--players", "2", "--games", "2", "--seed", "0", "--out", out], tmp_path)
    assert (out / "games.csv").is_file()


def test_the_sdist_installs_and_runs_without_extras(dist, tmp_path):
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    bin_dir = fresh_venv(version, tmp_path / "venv")
    install(bin_dir, dist["sdist"])
    print(run([bin_dir / "python", "-I", CHECK], tmp_path).stdout)
    assert "usage:" in run([bin_dir / "asara", "--help"], tmp_path).stdout
