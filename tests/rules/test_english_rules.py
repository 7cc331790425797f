"""English draughts (seed 003) rule by rule, on hand-made positions.

PDN numbering: 1-4 = b8 d8 f8 h8, 5-8 = a7 c7 e7 g7, 9-12 = b6 ... h6, ..., 29-32 = a1 c1 e1 g1.
Black starts on 1-12 and moves down the numbers; White (Red) starts on 21-32 and moves up.
"""

from typing import Any

import pytest

from shared_rules import AmbiguousMove, GameOver, InvalidMove, get_game


def notations(fen, **options):
    return sorted(get_game("english", options).from_fen(fen).legal_notations())


def play(fen, *moves, **options):
    return get_game("english", options).replay(moves, fen=fen)


# ----------------------------------------------------------------- movement


def test_black_moves_first_from_the_start():
    start = get_game("english").start()
    assert start.turn == "black"
    assert sorted(start.legal_notations()) == sorted(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])


def test_men_step_diagonally_forward_only():
    # Black man d6 (10) steps down to c5 (14) or e5 (15); White man e3 (23) steps up to d4 (18) or f4 (19).
    assert notations("B:W23:B10") == ["10-14", "10-15"]
    assert notations("W:W23:B10") == ["23-18", "23-19"]


def test_a_man_on_the_edge_has_one_step():
    # a5 (13) is on the left edge: its only forward square is b6 (9).
    assert notations("W:W13:B3") == ["13-9"]


def test_kings_step_one_square_in_all_four_directions():
    # White king d4 (18): c5 14, e5 15, c3 22, e3 23; never further.
    assert notations("W:WK18:B1") == ["18-14", "18-15", "18-22", "18-23"]
    assert notations("B:W32:BK18") == ["18-14", "18-15", "18-22", "18-23"]


def test_pieces_cannot_step_onto_occupied_squares():
    # d4 (18) blocked by its own men on c5 (14) and e5 (15), which step on.
    assert notations("W:W14,15,18:B3") == ["14-10", "14-9", "15-10", "15-11"]


# ----------------------------------------------------------------- captures


def test_a_man_captures_forward_by_jumping_an_adjacent_piece():
    # White d4 (18) jumps c5 (14) to b6 (9).
    assert notations("W:W18:B14") == ["18x9"]


def test_men_never_capture_backward():
    # Black c3 (22) is behind the White man on d4 (18), with b2 (25) empty: not capturable by a man.
    assert notations("W:W18:B22,1") == ["18-14", "18-15"]


def test_kings_capture_backward():
    assert notations("W:WK18:B22,1") == ["18x25"]


def test_men_capture_kings():
    assert notations("W:W18:BK14") == ["18x9"]


def test_multi_captures_name_every_landing_square():
    # c3 (22) x d4 (18) -> e5 (15) x d6 (10) -> c7 (6).
    assert notations("W:W22:B18,10") == ["22x15x6"]


def test_capture_is_mandatory_by_default():
    fen = "W:W18,30:B14"
    assert notations(fen) == ["18x9"]
    with pytest.raises(InvalidMove):
        play(fen, "30-26")


def test_without_mandatory_capture_a_quiet_move_may_be_chosen():
    fen = "W:W18,30:B14"
    assert notations(fen, mandatory_capture=False) == ["18-15", "18x9", "30-25", "30-26"]
    after = play(fen, "30-26", mandatory_capture=False)
    assert after.fen() == "B:W18,26:B14"  # the man that could capture is not removed (no huffing)


def test_without_mandatory_capture_a_started_sequence_must_be_completed():
    fen = "W:W22:B18,10"
    game = get_game("english", {"mandatory_capture": False})
    assert sorted(game.from_fen(fen).legal_notations()) == ["22-17", "22x15x6"]
    with pytest.raises(InvalidMove):
        game.from_fen(fen).play("22x15")


def test_any_capture_route_may_be_chosen_no_maximum_rule():
    # c3 (22) may take b4 (17) alone, landing a5 (13), or d4 (18) and d6 (10), landing c7 (6).
    assert notations("W:W22:B17,18,10") == ["22x13", "22x15x6"]


def test_a_capture_sequence_must_be_completed():
    with pytest.raises(InvalidMove):
        play("W:W22:B18,10", "22x15")


def test_a_captured_piece_cannot_be_jumped_twice_and_the_starting_square_is_empty():
    # King c3 (22) against d4 18, f4 19, f2 27, d2 26: round the square and back to c3, which it left empty.
    # Going on over d4 again is not allowed, so the only move takes all four and ends where it began.
    position = get_game("english").from_fen("W:WK22:B18,19,26,27")
    moves = position.legal_moves()
    assert len(moves) == 1
    text = position.notation(moves[0])
    assert text in ("22x15x24x31x22", "22x31x24x15x22")
    after = position.play(moves[0])
    assert after.fen() == "B:WK22:B"
    assert after.status().as_dict() == {"result": "white", "reason": "no_pieces"}


def test_two_routes_with_the_same_captures_are_one_move():
    position = get_game("english").from_fen("W:WK22:B18,19,26,27")
    clockwise = position.parse_move("22x15x24x31x22")
    anticlockwise = position.parse_move("22x31x24x15x22")
    assert clockwise == anticlockwise


# ----------------------------------------------------------------- crowning


def test_a_man_reaching_the_last_row_is_crowned():
    after = play("W:W5:B28", "5-1")
    assert after.fen() == "B:WK1:B28"


def test_crowning_ends_the_move():
    # d4 (18) x c5 (14) -> b6 (9) x c7 (6) -> d8 (2), crowned. As a king it could go on over e7 (7) to f6
    # (11), but becoming a king ends the move.
    assert notations("W:W18:B14,6,7") == ["18x9x2"]
    after = play("W:W18:B14,6,7", "18x9x2")
    assert after.fen() == "B:WK2:B7"


def test_black_men_crown_on_the_first_row():
    after = play("B:W5:B26", "26-30")
    assert after.fen() == "W:W5:BK30"


def test_a_king_moves_back_after_crowning():
    after = play("W:W5:B28", "5-1", "28-32")
    assert sorted(after.legal_notations()) == ["1-5", "1-6"]


# ----------------------------------------------------------------- end of the game


def test_a_side_without_pieces_loses():
    after = play("W:W18:B14", "18x9")
    assert after.status().as_dict() == {"result": "white", "reason": "no_pieces"}
    assert after.legal_moves() == []


def test_a_side_without_legal_moves_loses():
    # Black man b2 (25) against White men on a1 (29) and c1 (30): no step, no jump.
    position = get_game("english").from_fen("B:W29,30:B25")
    assert position.status().as_dict() == {"result": "white", "reason": "no_moves"}
    assert position.legal_moves() == []


def test_a_move_after_the_end_is_illegal():
    after = play("W:W18:B14", "18x9")
    with pytest.raises(GameOver):
        after.play("9-5")


# ----------------------------------------------------------------- draws

# White king a1 (29) and Black king h8 (4) step out and back: each cycle of 4 plies repeats the position.
SHUFFLE = ["29-25", "4-8", "25-29", "8-4"]


def test_threefold_repetition_draws_on_the_third_occurrence():
    position = get_game("english").from_fen("W:WK29:BK4")
    for ply, move in enumerate(SHUFFLE * 2, start=1):
        position = position.play(move)
        assert position.status().result == ("draw" if ply == 8 else "ongoing"), ply
    assert position.status().reason == "threefold_repetition"


# A tour of kings that never come next to each other: White's king walks a1..h8 and back; Black's two
# kings walk a5..d8 and e1..h4, three steps one, three the other, then back. No position occurs three
# times within 40 plies (checked below), so only the forty-ply rule can end it.
WHITE_TOUR = [29, 25, 22, 18, 15, 11, 8, 4, 8, 11, 15, 18, 22, 25]
BLACK_A, BLACK_B = [13, 9, 6, 2], [31, 27, 24, 20]
TOUR_FEN = "W:WK29:BK13,K31"


def white_tour(count):
    path = WHITE_TOUR
    return [f"{path[i % len(path)]}-{path[(i + 1) % len(path)]}" for i in range(count)]


def black_tour(count):
    def up(path):
        return [f"{path[i]}-{path[i + 1]}" for i in range(3)]

    def down(path):
        return [f"{path[i + 1]}-{path[i]}" for i in (2, 1, 0)]

    cycle = up(BLACK_A) + up(BLACK_B) + down(BLACK_A) + down(BLACK_B)
    return [cycle[i % len(cycle)] for i in range(count)]


def interleave(white_moves, black_moves):
    return [move for pair in zip(white_moves, black_moves) for move in pair]


def test_forty_plies_without_capture_or_man_move_draw():
    position = get_game("english").from_fen(TOUR_FEN)
    seen: dict[Any, Any] = {}
    for ply, move in enumerate(interleave(white_tour(20), black_tour(20)), start=1):
        position = position.play(move)
        seen[position.fen()] = seen.get(position.fen(), 0) + 1
        assert max(seen.values()) < 3
        assert position.status().result == ("draw" if ply == 40 else "ongoing"), ply
    assert position.status().reason == "forty_moves"


def test_a_man_move_restarts_the_forty_ply_count():
    # The same tour with a Black man on b8 (1) that steps to a7 (5) as Black's 5th move (ply 10):
    # the draw comes 40 plies after it, at ply 50, not at ply 40.
    black = black_tour(25)
    black.insert(4, "1-5")
    position = get_game("english").from_fen(TOUR_FEN.replace("BK13", "B1,K13"))
    seen: dict[Any, Any] = {}
    for ply, move in enumerate(interleave(white_tour(25), black[:25]), start=1):
        position = position.play(move)
        if ply >= 10:
            seen[position.fen()] = seen.get(position.fen(), 0) + 1
            assert max(seen.values()) < 3
        assert position.status().result == ("draw" if ply == 50 else "ongoing"), ply
    assert position.status().reason == "forty_moves"


def test_move_limit_draws_after_that_many_plies():
    game = get_game("english", {"move_limit": 3})
    position = game.start()
    for move in ["9-13", "22-18", "13-17"]:
        assert position.status().result == "ongoing"
        position = position.play(move)
    assert position.status().as_dict() == {"result": "draw", "reason": "move_limit"}
    with pytest.raises(GameOver):
        position.play("21x14")


def test_no_move_limit_by_default():
    game = get_game("english")
    assert game.options == {"mandatory_capture": True, "move_limit": None}


def test_a_win_on_the_last_allowed_ply_stands():
    game = get_game("english", {"move_limit": 1})
    position = game.from_fen("W:W18:B14").play("18x9")
    assert position.status().as_dict() == {"result": "white", "reason": "no_pieces"}


# ----------------------------------------------------------------- time


def test_time_loss_in_english_loses():
    game = get_game("english")
    assert game.time_loss_result(game.start(), "black") == "white"
    assert game.time_loss_result(game.from_fen("W:WK1,K2,K3:BK32"), "white") == "black"


# ----------------------------------------------------------------- notation


def test_shorthand_is_accepted_when_unambiguous():
    position = get_game("english").from_fen("W:W22:B18,10")
    assert position.parse_move("22x6") == position.parse_move("22x15x6")
    assert position.play("22x6").fen() == "B:W6:B"


def test_shorthand_is_refused_clearly_when_two_routes_differ():
    # c3 (22) to c7 (6) over b4 17 and b6 9, or over d4 18 and d6 10.
    position = get_game("english").from_fen("W:W22:B17,18,9,10")
    assert sorted(position.legal_notations()) == ["22x13x6", "22x15x6"]
    with pytest.raises(AmbiguousMove) as caught:
        position.parse_move("22x6")
    assert caught.value.code == "ambiguous_move"
    assert "22x13x6" in str(caught.value) and "22x15x6" in str(caught.value)
    assert position.parse_move("22x13x6") != position.parse_move("22x15x6")


@pytest.mark.parametrize("text", ["9-13", " 9-13 ", "9 - 13"])
def test_quiet_move_notation(text):
    start = get_game("english").start()
    assert start.notation(start.parse_move(text)) == "9-13"


@pytest.mark.parametrize("text", ["9-12", "13-9", "33-29", "0-4", "c3-d4", "hello", "", "9", "22x15x"])
def test_bad_move_text_is_refused(text):
    with pytest.raises(InvalidMove):
        get_game("english").start().play(text)


def test_replay_names_the_bad_move_by_index():
    with pytest.raises(InvalidMove) as caught:
        get_game("english").replay(["9-13", "22-18", "13-9"])
    assert caught.value.index == 2
    assert "13-9" in str(caught.value)
