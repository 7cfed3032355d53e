"""The layers of tutor, read from the source's imports (``ast``: every ``import`` and ``from ...
import`` statement, at module level or inside a function or an ``if TYPE_CHECKING:`` block).

engine < solve; engine < i18n < content < domain < export, web; the CLI and the benchmarks on top:

* ``tutor.engine`` imports nothing of tutor but itself; ``tutor.solve`` only the engine;
* the domain layer (``tutor.domain``: models, classes, results, dashboard, ratings, review,
  mastery, the table, the answer's write) imports no Flask and nothing of the web;
* nothing imports ``tutor.web`` but the web itself and the app factory's callers (the CLI and
  the benchmarks);
* the packages of tutor import each other without a cycle (the command line and its benchmark
  subcommands counted as one unit, the top).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import tutor

ROOT = Path(tutor.__file__).resolve().parent

#: The modules that start the app (``create_app``) and may therefore import tutor.web.
APP_CALLERS = {"tutor.cli", "tutor.bench"}

#: What the domain layer holds (issue 20): every one of these is a module of tutor.domain.
DOMAIN_MODULES = {"tutor.domain.db", "tutor.domain.models", "tutor.domain.classes", "tutor.domain.dashboard",
                  "tutor.domain.ratings", "tutor.domain.review", "tutor.domain.mastery", "tutor.domain.table",
                  "tutor.domain.record"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def _imports(name: str) -> Iterator[tuple[str, int]]:
    """``(imported module, line)`` for every import statement of module ``name``: a relative
    import resolved against the module's package; ``from pkg import x`` is ``pkg.x`` when that
    is a module of tutor, else ``pkg``."""
    path = MODULES[name]
    package = name if _is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                yield (sub if sub in MODULES else source), node.lineno


IMPORTS: dict[str, list[tuple[str, int]]] = {name: list(_imports(name)) for name in MODULES}


def _ours(target: str) -> bool:
    return target == "tutor" or target.startswith("tutor.")


def _within(target: str, package: str) -> bool:
    return target == package or target.startswith(package + ".")


def _violations(modules: str, allowed) -> list[str]:
    return sorted({f"{MODULES[name].relative_to(ROOT.parent)}:{line}: imports {target}"
                   for name, imports in IMPORTS.items() if _within(name, modules)
                   for target, line in imports if not allowed(target)})


def test_the_module_list_is_read_from_the_tree():
    assert {"tutor.engine", "tutor.engine.cards", "tutor.solve", "tutor.content.kinds", "tutor.web",
            "tutor.cli"} <= set(MODULES)
    # the parser resolves relative imports: tutor.content.kinds imports tutor.i18n as ``from ... import i18n``
    assert "tutor.i18n" in {t for t, _line in IMPORTS["tutor.content.kinds"]}


def test_the_engine_imports_nothing_of_tutor_but_itself():
    assert _violations("tutor.engine", lambda t: not _ours(t) or _within(t, "tutor.engine")) == []


def test_the_leaves_import_nothing_of_tutor():
    leaves = ("tutor.problems", "tutor.yamllines", "tutor.registry")
    for leaf in leaves:
        assert _violations(leaf, lambda t: not _ours(t) or t in leaves) == [], leaf


def test_solve_imports_only_the_engine():
    assert _violations("tutor.solve", lambda t: not _ours(t) or _within(t, "tutor.engine")
                       or _within(t, "tutor.solve")) == []


def test_the_domain_layer_holds_the_models_and_imports_no_flask_and_no_web():
    assert set(MODULES) >= DOMAIN_MODULES
    assert _violations("tutor.domain", lambda t: t.split(".")[0] != "flask" and not t.startswith("flask_")
                       and not _within(t, "tutor.web")) == []


def _app_caller(name: str) -> bool:
    """Whether the module is in one of the packages that call the app factory (:data:`APP_CALLERS`)."""
    return any(_within(name, package) for package in APP_CALLERS)


def test_only_the_app_factorys_callers_import_the_web():
    outside = {name: imports for name, imports in IMPORTS.items()
               if not _within(name, "tutor.web") and not _app_caller(name)}
    assert sorted({f"{MODULES[name].relative_to(ROOT.parent)}:{line}: imports {target}"
                   for name, imports in outside.items() for target, line in imports
                   if _within(target, "tutor.web")}) == []


def _unit(name: str) -> str:
    """The package a module belongs to for the layer graph: ``tutor.<package>`` for a module
    inside a package of tutor, the module itself for a top-level module (``tutor.i18n``). The
    command line and its benchmark subcommands (:data:`APP_CALLERS`) are one unit, the top layer
    (``tutor bench`` reuses ``tutor solve``'s stream reader)."""
    if _app_caller(name):
        return "tutor.cli"
    parts = name.split(".")
    if len(parts) >= 2 and _is_package(".".join(parts[:2])):
        return ".".join(parts[:2])
    return ".".join(parts[:2]) if len(parts) >= 2 else name


def package_graph() -> dict[str, set[str]]:
    """Package -> the other packages (and top-level modules) of tutor that it imports."""
    graph: dict[str, set[str]] = {_unit(name): set() for name in MODULES}
    for name, imports in IMPORTS.items():
        for target, _line in imports:
            if _ours(target) and _unit(target) != _unit(name):
                graph[_unit(name)].add(_unit(target))
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (its nodes, the first repeated at the end), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_packages_of_tutor_import_each_other_without_a_cycle():
    graph = package_graph()
    assert {"tutor.engine", "tutor.solve", "tutor.content", "tutor.domain", "tutor.web", "tutor.i18n"} <= set(graph)
    assert _cycle(graph) is None


def test_no_module_of_tutor_is_over_500_lines():
    """A module past 500 lines holds more than one concept (issue 20): split it by concept."""
    sizes = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in ROOT.rglob("*.py")}
    assert len(sizes) > 150
    assert {p: n for p, n in sizes.items() if n > 500} == {}
