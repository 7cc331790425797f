"""The puzzles function finds its puzzle sets on Lambda too: `make package` puts them beside the code."""

from __future__ import annotations

import subprocess
import sys

from local.package import copy_puzzle_sets
from local.template import ROOT, Template


def test_the_packaged_code_can_load_every_puzzle_set(tmp_path):
    copied = copy_puzzle_sets(tmp_path)
    names = sorted(path.name for path in copied.iterdir())  # the generator and its search stay out
    assert names == ["__init__.py", "catalog.py", "chess.jsonl", "english.jsonl", "tanzanian.jsonl"]
    code = (
        "import sys; sys.path[:0] = [sys.argv[1]]\n"
        "import puzzles.catalog as catalog\n"
        "assert catalog.__file__.startswith(sys.argv[1]), catalog.__file__\n"
        "print(sum(len(catalog.load(game)) for game in catalog.GAMES))"
    )
    # -I -S: isolated (no PYTHONPATH, no current directory) and no site-packages: only the package and the stdlib.
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(tmp_path)], capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    lines = [
        (ROOT / "puzzles" / f"{game}.jsonl").read_text(encoding="utf-8").count("\n")
        for game in ("chess", "english", "tanzanian")
    ]
    assert int(result.stdout) == sum(lines)


def test_the_function_is_in_the_template_with_its_tables():
    function = Template().functions["PuzzlesFunction"]
    assert function.handler == "puzzles_api.handler.lambda_handler"
    assert function.environment["PUZZLES_TABLE"] == "PuzzleProgressTable"
    assert function.environment["PLAYERS_TABLE"] == "PlayersTable"
    policies = Template().resources["PuzzlesFunction"]["Properties"]["Policies"][0]["Statement"]
    on_players = next(item for item in policies if "PlayersTable" in str(item["Resource"]))
    assert sorted(on_players["Action"]) == ["dynamodb:GetItem", "dynamodb:UpdateItem"]  # never Put or Delete
