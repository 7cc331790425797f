"""`python -m puzzles.carry`: a verification run on a copy of the sets carried into the sets, which stay full."""

from __future__ import annotations

import json

import pytest

from puzzles.carry import PENDING, carry, carry_ledger
from puzzles.verify import read_jsonl, write_jsonl


def puzzle(ident: str, **extra) -> dict:
    return {"id": ident, "fen": f"W:W{ident}:B1", "solution": ["1-5"], "source": "ubao ending study 1", **extra}


def failure(ident: str, reason: str, detail: str = "") -> dict:
    return {"id": ident, "kind": "ending", "reason": reason, "detail": detail, "fen": "", "solution": []}


@pytest.fixture
def sets(tmp_path):
    source, target = tmp_path / "copy", tmp_path / "sets"
    for directory in (source / "dropped", target / "dropped"):
        directory.mkdir(parents=True)
    write_jsonl(target / "english.jsonl", [puzzle("a"), puzzle("b"), puzzle("c"), puzzle("e", verified={"depth": 12})])
    write_jsonl(target / "dropped" / "english.jsonl", [failure("old", "undecided")])
    corrected = puzzle("a", verified={"depth": 12}, alternatives=[["1-6"]])
    write_jsonl(source / "english.jsonl", [corrected, puzzle("c"), puzzle("e", verified={"depth": 12})])
    write_jsonl(
        source / "dropped" / "english.jsonl",
        [
            failure("old", "undecided"),
            failure("a", "corrected", "alternatives [['1-6']]"),
            failure("b", "no_longer_wins", "1-5 fails at depth 10"),
            failure("d", "second_winner"),  # a puzzle the copy's own top-up found and dropped: never here
        ],
    )
    return source, target


def test_verdicts_are_carried_and_failures_stay_listed_until_dropped(sets):
    source, target = sets
    assert carry("english", source, target) == {"verified": 1, "found failing": 1, "logged": 2}
    by_id = {p["id"]: p for p in read_jsonl(target / "english.jsonl")}
    assert list(by_id) == ["a", "b", "c", "e"]  # the set keeps every puzzle, in its order
    assert by_id["a"]["verified"] == {"depth": 12} and by_id["a"]["alternatives"] == [["1-6"]]
    assert "verified" not in by_id["b"] and "verified" not in by_id["c"]
    pending = json.loads((target / "dropped" / PENDING).read_text())["english"]
    assert pending == [{"id": "b", "kind": "ending", "reason": "no_longer_wins", "detail": "1-5 fails at depth 10"}]
    logged = [(e["id"], e["reason"]) for e in read_jsonl(target / "dropped" / "english.jsonl")]
    assert logged == [("old", "undecided"), ("a", "corrected"), ("d", "second_winner")]

    # Carried twice, nothing changes; a listed failure the sets have since dropped leaves the list.
    before = {p.name: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    assert carry("english", source, target) == {"verified": 0, "found failing": 0, "logged": 0}
    assert before == {p.name: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    write_jsonl(target / "english.jsonl", [p for p in read_jsonl(target / "english.jsonl") if p["id"] != "b"])
    carry("english", source, target)
    assert json.loads((target / "dropped" / PENDING).read_text())["english"] == []


def test_the_ledger_is_replaced_only_by_one_that_counted_at_least_as_much(sets):
    source, target = sets
    (target / "dropped" / "cpu.json").write_text(json.dumps({"english": {"ending": [10, 12.0]}}))
    (source / "dropped" / "cpu.json").write_text(json.dumps({"english": {"ending": [15, 20.0], "self-play": [2, 9.0]}}))
    carry_ledger(source, target)
    assert json.loads((target / "dropped" / "cpu.json").read_text())["english"]["self-play"] == [2, 9.0]
    (source / "dropped" / "cpu.json").write_text(json.dumps({"english": {"ending": [3, 2.0]}}))
    with pytest.raises(SystemExit, match="counted less"):
        carry_ledger(source, target)


def test_a_listed_failure_the_copy_verified_after_all_leaves_the_list(sets):
    """An undecided puzzle put back into the copy and verified with a larger node budget holds."""
    source, target = sets
    carry("english", source, target)
    assert [entry["id"] for entry in json.loads((target / "dropped" / PENDING).read_text())["english"]] == ["b"]
    copy = read_jsonl(source / "english.jsonl") + [puzzle("b", verified={"depth": 12})]
    write_jsonl(source / "english.jsonl", copy)  # its drop entry stays in the copy's log, superseded
    assert carry("english", source, target) == {"verified": 1, "found failing": 0, "logged": 0}
    assert json.loads((target / "dropped" / PENDING).read_text())["english"] == []
    assert {p["id"]: p.get("verified") for p in read_jsonl(target / "english.jsonl")}["b"] == {"depth": 12}
