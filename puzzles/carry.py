"""Carry the verdicts of a verification run on a copy of the sets into the sets here, keeping them full.

    python -m puzzles.carry /work/pz            # the copy verified with `python -m puzzles.verify --dir /work/pz`

A long verification is best run on a copy (it drops what fails, and a set under 1,500 puzzles fails the tests
until a top-up refills it). This takes from the copy what holds whatever the top-up later brings:

* a puzzle the copy verified (and perhaps corrected with alternatives) replaces the same puzzle here;
* a puzzle the copy dropped stays here, listed in ``dropped/found-not-yet-dropped.json`` with its reason,
  until a run of ``make puzzles`` on the sets themselves drops it and tops the set up; one the copy verified
  after all (put back and verified again, as the undecided ones were with a larger node budget) leaves the list;
* the copy's drop log entries for puzzles no longer here (and its corrections) join the log here, and its CPU
  ledger (``dropped/cpu.json``, counted since the ledger began, so never less than the one here) replaces
  this one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .settings import Record
from .verify import DRAUGHTS, HERE, read_jsonl, write_jsonl

PENDING = "found-not-yet-dropped.json"


def carry(game: str, source: Path, target: Path = HERE) -> dict[str, int]:
    """Carry ``game``'s verdicts from ``source`` into ``target``; what was carried, counted."""
    verified = {p["id"]: p for p in read_jsonl(source / f"{game}.jsonl") if p.get("verified")}
    source_log = read_jsonl(source / "dropped" / f"{game}.jsonl")
    # A puzzle the copy dropped and later verified (an undecided one, given a larger budget) holds.
    failures = {e["id"]: e for e in source_log if e["reason"] != "corrected" and e["id"] not in verified}
    puzzles = read_jsonl(target / f"{game}.jsonl")
    carried = [verified.get(puzzle["id"], puzzle) for puzzle in puzzles]
    here = {puzzle["id"] for puzzle in puzzles}
    write_jsonl(target / f"{game}.jsonl", carried)

    pending_path = target / "dropped" / PENDING
    pending = json.loads(pending_path.read_text(encoding="utf-8")) if pending_path.exists() else {}
    listed = {entry["id"] for entry in pending.get(game, [])}
    fresh = [_pending_entry(failures[i]) for i in sorted(here & failures.keys()) if i not in listed]
    still = [entry for entry in pending.get(game, []) if entry["id"] in here and entry["id"] not in verified]
    pending[game] = still + fresh
    pending_path.write_text(json.dumps(pending, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    log_path = target / "dropped" / f"{game}.jsonl"
    log = read_jsonl(log_path)
    logged = {entry["id"] for entry in log}
    joined = [e for e in source_log if e["id"] not in logged and (e["reason"] == "corrected" or e["id"] not in here)]
    write_jsonl(log_path, log + joined)
    return {
        "verified": sum(1 for p in puzzles if p["id"] in verified and not p.get("verified")),
        "found failing": len(fresh),
        "logged": len(joined),
    }


def _pending_entry(entry: Record) -> Record:
    return {key: entry[key] for key in ("id", "kind", "reason", "detail")}


def carry_ledger(source: Path, target: Path = HERE) -> None:
    """The copy's CPU ledger replaces this one, if it has counted at least as much of every kind."""
    mine_path, theirs_path = target / "dropped" / "cpu.json", source / "dropped" / "cpu.json"
    if not theirs_path.exists():
        return
    mine = json.loads(mine_path.read_text(encoding="utf-8")) if mine_path.exists() else {}
    theirs = json.loads(theirs_path.read_text(encoding="utf-8"))
    behind = [
        (game, kind)
        for game, kinds in mine.items()
        for kind, (count, _) in kinds.items()
        if theirs.get(game, {}).get(kind, [0])[0] < count
    ]
    if behind:
        raise SystemExit(f"{theirs_path} has counted less than {mine_path} for {behind}: not a copy of these sets")
    mine_path.write_text(theirs_path.read_text(encoding="utf-8"), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m puzzles.carry", description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the copy a verification ran on (its <game>.jsonl, dropped/)")
    parser.add_argument("--games", default=",".join(DRAUGHTS))
    args = parser.parse_args(argv)
    carry_ledger(args.source)
    for game in args.games.split(","):
        counts = carry(game, args.source)
        print(f"{game}: " + ", ".join(f"{n} {what}" for what, n in counts.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
