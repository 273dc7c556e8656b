"""XCSP3's functional expressions: read, and understood as linear forms over the rows.

An intension predicate (``ne(dist(q[0],q[1]),1)``), an item of a list
(``add(q[1],1)``) and a group's template (``ne(dist(%0,%1),%2)``) are parsed into
small trees (:func:`parse_expression`, :func:`parse_items`), then read as what they
say about the rows' columns: an integer expression becomes a :class:`Linear` form
(``q[1] + 1``) or the absolute value of one (``dist``, ``abs``), and a predicate
becomes :class:`Atom` s, each one linear form that must be non-zero (``ne``), zero
(``eq``), in a set or out of it. Whatever falls outside that (``mul`` of two
variables, ``or``, ``lt``, ``if``...) raises :class:`NotARule`, with the reason: no
rule of n-queens is written that way, and nothing is guessed.

>>> tree = parse_expression("ne(dist(%0,%1),%2)")
>>> items = parse_items("q[0] q[3] 3")
>>> rows = {("q", "[0]"): 0, ("q", "[3]"): 3}
>>> [str(atom) for atom in atoms(tree, items, lambda name, index: rows[name, index])]
['q[0] - q[3] - 3 != 0', 'q[0] - q[3] + 3 != 0']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Deeper expressions than this are refused (n-queens needs three levels).
MAX_NESTING = 32

#: A node of an expression tree: ("int", value), ("var", name, brackets),
#: ("param", k), ("rest",) for ``%...``, or ("call", operator, arguments).
Node = tuple
#: The row of a variable, given its name and brackets (``"q", "[3]"``).
Resolve = Callable[[str, str], int]

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<rest>%\.\.\.)
      | %(?P<param>\d+)
      | (?P<int>[+-]?\d+)(?![\w.\[])
      | (?P<name>[A-Za-z_]\w*)(?P<index>(?:\[[^\[\]]*\])*)
      | (?P<punct>[(),])
    )\s*""",
    re.VERBOSE,
)


class BadExpression(ValueError):
    """The text is not an expression of XCSP3's functional notation."""


class NotARule(ValueError):
    """The expression says something that is no rule of n-queens (the message says what)."""


def _tokens(text: str) -> list[tuple[str, str, str]]:
    found = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            if text[position:].strip() == "":
                break
            raise BadExpression(f"unexpected {text[position : position + 12].strip()!r}")
        position = match.end()
        kind = match.lastgroup if match.lastgroup != "index" else "name"
        if kind == "name":
            found.append(("name", match["name"], match["index"] or ""))
        elif kind == "param":
            found.append(("param", match["param"], ""))
        else:
            found.append((kind, match[kind], ""))
    return found


class _Parser:
    def __init__(self, text: str):
        self.items = _tokens(text)
        self.position = 0

    def peek(self) -> tuple[str, str, str] | None:
        return self.items[self.position] if self.position < len(self.items) else None

    def take(self, punct: str) -> None:
        token = self.peek()
        if token is None or token[:2] != ("punct", punct):
            got = "the end" if token is None else repr(token[1])
            raise BadExpression(f"{punct!r} expected, got {got}")
        self.position += 1

    def node(self, depth: int = 0) -> Node:
        if depth > MAX_NESTING:
            raise BadExpression(f"nested deeper than {MAX_NESTING} levels")
        token = self.peek()
        if token is None:
            raise BadExpression("an expression is expected, got the end")
        self.position += 1
        kind, text, index = token
        if kind == "int":
            return ("int", int(text))
        if kind == "param":
            return ("param", int(text))
        if kind == "rest":
            return ("rest",)
        if kind != "name":
            raise BadExpression(f"an expression is expected, got {text!r}")
        following = self.peek()
        if index or following is None or following[:2] != ("punct", "("):
            return ("var", text, index)
        self.take("(")
        arguments: list[Node] = []
        if self.peek() is not None and self.peek()[:2] == ("punct", ")"):
            self.position += 1
            return ("call", text, ())
        while True:
            arguments.append(self.node(depth + 1))
            token = self.peek()
            if token is not None and token[:2] == ("punct", ","):
                self.position += 1
                continue
            self.take(")")
            return ("call", text, tuple(arguments))


def parse_expression(text: str) -> Node:
    """The tree of one expression; :class:`BadExpression` for anything else.

    >>> parse_expression("ne(q[0], 3)")
    ('call', 'ne', (('var', 'q', '[0]'), ('int', 3)))
    """
    parser = _Parser(text)
    tree = parser.node()
    if parser.peek() is not None:
        raise BadExpression(f"{parser.peek()[1]!r} after the end of the expression")
    return tree


def parse_items(text: str) -> list[Node]:
    """The trees of a whitespace-separated list (``q[0] add(q[1],1) %2``).

    >>> parse_items("q[] 3 %...")
    [('var', 'q', '[]'), ('int', 3), ('rest',)]
    """
    parser = _Parser(text)
    items = []
    while parser.peek() is not None:
        items.append(parser.node())
    return items


def bind(items: Sequence[Node], arguments: Sequence[Node]) -> list[Node]:
    """A template's list with its ``%i`` and ``%...`` replaced by ``arguments``."""
    used = [item[1] for item in items if item[0] == "param"]
    after = max(used) + 1 if used else 0
    bound: list[Node] = []
    for item in items:
        if item[0] == "rest":
            bound.extend(arguments[after:])
        else:
            bound.append(_substitute(item, arguments))
    return bound


def _substitute(node: Node, arguments: Sequence[Node]) -> Node:
    if node[0] == "param":
        if node[1] >= len(arguments):
            raise BadExpression(f"%{node[1]} has no argument (the args give {len(arguments)})")
        return arguments[node[1]]
    if node[0] == "call":
        return ("call", node[1], tuple(_substitute(child, arguments) for child in node[2]))
    if node[0] == "rest":
        raise BadExpression("%... stands only in a list")
    return node


def show(node: Node) -> str:
    """The expression as XCSP3 writes it."""
    if node[0] == "int":
        return str(node[1])
    if node[0] == "var":
        return node[1] + node[2]
    if node[0] == "param":
        return f"%{node[1]}"
    if node[0] == "rest":
        return "%..."
    return f"{node[1]}({','.join(show(child) for child in node[2])})"


@dataclass(frozen=True)
class Linear:
    """``const + sum(coefficient * q[row])``, the rows and coefficients in ``terms``."""

    terms: tuple[tuple[int, int], ...]
    const: int

    def __add__(self, other: Linear) -> Linear:
        terms = dict(self.terms)
        for row, coefficient in other.terms:
            terms[row] = terms.get(row, 0) + coefficient
        return Linear(_clean(terms), self.const + other.const)

    def scaled(self, factor: int) -> Linear:
        return Linear(_clean({r: c * factor for r, c in self.terms}), self.const * factor)

    def show(self, array: str = "q") -> str:
        """The form as text, its variables named after ``array``."""
        text = ""
        for row, coefficient in self.terms:
            size = "" if abs(coefficient) == 1 else f"{abs(coefficient)}*"
            sign = "-" if coefficient < 0 else "+"
            term = f"{size}{array}[{row}]"
            text = f"{text} {sign} {term}" if text else f"{'-' if sign == '-' else ''}{term}"
        if not text:
            return str(self.const)
        if self.const:
            text += f" {'-' if self.const < 0 else '+'} {abs(self.const)}"
        return text

    def __str__(self) -> str:
        return self.show()


def _clean(terms: dict[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((row, c) for row, c in terms.items() if c))


@dataclass(frozen=True)
class _Abs:
    inner: Linear


@dataclass(frozen=True)
class Atom:
    """One condition on the rows: ``form != 0`` ("ne"), ``form == 0`` ("eq"), or
    ``form`` in ("in") or out of ("notin") ``values``."""

    kind: str
    form: Linear
    values: tuple[int, ...] = ()

    def __str__(self) -> str:
        if self.kind in ("ne", "eq"):
            return f"{self.form} {'!=' if self.kind == 'ne' else '=='} 0"
        return f"{self.form} {self.kind} {{{', '.join(map(str, self.values))}}}"


def value(node: Node, resolve: Resolve) -> Linear | _Abs:
    """The integer expression ``node`` as a linear form, or the absolute value of one."""
    kind = node[0]
    if kind == "int":
        return Linear((), node[1])
    if kind == "var":
        return Linear(((resolve(node[1], node[2]), 1),), 0)
    if kind != "call":
        raise BadExpression(f"{show(node)} stands where a value is expected")
    name, arguments = node[1], node[2]
    if name in ("dist", "abs"):
        inner = _linear_arguments(name, arguments, resolve)
        if name == "dist":
            _arity(name, arguments, 2)
            return _Abs(inner[0] + inner[1].scaled(-1))
        _arity(name, arguments, 1)
        return _Abs(inner[0])
    forms = _linear_arguments(name, arguments, resolve)
    if name == "add" and forms:
        total = forms[0]
        for form in forms[1:]:
            total = total + form
        return total
    if name == "sub":
        _arity(name, arguments, 2)
        return forms[0] + forms[1].scaled(-1)
    if name == "neg":
        _arity(name, arguments, 1)
        return forms[0].scaled(-1)
    if name == "mul" and forms:
        product = forms[0]
        for form in forms[1:]:
            if product.terms and form.terms:
                raise NotARule(f"{show(node)} multiplies two variables")
            scale, kept = (form, product) if product.terms else (product, form)
            product = kept.scaled(scale.const)
        return product
    raise NotARule(f"{name}(...) is no arithmetic the rules of n-queens are written with")


def _linear_arguments(name: str, arguments: Sequence[Node], resolve: Resolve) -> list[Linear]:
    forms = []
    for argument in arguments:
        form = value(argument, resolve)
        if isinstance(form, _Abs):
            raise NotARule(f"{name}(...) of an absolute value is no rule of n-queens")
        forms.append(form)
    return forms


def _arity(name: str, arguments: Sequence[Node], wanted: int) -> None:
    if len(arguments) != wanted:
        raise BadExpression(f"{name} takes {wanted} operands, got {len(arguments)}")


def atoms(tree: Node, arguments: Sequence[Node], resolve: Resolve) -> list[Atom]:
    """What the predicate ``tree`` (its ``%i`` bound to ``arguments``) asks, as atoms
    that must all hold; :class:`NotARule` for a predicate that is no conjunction of
    them."""
    return _atoms(_substitute(tree, arguments) if arguments else tree, resolve)


def _atoms(node: Node, resolve: Resolve) -> list[Atom]:
    if node[0] != "call":
        raise NotARule(f"{show(node)} is no condition")
    name, arguments = node[1], node[2]
    if name == "and":
        return [atom for argument in arguments for atom in _atoms(argument, resolve)]
    if name == "not":
        _arity(name, arguments, 1)
        inner = _atoms(arguments[0], resolve)
        if len(inner) != 1 or inner[0].kind not in ("ne", "eq"):
            raise NotARule(f"{show(node)}: only not(eq(..)) and not(ne(..)) are read")
        flipped = {"ne": "eq", "eq": "ne"}[inner[0].kind]
        return [Atom(flipped, inner[0].form)]
    if name in ("ne", "eq"):
        _arity(name, arguments, 2)
        return _comparison(name, value(arguments[0], resolve), value(arguments[1], resolve), node)
    if name in ("in", "notin"):
        _arity(name, arguments, 2)
        form = value(arguments[0], resolve)
        members = arguments[1]
        if isinstance(form, _Abs) or members[0] != "call" or members[1] != "set":
            raise NotARule(f"{show(node)}: only a variable in or out of set(...) is read")
        values = [value(member, resolve) for member in members[2]]
        if any(isinstance(v, _Abs) or v.terms for v in values):
            raise NotARule(f"{show(node)}: a set of numbers is expected")
        return [Atom(name, form, tuple(sorted({v.const for v in values})))]
    raise NotARule(f"{name}(...) states no rule of n-queens")


def _comparison(name: str, left, right, node: Node) -> list[Atom]:
    if isinstance(left, Linear) and isinstance(right, Linear):
        return [Atom(name, left + right.scaled(-1))]
    if isinstance(left, _Abs) and isinstance(right, _Abs):
        raise NotARule(f"{show(node)} compares two absolute values")
    absolute, other = (left, right) if isinstance(left, _Abs) else (right, left)
    if other.terms:
        raise NotARule(f"{show(node)} compares a distance with a variable")
    if name == "eq":
        raise NotARule(f"{show(node)} asks a distance to equal a number")
    if other.const < 0:
        raise NotARule(f"{show(node)} compares a distance with a negative number")
    if other.const == 0:
        return [Atom("ne", absolute.inner)]
    shift = Linear((), other.const)
    return [Atom("ne", absolute.inner + shift.scaled(-1)), Atom("ne", absolute.inner + shift)]
