"""`agents.policy_agent.load_model`: a saved MaskablePPO read with exactly its saved weights
and settings, without drawing the orthogonal initial weights that `MaskablePPO.load` draws
and then replaces."""

from __future__ import annotations

import io
import zipfile

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from stable_baselines3.common.save_util import json_to_data  # noqa: E402

from agents.models import MODELS, model_path  # noqa: E402
from agents.policy_agent import PolicyAgent, load_model  # noqa: E402

SHIPPED = [(game, name) for game, names in MODELS.items() for name in sorted(names)[:1]]


def saved_parts(path):
    """(the policy's saved weights, its saved policy_kwargs) read from the zip itself."""
    with zipfile.ZipFile(path) as archive:
        weights = torch.load(io.BytesIO(archive.read("policy.pth")), map_location="cpu")
        kwargs = json_to_data(archive.read("data").decode())["policy_kwargs"]
    return weights, kwargs


@pytest.mark.parametrize(("game", "name"), SHIPPED)
def test_the_saved_weights_and_settings_without_an_orthogonal_draw(game, name, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("orthogonal initial weights drawn")

    monkeypatch.setattr(torch.nn.init, "orthogonal_", refuse)
    path = model_path(game, name)
    model = load_model(path)
    weights, kwargs = saved_parts(path)
    loaded = model.policy.state_dict()
    assert loaded.keys() == weights.keys()
    assert all(torch.equal(loaded[k], weights[k]) for k in weights)
    assert model.policy_kwargs == kwargs and "ortho_init" not in model.policy_kwargs
    assert model.policy.ortho_init is True  # as the saved settings say (the default)
    assert isinstance(PolicyAgent(str(path)).model.policy, type(model.policy))


def test_a_file_that_is_not_a_model_is_refused(tmp_path):
    path = tmp_path / "notes.zip"
    path.write_text("not a zip")
    with pytest.raises(zipfile.BadZipFile):
        load_model(path)
