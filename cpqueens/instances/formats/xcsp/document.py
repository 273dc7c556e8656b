"""XCSP3 instance files (``.xml``; ``.xml.lzma``, ``.xml.xz``, ``.xml.gz`` compressed),
the format of the XCSP solver competitions, read by understanding the constraints.

Written (:func:`format_xcsp`): one array ``q`` of n variables (``q[r]`` is the
column of row r's queen, 0-based), an allDifferent over the columns and one over
each diagonal family, the blocked squares as a group of ``ne`` intensions and the
given queens as an instantiation, the form PyCSP3 writes and ACE reads.

Read (:func:`parse_xcsp`): one array of n row variables, then every constraint
understood, never trusted by its name or note: allDifferent (over ``q[]``, ``q[i]``
or expressions such as ``add(q[i],i)``), intension (``ne``, ``eq``, ``dist``,
``abs``, ``add``, ``sub``, ``and``, ``not``, ``in``/``notin`` a set...), extension
(supports or conflicts of one or two rows), instantiation, and groups and blocks of
them. Each is placed as pieces of the rules of n-queens (a column, a diagonal
family, a blocked square, a given queen: :mod:`~cpqueens.instances.formats.xcsp.rules`);
the first that is none of them is refused, naming its tag, id and line, and so is a
file whose constraints, all placed, leave a rule out: a file that is not exactly an
n-queens instance is never half read. The XML is untrusted
(:mod:`~cpqueens.disk.safexml`: no DTD, no entity).

>>> from cpqueens import Instance
>>> text = format_xcsp(Instance(4, fixed={0: 1}, blocked=[(2, 2), (3, 0)]))
>>> print(text[text.index("<constraints>"):], end="")
<constraints>
    <allDifferent id="columns"> q[] </allDifferent>
    <allDifferent id="diagonals-r-plus-c"> q[0] add(q[1],1) add(q[2],2) add(q[3],3) </allDifferent>
    <allDifferent id="diagonals-r-minus-c"> q[0] sub(q[1],1) sub(q[2],2) sub(q[3],3) </allDifferent>
    <group id="blocked">
      <intension> ne(%0,%1) </intension>
      <args> q[2] 2 </args>
      <args> q[3] 0 </args>
    </group>
    <instantiation id="given">
      <list> q[0] </list>
      <values> 1 </values>
    </instantiation>
  </constraints>
</instance>
>>> parse_xcsp(text, "four.xml")
Instance(n=4, fixed=((0, 1),), blocked=((2, 2), (3, 0)))
"""

from __future__ import annotations

from collections.abc import Sequence

from ....disk.safexml import Element, parse_xml
from ....errors import InvalidInputError
from ...instance import Instance, describe
from .elements import (
    NEUTRAL,
    Refused,
    Variables,
    binary_table,
    check_attributes,
    child,
    expand,
    named,
    parse_domain,
    read_variables,
    resolve,
    rows_of,
    whole_number,
)
from .expressions import (
    Atom,
    BadExpression,
    Linear,
    Node,
    NotARule,
    atoms,
    bind,
    parse_expression,
    parse_items,
    show,
    value,
)
from .rules import Rules

#: The array cpqueens writes.
ARRAY = "q"
#: Terms a line in the lists cpqueens writes.
_PER_LINE = 16


def format_xcsp(instance: Instance) -> str:
    """The instance as an XCSP3 file (a CSP: find a board, or show there is none)."""
    n = instance.n
    q = ARRAY
    lines = [
        f"<!-- {describe(instance)}. q[r] is the column of the queen on row r; rows and "
        "columns from 0. Written by cpqueens. -->",
        '<instance format="XCSP3" type="CSP">',
        "  <variables>",
        f'    <array id="{q}" size="[{n}]"> 0..{n - 1} </array>',
        "  </variables>",
        "  <constraints>",
    ]
    # The columns' allDifferent even for n = 1: ACE refuses a variable in no constraint.
    lines.append(f'    <allDifferent id="columns"> {q}[] </allDifferent>')
    if n > 1:
        for name, operator in (("plus", "add"), ("minus", "sub")):
            terms = [f"{q}[0]"] + [f"{operator}({q}[{r}],{r})" for r in range(1, n)]
            lines.append(
                f'    <allDifferent id="diagonals-r-{name}-c"> {_wrapped(terms)} </allDifferent>'
            )
    if len(instance.blocked) == 1:
        (row, column), *_ = instance.blocked
        lines.append(f'    <intension id="blocked"> ne({q}[{row}],{column}) </intension>')
    elif instance.blocked:
        lines += ['    <group id="blocked">', "      <intension> ne(%0,%1) </intension>"]
        lines += [f"      <args> {q}[{row}] {column} </args>" for row, column in instance.blocked]
        lines.append("    </group>")
    if instance.fixed:
        rows = _wrapped([f"{q}[{row}]" for row, _ in instance.fixed])
        columns = _wrapped([str(column) for _, column in instance.fixed])
        lines += [
            '    <instantiation id="given">',
            f"      <list> {rows} </list>",
            f"      <values> {columns} </values>",
            "    </instantiation>",
        ]
    lines += ["  </constraints>", "</instance>"]
    return "\n".join(lines) + "\n"


def _wrapped(terms: Sequence[str]) -> str:
    return "\n      ".join(
        " ".join(terms[start : start + _PER_LINE]) for start in range(0, len(terms), _PER_LINE)
    )


def parse_xcsp(text: str | bytes, source: str = "<text>") -> Instance:
    """Read an XCSP3 instance that states n-queens; ``source`` names it in errors.

    Raises :class:`~cpqueens.errors.InvalidInputError` naming ``source`` (and the
    line): XML that is not well-formed or declares a DTD, a file that is not XCSP3,
    variables other than one array of row variables, a value off the board, the
    first constraint that is no rule of n-queens, and a rule left out.
    """
    reader = _Reader(source)
    root = parse_xml(text, source, consume=reader.consume)
    return reader.finish(root)


class _Reader:
    """Places each constraint as the parser finishes it: memory of one constraint."""

    def __init__(self, source: str):
        self.source = source
        self.rules: Rules | None = None
        self.variables: Variables | None = None
        self.seen_root = False
        self.args: dict[int, int] = {}  # a group's id -> args placed
        self.trees: dict[int, Node] = {}  # an intension template's id -> its tree

    # --- the parser's callback --------------------------------------------------

    def consume(self, element: Element, ancestors: Sequence[Element]) -> bool:
        try:
            return self._consume(element, ancestors)
        except Refused as refusal:
            raise self._error(refusal.element, refusal.message) from None
        except (NotARule, BadExpression) as problem:
            raise self._error(element, str(problem)) from None

    def _consume(self, element: Element, ancestors: Sequence[Element]) -> bool:
        if not ancestors:
            return False  # the root, whole: finish() reads what is left of it
        if not self.seen_root:
            self._check_root(ancestors[0])
        if len(ancestors) == 1:
            if element.tag == "variables":
                self._variables(element)
            elif element.tag not in ("constraints", "annotations"):
                raise Refused(element, f"<{element.tag}> has no place in an n-queens CSP")
            return True
        chain = ancestors[1:]
        if chain[0].tag != "constraints":
            return False
        if all(above.tag == "block" for above in chain[1:]):
            self._constraint(element)
            return True
        grouped = all(above.tag == "block" for above in chain[1:-1])
        if element.tag == "args" and chain[-1].tag == "group" and grouped:
            self._group_args(chain[-1], element)
            return True
        return False

    def _check_root(self, root: Element) -> None:
        self.seen_root = True
        if root.tag != "instance":
            raise Refused(root, f"the root element is <{root.tag}>: not an XCSP3 instance")
        fmt, kind = root.attrib.get("format"), root.attrib.get("type")
        if fmt != "XCSP3":
            raise Refused(root, f'<instance format="{fmt}">: only XCSP3 is read')
        if kind != "CSP":
            raise Refused(
                root, f'<instance type="{kind}">: an n-queens instance is a CSP (type="CSP")'
            )

    def finish(self, root: Element) -> Instance:
        try:
            if not self.seen_root:
                self._check_root(root)
            if self.rules is None:
                raise Refused(root, "no <variables>: no board")
        except Refused as refusal:
            raise self._error(refusal.element, refusal.message) from None
        missing = self.rules.missing()
        if missing is not None:
            raise InvalidInputError(
                f"{self.source}: the constraints do not state n-queens: {missing}"
            )
        try:
            return Instance(self.rules.n, fixed=self.rules.given, blocked=self.rules.blocked)
        except InvalidInputError as error:
            raise InvalidInputError(f"{self.source}: {error}") from None

    def _error(self, element: Element, message: str) -> InvalidInputError:
        return InvalidInputError(f"{self.source}:{element.line}: {named(element)}: {message}")

    def _variables(self, element: Element) -> None:
        if self.rules is not None:
            raise Refused(element, "a second <variables>")
        self.variables = variables = read_variables(element)
        self.rules = Rules(variables.n, variables.array)
        for row, domain in enumerate(variables.domains):
            if len(domain) < variables.n:
                self.rules.allowed(row, domain)

    # --- the constraints ------------------------------------------------------------

    def _board(self, element: Element) -> Rules:
        if self.rules is None:
            raise Refused(element, "a constraint before the variables it is about")
        return self.rules

    def _constraint(self, element: Element, arguments: Sequence[Node] = ()) -> None:
        board = self._board(element)
        tag = element.tag
        if tag == "block":
            check_attributes(element, NEUTRAL)
        elif tag == "group":
            check_attributes(element, NEUTRAL)
            if element.children:
                self.trees.pop(id(element.children[0]), None)
            if not self.args.pop(id(element), 0):
                raise Refused(element, "a group without <args>")
            if len(element.children) != 1:
                raise Refused(element, "a group holds one template, then its <args>")
        elif tag == "allDifferent":
            check_attributes(element, NEUTRAL)
            items = self._list(element, self._lone_list(element, "allDifferent"), arguments)
            board.clique(self._terms(items))
        elif tag == "intension":
            check_attributes(element, NEUTRAL)
            tree = self._intension_tree(element, cached=bool(arguments))
            for atom in atoms(tree, arguments, self._resolve):
                board.atom(atom)
        elif tag == "instantiation":
            check_attributes(element, NEUTRAL | {"type"})
            rows = self._rows(element, self._list(element, child(element, "list"), arguments))
            values = [whole_number(word) for word in child(element, "values").text.split()]
            if len(values) != len(rows):
                raise Refused(element, f"{len(rows)} variables and {len(values)} values")
            for row, column in zip(rows, values, strict=True):
                board.give(row, column)
        elif tag == "extension":
            check_attributes(element, NEUTRAL)
            self._extension(element, arguments)
        else:
            raise Refused(
                element,
                f"<{tag}> is no rule of n-queens (a column, a diagonal, a blocked "
                "square or a given queen)",
            )

    def _group_args(self, group: Element, args: Element) -> None:
        if not group.children:
            raise Refused(args, "<args> before the group's template")
        template = group.children[0]
        if template.tag in ("group", "block", "args"):
            raise Refused(template, f"<{template.tag}> as a group's template")
        check_attributes(args, set())
        board = self._board(args)
        items = parse_items(args.text)
        arguments = [one for item in items for one in expand(item, board.array, board.n)]
        try:
            self._constraint(template, arguments)
        except (NotARule, BadExpression) as problem:
            raise Refused(args, f"{show_args(arguments)}: {problem}") from None
        self.args[id(group)] = self.args.get(id(group), 0) + 1

    def _intension_tree(self, element: Element, *, cached: bool) -> Node:
        """The predicate's tree; a group's template is parsed once, for all its args
        (and forgotten with the group, whose ids Python may give again)."""
        tree = self.trees.get(id(element)) if cached else None
        if tree is None:
            text = element.text
            if element.children:
                if len(element.children) != 1 or element.children[0].tag != "function":
                    raise Refused(element, "an intension holds its predicate or one <function>")
                text = element.children[0].text
            tree = parse_expression(text)
            if cached:
                self.trees[id(element)] = tree
        return tree

    def _lone_list(self, element: Element, what: str) -> Element:
        if not element.children:
            return element
        if len(element.children) != 1 or element.children[0].tag != "list":
            tags = ", ".join(f"<{child.tag}>" for child in element.children)
            raise Refused(element, f"an {what} over one list is read, not over {tags}")
        check_attributes(element.children[0], set())
        return element.children[0]

    def _list(self, element: Element, holder: Element, arguments: Sequence[Node]) -> list[Node]:
        items = bind(parse_items(holder.text), arguments) if arguments else parse_items(holder.text)
        board = self._board(element)
        return [one for item in items for one in expand(item, board.array, board.n)]

    def _resolve(self, name: str, brackets: str) -> int:
        return resolve(name, brackets, self.variables.array, self.variables.n)

    def _rows(self, element: Element, items: Sequence[Node]) -> list[int]:
        self._board(element)
        return rows_of(items, self.variables.array, self.variables.n)

    def _terms(self, items: Sequence[Node]) -> list[tuple[int, int]]:
        """An allDifferent's terms ``q[row] + e`` as ``(row, e)``; all of them negated
        (``-q[row] + c``) is the same allDifferent, and read as such."""
        forms = []
        for item in items:
            form = value(item, self._resolve)
            if not isinstance(form, Linear) or len(form.terms) != 1 or abs(form.terms[0][1]) != 1:
                raise NotARule(
                    f"{show(item)}: the terms of an allDifferent are a row plus a number"
                )
            forms.append(form)
        signs = {form.terms[0][1] for form in forms}
        if len(signs) > 1:
            raise NotARule("an allDifferent of rows and of negated rows is no rule of n-queens")
        return [(form.terms[0][0], form.const * form.terms[0][1]) for form in forms]

    def _extension(self, element: Element, arguments: Sequence[Node]) -> None:
        board = self._board(element)
        tags = sorted(child.tag for child in element.children)
        if tags not in (["conflicts", "list"], ["list", "supports"]):
            raise Refused(element, "an extension of one <list> and <supports> or <conflicts>")
        rows = self._rows(element, self._list(element, child(element, "list"), arguments))
        kind = "supports" if "supports" in tags else "conflicts"
        body = child(element, kind)
        check_attributes(body, set())
        if len(rows) == 1:
            values = sorted(parse_domain(body, body.text, board.n)) if body.text.strip() else []
            form = Linear(((rows[0], 1),), 0)
            board.atom(Atom("in" if kind == "supports" else "notin", form, tuple(values)))
        elif len(rows) == 2:
            binary_table(body, rows, kind, self.variables, board)
        else:
            raise NotARule(f"a table over {len(rows)} rows is no rule of n-queens")


def show_args(arguments: Sequence[Node]) -> str:
    """A group's arguments as the file writes them."""
    return "args " + " ".join(show(argument) for argument in arguments)


def _atom(kind: str, form: Linear, values: Sequence[int]):
    from .expressions import Atom

    return Atom(kind, form, tuple(values))
