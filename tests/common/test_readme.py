"""The README's first example shows what it promises: every agent's final reward (PettingZoo
empties `env.rewards` once every agent has left the game, so printing it shows `{}`)."""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_the_first_example_prints_every_agents_final_reward(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code = BLOCK.findall((ROOT / "README.md").read_text())[0]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(code, "README.md example 0", "exec"), {"__name__": "example"})
    returns = ast.literal_eval(out.getvalue().splitlines()[0])
    assert sorted(returns) == ["player_0", "player_1", "player_2"]  # num_players=3
    assert max(returns.values()) > 0 > min(returns.values())  # a winner and losers: "win"
    assert abs(sum(returns.values())) < 1e-9  # zero-sum
