"""The layered house of docs/architecture.md, checked: what importing each layer loads, and
that no import in the code runs back up a layer, crosses between the two engines, or
closes a circle."""

from __future__ import annotations

import ast
import graphlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("asara_env", "agents", "apps", "training")

# module-name prefix -> layer (the longest matching prefix decides)
LAYERS = {
    "asara_env.common": 0,
    "asara_env.asara.constants": 1,
    "asara_env.asara.config": 1,
    "asara_env.asara.actions": 1,
    "asara_env.asara.phases": 1,
    "asara_env.errors": 1,
    "asara_env.asara.reference": 2,
    "asara_env.asara.core": 2,
    "asara_env.asara.bridge": 3,
    "asara_env.asara.hidden": 3,
    "asara_env.asara.env": 4,
    "asara_env.asara_v0": 4,
    "asara_env.asara.gym_env": 4,
    "asara_env.asara.render": 4,
    "asara_env.asara.docs": 4,
    "asara_env": 4,  # the package's public face (lazy `env`, `asara_v0`)
    # BASARI, the second game: the same layers inside asara_env/basari/
    "asara_env.basari.constants": 1,
    "asara_env.basari.config": 1,
    "asara_env.basari.actions": 1,
    "asara_env.basari.phases": 1,
    "asara_env.basari.errors": 1,
    "asara_env.basari.chance": 1,
    "asara_env.basari.reference": 2,
    "asara_env.basari.core": 2,
    "asara_env.basari.bridge": 3,
    "asara_env.basari.env": 4,
    "asara_env.basari.render": 4,
    "asara_env.basari.docs": 4,
    "asara_env.basari": 4,
    "asara_env.basari_v0": 4,
    "agents": 5,
    "apps": 6,
    "training": 6,
}
# modules of one layer that must not import each other
APART = (
    ("asara_env.asara.reference", "asara_env.asara.core"),
    ("asara_env.basari.reference", "asara_env.basari.core"),
    ("asara_env.basari", "asara_env.asara.reference"),  # the games share only layer 0
    ("asara_env.basari", "asara_env.asara.core"),
)


def layer(module: str) -> int:
    for prefix in sorted(LAYERS, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + "."):
            return LAYERS[prefix]
    raise AssertionError(f"{module} is in no layer of docs/architecture.md")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def first_party_imports(path: Path) -> set[str]:
    """Every first-party module `path` imports, at any depth of its code."""
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
    known = set(MODULES)
    return {m for m in found if m in known and m != name}


MODULES = {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}
GRAPH = {name: first_party_imports(path) for name, path in MODULES.items()}


def test_every_module_sits_in_a_layer_and_imports_only_its_own_layer_or_below():
    upward = [
        f"{m} (layer {layer(m)}) imports {d} (layer {layer(d)})"
        for m, deps in GRAPH.items()
        for d in deps
        if layer(d) > layer(m)
    ]
    assert not upward, "\n".join(upward)


@pytest.mark.parametrize("a, b", APART)
def test_the_two_engines_never_import_each_other(a, b):
    crossing = [
        f"{m} imports {d}"
        for m, deps in GRAPH.items()
        for d in deps
        for x, y in ((a, b), (b, a))
        if m.startswith(x) and d.startswith(y)
    ]
    assert not crossing, "\n".join(crossing)


def test_no_import_circles():
    graphlib.TopologicalSorter(GRAPH).prepare()  # raises CycleError naming the circle


def loaded_after(statement: str) -> list[str]:
    code = f"import sys; {statement}; print('\\n'.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def third_party(modules: list[str]) -> set[str]:
    tops = {m.split(".")[0] for m in modules}
    return {t for t in tops if t not in sys.stdlib_module_names and not t.startswith("_")}


def test_importing_the_core_loads_numpy_and_nothing_of_the_reference_engine():
    loaded = loaded_after("import asara_env.asara.core, asara_env.asara.core.observation")
    assert not [m for m in loaded if m.startswith("asara_env.asara.reference")]
    assert third_party(loaded) == {"asara_env", "numpy"}


def test_importing_the_reference_engine_loads_numpy_and_nothing_of_the_core():
    loaded = loaded_after("import asara_env.asara.reference, asara_env.asara.reference.serialize")
    assert not [m for m in loaded if m.startswith("asara_env.asara.core")]
    assert third_party(loaded) == {"asara_env", "numpy"}


def test_the_library_loads_neither_agents_nor_training_nor_apps():
    loaded = loaded_after(
        "import asara_env, asara_env.asara_v0, asara_env.asara.gym_env, asara_env.asara.bridge,"
        " asara_env.asara.render; asara_env.env()"
    )
    assert "asara_env.asara.env" in loaded  # the statement did load the environments
    assert not [m for m in loaded if m.split(".")[0] in ("agents", "training", "apps")]


def test_the_layer_table_is_the_documented_one():
    doc = (ROOT / "docs" / "architecture.md").read_text()
    for prefix in LAYERS:
        last = prefix.rpartition(".")[2]
        names = (prefix.replace(".", "/"), f"{last}.py", f"{last}/")
        assert any(n in doc for n in names), f"{prefix} is not in docs/architecture.md"
