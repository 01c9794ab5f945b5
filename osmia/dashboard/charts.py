"""Charts drawn on the server as SVG: numbers in, markup out, no script and no stored text inside."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from markupsafe import Markup

from osmia.memory.browse import TrendPoint

WIDTH, HEIGHT, PAD = 640, 200, 36


def trend_svg(points: Sequence[TrendPoint]) -> Markup:
    """A step-and-line chart of confidence (0-1) over time, one marker per event.

    Safe to insert unescaped: it is built only from floats and from the fixed event names this
    module formats, never from stored text.
    """
    if not points:
        return Markup("")
    t0, t1 = points[0].at, max(points[-1].at, points[0].at + 1)

    def x(t: float) -> float:
        return PAD + (WIDTH - 2 * PAD) * (t - t0) / (t1 - t0)

    def y(c: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * max(0.0, min(1.0, c))

    path = " ".join(
        f"{'M' if i == 0 else 'L'}{x(p.at):.1f},{y(p.confidence):.1f}" for i, p in enumerate(points)
    )
    marks = "".join(
        f'<circle class="event {_css(p.what)}" cx="{x(p.at):.1f}" cy="{y(p.confidence):.1f}" r="4">'
        f"<title>{_day(p.at)}: {p.confidence:.3f} ({_css(p.what).replace('-', ' ')})</title></circle>"
        for p in points
    )
    grid = "".join(
        f'<line class="grid" x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
        f'<text class="axis" x="{PAD - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>'
        for v in (0.0, 0.25, 0.5, 0.75, 1.0)
    )
    axis = (
        f'<text class="axis" x="{PAD}" y="{HEIGHT - 10}">{_day(t0)}</text>'
        f'<text class="axis" x="{WIDTH - PAD}" y="{HEIGHT - 10}" text-anchor="end">{_day(t1)}</text>'
    )
    return Markup(
        f'<svg class="trend" role="img" aria-label="confidence over time" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" xmlns="http://www.w3.org/2000/svg">'
        f'{grid}{axis}<path class="line" d="{path}"/>{marks}</svg>'
    )


def _day(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d")


def _css(what: str) -> str:
    """Event names are ours (browse.TrendPoint.what); reduce them to [a-z-] all the same."""
    return "".join(c if c.isalpha() else "-" for c in what.lower())
