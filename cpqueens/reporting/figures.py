"""Matplotlib figures drawn without pyplot: a new figure, its bytes, its file.

Every plot of the package is a :class:`matplotlib.figure.Figure` on its own Agg canvas:
no interactive backend is touched and no global state is left behind, so plots are
drawn the same with or without a display, in a test or in a child process.

>>> figure = new_figure((2, 1))
>>> figure.add_subplot().plot([1, 2], [1, 4])  # doctest: +ELLIPSIS
[<matplotlib.lines.Line2D object at ...>]
>>> figure_bytes(figure)[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
from pathlib import Path


def new_figure(size: tuple[float, float]):
    """A figure of ``size`` inches with a constrained layout, on an Agg canvas of its own."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def figure_bytes(figure, fmt: str = "png", dpi: int = 100) -> bytes:
    """Render a matplotlib figure to bytes in ``fmt`` (png or svg)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format=fmt, dpi=dpi)
    return buffer.getvalue()


def save_figure(figure, path: Path) -> Path:
    """Write ``figure`` to ``path`` in the format its suffix names; return ``path``."""
    figure.savefig(path, format=path.suffix.lower()[1:])
    return path
