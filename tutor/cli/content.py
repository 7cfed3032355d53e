"""``tutor gen``, ``tutor check`` and ``tutor rule``: the content and the rule points."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..rules import RulePoint

from .registry import command

# tutor gen (tutor.content.generators)

@command("gen", help="generate a seeded exercise and print it as YAML (an exercise block / quiz question)",
         arguments=[(("ruleset",), {"help": "hokm, all-fours or trinidad"}),
                    (("kind",), {"help": "exercise kind, e.g. legal-cards, trick-winner, hand-score"}),
                    (("--seed",), {"type": int, "default": 0, "help": "random seed (default 0)"}),
                    (("--difficulty",), {"type": int, "default": 1, "choices": (1, 2, 3),
                                         "help": "1 easy, 2 medium, 3 hard (default 1)"})])
def _gen(args: argparse.Namespace) -> int:
    from ..content.generators import generate, to_yaml
    from ..content.kinds import ExerciseError
    try:
        exercise = generate(args.ruleset, args.kind, args.seed, args.difficulty)
    except (ExerciseError, ValueError) as e:
        print(f"tutor gen: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(to_yaml(exercise))
    return 0


# ---------------------------------------------------------------------------------------------
# tutor check (tutor.content.check)

@command("check", help="check lesson and quiz files (syntax, fields, translations, coverage) against the engine",
         arguments=[(("paths",), {"nargs": "*", "metavar": "PATH",
                                  "help": "lesson/quiz files or directories (default: all of lessons/ and quizzes/)"}),
                    (("--all-languages",), {"action": "store_true", "default": None,
                                            "help": "also check every translation of the rulesets touched "
                                                    "(default when no PATH is given)"}),
                    (("--quality",), {"action": "store_true",
                                      "help": "instead, report the generated questions' quality per kind, ruleset "
                                              "and difficulty (answer balance, legal-cards shape, distinct "
                                              "scenarios, feature means); status 1 if a target is missed"}),
                    (("--seeds",), {"type": int, "default": 500, "metavar": "N",
                                    "help": "seeds per kind, ruleset and difficulty for --quality (default 500)"}),
                    (("--coverage",), {"action": "store_true",
                                       "help": "print the rule coverage table: per rule point the steps that "
                                               "teach it, the exercises and the quiz and generated questions "
                                               "whose engine verdict cites it"})])
def _check(args: argparse.Namespace) -> int:
    if args.quality:
        from ..content.quality import report
        if args.seeds < 1:
            print("tutor check: --seeds must be at least 1", file=sys.stderr)
            return 2
        return 0 if report(sys.stdout, seeds=args.seeds) else 1
    from ..content.check import run
    return run(args)



# tutor rule (tutor.rules)

@command("rule", help="print rule points (e.g. H14, C21,K20, def-jack) or list them: the reference the reasons cite",
         arguments=[(("ids",), {"nargs": "*", "metavar": "ID",
                                "help": "rule point ids; several may be joined by commas as in a reason's rule"}),
                    (("--list",), {"nargs": "?", "const": "", "default": None, "metavar": "RULESET",
                                   "help": "list every point (or those of RULESET: hokm, all-fours, trinidad)"}),
                    (("--lang",), {"default": "en", "help": "language of the texts (default en; English where "
                                                            "a text is not translated yet)"})])
def _rule(args: argparse.Namespace) -> int:
    from ..i18n import LANGUAGES
    from ..rules import UnknownRulePoint, cited
    if args.lang not in LANGUAGES:
        print(f"tutor: unknown language {args.lang!r} (languages: {', '.join(LANGUAGES)})", file=sys.stderr)
        return 2
    if args.list is not None:
        return _list_points(args)
    if not args.ids:
        print("tutor: give a rule point id (e.g. tutor rule H14) or --list", file=sys.stderr)
        return 2
    try:
        shown = [p for text in args.ids for p in cited(text)]
    except UnknownRulePoint as e:
        print(f"tutor: {e}", file=sys.stderr)
        return 2
    sys.stdout.write("\n\n".join(_show_point(p, args.lang) for p in shown) + "\n")
    return 0


def _list_points(args: argparse.Namespace) -> int:
    """``tutor rule --list [RULESET]``: one line per rule point (id, kind, games, title)."""
    from ..rules import all_points as every_point
    from ..rules import points_for
    if args.ids:
        print("tutor: give rule point ids or --list, not both", file=sys.stderr)
        return 2
    try:
        points = points_for(args.list) if args.list else every_point()
    except ValueError as e:
        print(f"tutor: {e}", file=sys.stderr)
        return 2
    sys.stdout.write("".join(f"{p.id:16} {p.kind:11} {','.join(p.games):26} {p.title_in(args.lang)}\n"
                             for p in points))
    return 0


def _show_point(p: RulePoint, lang: str) -> str:
    """A rule point as text: heading, statement, source or reason, related points."""
    import textwrap

    from ..rules import documents, get

    def wrap(text: str, indent: str = "") -> str:
        return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=" " * len(indent))

    kind = "decision (the source documents are silent or disagree)" if p.decision else p.kind
    out = [f"{p.id}  {p.title_in(lang)}", f"{', '.join(p.games)} - {kind}", "", wrap(p.text_in(lang))]
    if p.decision:
        out += ["", wrap(p.reason_in(lang), "Why: ")]
    for place in p.sources:
        doc = documents()[place.document]
        lines = ", ".join(map(str, place.lines))
        out.append(wrap(f"{place.document} ({doc.language}: {doc.about_in(lang)}), \"{place.section}\", "
                        f"line{'s' if len(place.lines) > 1 else ''} {lines}", "Source: "))
    if p.see:
        label = "Settles: " if p.decision else "See also: "
        out.append(wrap("; ".join(f"{r} ({get(r).title_in(lang)})" for r in p.see), label))
    return "\n".join(out)

