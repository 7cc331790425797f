"""The rules pages say what the seeds say, and mark this site's own readings, in every language.

Two statements were once wrong on the pages and are pinned here: the WCDF tournament draw (seed 003: a claim
when no man was moved forward in each side's last 40 moves; the capture reset is this site's difference) and
the Tanzanian countdown (seed 000: the three-king side must *win* before move 13, which a blocked lone king
also gives; which moves count is this site's reading, and the material cannot come back once changed). The
Tanzanian time loss is pinned too: seed 000's "3 vs 1 material" names no kind of piece, so the pages and the
rules layer count men and kings alike, and say that this is this site's reading.
"""

from __future__ import annotations

import pytest
import yaml

from shared_rules import get_game
from shared_rules.draughts.game import COUNTDOWN_MOVES
from tests.checks import draughts, draughts_game
from tests.site.conftest import ROOT

LANGUAGES = ("en", "sw", "tl")


def section(language: str, game: str, key: str) -> str:
    content = yaml.safe_load((ROOT / "site" / "content" / language / f"{game}.yaml").read_text(encoding="utf-8"))
    found = [s["text"] for s in content["sheria"]["sections"] if s["id"] == key]
    assert len(found) == 1, f"{language}/{game}: no section {key!r}"
    return " ".join(found[0].split())


def list_item(language: str, game: str, key: str, marker: str) -> str:
    """The item of section ``key``'s list that names ``marker``."""
    return next(line for line in section(language, game, key).split(" - ") if marker in line)


def wcdf_item(language: str) -> str:
    return list_item(language, "english", "other-rules", "WCDF")


# What each language must say (the seed's rule, then this site's three differences) and must not say.
WCDF = {
    "en": (
        [
            "claim a draw",
            "moved a man forward",
            "last 40 moves",
            "both players together",
            "a capture",
            "without a claim",
        ],
        ["no piece captured"],
    ),
    "sw": (
        [
            "sare hudaiwa",
            "isiyo kingi kusonga mbele",
            "hatua 40",
            "wote wawili kwa pamoja",
            "inapoliwa",
            "bila kudaiwa",
        ],
        ["bila kete yoyote kuliwa"],
    ),
    "tl": (
        [
            "humingi ng tabla",
            "nag-abante ng karaniwang piyesa",
            "huling 40 tira",
            "magkasama",
            "may kain",
            "kusa ang tabla",
        ],
        ["at walang nakain"],
    ),
}

COUNTDOWN = {
    "en": (
        ["must win", "without a legal move", "this site's reading", "crowning its third king"],
        ["must take", "comes about again"],
    ),
    "sw": (
        ["ushindi lazima upatikane", "bila hatua halali", "uelewa wa tovuti hii", "kupandishwa kuwa kingi ya tatu"],
        ["ikirudi", "sifuri"],
    ),
    "tl": (
        ["Dapat manalo", "walang legal na tira", "Pagbasa ng site na ito", "pagpapahari sa ikatlo"],
        ["zero", "bumalik"],
    ),
}


# The time-loss section: the seed's words, this site's reading of them, and no trace of the old narrowing.
TIME_LOSS = {
    "en": ['"in 3 against 1 material"', "this site's reading", "men and kings alike", "whichever side"],
    "sw": ['"3 dhidi ya 1"', "uelewa wa tovuti hii", "za kawaida au kingi", "upande wowote"],
    "tl": ['"3 laban sa 1"', "pagbasa ng site na ito", "karaniwang piyesa man o hari", "alinmang panig"],
}
# Wherever a page names the time-loss exception (sections and FAQ), never the three-kings narrowing.
TIME_LOSS_NARROWED = {
    "en": "three kings against",
    "sw": "kingi tatu zikiwa dhidi ya kingi moja",
    "tl": "tatlong hari laban sa isang hari",
}
TIME_WORD = {"en": "time", "sw": "muda", "tl": "oras"}


def time_statements(language: str) -> list[str]:
    content = yaml.safe_load((ROOT / "site" / "content" / language / "tanzanian.yaml").read_text(encoding="utf-8"))
    texts = [s["text"] for s in content["sheria"]["sections"]] + [q["a"] for q in content["sheria"]["faq"]]
    sentences = [sentence for text in texts for sentence in " ".join(text.split()).split(". ")]
    return [sentence for sentence in sentences if TIME_WORD[language] in sentence.lower()]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_time_loss_draw_counts_any_three_pieces_against_one_as_this_sites_reading(language):
    text = section(language, "tanzanian", "time-loss")
    assert [phrase for phrase in TIME_LOSS[language] if phrase not in text] == []
    narrowed = [s for s in time_statements(language) if TIME_LOSS_NARROWED[language] in s]
    assert narrowed == []


@pytest.mark.parametrize(
    ("fen", "result"),
    [("W:Wa1,c1,e1:BKh2", "draw"), ("B:WKd4:Bb8,d8,f8", "draw"), ("W:WKa1,Kc1,Ke1,Kg1:BKh2", "black")],
)
def test_the_rules_layer_draws_a_time_loss_as_the_pages_say(fen, result):
    game = get_game("tanzanian")
    assert game.time_loss_result(game.from_fen(fen), "white") == result


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_wcdf_draw_is_the_seeds_and_the_capture_reset_is_this_sites_difference(language):
    item = wcdf_item(language)
    must, must_not = WCDF[language]
    assert [phrase for phrase in must if phrase not in item] == []
    assert [phrase for phrase in must_not if phrase in item] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_countdown_asks_for_a_win_and_marks_which_moves_count_as_this_sites_reading(language):
    text = section(language, "tanzanian", "countdown")
    must, must_not = COUNTDOWN[language]
    assert [phrase for phrase in must if phrase not in text] == []
    assert [phrase for phrase in must_not if phrase in text] == []
    assert f"{COUNTDOWN_MOVES}" in text and f"{COUNTDOWN_MOVES + 1}" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tanzanian_readings_beyond_the_standard_are_marked(language):
    # The landing rule, men capturing only forwards, captured pieces staying and crowning ending the move are
    # not in TZD-8x8-v1: each section that states one says it is this site's reading.
    marker = {"en": "this site", "sw": "tovuti hii", "tl": "site na ito"}[language]
    for key in ("men", "flying-kings", "multi-capture", "crowning-ends-move", "time-loss"):
        assert marker in section(language, "tanzanian", key).lower(), key


def test_a_crowning_that_makes_three_kings_counts_and_a_lone_kings_capture_does_not():
    # The two cases the countdown section tells apart, as the rules layer plays them.
    game = draughts_game("tanzanian")
    crowned = draughts(game.from_fen("W:WKa1,Kc1,g7:BKa5").play("g7-h8"))
    assert crowned.countdown == 1
    taken = draughts(game.from_fen("B:WKc3,Ka1,Kg1,Kh6:BKa5").play("a5xe1"))
    assert taken.countdown == 0
    assert draughts(taken.play("h6-g7")).countdown == 1


# Two more statements the seeds make that the pages once left out: a repetition counts castling and en
# passant rights (seeds 001, 002), and the English move limit counts both players' moves (seed 003).
REPETITION_RIGHTS = {
    "en": ["castling", "en passant rights"],
    "sw": ["castling", "en passant"],
    "tl": ["castling", "en passant"],
}
MOVE_LIMIT = {
    "en": ("Move limit", "both players together"),
    "sw": ("Kikomo cha hatua", "wachezaji wote wawili pamoja"),
    "tl": ("Hangganan ng tira", "tira ng dalawang manlalaro"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_threefold_repetition_names_castling_and_en_passant_rights(language):
    item = list_item(language, "chess", "draws", "castling")
    assert [word for word in REPETITION_RIGHTS[language] if word not in item] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_move_limit_counts_both_players_moves(language):
    name, both = MOVE_LIMIT[language]
    assert both in list_item(language, "english", "draws", name)


# The countdown exercise is judged as a win (a blocked lone king loses too), and its task says so.
COUNTDOWN_TASK = {
    "en": ("Win within two moves", "without a legal move"),
    "sw": ("Shinda ndani ya hatua mbili", "bila hatua halali"),
    "tl": ("Manalo sa loob ng dalawang tira", "walang legal na tira"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_countdown_exercise_asks_for_a_win_as_the_seed_does(language):
    import exercises

    (catch,) = [exercise for exercise in exercises.EXERCISES["tanzanian"] if exercise.key == "countdown-catch"]
    assert catch.goal == "win"
    content = yaml.safe_load((ROOT / "site" / "content" / language / "tanzanian.yaml").read_text(encoding="utf-8"))
    task = content["jifunze"]["exercises"]["countdown-catch"]["task"]
    assert [phrase for phrase in COUNTDOWN_TASK[language] if phrase not in task] == []
