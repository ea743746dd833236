"""The integration group: each recipe of examples/ trained with tiny settings
(`pytest -m integration tests/integration`; the libraries come with the `integration`
extra)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # `examples` is a folder of the repository, not installed
