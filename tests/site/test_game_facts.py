"""The pages' scripts learn what each game is like from the page's config (``game_facts``), never from its
name: the facts come from the rules layer, and the scripts hold no comparison of a game's name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import chess
import pytest

from shared_rules import get_game
from shared_rules.draughts.game import DraughtsGame
from shared_rules.game_facts import all_game_facts
from shared_rules.names import GAME_NAMES, LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = [*(ROOT / "site" / "static").glob("*.js"), *(ROOT / "site" / "modules").glob("*.js")]
SCRIPTS += [*(ROOT / "site" / "offline").glob("*.js")]
NAME = "|".join(GAME_NAMES)
#: ``game === "chess"``, ``"english" !== game``, ``case "tanzanian":`` and the like.
NAME_TEST = re.compile(rf"""[=!]==?\s*["'`]({NAME})["'`]|["'`]({NAME})["'`]\s*[=!]==?|case\s+["'`]({NAME})["'`]""")


def test_the_name_test_sees_every_spelling():
    seen = ['game === "chess"', "'english' !== game", 'case "tanzanian":', "x == `chess`"]
    assert all(NAME_TEST.search(code) for code in seen)
    assert not NAME_TEST.search('gameFacts(game).notation === "san"')


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_no_script_compares_a_game_name(script):
    lines = script.read_text(encoding="utf-8").splitlines()
    found = [f"{number}: {line.strip()}" for number, line in enumerate(lines, 1) if NAME_TEST.search(line)]
    assert not found, "ask gameFacts(game) (site/modules/game_facts.js) instead:\n" + "\n".join(found)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_facts_agree_with_the_rules(name):
    facts = all_game_facts()[name]
    game = get_game(name)
    start = game.start()
    assert facts["first_mover"] == start.turn
    if facts["position"] == "fen":
        assert chess.Board(start.fen()).fen() == start.fen()  # a chess FEN python-chess reads back
    else:
        assert start.fen()[0] in "WB" and ":W" in start.fen()  # a PDN FEN: side to move, then the men
    if isinstance(game, DraughtsGame):
        assert facts["light_side"] == game.variant.light_side
        assert facts["compulsory_capture"] == game.mandatory_capture
        assert all(":" not in text for text in map(start.notation, start.legal_moves()))
        assert facts["notation"] == "squares" and not facts["check"] and not facts["promotion_choice"]
    else:
        assert facts["notation"] == "san" and facts["check"] and facts["promotion_choice"]
        assert "Nf3" in map(start.notation, start.legal_moves())


def test_the_node_tests_read_the_same_facts():
    copy = json.loads((ROOT / "tests" / "js" / "game_facts.json").read_text(encoding="utf-8"))
    assert copy == all_game_facts(), "python -m shared_rules.game_facts > tests/js/game_facts.json"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_config_carries_its_games_facts(built, lang):
    facts = all_game_facts()
    for key in ("mchezo", "fumbo"):
        assert built.pages[f"/{lang}/{key}/"].config["game_facts"] == facts
    for name in GAME_NAMES:
        assert built.pages[f"/{lang}/jifunze/{name}/"].config["game_facts"] == {name: facts[name]}
