"""The shared SVG helpers (asara_env/common/svg.py): elements, documents, the render modes
that need resvg-py and Pillow, and GIFs written whole."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET

import pytest

from asara_env.common import svg as common_svg
from asara_env.common.svg import SVG, document, el, pixel_render_modes, rect, save_gif, text


def test_elements_write_attributes_and_escape_text():
    assert el("g", "", class_="a", data_spot="x:1", hidden=None) == '<g class="a" data-spot="x:1"/>'
    assert text(1, 2, "a < b & c", 10) == '<text x="1" y="2" font-size="10">a &lt; b &amp; c</text>'
    assert 'stroke="#555"' in rect(0, 0, 1, 1, "red")
    assert 'stroke="none"' in rect(0, 0, 1, 1, "red", stroke="none")


def test_a_document_is_an_svg_of_its_size():
    doc = document(rect(0, 0, 5, 5, "red"), 30, 20, class_="x")
    root = ET.fromstring(doc)
    assert isinstance(doc, SVG) and doc._repr_svg_() == str(doc)
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("30", "20", "0 0 30 20")
    assert root.get("class") == "x" and root.tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize("missing", common_svg.PIXEL_PACKAGES)
def test_rgb_array_is_listed_only_where_resvg_and_pillow_import(missing, monkeypatch):
    assert pixel_render_modes() == ["rgb_array"]
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == missing else real(name, *a)
    )
    assert pixel_render_modes() == []


def test_a_gif_that_cannot_be_made_leaves_no_file(tmp_path):
    path = tmp_path / "replay.gif"
    with pytest.raises(ValueError, match="at least one frame"):
        save_gif([], path)
    frame = document(rect(0, 0, 10, 10, "red"), 10, 10)
    with pytest.raises(ValueError):
        save_gif([frame, "<svg broken"], path)
    assert list(tmp_path.iterdir()) == []
