"""XML read as untrusted input: no DTD, no entity, no nesting past a bound.

Every XML file cpqueens takes (XCSP3 instances, GraphML and GEXF trees) is parsed
through defusedxml's parser with the document type declaration forbidden: no
external entity or DTD is ever fetched, no entity is ever expanded, and an entity
bomb ("billion laughs") is refused at its ``<!DOCTYPE``, before one entity is
declared. Errors name the file and the line.

:func:`check_xml` only looks (at the parser's speed, nothing is built), for a file a
library parses afterwards; :func:`parse_xml` builds light elements that know their
line, and hands each one, once whole, to a ``consume`` callback that may keep it out
of the tree, so that a long file is read in memory of the size of one constraint.

>>> root = parse_xml(b"<a>\\n  <b id='x'> text </b>\\n</a>", "f.xml")
>>> root.tag, [(child.tag, child.attrib, child.text, child.line) for child in root.children]
('a', [('b', {'id': 'x'}, ' text ', 2)])
>>> parse_xml(b"<!DOCTYPE a [<!ENTITY e 'x'>]><a>&e;</a>", "bomb.xml")
Traceback (most recent call last):
...
cpqueens.errors.InvalidInputError: cannot read 'bomb.xml': line 1: the file has a document \
type declaration (<!DOCTYPE a>); cpqueens reads XML without DTDs or entities
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import InvalidInputError

#: Deeper nesting than this is refused: no XML format cpqueens reads comes near it.
MAX_DEPTH = 64


class Element:
    """One XML element: its tag, attributes, direct text, children and first line."""

    __slots__ = ("_text", "attrib", "children", "line", "tag")

    def __init__(self, tag: str, attrib: dict[str, str], line: int):
        self.tag = tag
        self.attrib = attrib
        self.line = line
        self.children: list[Element] = []
        self._text: list[str] = []

    @property
    def text(self) -> str:
        """The element's own text (between its children too), joined."""
        return "".join(self._text)

    def __repr__(self) -> str:
        return f"<{self.tag}> (line {self.line})"


#: Called with each element once it is whole, and the elements it stands in (the
#: root first; none for the root): True keeps the element out of its parent's
#: children (it has been dealt with).
Consume = Callable[[Element, Sequence[Element]], bool]


class _Builder:
    """The parser's target: light elements, each with the line it starts on."""

    def __init__(self, source: str, consume: Consume | None, max_depth: int):
        self.source = source
        self.consume = consume
        self.max_depth = max_depth
        self.stack: list[Element] = []
        self.root: Element | None = None
        self.parser = None  # the expat parser, set once the parser is made

    def line(self) -> int:
        return self.parser.CurrentLineNumber if self.parser is not None else 0

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        if len(self.stack) >= self.max_depth:
            raise _refusal(
                self.source, self.line(), f"elements nested deeper than {self.max_depth} levels"
            )
        element = Element(tag, attrib, self.line())
        if not self.stack:
            self.root = element
        self.stack.append(element)

    def end(self, tag: str) -> None:
        element = self.stack.pop()
        kept = self.consume is None or not self.consume(element, self.stack)
        if self.stack and kept:
            self.stack[-1].children.append(element)

    def data(self, text: str) -> None:
        if self.stack:
            self.stack[-1]._text.append(text)

    def close(self) -> Element | None:
        return self.root


class _Nothing:
    """A target that builds nothing: the parser only reads (and refuses)."""

    def close(self) -> None:
        return None


def parse_xml(
    data: bytes | str,
    source: str,
    *,
    consume: Consume | None = None,
    max_depth: int = MAX_DEPTH,
) -> Element:
    """The root element of the XML document ``data``, read from ``source``.

    A DTD, an entity declaration, an external reference, nesting deeper than
    ``max_depth`` or XML that is not well-formed is an :class:`InvalidInputError`
    naming ``source`` and the line; so is whatever ``consume`` raises, unchanged.
    """
    builder = _Builder(source, consume, max_depth)
    root = _run(data, source, builder)
    if root is None:
        raise _refusal(source, None, "no XML element in the file")
    return root


def check_xml(data: bytes | str, source: str) -> None:
    """Refuse ``data`` when it is not well-formed XML or declares a DTD or an entity:
    the check to make before a library that parses XML its own way gets the bytes."""
    _run(data, source, _Nothing())


def _run(data: bytes | str, source: str, target) -> Element | None:
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import DefusedXMLParser, ParseError

    parser = DefusedXMLParser(target=target, forbid_dtd=True)
    expat = parser.parser
    if isinstance(target, _Builder):
        target.parser = expat
    try:
        parser.feed(data)
        return parser.close()
    except ParseError as error:
        where = tuple(error.position) if error.position else None
        reason = str(error).split(": line ")[0]
        raise _refusal(source, where, f"not well-formed XML: {reason}") from None
    except DefusedXmlException as error:
        raise _refusal(source, expat.CurrentLineNumber, _forbidden(error)) from None


def _forbidden(error: Exception) -> str:
    from defusedxml import DTDForbidden

    # Only the declaration's name is quoted: never an entity's value or system id.
    if isinstance(error, DTDForbidden):
        name = getattr(error, "name", None) or "..."
        return (
            f"the file has a document type declaration (<!DOCTYPE {name}>); cpqueens "
            "reads XML without DTDs or entities"
        )
    return "the file declares or refers to an entity; cpqueens reads XML without entities"


def _refusal(source: str, where: int | tuple | None, message: str) -> InvalidInputError:
    """An error about ``source`` at ``where``: a line, a (line, column) pair or None."""
    if isinstance(where, tuple):
        place = f"line {where[0]}, column {where[1]}: "
    else:
        place = "" if where is None else f"line {where}: "
    return InvalidInputError(f"cannot read {source!r}: {place}{message}")
