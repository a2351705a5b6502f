"""What `ghostdb verify` found, as text.  Pure: values in, strings out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ghostdb.store.verification.solutions import Verdict


def verdicts(items: Sequence[Verdict]) -> str:
    """One line per solution, then each inconsistency by kind with its examples."""
    if not items:
        return "no published solution to verify: solve one with `ghostdb solve NAME`"
    lines = []
    for v in items:
        checked = f"{v.positions:,} positions" + (f", {v.plans:,} plans" if v.plans else "")
        if v.decisive:
            checked += f", {v.decisive:,} decisive answer{'s' if v.decisive != 1 else ''}"
        if v.kept:
            checked += f", {v.kept:,} kept answer{'s' if v.kept != 1 else ''}"
        state = "ok" if v.ok else f"{v.problems:,} inconsistent"
        lines.append(f"{v.name} {v.rules}: {state} ({checked} checked in {v.seconds:.2f} s)")
        for note in v.notes:
            lines.append(f"  note: {note}")
        for finding in v.inconsistencies():
            lines.append(f"  {finding.kind}: {finding.count:,}")
            lines.extend(f"    {example}" for example in finding.examples)
    return "\n".join(lines)
