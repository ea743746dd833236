import pytest

from tests.basari.engines import ENGINES, use_core


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test of a test_rules_*.py module runs on both engines (tests/basari/engines.py)."""
    if metafunc.module.__name__.rpartition(".")[2].startswith("test_rules_"):
        metafunc.parametrize("rule_engine", ENGINES, indirect=True)


@pytest.fixture(autouse=True)
def rule_engine(request: pytest.FixtureRequest) -> str:
    """The engine a rule test runs on; under "core" its moves go through the core."""
    name = getattr(request, "param", "reference")
    if name == "core":
        use_core(request.getfixturevalue("monkeypatch"), request.module)
    return name
