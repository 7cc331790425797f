"""Tanzanian draughts (TZD-8x8-v1, seed 000) rule by rule, on hand-made positions.

Algebraic squares, a1 dark; White starts on ranks 1-3 and moves up, Black on ranks 6-8 and moves down.
The "TzDraft facts" are the positions and answers of TzDraft's own engine tests, as the Tanzanian seed lists them.
"""

import pytest

from shared_rules import GameOver, InvalidMove, InvalidOption, get_game


def game(**options):
    return get_game("tanzanian", options)


def notations(fen, **options):
    return sorted(game(**options).from_fen(fen).legal_notations())


# ----------------------------------------------------------------- TzDraft facts, verbatim


def test_tzdraft_king_b8_against_c7_e7_must_take_both():
    assert notations("W:WKb8:Bc7,e7") == ["b8xd6xf8"]


def test_tzdraft_king_b8_against_c7_c5_b2():
    assert notations("W:WKb8:Bc7,c5,b2") == sorted(["b8xd6xb4", "b8xd6xa3xc1"])


def test_tzdraft_king_g5_against_b2_e3():
    assert notations("W:WKg5:Bb2,e3") == sorted(["g5xd2", "g5xc1xa3"])


def test_tzdraft_king_d6_against_c7_g3():
    assert notations("W:WKd6:Bc7,g3") == sorted(["d6xb8", "d6xh2"])


def test_tzdraft_man_f2_against_e3_c5():
    assert notations("W:Wf2:Be3,c5") == ["f2xd4xb6"]


def test_tzdraft_man_d4_against_c5_c7_is_crowned_and_stops():
    position = game().from_fen("W:Wd4:Bc5,c7")
    assert sorted(position.legal_notations()) == ["d4xb6xd8"]
    after = position.play("d4xb6xd8")
    assert after.fen() == "B:WKd8:B"


def test_tzdraft_man_a1_against_b2_c3_has_no_move_and_loses():
    position = game().from_fen("W:Wa1:Bb2,c3")
    assert position.legal_moves() == []
    assert position.status().as_dict() == {"result": "black", "reason": "no_moves"}


def test_tzdraft_opening_line():
    line = ["a3-b4", "b6-a5", "c3-d4", "a5xc3", "d2xb4", "d6-e5", "e1-d2", "e5xc3xe1", "g3-f4"]
    position = game().replay(line)
    assert position.turn == "black"
    assert sorted(position.legal_notations()) == sorted(["e1xa5", "e1xg3xe5", "e1xg3xd6xa3"])


# ----------------------------------------------------------------- movement


def test_white_moves_first_from_the_start():
    start = game().start()
    assert start.turn == "white"
    assert sorted(start.legal_notations()) == sorted(["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"])


def test_men_step_diagonally_forward_only():
    assert notations("W:Wd4:Bh8") == ["d4-c5", "d4-e5"]
    assert notations("B:Wa1:Be5") == ["e5-d4", "e5-f4"]


def test_kings_fly_along_empty_diagonals():
    # d4: c5 b6 a7, e5 f6 g7 (h8 is taken and cannot be jumped: nothing behind it), c3 b2 a1, e3 f2 g1.
    expected = ["d4-" + square for square in ["c5", "b6", "a7", "e5", "f6", "g7", "c3", "b2", "a1", "e3", "f2", "g1"]]
    assert notations("W:WKd4:Bh8") == sorted(expected)


def test_a_king_is_stopped_by_its_own_pieces():
    assert [m for m in notations("W:WKa1,d4:Bh8") if m.startswith("a1")] == ["a1-b2", "a1-c3"]


def test_a_man_reaching_the_last_rank_is_crowned():
    after = game().from_fen("W:Wa7:Bh2").play("a7-b8")
    assert after.fen() == "B:WKb8:Bh2"


# ----------------------------------------------------------------- captures


def test_men_capture_forward_only():
    # d4 with e5 ahead and e3 behind (f2 empty): only the forward capture.
    assert notations("W:Wd4:Be5,e3") == ["d4xf6"]
    assert notations("W:Wd4:Be3,h8") == ["d4-c5", "d4-e5"]


def test_men_never_capture_backward_inside_a_sequence():
    # c3 x d4 -> e5; from e5 the piece on d4 is taken and f4 is behind: a man may not go back for it.
    assert notations("W:Wc3:Bd4,f4") == ["c3xe5"]


def test_men_capture_kings():
    assert notations("W:Wd4:BKe5") == ["d4xf6"]


def test_a_king_captures_from_a_distance_and_lands_on_any_empty_square_behind():
    assert notations("W:WKa1:Bd4") == sorted(["a1xe5", "a1xf6", "a1xg7", "a1xh8"])


def test_a_king_cannot_jump_two_pieces_in_a_row():
    assert notations("W:WKa1:Bd4,e5") == ["a1-b2", "a1-c3"]


def test_captured_pieces_stay_as_blockers_until_the_move_ends():
    # c3 x b2 lands on a1. Were b2 gone at once, the king would see d4..f6 empty and take g7 from a1;
    # but b2 still stands there, so the move ends. The same the other way round for g7 and h8.
    assert notations("W:WKc3:BKg7,Kb2") == sorted(["c3xa1", "c3xh8"])


def test_the_kings_starting_square_is_empty_during_its_move():
    # c3 x d2 -> e1 x f2 -> g3 x f4 -> e5, then down the long diagonal through c3 (its own, now empty,
    # starting square) to take b2 and land on a1.
    position = game().from_fen("W:WKc3:Bd2,f2,f4,b2")
    assert sorted(position.legal_notations()) == sorted(["c3xa1", "c3xe1xg3xe5xa1"])
    assert position.play("c3xe1xg3xe5xa1").fen() == "B:WKa1:B"


def test_the_king_lands_on_the_first_square_from_which_it_can_capture_again():
    # b8 x c7: d6 is the first square behind from which the king can take again (e7), so it must land
    # there; e5, f4, g3, h2 beyond it are not allowed.
    position = game().from_fen("W:WKb8:Bc7,e7")
    for beyond in ("e5", "f4", "g3", "h2"):
        with pytest.raises(InvalidMove):
            position.parse_move(f"b8x{beyond}")


def test_squares_before_the_first_continuing_square_end_the_move():
    # g5 x e3: d2 comes first and cannot take again (a legal end); c1 can (b2), so it continues from there.
    position = game().from_fen("W:WKg5:Bb2,e3")
    assert position.play("g5xd2").fen() == "B:WKd2:Bb2"
    assert position.play("g5xc1xa3").fen() == "B:WKa3:B"


def test_capture_is_mandatory():
    assert notations("W:Wa1,d4:Bc5") == ["d4xb6"]
    with pytest.raises(InvalidMove):
        game().from_fen("W:Wa1,d4:Bc5").play("a1-b2")


def test_capture_is_mandatory_without_an_option_to_turn_it_off():
    with pytest.raises(InvalidOption):
        get_game("tanzanian", {"mandatory_capture": False})


def test_any_capture_route_may_be_chosen_no_maximum_rule():
    # c3 may take b4 alone (landing a5) or d4 and d6 (landing e5, then c7).
    assert notations("W:Wc3:Bb4,d4,d6") == sorted(["c3xa5", "c3xe5xc7"])


def test_a_started_sequence_must_be_completed():
    with pytest.raises(InvalidMove):
        game().from_fen("W:Wc3:Bb4,d4,d6").play("c3xe5")


def test_crowning_in_a_capture_ends_the_move():
    # d4 x c5 x c7 reaches d8 and is crowned; as a king it could take e7 from d8, but the move stops.
    position = game().from_fen("W:Wd4:Bc5,c7,e7")
    assert sorted(position.legal_notations()) == ["d4xb6xd8"]
    assert position.play("d4xb6xd8").fen() == "B:WKd8:Be7"


# ----------------------------------------------------------------- end of the game


def test_a_side_without_pieces_loses():
    after = game().from_fen("B:Wd4:Be5").play("e5xc3")
    assert after.status().as_dict() == {"result": "black", "reason": "no_pieces"}
    with pytest.raises(GameOver):
        after.play("c3-b2")


def test_a_set_up_position_where_the_waiting_side_has_no_pieces_is_already_won():
    position = game().from_fen("W:Wd4:B")
    assert position.status().as_dict() == {"result": "white", "reason": "no_pieces"}
    assert position.legal_moves() == []


# ----------------------------------------------------------------- the three-kings countdown

THREE_KINGS = "W:WKa1,Kc1,Ke1:BKh2"


def shuffle(count, white=("a1-b2", "b2-a1"), black=("h2-g1", "g1-h2"), white_first=True):
    """Kings stepping out and back, never within reach of a capture (edge squares, far diagonals)."""
    first, second = (white, black) if white_first else (black, white)
    moves = []
    for i in range(count):
        side = first if i % 2 == 0 else second
        moves.append(side[(i // 2) % 2])
    return moves


def test_countdown_draws_after_the_twelfth_move_of_the_three_king_side():
    position = game().from_fen(THREE_KINGS)
    for ply, move in enumerate(shuffle(23), start=1):
        position = position.play(move)
        # White's 12th move is ply 23.
        assert position.status().result == ("draw" if ply == 23 else "ongoing"), ply
    assert position.status().reason == "three_kings_countdown"


def test_countdown_capturing_the_lone_king_on_the_twelfth_move_wins():
    moves = shuffle(21)  # White has made 11 moves (king on b2), Black 10 (king back on h2)
    position = game().replay(moves, fen=THREE_KINGS)
    position = position.play("h2-e5")  # Black's 11th move puts the king within reach of b2
    assert position.status().result == "ongoing"
    position = position.play("b2xf6")  # White's 12th move
    assert position.status().as_dict() == {"result": "white", "reason": "no_pieces"}


def test_countdown_twelfth_move_that_leaves_the_lone_king_without_a_move_wins():
    # Edge squares cannot be captured. Kings b6 and c5 hold the lone king on a7/b8; the third
    # shuttles g1-h2 and on White's 12th move flies h2-b8: the lone king on a7 has no move left.
    # Our documented order (docs/rules.md): having no move is checked before the countdown.
    position = game().replay(shuffle(22, white=("g1-h2", "h2-g1"), black=("b8-a7", "a7-b8")), fen="W:WKb6,Kc5,Kg1:BKb8")
    assert position.fen() == "W:WKb6,Kc5,Kh2:BKa7" and position.countdown == 11
    position = position.play("h2-b8")
    assert position.countdown == 12
    assert position.status().as_dict() == {"result": "white", "reason": "no_moves"}


def test_countdown_counts_the_capture_that_created_the_material_when_the_three_kings_made_it():
    # White takes c3 (move 1 of the count); 11 more White moves reach 12 at ply 23.
    position = game().from_fen("W:WKa1,Kc1,Ke1:BKc3,Kh2").play("a1xh8")
    moves = shuffle(22, white=("c1-b2", "b2-c1"), white_first=False)
    for ply, move in enumerate(moves, start=2):
        position = position.play(move)
        assert position.status().result == ("draw" if ply == 23 else "ongoing"), ply
    assert position.status().reason == "three_kings_countdown"


def test_countdown_does_not_count_the_lone_kings_capture_that_created_the_material():
    # Black's king takes f4 (4 against 1 becomes 3 against 1); White then has 12 moves: plies 2..24.
    position = game().from_fen("B:WKa1,Kc1,Ke1,Kf4:BKh2").play("h2xb8")
    assert position.status().result == "ongoing"
    moves = shuffle(23, black=("b8-a7", "a7-b8"))
    for ply, move in enumerate(moves, start=2):
        position = position.play(move)
        assert position.status().result == ("draw" if ply == 24 else "ongoing"), ply
    assert position.status().reason == "three_kings_countdown"


def test_countdown_is_cleared_when_the_material_changes():
    # Four White moves into the count, White offers a king on g3 and Black must take it: 2 against 1.
    position = game().replay(shuffle(8) + ["e1-g3", "h2xb8"], fen=THREE_KINGS)
    assert position.fen() == "W:WKa1,Kc1:BKb8"
    for ply, move in enumerate(shuffle(30, black=("b8-a7", "a7-b8")), start=1):
        position = position.play(move)
        assert position.status().result == "ongoing", ply


def test_no_countdown_for_four_kings_against_one():
    position = game().from_fen("W:WKa1,Kc1,Ke1,Kg1:BKh2")
    for ply, move in enumerate(shuffle(40, black=("h2-b8", "b8-h2")), start=1):
        position = position.play(move)
        assert position.status().result == "ongoing", ply


def test_no_countdown_when_the_three_are_not_all_kings():
    position = game().from_fen("W:WKa1,Kc1,e1:BKh2")
    for ply, move in enumerate(shuffle(30), start=1):
        position = position.play(move)
        assert position.status().result == "ongoing", ply


# ----------------------------------------------------------------- time and optional rules


# "3 vs 1 material" counts pieces: men and kings alike, on either side, and whichever side ran out.
@pytest.mark.parametrize(
    ("fen", "drawn"),
    [
        ("W:WKa1,Kc1,Ke1:BKh2", True),  # three kings against a king (the countdown's material)
        ("W:Wa1,c1,e1:BKh2", True),  # three men against a king
        ("W:WKa1,c1,e1:Bh6", True),  # a king and two men against a man
        ("B:Wd4:BKb8,d8,f8", True),  # a man against three, Black the three
        ("B:WKd4:Bb8,d8,f8", True),  # a lone king against three men
        ("W:WKa1,Kc1,Ke1,Kg1:BKh2", False),  # four against one
        ("W:WKa1,Kc1,Ke1:BKh2,Kb8", False),  # three against two
        ("W:WKa1,c1:BKh2", False),  # two against one
        ("W:WKa1:BKh2", False),  # one against one
    ],
)
def test_time_loss_is_a_draw_with_three_pieces_against_one_and_lost_otherwise(fen, drawn):
    g = game()
    position = g.from_fen(fen)
    assert g.time_loss_result(position, "white") == ("draw" if drawn else "black")
    assert g.time_loss_result(position, "black") == ("draw" if drawn else "white")


def test_time_loss_otherwise_loses():
    g = game()
    assert g.time_loss_result(g.start(), "white") == "black"
    assert g.time_loss_result(g.start(), "black") == "white"


TWO_KINGS = "W:WKa1,Kc1:BKh2"


def test_threefold_repetition_is_off_by_default():
    position = game().replay(shuffle(12), fen=TWO_KINGS)
    assert position.status().result == "ongoing"
    assert game().options == {"threefold_repetition": False, "thirty_moves": False}


@pytest.mark.parametrize(
    ("rule", "plies"),
    [("threefold_repetition", 8), ("thirty_moves", 60)],  # the thirty-move rule: sixty king-only plies
)
def test_a_draw_rule_draws_when_its_option_is_on(rule, plies):
    position = game(**{rule: True}).from_fen(TWO_KINGS)
    for ply, move in enumerate(shuffle(plies), start=1):
        position = position.play(move)
        assert position.status().result == ("draw" if ply == plies else "ongoing"), ply
    assert position.status().reason == rule


def test_thirty_move_rule_is_off_by_default():
    position = game().replay(shuffle(60), fen=TWO_KINGS)
    assert position.status().result == "ongoing"


def test_thirty_move_rule_needs_only_kings_on_the_board():
    # A Black man on b8 stays put on the edge: with a man on the board the rule does not apply.
    position = game(thirty_moves=True).replay(shuffle(70), fen="W:WKa1,Kc1:BKh2,b8")
    assert position.status().result == "ongoing"


# ----------------------------------------------------------------- notation


def test_notation_of_quiet_moves_and_captures():
    assert "c3-d4" in game().start().legal_notations()
    assert notations("W:Wd2:Be3,g5") == ["d2xf4xh6"]


def test_shorthand_capture_is_accepted_when_unambiguous():
    position = game().from_fen("W:Wd2:Be3,g5")
    assert position.parse_move("d2xh6") == position.parse_move("d2xf4xh6")


def test_shorthand_capture_is_refused_clearly_when_ambiguous():
    position = game().from_fen("W:Wc3:Bb4,d4,b6,d6")
    assert sorted(position.legal_notations()) == sorted(["c3xa5xc7", "c3xe5xc7"])
    with pytest.raises(InvalidMove) as caught:
        position.parse_move("c3xc7")
    assert caught.value.code == "ambiguous_move"
    assert "c3xa5xc7" in str(caught.value) and "c3xe5xc7" in str(caught.value)


@pytest.mark.parametrize("text", ["c3-c4", "b1-c2", "c3-d5", "i1-h2", "9-13", "c3-", "x"])
def test_bad_move_text_is_refused(text):
    with pytest.raises(InvalidMove):
        game().start().play(text)
