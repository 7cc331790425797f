"""`python -m puzzles.compiled`: the puzzle tools on a copy whose search mypyc compiled.

The compiled search itself is measured against the plain code in ``make bench verify`` (same puzzles,
same verdicts and nodes asserted); building it takes two CPU-minutes, too long for ``make test``.
"""

from __future__ import annotations

import shutil
import sys

from puzzles import compiled


def test_the_tools_read_and_write_the_sets_here_unless_told_otherwise():
    sets = str(compiled.ROOT / "puzzles")
    assert compiled.command("verify", ["--jobs", "2"]) == [
        sys.executable,
        "-m",
        "puzzles.verify",
        "--jobs",
        "2",
        "--dir",
        sets,
    ]
    assert compiled.command("verify", ["--dir", "/work/pz"])[-2:] == ["--dir", "/work/pz"]
    assert compiled.command("verify", ["--dir=/work/pz"])[-1] == "--dir=/work/pz"
    assert compiled.command("generate", ["--top-up"])[-3:] == ["--top-up", "--out", sets]


def test_the_copy_leaves_out_the_sets_and_caches():
    names = ["engine.py", "english.jsonl", "dropped", "__pycache__", "engine.cpython-311-x86_64-linux-gnu.so", "a.pyc"]
    assert compiled.ignored("puzzles", names) == set(names) - {"engine.py"}


def test_a_changed_source_asks_for_a_new_build(tmp_path):
    for package in compiled.PACKAGES:
        shutil.copytree(compiled.ROOT / package, tmp_path / package, ignore=compiled.ignored)
    before = compiled.digest(tmp_path)
    assert compiled.digest(tmp_path) == before
    engine = tmp_path / "shared_rules" / "draughts" / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert compiled.digest(tmp_path) != before


def test_an_unknown_tool_is_refused_before_anything_is_built(capsys):
    assert compiled.main(["solve"]) == 2
    assert "unknown tool 'solve'" in capsys.readouterr().err
