"""YAML loading that keeps the line number of every mapping key and list item.

:func:`load_yaml` returns the plain Python value (dicts, lists, scalars, as ``yaml.safe_load``
builds them) and a ``lines`` dict from a dotted field path to the 1-based line in the file:
``"questions.3.expect"`` is the line of key ``expect`` in the fourth question; ``""`` is the
line where the document starts. ``first_line`` shifts every number, for YAML embedded in a
larger file (front matter, exercise blocks).
"""

from __future__ import annotations

import yaml

from .problems import Problems

__all__ = ["field_line", "load_yaml"]


#: Deepest nesting of lists and mappings a content file may use (the files use a handful).
MAX_DEPTH = 100
#: Python's limit on the digits of an integer read from text (``sys.get_int_max_str_digits``).
MAX_DIGITS = 4300
_INT_TAG = "tag:yaml.org,2002:int"


class _Refused(Exception):
    """A document the checker refuses to build: ``line`` and ``message`` say why."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def load_yaml(text: str, path: str, problems: Problems, first_line: int = 1) -> tuple[object, dict[str, int]]:
    """Parse one YAML document in ``text`` (which starts at line ``first_line`` of ``path``).

    Returns ``(value, lines)``. A syntax error or a duplicated key is added to ``problems`` with its
    line; on a syntax error the value is ``None``. An empty document gives ``None``. So does a
    document that uses an alias (``*name``: content files write every value out, and an alias bomb
    would explode), nests deeper than :data:`MAX_DEPTH`, or holds an integer too long to read, each
    with its problem.
    """
    try:
        loader = yaml.SafeLoader(text)  # its reader refuses control characters at once
    except yaml.reader.ReaderError as exc:
        line = first_line + text.count("\n", 0, max(0, exc.position))
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        problems.add(path, line, f"YAML cannot hold the control character U+{ord(char):04X}: delete it")
        return None, {"": first_line}
    lines: dict[str, int] = {}
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {"": first_line}
        _walk(node, "", lines, path, problems, first_line, set(), 0)
        value = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = first_line + (mark.line if mark else 0)
        what = exc.problem or "cannot be read"
        problems.add(path, line, f"YAML syntax error: {what}" + (f" ({exc.context})" if exc.context else ""))
        return None, {"": first_line}
    except yaml.YAMLError as exc:  # e.g. a non-marked reader error
        problems.add(path, first_line, f"YAML syntax error: {exc}")
        return None, {"": first_line}
    except _Refused as exc:
        problems.add(path, exc.line, exc.message)
        return None, lines or {"": first_line}
    except RecursionError:  # the parser itself recurses: nesting far past MAX_DEPTH
        problems.add(path, first_line, f"YAML nested too deeply (more than {MAX_DEPTH} levels of lists or mappings)")
        return None, {"": first_line}
    except ValueError as exc:  # a scalar PyYAML cannot convert (defensive: _walk catches long integers)
        problems.add(path, first_line, f"YAML value cannot be read: {str(exc)[:80]}")
        return None, {"": first_line}
    finally:
        loader.dispose()
    return value, lines


def _walk(node: yaml.Node, prefix: str, lines: dict[str, int], path: str, problems: Problems,
          first_line: int, seen: set[int], depth: int) -> None:
    """Record the line of every key and item under ``node``; raise :class:`_Refused` for an alias
    (a node met twice), nesting deeper than :data:`MAX_DEPTH` or an integer of too many digits."""
    here = lines.setdefault(prefix, first_line + node.start_mark.line)  # an alias: the line that uses it
    where = (f"{prefix}: " if len(prefix) <= 40 else f"{prefix[:39]}…: ") if prefix else ""
    if id(node) in seen:
        raise _Refused(here, f"{where}YAML aliases (*name) are not allowed in content files: write the value out")
    seen.add(id(node))
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _INT_TAG and len(node.value) > MAX_DIGITS:
            raise _Refused(here, f"{where}a whole number of {len(node.value)} characters is too long to read "
                                 f"(at most {MAX_DIGITS} digits)")
        return
    if depth >= MAX_DEPTH:
        raise _Refused(here, f"{where}YAML nested too deeply (more than {MAX_DEPTH} levels of lists or mappings)")
    if isinstance(node, yaml.MappingNode):
        names: set[str] = set()
        for key, value in node.value:
            name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
            line = first_line + key.start_mark.line
            if name in names:
                problems.add(path, line, f"duplicate key {name!r}" + (f" in {prefix}" if prefix else ""))
            names.add(name)
            sub = f"{prefix}.{name}" if prefix else name
            lines[sub] = line
            _walk(key, sub, {}, path, problems, first_line, seen, depth + 1)
            _walk(value, sub, lines, path, problems, first_line, seen, depth + 1)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            sub = f"{prefix}.{i}" if prefix else str(i)
            lines[sub] = first_line + item.start_mark.line
            _walk(item, sub, lines, path, problems, first_line, seen, depth + 1)


def field_line(lines: dict[str, int], field: str, default: int = 0) -> int:
    """Line of ``field`` or of its nearest recorded parent (``"a.b.3"`` → ``"a.b"`` → ``"a"``)."""
    while True:
        if field in lines:
            return lines[field]
        if not field:
            return default
        field = field.rpartition(".")[0]
