"""What a verification leaves (``puzzles.verify``): each puzzle's ``Outcome``, the sets' JSON Lines files and the
drop log beside them, the CPU ledger, and the reports of where a set stands."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .rating import band_of
from .settings import VERIFY_DEPTH, Record
from .themes import MOTIFS


@dataclass(frozen=True)
class Outcome:
    id: str
    kind: str  # where the puzzle comes from: self-play, ending, landing, countdown
    reason: str | None  # None: kept; else why it is dropped
    detail: str
    verified: Record
    cpu: float
    alternatives: list[list[str]] | None = None  # corrected: the other winning moves, per step


def kind_of(puzzle: Record) -> str:
    source = puzzle["source"]
    return "self-play" if "self-play" in source else source.split()[1]


def done(puzzle: Record) -> bool:
    """Already verified as deep as this verifier goes (or proven)."""
    verified = puzzle.get("verified") or {}
    return verified.get("proven") is True or verified.get("depth", 0) >= VERIFY_DEPTH


def read_jsonl(path: Path) -> list[Record]:
    if not path.exists():
        return []
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def write_jsonl(path: Path, records: list[Record]) -> None:
    """Written whole, then moved into place: a run stopped (or a commit taken) mid-write never sees half a set."""
    part = path.with_name(path.name + ".writing")
    with part.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    part.replace(path)


def log_entry(outcome: Outcome, puzzle: Record) -> Record:
    """A line of ``dropped/<game>.jsonl``: a dropped puzzle (with why), or a corrected one (reason
    ``corrected``, with the alternatives it now records)."""
    entry = {
        "id": outcome.id,
        "kind": outcome.kind,
        "reason": outcome.reason or "corrected",
        "detail": outcome.detail or f"alternatives {outcome.alternatives}",
        "fen": puzzle["fen"],
        "solution": puzzle["solution"],
    }
    return entry


def add_cpu(directory: Path, game: str, outcomes: list[Outcome]) -> None:
    """Add the outcomes' CPU time to ``dropped/cpu.json``: per game and kind, puzzles verified and seconds."""
    path = directory / "dropped" / "cpu.json"
    ledger = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    kinds = ledger.setdefault(game, {})
    for outcome in outcomes:
        count, seconds = kinds.get(outcome.kind, [0, 0.0])
        kinds[outcome.kind] = [count + 1, round(seconds + outcome.cpu, 1)]
    path.write_text(json.dumps(ledger, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def summary(game: str, outcomes: list[Outcome]) -> str:
    dropped: dict[tuple[str, str], int] = {}
    for outcome in outcomes:
        if outcome.reason:
            dropped[(outcome.kind, outcome.reason)] = dropped.get((outcome.kind, outcome.reason), 0) + 1
    proven = sum(1 for o in outcomes if not o.reason and o.verified.get("proven"))
    kept = sum(1 for o in outcomes if not o.reason)
    fixed = sum(1 for o in outcomes if not o.reason and o.alternatives is not None)
    lines = [
        f"{game}: verified {len(outcomes)}: kept {kept} ({proven} proven, {kept - proven} by depth {VERIFY_DEPTH}; "
        f"{fixed} corrected with alternatives), dropped {len(outcomes) - kept}; "
        f"{sum(o.cpu for o in outcomes):.0f} CPU-seconds"
    ]
    lines += [f"  dropped {count} {kind} ({reason})" for (kind, reason), count in sorted(dropped.items())]
    return "\n".join(lines)


def standing(game: str, directory: Path) -> str:
    """Where a set stands: its puzzles verified (proven, by depth) and not yet, by kind; what was dropped."""
    puzzles = read_jsonl(directory / f"{game}.jsonl")
    dropped = read_jsonl(directory / "dropped" / f"{game}.jsonl")
    proven = sum(1 for p in puzzles if (p.get("verified") or {}).get("proven"))
    by_depth = sum(1 for p in puzzles if "depth" in (p.get("verified") or {}))
    waiting: dict[str, int] = {}
    for puzzle in puzzles:
        if not done(puzzle):
            waiting[kind_of(puzzle)] = waiting.get(kind_of(puzzle), 0) + 1
    reasons: dict[tuple[str, str], int] = {}
    for entry in dropped:
        reasons[(entry["kind"], entry["reason"])] = reasons.get((entry["kind"], entry["reason"]), 0) + 1
    corrections = {key: n for key, n in reasons.items() if key[1] == "corrected"}
    drops = {key: n for key, n in reasons.items() if key[1] != "corrected"}
    ledger_path = directory / "dropped" / "cpu.json"
    ledger = json.loads(ledger_path.read_text(encoding="utf-8")).get(game, {}) if ledger_path.exists() else {}
    lines = [
        f"{game}: {len(puzzles)} puzzles: {proven} proven, {by_depth} verified to depth {VERIFY_DEPTH}, "
        f"{len(puzzles) - proven - by_depth} not yet ({', '.join(f'{n} {k}' for k, n in sorted(waiting.items()))})",
        f"{game}: {sum(drops.values())} dropped: "
        + ", ".join(f"{n} {kind} ({reason})" for (kind, reason), n in sorted(drops.items())),
        f"{game}: {sum(corrections.values())} corrected (other winning moves recorded as alternatives): "
        + ", ".join(f"{n} {kind}" for (kind, _), n in sorted(corrections.items())),
        f"{game}: verification CPU time (since the ledger began): "
        + ", ".join(
            f"{kind} {n} puzzles {seconds:.0f} s ({seconds / n:.1f} s each)"
            for kind, (n, seconds) in sorted(ledger.items())
        ),
        f"{game}: spread: {spread(puzzles)}",
    ]
    return "\n".join(lines)


def spread(puzzles: list[Record]) -> str:
    """What the set's spread rules bound: the fullest 200-point band and motif, and the kinds of study
    (no band over 11.5%, no motif over 38%, at least 100 countdown and 100 landing studies in Tanzanian)."""
    if not puzzles:
        return "no puzzles"
    bands = Counter(band_of(puzzle["rating"]) for puzzle in puzzles)
    motifs = Counter(theme for puzzle in puzzles for theme in puzzle["themes"] if theme in MOTIFS)
    kinds = Counter(kind_of(puzzle) for puzzle in puzzles)
    (band, in_band), (motif, on_motif) = bands.most_common(1)[0], motifs.most_common(1)[0]
    total = len(puzzles)
    return (
        f"largest band {band}-{band + 199} {in_band / total:.1%}, largest motif {motif} {on_motif / total:.1%}; "
        + ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    )
