import pytest

from tests.basari.engines import ENGINES, use_core


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test of a test_rules_*.py module runs on both engines, the core on both
    backends (tests/basari/engines.py)."""
    if metafunc.module.__name__.rpartition(".")[2].startswith("test_rules_"):
        metafunc.parametrize("rule_engine", ENGINES, indirect=True)


@pytest.fixture(autouse=True)
def rule_engine(request: pytest.FixtureRequest) -> str:
    """The engine a rule test runs on; under "core" and "core-numba" its moves go through
    the core on that backend."""
    name = getattr(request, "param", "reference")
    if name != "reference":
        use_core(request.getfixturevalue("monkeypatch"), request.module, name)
    return name
