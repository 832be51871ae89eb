"""``stream-inspector rules [CODE…]``: the rule catalog."""
from __future__ import annotations

import sys

from inspector.cli.codes import EXIT_OK, EXIT_USAGE
from inspector.model.catalog import RULES, VERSION


def _matches(rule, word: str) -> bool:
    """``word`` is a code or a code's start (``J002``, ``C0``, ``T``) or a rule's name as reports print it."""
    return rule.code.startswith(word.upper()) or rule.name == word.lower()


def run(args) -> int:
    """``rules [CODE…]``: print the catalog, or the codes, families and names asked for."""
    wanted = list(args.codes)
    unknown = [w for w in wanted if not any(_matches(r, w) for r in RULES.values())]
    if unknown:
        print(f"stream-inspector: no rule matches {' '.join(unknown)} (codes look like J002, names like args-invalid; "
              f"families: {' '.join(sorted({c[0] for c in RULES}))})", file=sys.stderr)
        return EXIT_USAGE
    rows = [r for r in RULES.values() if not wanted or any(_matches(r, w) for w in wanted)]
    print(f"Rule catalog v{VERSION} (shared/RULES.md v{VERSION}, plus this project's additions)")
    family = None
    for r in rows:
        if r.family != family:
            family = r.family
            print(f"\n{r.code[0]} — {family}")
        print(f"  {r.code} {r.name} ({r.severity}): {r.explain}")
    return EXIT_OK
