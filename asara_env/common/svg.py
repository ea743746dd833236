"""What every game's SVG pictures share: the document type, element writing, pixels and
animated replays (numpy only; resvg-py and Pillow are imported only to make pixels).

    SVG(text)                          # a document; notebooks draw it as a picture
    el(tag, body, class_="x")          # one element; text(...), rect(...) the common ones
    document(body, width, height)      # the <svg> element around a picture's body
    to_png(svg), to_rgb_array(svg)     # PNG bytes / uint8[H, W, 3] (resvg, Pillow)
    animated_svg(frames), save_gif(frames, path)   # pictures as one animated picture
    pixel_render_modes()               # ["rgb_array"] where resvg-py and Pillow are installed
"""

from __future__ import annotations

import importlib.util
import io
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from asara_env.common.files import atomic_write_bytes

if TYPE_CHECKING:
    from PIL import Image

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
SVG_NS = "http://www.w3.org/2000/svg"
PIXEL_PACKAGES = ("resvg_py", "PIL")  # the imports `to_png` and `to_rgb_array` need
MS_PER_SECOND = 1000


class SVG(str):
    """An SVG document; notebooks (IPython, Jupyter) draw it as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)


# ------------------------------------------------------------------------ SVG text
def el(tag: str, body: str = "", **attrs: object) -> str:
    """One element: `class_="x"` writes class="x", `data_spot` writes data-spot; attributes
    that are None are left out."""
    text = "".join(
        f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}"
        for k, v in attrs.items()
        if v is not None
    )
    return f"<{tag}{text}>{body}</{tag}>" if body else f"<{tag}{text}/>"


def text(x: float, y: float, s: str, size: int = 12, **attrs: object) -> str:
    """A text element (escaped) at (x, y), `size` pixels high."""
    return el("text", escape(s), x=round(x, 1), y=round(y, 1), font_size=size, **attrs)


def rect(x: float, y: float, w: float, h: float, fill: str, **attrs: object) -> str:
    """A rectangle, outlined in grey unless `stroke` is given."""
    attrs.setdefault("stroke", "#555")
    return el("rect", "", x=round(x, 1), y=round(y, 1), width=w, height=h, fill=fill, **attrs)


def document(body: str, width: int, height: int, **attrs: object) -> SVG:
    """The <svg> element of a `width` x `height` picture around `body`."""
    return SVG(
        el(
            "svg",
            body,
            xmlns=SVG_NS,
            width=width,
            height=height,
            viewBox=f"0 0 {width} {height}",
            font_family=FONT,
            **attrs,
        )
    )


# ------------------------------------------------------------------------ pixels
def pixel_render_modes() -> list[str]:
    """["rgb_array"] where the packages that make pixels can be imported, else []: the
    render modes an env lists beside its text modes."""
    found = all(importlib.util.find_spec(name) is not None for name in PIXEL_PACKAGES)
    return ["rgb_array"] if found else []


def to_png(svg: str, zoom: float = 1.0) -> bytes:
    """PNG bytes of an SVG document (rasterised by resvg)."""
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(svg_string=str(svg), zoom=zoom, background="#ffffff"))


def to_rgb_array(svg: str, zoom: float = 1.0) -> np.ndarray:
    """uint8[H, W, 3]: the pixels of an SVG document."""
    from PIL import Image

    with Image.open(io.BytesIO(to_png(svg, zoom))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


# ------------------------------------------------------------------------ replays
def animated_svg(frames: Sequence[str], seconds: float = 1.0) -> SVG:
    """The frames as one SVG that shows each for `seconds`, looping (SMIL animation)."""
    if not frames:
        raise ValueError("animated_svg needs at least one frame")
    width = max(_size(f, "width") for f in frames)
    height = max(_size(f, "height") for f in frames)
    return SVG("".join(animated_svg_parts(frames, len(frames), seconds, (width, height))))


def animated_svg_parts(
    frames: Iterable[str], count: int, seconds: float = 1.0, size: tuple[int, int] | None = None
) -> Iterator[str]:
    """`animated_svg` of `count` frames as text in pieces, drawing one frame at a time (so a
    server can send a long game without holding every frame): the opening tag, one
    group per frame, the closing tag. The picture is `size` (width, height), by default
    the first frame's; ValueError if `frames` does not give `count` frames."""
    if count < 1:
        raise ValueError("animated_svg needs at least one frame")
    total, given = seconds * count, 0
    for i, frame in enumerate(frames):
        if i >= count:
            raise ValueError(f"more than the {count} frames announced")
        if i == 0:
            width, height = size or (_size(frame, "width"), _size(frame, "height"))
            yield f'<svg xmlns={quoteattr(SVG_NS)} width="{width}" height="{height}">'
        times = f"0;{i / count:.6f};{(i + 1) / count:.6f}"
        anim = el(
            "animate",
            attributeName="visibility",
            values="hidden;visible;hidden",
            keyTimes=times,
            calcMode="discrete",
            dur=f"{total:g}s",
            repeatCount="indefinite",
        )
        yield el("g", anim + frame, visibility="hidden", class_="frame")
        given += 1
    if given != count:
        raise ValueError(f"{given} frames given, {count} announced")
    yield "</svg>"


def _size(svg: str, name: str) -> int:
    head = svg[: svg.index(">")]
    return int(head.split(f' {name}="', 1)[1].split('"', 1)[0])


def save_gif(
    frames: Sequence[str], path: str | Path, seconds: float = 1.0, zoom: float = 0.5
) -> None:
    """The frames as an animated GIF (Pillow), each shown `seconds`, looping; the file is
    written whole or not at all."""
    from PIL import Image

    if not frames:
        raise ValueError("save_gif needs at least one frame")
    images = [Image.fromarray(to_rgb_array(f, zoom)) for f in frames]
    size = (max(i.width for i in images), max(i.height for i in images))
    images = [_padded(i, size) for i in images]
    gif = io.BytesIO()
    images[0].save(
        gif,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=int(seconds * MS_PER_SECOND),
        loop=0,
    )
    atomic_write_bytes(Path(path), gif.getvalue())


def _padded(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    from PIL import Image

    canvas = Image.new("RGB", size, "white")
    canvas.paste(image, (0, 0))
    return canvas
