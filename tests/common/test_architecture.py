"""The layered house of docs/architecture.md, checked for every game at once: the layers
are patterns over the game folders (the games are the subpackages asara_env/<g>/ that
hold a core/), so a new game is checked without a line added here. On every import
statement of asara_env/, agents/, commandline/, apps/, training/ (and tests/ for the game
folders): nothing imports upward, training/ and apps/ never import each other, the two
engines of a game never import each other, there is no circle, no game folder imports
another game's, and nothing outside a game folder imports a game (but the lazy
registries). In subprocesses: what importing each game's core,
reference engine and env loads (numpy, nothing of the other engine, nothing of another
game), and that the library loads neither agents, the command line, training nor apps."""

from __future__ import annotations

import ast
import graphlib
import re
import subprocess
import sys
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# layered; tests/ is checked apart
LIBRARY = ("asara_env", "agents", "commandline", "apps", "training")
GAMES = tuple(sorted(p.parents[1].name for p in (ROOT / "asara_env").glob("*/core/__init__.py")))
G = "<g>"  # stands for any game in the patterns below

# layer -> (name, module-name patterns); fnmatch's * also spans dots
LAYERS: dict[int, tuple[str, tuple[str, ...]]] = {
    0: ("shared", ("asara_env.common", "asara_env.common.*")),
    1: (
        "definition",
        (
            f"asara_env.{G}",  # the game's package: a docstring, no import
            f"asara_env.{G}.constants",
            f"asara_env.{G}.config",
            f"asara_env.{G}.actions",
            f"asara_env.{G}.phases",
            f"asara_env.{G}.chance",
        ),
    ),
    2: ("engines", (f"asara_env.{G}.reference*", f"asara_env.{G}.core*")),
    3: ("bridge", (f"asara_env.{G}.bridge*", f"asara_env.{G}.hidden*")),
    4: (
        "environments",
        (
            f"asara_env.{G}.env",
            f"asara_env.{G}.gym_env",
            f"asara_env.{G}.render*",
            f"asara_env.{G}.docs",
            f"asara_env.{G}.card",
            f"asara_env.{G}.spiel",
            "asara_env",
            "asara_env.envs",
            "asara_env.opponents_env",
            "asara_env.games",
            "asara_env.gym_ids",
            "asara_env.docs",
            "asara_env.*_v0",
            "asara_env.integrations*",
        ),
    ),
    5: ("agents", ("agents*",)),
    6: ("command line", ("commandline*",)),
    7: ("applications", ("training*", "apps*")),
}
# the two halves of the applications layer never import each other: what they share sits
# in the command-line layer below them
APPLICATIONS = ("training", "apps")
# measuring sits below learning inside the applications: training/evaluation/ (with each
# game's measuring, training/evaluation/<g>/) is imported by the trainers and imports none
# of them, only the seams beside it, which import no other training module
MEASURING = "training.evaluation"
TRAINING_SEAMS = ("training", "training.games", "training.game_agents", "training.runfolder")
# the modules that may import games outside a game folder: they load them lazily, by name
REGISTRIES = ("asara_env", "asara_env.games")
# modules that still sit outside their game's folder (agents/, training/ and apps/ are
# being moved into <folder>/<game>/); each entry goes when its module moves, and an entry
# that names no module, or a module that no longer imports a game, fails the test
NOT_YET_IN_A_GAME_FOLDER: tuple[str, ...] = ()


def _matches(module: str, pattern: str) -> bool:
    games = GAMES if G in pattern else ("",)
    return any(fnmatchcase(module, pattern.replace(G, g)) for g in games)


def layer(module: str) -> int:
    found = [n for n, (_, patterns) in LAYERS.items() if any(_matches(module, p) for p in patterns)]
    assert len(found) == 1, f"{module} is in layers {found} of docs/architecture.md, not one"
    return found[0]


def game_of(module: str) -> str | None:
    """The game whose folder holds `module` (asara_env/<g>/, agents/<g>/, training/<g>/,
    training/evaluation/<g>/, apps/<g>/, tests/<g>/, or PettingZoo's asara_env/<g>_v0.py),
    else None."""
    parts = module.split(".")
    if parts[:2] == list(MEASURING.split(".")) and len(parts) >= 3 and parts[2] in GAMES:
        return parts[2]
    if len(parts) >= 2 and parts[1] in GAMES:
        return parts[1]
    if parts[0] == "asara_env" and len(parts) == 2 and parts[1].removesuffix("_v0") in GAMES:
        return parts[1].removesuffix("_v0")
    return None


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every first-party module `path` imports, at any depth of its code (`from p import
    m` counts as importing module p.m when p.m is a module, else p)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            names = {f"{base}.{alias.name}" for alias in node.names}
            found |= names
            if node.module and not names <= set(MODULES):  # `from p import f`: p itself
                found.add(base)
    return {m for m in found if m in MODULES and m != name}


MODULES = {
    module_name(p): p for pkg in (*LIBRARY, "tests") for p in sorted((ROOT / pkg).rglob("*.py"))
}
GRAPH = {name: imports(path) for name, path in MODULES.items()}
LAYERED = {m: deps for m, deps in GRAPH.items() if m.split(".")[0] in LIBRARY}


def test_the_games_are_found_by_their_folders():
    assert set(GAMES) >= {"asara", "basari"}


def test_every_module_sits_in_one_layer_and_imports_only_its_own_layer_or_below():
    upward = [
        f"{m} (layer {layer(m)}) imports {d} (layer {layer(d)})"
        for m, deps in LAYERED.items()
        for d in deps
        if layer(d) > layer(m)
    ]
    assert not upward, "\n".join(upward)


@pytest.mark.parametrize("game", GAMES)
def test_the_two_engines_of_a_game_never_import_each_other(game):
    engines = (f"asara_env.{game}.reference", f"asara_env.{game}.core")
    crossing = [
        f"{m} imports {d}"
        for m, deps in LAYERED.items()
        for d in deps
        for x, y in (engines, engines[::-1])
        if (m == x or m.startswith(x + ".")) and (d == y or d.startswith(y + "."))
    ]
    assert not crossing, "\n".join(crossing)


def test_training_and_apps_never_import_each_other():
    crossing = [
        f"{m} imports {d}"
        for m, deps in LAYERED.items()
        for d in deps
        if {m.split(".")[0], d.split(".")[0]} == set(APPLICATIONS)
    ]
    assert not crossing, "\n".join(crossing)


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_measuring_imports_no_trainer():
    upward = [
        f"{m} imports {d}"
        for m, deps in LAYERED.items()
        for d in deps
        if _in(m, MEASURING) and _in(d, "training") and not _in(d, MEASURING)
        and d not in TRAINING_SEAMS
    ]  # fmt: skip
    assert not upward, "\n".join(upward)
    seams = [f"{m} imports {d}" for m in TRAINING_SEAMS[1:] for d in GRAPH[m] if _in(d, "training")]
    assert not seams, "\n".join(seams)


def test_measuring_asks_the_training_registry_only_for_measuring_modules():
    """The game's modules measuring loads by name (`game_module(game, "tournament")`) are
    those `training.games` finds in training/evaluation/<g>/: no import by string from
    measuring up to a trainer."""
    from training.games import MEASURING as MEASURING_MODULES

    asked = {
        name
        for m, path in MODULES.items()
        if _in(m, MEASURING)
        for name in re.findall(r"game_module\([^,]+, \"(\w+)\"\)", path.read_text())
    }
    assert asked and asked <= set(MEASURING_MODULES), asked


def test_importing_measuring_loads_no_trainer():
    modules = sorted(m for m in MODULES if _in(m, MEASURING))
    loaded = loaded_after(f"import {', '.join(modules)}")
    assert set(modules) <= set(loaded)
    trainers = [m for m in loaded if _in(m, "training") and not _in(m, MEASURING)]
    assert sorted(set(trainers) - set(TRAINING_SEAMS)) == []


def test_no_import_circles():
    graphlib.TopologicalSorter(LAYERED).prepare()  # raises CycleError naming the circle


def test_no_game_folder_imports_another_games():
    crossing = [
        f"{m} ({game_of(m)}) imports {d} ({game_of(d)})"
        for m, deps in GRAPH.items()
        for d in deps
        if game_of(m) and game_of(d) and game_of(d) != game_of(m)
    ]
    assert not crossing, "\n".join(crossing)


def test_nothing_outside_a_game_folder_imports_a_game_but_the_lazy_registries():
    shared = {m: deps for m, deps in LAYERED.items() if game_of(m) is None}
    importing = {m for m, deps in shared.items() if any(game_of(d) for d in deps)}
    allowed = set(REGISTRIES) | set(NOT_YET_IN_A_GAME_FOLDER)
    assert sorted(importing - allowed) == [], "shared modules import a game"
    stale = sorted(set(NOT_YET_IN_A_GAME_FOLDER) - importing)
    assert not stale, f"remove from NOT_YET_IN_A_GAME_FOLDER: {stale}"


def loaded_after(statement: str) -> list[str]:
    code = f"import sys; {statement}; print('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def third_party(modules: list[str]) -> set[str]:
    tops = {m.split(".")[0] for m in modules}
    return {t for t in tops if t not in sys.stdlib_module_names and not t.startswith("_")}


def of_other_games(loaded: list[str], game: str) -> list[str]:
    """The modules of another game in `loaded`, but its card (the registry's names only,
    which the gymnasium ids are read from) and the package docstring above it."""
    cards = {f"asara_env.{g}{tail}" for g in GAMES for tail in ("", ".card")}
    return [
        m
        for m in loaded
        if m.startswith("asara_env.") and game_of(m) not in (None, game) and m not in cards
    ]


@pytest.mark.parametrize("game", GAMES)
def test_importing_a_core_loads_numpy_and_nothing_of_the_reference_or_another_game(game):
    loaded = loaded_after(f"import asara_env.{game}.core")
    assert not [m for m in loaded if m.startswith(f"asara_env.{game}.reference")]
    assert not of_other_games(loaded, game)
    assert third_party(loaded) == {"asara_env", "numpy"}


@pytest.mark.parametrize("game", GAMES)
def test_importing_a_reference_engine_loads_nothing_of_the_core_or_another_game(game):
    loaded = loaded_after(f"import asara_env.{game}.reference")
    assert not [m for m in loaded if m.startswith(f"asara_env.{game}.core")]
    assert not of_other_games(loaded, game)


def test_asaras_reference_engine_loads_pydantic_only_when_a_game_is_loaded():
    loaded = loaded_after("import asara_env.asara.reference, asara_env.asara.reference.serialize")
    assert third_party(loaded) == {"asara_env", "numpy"}


@pytest.mark.parametrize("game", GAMES)
def test_importing_a_games_env_loads_nothing_of_another_game(game):
    loaded = loaded_after(f"import asara_env.{game}.env, asara_env.{game}_v0")
    assert f"asara_env.{game}.env" in loaded
    assert not of_other_games(loaded, game)


def test_the_library_loads_neither_agents_nor_the_command_line_nor_training_nor_apps():
    loaded = loaded_after(
        "import asara_env, asara_env.asara_v0, asara_env.asara.gym_env, asara_env.asara.bridge,"
        " asara_env.asara.render, asara_env.basari_v0; asara_env.env(); asara_env.make('basari')"
    )
    assert {"asara_env.asara.env", "asara_env.basari.env"} <= set(loaded)
    assert not [m for m in loaded if m.split(".")[0] in LIBRARY[1:]]


def test_the_layer_table_is_the_documented_one():
    """Each layer's row of docs/architecture.md's table names every one of its patterns
    (as paths: asara_env.<g>.render* is `asara_env/<game>/render*`, or its last part)."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    for n, (name, patterns) in LAYERS.items():
        rows = re.findall(rf"^\| {n} {name} \|.*$", doc, flags=re.MULTILINE)
        assert len(rows) == 1, f"docs/architecture.md has no one row '| {n} {name} |'"
        for pattern in patterns:
            last = pattern.rpartition(".")[2].replace(G, "<game>")
            assert last.strip("*") in rows[0], f"layer {n}: {pattern} is not in its row"


# ------------------------------------------------------------------------------ compiled code
# the modules held to the kernel convention (docs/architecture.md, "Compiled kernels"): the
# cores with their kernels, and every module that compiles numba code
COMPILED = (f"asara_env.{G}.core*", f"asara_env.{G}.hidden_core", "agents.*compiled*")
FLAGS = {"ENTRY", "INLINED", "COUNTED"}  # asara_env.common.kernels: how each kind compiles


def _held_to_the_convention() -> list[str]:
    held = {m for m in MODULES if any(_matches(m, p) for p in COMPILED)}
    held |= {m for m, path in MODULES.items() if "numba.njit" in path.read_text()}
    return sorted(m for m in held if not m.startswith("tests"))


def private_uses(path: Path) -> list[str]:
    """`from m import _name` and `m._name` (m a first-party module imported as a name) in
    `path`: another module's private names."""
    tree = ast.parse(path.read_text())
    found, aliases = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (
            node.level or node.module in MODULES or (node.module or "").split(".")[0] in LIBRARY
        ):
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                elif f"{node.module}.{alias.name}" in MODULES:
                    aliases.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name.split(".")[0] in LIBRARY}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return found


@pytest.mark.parametrize("module", _held_to_the_convention())
def test_compiled_code_uses_no_private_name_of_another_module(module):
    """Tables the kernels share with the numpy core are public (<g>/core/tables.py)."""
    assert private_uses(MODULES[module]) == []


def kernel_faults(path: Path) -> list[str]:
    """What in `path` breaks the kernel convention: a `numba.njit` decorator that is not
    `numba.njit(**FLAG)` with FLAG one of FLAGS, a kernel taking `*args` (the state goes as
    one tuple), a kernel without annotations, and any `type: ignore`."""
    source = path.read_text()
    faults = [f"line {n}: type: ignore" for n, line in enumerate(source.splitlines(), 1)
              if "type: ignore" in line]  # fmt: skip
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        for dec in node.decorator_list:
            if not ("numba.njit" in ast.unparse(dec) or ast.unparse(dec).startswith("njit")):
                continue
            flags = [k.value.id for k in getattr(dec, "keywords", []) if k.arg is None
                     and isinstance(k.value, ast.Name)]  # fmt: skip
            if not (isinstance(dec, ast.Call) and not dec.args and len(dec.keywords) == 1
                    and flags and flags[0] in FLAGS):  # fmt: skip
                faults.append(f"{node.name}: decorated {ast.unparse(dec)}")
            if node.args.vararg:
                faults.append(f"{node.name}: takes *{node.args.vararg.arg}")
            if node.returns is None or any(a.annotation is None for a in node.args.args):
                faults.append(f"{node.name}: not annotated")
    return faults


@pytest.mark.parametrize("module", _held_to_the_convention())
def test_every_kernel_follows_the_one_convention(module):
    assert kernel_faults(MODULES[module]) == []


# an import reference written as a string: "package.module" or "package.module:name"
REFERENCE = re.compile(r"[a-z_]+(\.[a-z_{}]+)+(:[A-Za-z_]+)?")


def string_references(path: Path) -> set[str]:
    """The first-party modules a module names in a string that reads as an import
    reference (its docstrings aside): what it may import by name at run time."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    texts = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]
    modules = {t.partition(":")[0] for t in texts if REFERENCE.fullmatch(t)}
    return {m.replace("{game}", GAMES[0]) for m in modules if m.split(".")[0] in LIBRARY}


def test_no_module_names_a_module_of_a_higher_layer_in_a_string():
    """No hidden import loop: a module may name by string (a card's reference, a lazy
    registry's) only modules of its own layer or below."""
    upward = [
        f"{m} (layer {layer(m)}) names {ref!r} (layer {layer(ref)})"
        for m in LAYERED
        for ref in string_references(MODULES[m])
        if ref in MODULES and layer(ref) > layer(m)
    ]
    assert not upward, "\n".join(upward)


def test_the_registry_and_the_search_import_each_other_only_one_way():
    """The registry imports the shared search's agents (a plain import statement); the
    search reads the grammar and the games' tables from `agents.spec`, never the registry."""
    search = [m for m in LAYERED if m.startswith("agents.search")]
    assert "agents.search.agent" in GRAPH["agents.registry"]
    assert not [m for m in search if "agents.registry" in GRAPH[m]]
