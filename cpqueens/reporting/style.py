"""One colour and one marker per backend, the same in every plot the project draws.

The registry's backends (:data:`cpqueens.solvers.REGISTRY`, in its order) take the
twenty colours of matplotlib's ``tab20`` palette, the ten dark ones first and then
the light ones, and a marker each from a cycle of distinct shapes; as no two
backends share a colour, no two share a (colour, marker) pair. Any other name (a
campaign's solver label, an external program, a search such as ``arc/row``) gets a
colour and marker chosen from a hash of the name: the same in every run and every
process, and, as far as the palette allows, a colour no registry backend has.

>>> backend_style("stack") == backend_style("stack")
True
>>> backend_style("my-program") == backend_style("my-program")
True
"""

from __future__ import annotations

import functools
import zlib


@functools.cache
def _palette(name: str) -> tuple[str, ...]:
    """A matplotlib palette as hex colours: ``tab20`` (pairs of a dark and a light shade
    of ten hues), or ``tab20b``, where names outside the registry take their colours
    once those of ``tab20`` left over by the registry are taken."""
    import matplotlib
    from matplotlib.colors import to_hex

    return tuple(to_hex(colour) for colour in matplotlib.colormaps[name].colors)


#: The order the registry takes the colours of ``tab20`` in: the ten dark shades
#: first, so that the first ten backends differ in hue; then the light shades, in an
#: order that pairs each late backend (cpmpy, minizinc, exactcover, ...) with the dark
#: shade of a backend of the other kind (hand-written or constraint solver), whose
#: lines are seldom drawn side by side. Light grey, the faintest, is left last.
_COLOUR_ORDER = (0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 1, 5, 9, 11, 17, 19, 3, 7, 13, 15)

#: Filled markers that tell apart at a glance, in the order they are handed out.
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*", "h", "<", ">", "p", "d", "H", "8")


@functools.lru_cache(maxsize=1)
def _registry_styles() -> dict[str, tuple[str, str]]:
    from ..solvers import REGISTRY

    styles = {}
    for index, name in enumerate(REGISTRY):
        colour = _palette("tab20")[_COLOUR_ORDER[index % len(_COLOUR_ORDER)]]
        if index >= len(_COLOUR_ORDER):  # more backends than colours: tab20b next
            extra = _palette("tab20b")
            colour = extra[(index - len(_COLOUR_ORDER)) % len(extra)]
        styles[name] = (colour, MARKERS[index % len(MARKERS)])
    return styles


@functools.lru_cache(maxsize=1)
def _spare_colours() -> tuple[str, ...]:
    taken = {colour for colour, _ in _registry_styles().values()}
    return tuple(c for c in _palette("tab20") + _palette("tab20b") if c not in taken)


def backend_style(name: str) -> dict[str, str]:
    """The colour and marker of ``name`` in every plot: ``{"color": ..., "marker": ...}``.

    A registry backend has its own colour, which no other backend has; any other name
    a colour and marker from a stable hash of the name (crc32, not Python's ``hash``,
    which changes from process to process), among the colours no backend has.
    """
    known = _registry_styles().get(name)
    if known is not None:
        colour, marker = known
    else:
        digest = zlib.crc32(str(name).encode("utf-8"))
        spare = _spare_colours()
        colour = spare[digest % len(spare)]
        marker = MARKERS[(digest // len(spare)) % len(MARKERS)]
    return {"color": colour, "marker": marker}


#: The searches of the search profile (propagation/order): a colour each, from the
#: dark shades of ``tab20b``, which no backend has.
SEARCH_COLOURS = {
    "none/row": "#393b79",
    "forward/row": "#637939",
    "forward/first-fail": "#8c6d31",
    "arc/row": "#843c39",
    "arc/first-fail": "#7b4173",
}

#: Their markers and lines: first-fail dashed, so the two orders of one propagation
#: tell apart.
SEARCH_LINES = {
    "none/row": ("o", "-"),
    "forward/row": ("s", "-"),
    "forward/first-fail": ("D", "--"),
    "arc/row": ("^", "-"),
    "arc/first-fail": ("v", "--"),
}


def search_style(label: str) -> dict[str, str]:
    """The colour, marker and line of a search of the profile (``"arc/first-fail"``).

    A label not among :data:`SEARCH_COLOURS` is styled as :func:`backend_style` would.
    """
    if label not in SEARCH_COLOURS:
        return {**backend_style(label), "linestyle": "-"}
    marker, line = SEARCH_LINES[label]
    return {"color": SEARCH_COLOURS[label], "marker": marker, "linestyle": line}


#: Colours of a ranked set of lines (a campaign's solvers, best first): matplotlib's
#: ``tab10`` without its grey, darkest first (by the luma of ITU-R BT.601, as a
#: greyscale print would show them), so the best line is never the palest.
RANKED_COLOURS = ("#d62728", "#1f77b4", "#8c564b", "#2ca02c", "#9467bd", "#17becf",
                  "#ff7f0e", "#e377c2", "#bcbd22")  # fmt: skip

#: Their line styles: with the markers, the lines tell apart in greyscale too.
RANKED_LINES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)))


def ranked_styles(labels) -> dict[str, dict]:
    """A colour, marker and line style for each label, the first label the strongest.

    The colours come from :data:`RANKED_COLOURS` (darkest first), the line styles from
    :data:`RANKED_LINES` and the markers from :data:`MARKERS`, each cycling on its own:
    no two of the first 90 labels share all three.

    >>> styles = ranked_styles(["best", "second"])
    >>> styles["best"]["color"], styles["best"]["linestyle"], styles["second"]["linestyle"]
    ('#d62728', '-', '--')
    """
    return {
        label: {
            "color": RANKED_COLOURS[rank % len(RANKED_COLOURS)],
            "marker": MARKERS[rank % len(MARKERS)],
            "linestyle": RANKED_LINES[rank % len(RANKED_LINES)],
        }
        for rank, label in enumerate(labels)
    }


def legend_outside(axes, *, ncols: int = 1, fontsize: str = "small", **kwargs):
    """Put the legend of ``axes`` to the right of it, outside the data area.

    Returns the legend, or None when nothing in ``axes`` has a label. With a
    constrained layout the figure makes room for it.
    """
    handles, labels = axes.get_legend_handles_labels()
    if not handles:
        return None
    return axes.legend(
        handles,
        labels,
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        borderaxespad=0.0,
        ncols=ncols,
        fontsize=fontsize,
        **kwargs,
    )
