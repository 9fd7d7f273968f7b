"""``render_mode="human"``: the picture in a window when there is a display, else in a PNG file."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from .scene import Scene


def display_available() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class HumanView:
    """Shows successive pictures in one matplotlib window; without a display (or matplotlib),
    writes each to the same PNG file (``MUSHGYM_RENDER_PATH`` or ``<tmp>/mushgym-<env>.png``)
    and says where once."""

    def __init__(self, env_id: str) -> None:
        self.env_id = env_id
        self.figure = None
        self.image = None
        self.path = Path(os.environ.get("MUSHGYM_RENDER_PATH") or Path(tempfile.gettempdir()) / f"mushgym-{env_id}.png")
        self.told = False
        self.window = display_available()

    def show(self, scene: Scene) -> None:
        rgb = scene.to_rgb()
        if self.window:
            try:
                import matplotlib.pyplot as plt

                if self.figure is None:
                    plt.ion()
                    self.figure, ax = plt.subplots(figsize=(scene.width / 100, scene.height / 100), dpi=100)
                    ax.set_axis_off()
                    self.figure.subplots_adjust(0, 0, 1, 1)
                    self.image = ax.imshow(rgb)
                else:
                    self.image.set_data(rgb)
                self.figure.canvas.draw_idle()
                plt.pause(0.001)
                return
            except Exception:  # no GUI backend after all: fall back to the file
                self.window = False
        from PIL import Image

        Image.fromarray(rgb).save(self.path)
        if not self.told:
            print(f"({self.env_id}: no display; the picture of the table is in {self.path}, updated every step)")
            self.told = True

    def close(self) -> None:
        if self.figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self.figure)
            self.figure = None
