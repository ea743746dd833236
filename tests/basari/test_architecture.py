"""BASARI's layering (docs/architecture.md): it imports no ASARA module, only
asara_env.common and the environments' shared plumbing (asara_env.envs); the reference
engine never imports the core; its chance comes only from the counter-based draws (no
other random source)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "asara_env" / "basari"
FILES = sorted(PACKAGE.rglob("*.py"))
SHARED = ("asara_env.basari", "asara_env.common", "asara_env.envs")


def _imports(path: Path) -> list[str]:
    """Absolute module names imported by `path` (relative imports resolved)."""
    parts = list(path.relative_to(PACKAGE.parent.parent).with_suffix("").parts)
    package = parts[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            out += [module] if node.module else [f"{module}.{a.name}" for a in node.names]
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_basari_imports_no_asara_module(path: Path) -> None:
    for module in _imports(path):
        if module.startswith("asara_env"):
            assert module.startswith(SHARED), module


def test_the_reference_engine_never_imports_the_core() -> None:
    for path in sorted((PACKAGE / "reference").glob("*.py")):
        assert not any(m.startswith("asara_env.basari.core") for m in _imports(path)), path


def test_the_definition_and_reference_draw_no_other_randomness() -> None:
    paths = [PACKAGE / "chance.py", *sorted((PACKAGE / "reference").glob("*.py"))]
    for path in paths:
        text = path.read_text()
        assert "np.random" not in text and "import random" not in text, path
