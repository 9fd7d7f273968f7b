"""A scene of drawing primitives, written out as SVG text or rasterised to an RGB array.

Every game draws its table with the same five primitives, in scene coordinates
(pixels of the final picture, origin top left)::

    from mushgym.render import Scene
    scene = Scene(640, 360, background="#f4efe1")
    scene.rect(10, 10, 60, 90, fill="#fff", stroke="#333", radius=6)
    scene.circle(120, 55, 20, fill="#c33")
    scene.polygon([(200, 20), (240, 90), (160, 90)], fill="#6a4")
    scene.line(10, 120, 300, 120, stroke="#999", width=2)
    scene.text(40, 55, "Porcini", size=12, anchor="middle")
    svg = scene.to_svg()            # str
    rgb = scene.to_rgb()            # uint8 array (360, 640, 3), Gymnasium's rgb_array format
    scene.save("table.png")         # .png or .svg by suffix

Both outputs come from the same list of shapes, so the SVG and the array show the
same picture. Rasterising is Pillow's ``ImageDraw``; shapes are drawn at
``supersample`` times the size and scaled down for smooth edges.

Hand-written rather than a drawing library (cairo, matplotlib, svgwrite): SVG
output is a few lines per primitive, Pillow is the one light, well-kept
rasteriser with wheels everywhere, and matplotlib would add ~0.5 s of import and
a figure per frame to every ``render()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Sequence
from xml.sax.saxutils import escape

import numpy as np

ANCHORS = ("start", "middle", "end")
_PIL_ANCHOR = {"start": "lm", "middle": "mm", "end": "rm"}


@dataclass(frozen=True)
class Shape:
    kind: str  # rect | circle | polygon | line | text
    points: tuple  # geometry, in scene coordinates
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    radius: float = 0.0  # rect corner radius, circle radius
    text: str = ""
    size: float = 12.0
    anchor: str = "start"
    bold: bool = False


def _color(c: str | None) -> str | None:
    if c is None or c == "none":
        return None
    return c


@dataclass
class Scene:
    """A fixed-size picture built from rectangles, circles, polygons, lines and text."""

    width: int
    height: int
    background: str = "#ffffff"
    shapes: list[Shape] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a scene needs a positive size, got {self.width}x{self.height}")

    # --- primitives ------------------------------------------------------------
    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        radius: float = 0.0,
    ) -> "Scene":
        self.shapes.append(Shape("rect", (x, y, w, h), fill, stroke, width, radius))
        return self

    def circle(
        self, cx: float, cy: float, r: float, fill: str | None = None, stroke: str | None = None, width: float = 1.0
    ) -> "Scene":
        self.shapes.append(Shape("circle", (cx, cy), fill, stroke, width, r))
        return self

    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1.0,
    ) -> "Scene":
        pts = tuple((float(x), float(y)) for x, y in points)
        if len(pts) < 3:
            raise ValueError(f"a polygon needs at least 3 points, got {len(pts)}")
        self.shapes.append(Shape("polygon", pts, fill, stroke, width))
        return self

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000000", width: float = 1.0) -> "Scene":
        self.shapes.append(Shape("line", (x1, y1, x2, y2), None, stroke, width))
        return self

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float = 12.0,
        fill: str = "#000000",
        anchor: str = "start",
        bold: bool = False,
    ) -> "Scene":
        """``text`` centred vertically on ``y``; ``anchor`` says where ``x`` is (start, middle, end)."""
        if anchor not in ANCHORS:
            raise ValueError(f"text anchor must be one of {ANCHORS}, got {anchor!r}")
        self.shapes.append(Shape("text", (x, y), fill, None, 1.0, 0.0, str(text), size, anchor, bold))
        return self

    # --- output -----------------------------------------------------------------
    def to_svg(self) -> str:
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family="DejaVu Sans, Verdana, sans-serif">',
            f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="{self.background}"/>',
        ]
        for s in self.shapes:
            paint = f'fill="{_color(s.fill) or "none"}"'
            if _color(s.stroke):
                paint += f' stroke="{s.stroke}" stroke-width="{s.width:g}"'
            if s.kind == "rect":
                x, y, w, h = s.points
                rx = f' rx="{s.radius:g}"' if s.radius else ""
                out.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{rx} {paint}/>')
            elif s.kind == "circle":
                cx, cy = s.points
                out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{s.radius:g}" {paint}/>')
            elif s.kind == "polygon":
                pts = " ".join(f"{x:g},{y:g}" for x, y in s.points)
                out.append(f'<polygon points="{pts}" {paint}/>')
            elif s.kind == "line":
                x1, y1, x2, y2 = s.points
                out.append(
                    f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{s.stroke}" '
                    f'stroke-width="{s.width:g}" stroke-linecap="round"/>'
                )
            else:
                x, y = s.points
                weight = ' font-weight="bold"' if s.bold else ""
                out.append(
                    f'<text x="{x:g}" y="{y:g}" font-size="{s.size:g}" fill="{s.fill}" '
                    f'text-anchor="{s.anchor}" dominant-baseline="central"{weight}>{escape(s.text)}</text>'
                )
        out.append("</svg>")
        return "\n".join(out)

    def to_rgb(self, supersample: int = 2) -> np.ndarray:
        """The picture as a ``uint8`` array of shape ``(height, width, 3)``."""
        from PIL import Image, ImageDraw

        k = max(1, int(supersample))
        img = Image.new("RGB", (self.width * k, self.height * k), self.background)
        draw = ImageDraw.Draw(img)
        for s in self.shapes:
            fill, stroke = _color(s.fill), _color(s.stroke)
            w = max(1, round(s.width * k)) if stroke else 0
            if s.kind == "rect":
                x, y, ww, hh = (v * k for v in s.points)
                box = (x, y, x + ww, y + hh)
                if s.radius:
                    draw.rounded_rectangle(box, radius=s.radius * k, fill=fill, outline=stroke, width=w)
                else:
                    draw.rectangle(box, fill=fill, outline=stroke, width=w)
            elif s.kind == "circle":
                cx, cy = (v * k for v in s.points)
                r = s.radius * k
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=stroke, width=w)
            elif s.kind == "polygon":
                draw.polygon([(x * k, y * k) for x, y in s.points], fill=fill, outline=stroke, width=w)
            elif s.kind == "line":
                draw.line([v * k for v in s.points], fill=stroke, width=max(1, round(s.width * k)))
            else:
                x, y = s.points
                draw.text(
                    (x * k, y * k),
                    s.text,
                    fill=fill,
                    font=_font(round(s.size * k), s.bold),
                    anchor=_PIL_ANCHOR[s.anchor],
                )
        if k > 1:
            img = img.resize((self.width, self.height), Image.LANCZOS)
        return np.asarray(img, dtype=np.uint8).copy()

    def save(self, path: str | Path) -> Path:
        """Write the picture to ``path``: SVG text for ``.svg``, else an image file by suffix (Pillow)."""
        path = Path(path)
        if path.suffix.lower() == ".svg":
            path.write_text(self.to_svg())
        else:
            from PIL import Image

            Image.fromarray(self.to_rgb()).save(path)
        return path

    def _repr_svg_(self) -> str:  # Jupyter shows the picture
        return self.to_svg()

    def __repr__(self) -> str:
        return f"Scene({self.width}x{self.height}, {len(self.shapes)} shapes)"


@lru_cache(maxsize=64)
def _font(size: int, bold: bool):
    """DejaVu Sans (shipped with matplotlib and most Linux systems) if found, else Pillow's own font."""
    from PIL import ImageFont

    names = ("DejaVuSans-Bold.ttf", "Verdana Bold.ttf") if bold else ("DejaVuSans.ttf", "Verdana.ttf")
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            pass
    for path in _dejavu_paths(bold):
        try:
            return ImageFont.truetype(str(path), size)
        except OSError:
            pass
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: a fixed-size bitmap font
        return ImageFont.load_default()


def _dejavu_paths(bold: bool) -> list[Path]:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    paths = [Path("/usr/share/fonts/truetype/dejavu") / name]
    try:  # matplotlib ships DejaVu; use it when installed, without importing pyplot
        import importlib.util

        spec = importlib.util.find_spec("matplotlib")
        if spec and spec.origin:
            paths.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf" / name)
    except (ImportError, ValueError):
        pass
    return [p for p in paths if p.exists()]
