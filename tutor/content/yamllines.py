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


def load_yaml(text: str, path: str, problems: Problems, first_line: int = 1) -> tuple[object, dict[str, int]]:
    """Parse one YAML document in ``text`` (which starts at line ``first_line`` of ``path``).

    Returns ``(value, lines)``. A syntax error or a duplicated key is added to ``problems`` with its
    line; on a syntax error the value is ``None``. An empty document gives ``None``.
    """
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {"": first_line}
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
    finally:
        loader.dispose()
    lines: dict[str, int] = {}
    _walk(node, "", lines, path, problems, first_line)
    return value, lines


def _walk(node: yaml.Node, prefix: str, lines: dict[str, int], path: str, problems: Problems,
          first_line: int) -> None:
    lines.setdefault(prefix, first_line + node.start_mark.line)
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key, value in node.value:
            name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
            line = first_line + key.start_mark.line
            if name in seen:
                problems.add(path, line, f"duplicate key {name!r}" + (f" in {prefix}" if prefix else ""))
            seen.add(name)
            sub = f"{prefix}.{name}" if prefix else name
            lines[sub] = line
            _walk(value, sub, lines, path, problems, first_line)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            sub = f"{prefix}.{i}" if prefix else str(i)
            lines[sub] = first_line + item.start_mark.line
            _walk(item, sub, lines, path, problems, first_line)


def field_line(lines: dict[str, int], field: str, default: int = 0) -> int:
    """Line of ``field`` or of its nearest recorded parent (``"a.b.3"`` → ``"a.b"`` → ``"a"``)."""
    while True:
        if field in lines:
            return lines[field]
        if not field:
            return default
        field = field.rpartition(".")[0]
