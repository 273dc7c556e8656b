"""How numbers read on screen, in tables and on plots: one style everywhere.

* times: seconds with three significant digits, in ``s`` from one second up and in
  ``ms`` (``µs``, ``ns``) below, never in scientific notation: ``1.21 s``, ``1210 s``,
  ``12.3 ms``;
* counts: whole numbers with thousands separators: ``2,890,310``;
* a count and its noun: ``1 node``, ``2,056 nodes``.

>>> seconds(1210.4), seconds(1.2149), seconds(0.01234), seconds(0.0000123)
('1210 s', '1.21 s', '12.3 ms', '12.3 µs')
>>> thousands(2890310), plural(1, "node"), plural(2056, "node"), plural(3, "board")
('2,890,310', '1 node', '2,056 nodes', '3 boards')
"""

from __future__ import annotations

import math


def seconds(value: float | None, *, unit: bool = True) -> str:
    """A duration in seconds, three significant digits (``-`` for None or NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if value < 0:
        return "-" + seconds(-value, unit=unit)
    if value == 0:
        return "0 s" if unit else "0"
    units = ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns"))
    for index, (scale, name) in enumerate(units):
        if value >= scale or name == "ns":
            text = significant(value / scale)
            if index and float(text) >= 1000:  # 0.99996 s is "1.00 s", not "1000 ms"
                scale, name = units[index - 1]
                text = significant(value / scale)
            return f"{text} {name}" if unit else text
    raise AssertionError("unreachable")  # pragma: no cover


def significant(value: float, digits: int = 3) -> str:
    """``value`` with ``digits`` significant digits, without an exponent.

    >>> significant(1234.6), significant(12.345), significant(0.5), significant(0)
    ('1235', '12.3', '0.500', '0')
    """
    if value == 0:
        return "0"
    places = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    text = f"{value:.{places}f}"
    # Rounding may add a digit (9.999 -> 10.00): take one place less then.
    if places and len(text.replace("-", "").replace(".", "").lstrip("0")) > digits:
        text = f"{value:.{places - 1}f}"
    return text


def thousands(value: int | None) -> str:
    """A whole number with thousands separators (``-`` for None)."""
    return "-" if value is None else f"{value:,}"


def plural(number: int, noun: str, plural_form: str | None = None) -> str:
    """``number`` and ``noun``, in the plural unless the number is one."""
    word = noun if number == 1 else (plural_form or noun + "s")
    return f"{thousands(number)} {word}"


def bound_over(needed: float) -> int:
    """A bound to suggest for something that needs ``needed``: a tenth more, rounded
    up to two significant digits.

    >>> bound_over(2_190_000_000), bound_over(1_303_776_376), bound_over(1000)
    (2500000000, 1500000000, 1100)
    """
    value = needed * 1.1
    scale = 10 ** max(0, len(str(int(value))) - 2)
    return int(math.ceil(value / scale) * scale)
