"""Shared map helpers (issue 17, «Maps»): a frame with title and turn, a legend, the usual
symbols, and PNG export «rendered by a library ... tested by rendering and checking pixels»,
with the fonts voevoda ships so that text renders on a machine with no fonts installed."""

from __future__ import annotations

import numpy as np

from tests.pngread import read_png
from voevoda.core import maps


def dark(pixels: np.ndarray) -> int:
    return int((pixels[..., :3].max(axis=-1) < 100).sum())


def test_text_renders_with_the_shipped_fonts_alone() -> None:
    """resvg is told to skip the machine's fonts: Cyrillic and Latin text still renders."""
    assert [p.split("/")[-1] for p in maps.font_files()] == ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf"]
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60">'
           '<rect width="200" height="60" fill="#ffffff"/>'
           + maps.text(10, 45, "Жук 7", size=40, weight="bold") + "</svg>")
    image = read_png(maps.to_png(svg))
    assert image.shape == (60, 200, 4)
    assert dark(image[5:55, 10:190]) > 400             # the glyphs are there
    assert dark(image[:, 195:]) == 0                  # and nothing past the text
    blank = read_png(maps.to_png(svg.replace("Жук 7", "")))
    assert dark(blank) == 0


def test_zoom_scales_the_picture() -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="red"/></svg>'
    image = read_png(maps.to_png(svg, zoom=2))
    assert image.shape == (60, 80, 4) and tuple(image[30, 40, :3]) == (255, 0, 0)


def test_a_framed_map_has_title_turn_and_a_legend_for_its_symbols() -> None:
    body = (f'<polygon points="{maps.hex_points(30, 30, 26)}" fill="#1f77b4"/>'
            + maps.arrow(10, 80, 90, 80, "#d62d20") + maps.battle_mark(150, 40))
    legend = [maps.LegendEntry(maps.swatch("#1f77b4"), "владения Анны"),
              maps.LegendEntry(maps.legend_symbol_arrow("#d62d20"), "ход отряда"),
              maps.LegendEntry(maps.legend_symbol_battle(), "бой")]
    svg = maps.framed(body, 200, 120, title="Священная Империя", subtitle="после хода 3", legend=legend)
    for words in ("Священная Империя", "после хода 3", "Условные обозначения", "владения Анны", "ход отряда", "бой"):
        assert words in svg
    image = read_png(maps.to_png(svg))
    height, width = image.shape[:2]
    assert width == 228 and height > maps.HEADER + 120 + 3 * maps.LEGEND_ROW
    top = int(maps.HEADER)
    hex_centre = image[top + 30, int(maps.PAD) + 30, :3]
    assert tuple(hex_centre) == (0x1F, 0x77, 0xB4)     # the hex's fill
    arrow_pixel = image[top + 80, int(maps.PAD) + 50, :3]
    assert arrow_pixel[0] > 180 and arrow_pixel[1] < 90   # the red arrow
    assert dark(image[:30, :]) > 50                     # the title's ink
