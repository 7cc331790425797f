"""Diagrams: drawn from positions, with captions and alt text in every language, and true to the rules."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import chess
import diagrams
import pytest

from shared_rules import InvalidMove
from tests.checks import known
from tests.site import oracles

DRAWINGS = diagrams.render_all()


@pytest.mark.parametrize("key", sorted(DRAWINGS))
def test_each_diagram_is_well_formed_svg_with_an_accessible_name(key):
    svg = DRAWINGS[key].with_text("A description", "p")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and root.get("role") == "img"
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "A description" and root.get("aria-labelledby") == title.get("id")
    # Every id is prefixed, so several diagrams can share a page.
    assert all(value.startswith("p-") for value in re.findall(r'\bid="([^"]+)"', svg))


def test_every_diagram_is_shown_with_caption_and_alt_in_every_language(built):
    for lang in ("sw", "tl", "en"):
        shown = {}
        for game in ("chess", "english", "tanzanian"):
            for section in ("sheria", "jifunze"):
                page = built.pages[f"/{lang}/{section}/{game}/"]
                for key in re.findall(r'<figure class="diagram" id="fig-([\w-]+)">', page.html):
                    shown[key] = page
        assert set(shown) == set(DRAWINGS), lang
        for key, page in shown.items():
            figure = page.html.split(f'id="fig-{key}"', 1)[1].split("</figure>", 1)[0]
            caption = figure.split("<figcaption>", 1)[1].split("</figcaption>", 1)[0]
            title = known(re.search(r"<title[^>]*>([^<]+)</title>", figure)).group(1)
            assert len(caption) > 20 and len(title) > 20, (lang, key)


def test_captions_differ_by_language(built):
    # A caption left in English on a Swahili page would show up here.
    for key in DRAWINGS:
        captions = set()
        for lang in ("sw", "tl", "en"):
            for path, page in built.pages.items():
                if path.startswith(f"/{lang}/") and f'id="fig-{key}"' in page.html:
                    captions.add(page.html.split(f'id="fig-{key}"', 1)[1].split("</figcaption>", 1)[0])
                    break
        assert len(captions) == 3, key


# --------------------------------------------------------------------------- the rules, checked by an oracle


def test_chess_diagrams_agree_with_python_chess():
    castling = chess.Board(DRAWINGS["castling"].fen)
    assert {castling.san(m) for m in castling.legal_moves if castling.is_castling(m)} == {"O-O", "O-O-O"}
    attacked = chess.Board(DRAWINGS["castling-attacked"].fen)
    assert {attacked.san(m) for m in attacked.legal_moves if attacked.is_castling(m)} == {"O-O-O"}
    en_passant = chess.Board(DRAWINGS["en-passant"].fen)
    assert any(en_passant.is_en_passant(m) and en_passant.san(m) == "exd6" for m in en_passant.legal_moves)
    promotion = chess.Board(DRAWINGS["promotion"].fen)
    assert {chess.piece_symbol(m.promotion) for m in promotion.legal_moves if m.promotion} == {"q", "r", "b", "n"}
    assert chess.Board(DRAWINGS["checkmate"].fen).is_checkmate()
    assert chess.Board(DRAWINGS["stalemate"].fen).is_stalemate()


def moves_by_reference(key):
    drawing = DRAWINGS[key]
    return oracles.draughts_moves(drawing.game, drawing.fen)


def named(game, *names):
    return [oracles.square(game, name) for name in names]


def test_english_multi_capture_has_the_two_routes_shown():
    a, b = named("english", "9", "25"), named("english", "9", "27")
    routes = {(m[0], m[1]) for m in moves_by_reference("english-multi-capture")}
    assert routes == {(a[0], a[1]), (b[0], b[1])}
    assert all(len(m[2]) == 2 for m in moves_by_reference("english-multi-capture"))


def test_english_crowning_ends_the_capture():
    (move,) = moves_by_reference("english-crowning-ends-capture")
    assert move[:2] == tuple(named("english", "22", "31")) and len(move[2]) == 1


def test_english_king_steps_one_square_each_way():
    destinations = {m[1] for m in moves_by_reference("english-king")}
    assert destinations == set(named("english", "14", "15", "22", "23"))


def test_tanzanian_flying_king_lands_where_the_caption_says():
    moves = moves_by_reference("tanzanian-flying-king")
    first_landings = {m[1] for m in moves if len(m[2]) == 1}
    assert first_landings == set(named("tanzanian", "d4", "e5"))  # the king stops here
    (double,) = [m for m in moves if len(m[2]) == 2]  # or lands on f6 and takes e7 too
    assert double[1] == oracles.square("tanzanian", "d8")
    assert oracles.square("tanzanian", "g7") not in {m[1] for m in moves}
    assert DRAWINGS["tanzanian-flying-king"].facts["landings"] == ["d4", "e5", "f6"]


def test_tanzanian_man_captures_twice_and_crowning_stops():
    (move,) = moves_by_reference("tanzanian-multi-capture")
    assert move[1] == oracles.square("tanzanian", "c7") and move[2] == frozenset(named("tanzanian", "d4", "d6"))
    (crowning,) = moves_by_reference("tanzanian-crowning-ends-capture")
    assert crowning[1] == oracles.square("tanzanian", "f8") and len(crowning[2]) == 1


def test_countdown_diagram_ends_in_a_draw_after_twelve_moves():
    assert DRAWINGS["tanzanian-countdown"].facts == {"moves": 12}


# --------------------------------------------------------------------------- lessons


def test_every_lesson_has_a_diagram_beside_it(built):
    for lang in ("sw", "tl", "en"):
        for game in ("chess", "english", "tanzanian"):
            html = built.pages[f"/{lang}/jifunze/{game}/"].html
            lessons = html.split('<section id="exercises">', 1)[0].split("<section ")[1:]
            assert len(lessons) >= 4, (lang, game)
            for lesson in lessons:
                assert '<figure class="diagram"' in lesson, (lang, game, lesson[:40])


def test_lesson_lines_are_replayed_by_python_chess_and_the_reference_generator():
    for key, drawing in DRAWINGS.items():
        if "moves" not in drawing.facts or "after" not in drawing.facts:
            continue
        if drawing.game == "chess":
            board = chess.Board(drawing.fen)
            for san in drawing.facts["moves"]:
                board.push_san(san)  # raises if python-chess finds the move illegal
            assert board.fen() == drawing.facts["after"], key
        else:
            pieces, turn = oracles.board_from_fen(drawing.game, drawing.fen)
            for notation in drawing.facts["moves"]:
                pieces = oracles.play_notation(drawing.game, pieces, turn, notation)
                turn = "black" if turn == "white" else "white"
            assert oracles.board_from_fen(drawing.game, drawing.facts["after"]) == (pieces, turn), key


def test_a_line_with_an_illegal_move_is_refused():
    # Black's 11-15 empties 11, so White cannot answer with a move from 11.
    with pytest.raises(InvalidMove) as refusal:
        diagrams.line_of_play("x", "english", "B:W21-32:B1-12", ("11-15", "11-15"))
    assert refusal.value.reason == "no_piece"
