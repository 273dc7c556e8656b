"""The parts of an XCSP3 file below its constraints: the row variables and their
domains, the variables a list names, the tables of an extension, and the checks
every element gets (its attributes, its children, its numbers).

A refusal here is a :class:`Refused` naming the element; the reader
(:mod:`~cpqueens.instances.formats.xcsp.document`) turns it into the file's error, with the line.

>>> from cpqueens.disk.safexml import parse_xml
>>> variables = read_variables(parse_xml(b'<variables><array id="x" size="[4]">'
...     b'<domain for="x[0]"> 1..3 </domain><domain for="others"> 0..3 </domain>'
...     b'</array></variables>', "v.xml"))
>>> variables.array, variables.n, [sorted(d) for d in variables.domains]
('x', 4, [[1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3]])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ....arguments import check_n
from ....disk.safexml import Element
from ....errors import InvalidInputError
from .expressions import BadExpression, Node, NotARule, parse_items, show
from .rules import Rules

#: The attributes any constraint, group or block may carry (they change no meaning).
NEUTRAL = frozenset({"id", "note", "class"})
_RANGE = re.compile(r"^(-?\d+)\.\.(-?\d+)$")
_TUPLE = re.compile(r"\(([^()]*)\)")


class Refused(Exception):
    """A refusal at an element: turned into the file's error by the reader."""

    def __init__(self, element: Element, message: str):
        super().__init__(message)
        self.element = element
        self.message = message


@dataclass(frozen=True)
class Variables:
    """The row variables: the array's name, its size n, and each row's domain."""

    array: str
    n: int
    domains: tuple[frozenset[int], ...]


def read_variables(element: Element) -> Variables:
    """The one array of row variables that ``<variables>`` declares."""
    for child in element.children:
        if child.tag != "array":
            raise Refused(
                child,
                "cpqueens reads one array of row variables (q[r] the column of row r's "
                f"queen), and <{child.tag}> is another variable",
            )
    if len(element.children) != 1:
        raise Refused(
            element, f"one array of row variables is expected, found {len(element.children)}"
        )
    array = element.children[0]
    check_attributes(array, {"id", "size", "note", "type"})
    if array.attrib.get("type", "integer") != "integer":
        raise Refused(array, "the row variables must be integer variables")
    name = array.attrib.get("id", "")
    size = re.fullmatch(r"\s*\[\s*(\d+)\s*\]\s*", array.attrib.get("size", ""))
    if not name or size is None:
        raise Refused(
            array,
            "an array of one dimension is expected, with an id and a size such as "
            'size="[8]" (a board of one variable a row)',
        )
    try:
        n = check_n(int(size[1]))
    except InvalidInputError as error:
        raise Refused(array, str(error)) from None
    if not array.children:
        whole = frozenset(parse_domain(array, array.text, n))
        return Variables(name, n, (whole,) * n)
    if array.text.strip():
        raise Refused(array, "a domain both as text and as <domain> elements")
    domains: list[frozenset[int] | None] = [None] * n
    for child in array.children:
        if child.tag != "domain":
            raise Refused(child, f"<{child.tag}> inside an array")
        check_attributes(child, {"for"})
        domain = frozenset(parse_domain(child, child.text, n))
        scope = child.attrib.get("for", "").strip()
        if scope == "others":
            rows = [row for row in range(n) if domains[row] is None]
        else:
            rows = rows_of(parse_items(scope), name, n)
        for row in rows:
            if domains[row] is not None:
                raise Refused(child, f"a second domain for {name}[{row}]")
            domains[row] = domain
    missing = [row for row, domain in enumerate(domains) if domain is None]
    if missing:
        raise Refused(array, f"{name}[{missing[0]}] has no domain")
    return Variables(name, n, tuple(d for d in domains if d is not None))


def parse_domain(element: Element, text: str, n: int) -> set[int]:
    """The values (``0 2 4..7``) of a domain or a unary table, all columns of the board."""
    values: set[int] = set()
    for word in text.split():
        interval = _RANGE.match(word)
        low, high = (int(interval[1]), int(interval[2])) if interval else (whole_number(word),) * 2
        if low > high:
            continue
        if low < 0 or high >= n:
            wrong = low if low < 0 else high
            raise Refused(
                element,
                f"the domain holds {wrong}, off the board: the columns of a board of {n} "
                f"rows are 0..{n - 1}",
            )
        values.update(range(low, high + 1))
    if not values:
        raise Refused(element, "an empty domain")
    return values


def expand(item: Node, array: str, n: int) -> list[Node]:
    """``q[]`` and ``q[2..5]`` as the variables they stand for; other items as they are."""
    compact = item[0] == "var" and item[2].count("[") == 1
    if not compact or (".." not in item[2] and item[2] != "[]"):
        return [item]
    if item[2] == "[]":
        low, high = 0, n - 1
    else:
        bounds = _RANGE.match(item[2][1:-1].replace(" ", ""))
        if bounds is None:
            raise BadExpression(f"{show(item)} is no list of variables")
        low, high = int(bounds[1]), int(bounds[2])
        resolve(item[1], f"[{low}]", array, n)
        resolve(item[1], f"[{high}]", array, n)
    return [("var", item[1], f"[{row}]") for row in range(low, high + 1)]


def resolve(name: str, brackets: str, array: str, n: int) -> int:
    """The row of the variable ``name[brackets]``, one of ``array``'s n."""
    if name != array:
        raise BadExpression(f"{name}{brackets}: no such variable (the rows are {array})")
    index = re.fullmatch(r"\[\s*(-?\d+)\s*\]", brackets)
    if index is None:
        raise BadExpression(f"{name}{brackets} is not one variable of {name}")
    row = int(index[1])
    if not 0 <= row < n:
        raise BadExpression(f"{name}[{row}] is off the array (rows 0..{n - 1})")
    return row


def rows_of(items: Sequence[Node], array: str, n: int) -> list[int]:
    """The rows a list of variables names, in its order."""
    rows = []
    for item in items:
        for one in expand(item, array, n):
            if one[0] != "var":
                raise BadExpression(f"{show(one)} stands where a variable is expected")
            rows.append(resolve(one[1], one[2], array, n))
    return rows


def binary_table(
    body: Element, rows: Sequence[int], kind: str, variables: Variables, board: Rules
) -> None:
    """Place a table over two rows: what it forbids (its conflicts, or what its
    supports leave out, within the domains) must be whole families of pairs."""
    i, j = rows
    listed = set()
    for match in _TUPLE.finditer(body.text):
        values = [whole_number(word) for word in match[1].split(",")]
        if len(values) != 2:
            raise BadExpression(f"({match[1]}) in a table over two rows")
        listed.add((values[0], values[1]))
    if _TUPLE.sub("", body.text).strip():
        raise BadExpression("a table over two rows lists (a,b) pairs only")
    first, second = variables.domains[i], variables.domains[j]
    inside = {(a, b) for a, b in listed if a in first and b in second}
    if kind == "conflicts":
        forbidden = inside
    else:
        forbidden = {(a, b) for a in first for b in second if (a, b) not in inside}
    for d in sorted({a - b for a, b in forbidden}):
        family = {(a, a - d) for a in first if a - d in second}
        if not family <= forbidden:
            raise NotARule(
                f"the table forbids some squares of rows {i} and {j} at {d} columns apart "
                "and not others: no rule of n-queens"
            )
        board.pair(i, j, d)


def child(element: Element, tag: str) -> Element:
    """The one child ``<tag>`` of ``element``."""
    found = [one for one in element.children if one.tag == tag]
    if len(found) != 1:
        raise Refused(element, f"one <{tag}> is expected inside <{element.tag}>")
    return found[0]


def check_attributes(element: Element, allowed: set[str] | frozenset[str]) -> None:
    """Refuse an attribute not in ``allowed``: it may say what is not read."""
    for name in element.attrib:
        if name not in allowed:
            raise Refused(
                element,
                f"the attribute {name}={element.attrib[name]!r} is not read (it may change "
                "what the constraint means)",
            )


def whole_number(word: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise BadExpression(f"{word!r} is not a whole number") from None


def named(element: Element) -> str:
    """The element as an error names it: its tag, and its id when it has one."""
    identifier = element.attrib.get("id")
    return f'<{element.tag} id="{identifier}">' if identifier else f"<{element.tag}>"
