"""The README's training quick starts keep their promise: each game's `*-train` command,
run as written (with a smaller budget where `BUDGET` says, flags appended after the
README's), makes a model that its `*-evaluate` command, as written, finds stronger than
`random` and than an untrained network of the same shape: the lower end of the 95% Wilson
interval of its win rate above the fair share, against each (slow: minutes of CPU)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from apps.scripts import SCRIPTS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BASH = re.compile(r"^```bash\n(.*?)^```", re.S | re.M)
# flags appended to the README's training command: a smaller budget, and no progress bar
BUDGET = {
    "asara": ["--steps", "4096", "--bc-games", "60", "--bc-epochs", "3", "--no-progress"],
    "basari": ["--no-progress"],
}


def readme_command(prog: str) -> list[str]:
    """The arguments of the README's one command line starting with `prog`."""
    lines = [
        line
        for block in BASH.findall((ROOT / "README.md").read_text())
        for line in block.splitlines()
        if line.startswith(f"{prog} ")
    ]
    assert len(lines) == 1, f"the README should run {prog} once, not {lines}"
    return shlex.split(lines[0], comments=True)[1:]


def run_script(prog: str, argv: list[str]) -> None:
    script = next(s for s in SCRIPTS if s.name == prog)
    assert script(argv) in (0, None)


def untrained_copy(model_file: Path, out: Path) -> Path:
    """A model of the same network, freshly initialised (seeded), saved to `out`."""
    import torch
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(model_file, device="cpu")
    torch.manual_seed(0)
    fresh = model.policy_class(
        model.observation_space, model.action_space, model.lr_schedule, **model.policy_kwargs
    )
    model.policy.load_state_dict(fresh.state_dict())
    model.save(out)
    return out


def out_folder(argv: list[str]) -> Path:
    return Path(argv[argv.index("--out") + 1])


@pytest.mark.slow
@pytest.mark.parametrize("game", ["asara", "basari"])
def test_the_readme_training_command_beats_random_and_an_untrained_network(
    game, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # the README's relative --out lands here
    train = readme_command(f"{game}-train")
    run_script(f"{game}-train", train + BUDGET[game])
    model = out_folder(train) / "final.zip"
    assert model.is_file()
    untrained = untrained_copy(model, tmp_path / "untrained.zip")

    evaluate = readme_command(f"{game}-evaluate")
    assert evaluate[evaluate.index("--model") + 1] == str(model)  # the model just trained
    opponents = f"random,policy:model={untrained}"
    run_script(
        f"{game}-evaluate", evaluate + ["--opponents", opponents, "--out", "eval", "--quiet"]
    )
    rows = json.loads(next(Path("eval").glob("evaluation_*p.json")).read_text())
    assert [r["opponent"] for r in rows] == opponents.split(",")
    for row in rows:
        assert row["ci_low"] > row["fair_share"], row
