"""Draughts FEN (PDN style) parsing, writing and its errors; table options and their errors."""

import pytest

from shared_rules import (
    GAME_NAMES,
    InvalidFen,
    InvalidOption,
    RulesError,
    UnknownGame,
    get_game,
    option_specs,
)

ENGLISH_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
TANZANIAN_WHITE = {"a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"}
TANZANIAN_BLACK = {"b6", "d6", "f6", "h6", "a7", "c7", "e7", "g7", "b8", "d8", "f8", "h8"}


def fen_fields(fen):
    turn, white, black = fen.split(":")
    return turn, set(filter(None, white[1:].split(","))), set(filter(None, black[1:].split(",")))


def test_english_start_fen():
    assert get_game("english").start().fen() == ENGLISH_START


def test_tanzanian_start_fen_has_the_seed_squares():
    turn, white, black = fen_fields(get_game("tanzanian").start().fen())
    assert (turn, white, black) == ("W", TANZANIAN_WHITE, TANZANIAN_BLACK)


def test_fen_ranges_and_order_are_accepted_and_written_canonically():
    game = get_game("english")
    assert game.from_fen("B:W21-32:B1-12").fen() == ENGLISH_START
    assert game.from_fen("B:W32,K30,21:B3,1").fen() == "B:W21,K30,32:B1,3"
    assert game.from_fen("W:B1,3:W32,21").fen() == "W:W21,32:B1,3"


def test_fen_round_trips_with_kings_and_either_side_to_move():
    for name, fen in [
        ("english", "W:W18,K22,25:BK1,6,K27"),
        ("english", "B:WK4:B"),
        ("tanzanian", "B:Wa1,Kh8,c3:Bb6,Kc1,g7"),
        ("tanzanian", "W:W:BKd4"),
    ]:
        game = get_game(name)
        fen_out = game.from_fen(fen).fen()
        assert fen_fields(fen_out) == fen_fields(fen)
        assert game.from_fen(fen_out).fen() == fen_out


def test_the_fen_side_to_move_is_the_turn():
    assert get_game("english").from_fen("W:W21:B1").turn == "white"
    assert get_game("english").from_fen("B:W21:B1").turn == "black"
    assert get_game("tanzanian").from_fen("B:Wa1:Bh8").turn == "black"


@pytest.mark.parametrize(
    ("name", "fen", "names"),
    [
        ("english", "", None),
        ("english", "hello", None),
        ("english", "W:W21", None),
        ("english", "X:W21:B1", None),
        ("english", "W:W21:W22", None),
        ("english", "W:W21:B1:B2", None),
        ("english", "W:Wx:B1", "x"),
        ("english", "W:W33:B1", "33"),
        ("english", "W:W0:B1", "0"),
        ("english", "W:W21,21:B1", "21"),
        ("english", "W:W21:B21", "21"),
        ("english", "W:W1:B12", "1"),  # a White man on its crowning row
        ("english", "B:W21:B29", "29"),  # a Black man on its crowning row
        ("english", "W:Wa1:B1", "a1"),
        ("tanzanian", "W:Wb1:Ba7", "b1"),  # a light square
        ("tanzanian", "W:Wc3:Ba8", "a8"),  # a light square
        ("tanzanian", "W:Wi1:Ba7", "i1"),
        ("tanzanian", "W:Wa9:Ba7", "a9"),
        ("tanzanian", "W:W21:Ba7", "21"),
        ("tanzanian", "W:Wc3,c3:Ba7", "c3"),
        ("tanzanian", "W:Wb8:Ba7", "b8"),  # a White man on its crowning row
        ("tanzanian", "W:Wc3:Ba1", "a1"),  # a Black man on its crowning row
    ],
)
def test_bad_fen_is_refused_with_a_clear_error(name, fen, names):
    with pytest.raises(InvalidFen) as caught:
        get_game(name).from_fen(fen)
    error = caught.value
    assert error.code == "invalid_fen"
    assert isinstance(error, RulesError) and isinstance(error, ValueError)
    if names:
        assert names in str(error)


def test_light_squares_are_named_as_such():
    with pytest.raises(InvalidFen) as caught:
        get_game("tanzanian").from_fen("W:Wb1:Ba7")
    assert "light" in str(caught.value)


def test_a_king_may_stand_on_its_crowning_row():
    assert get_game("english").from_fen("W:WK1:BK29").fen() == "W:WK1:BK29"
    assert get_game("tanzanian").from_fen("W:WKb8:BKa1").fen() == "W:WKb8:BKa1"


# ----------------------------------------------------------------- games and options


def test_every_game_is_found_by_name():
    assert GAME_NAMES == ("chess", "english", "tanzanian")
    for name in GAME_NAMES:
        assert get_game(name).name == name


def test_unknown_game_is_refused():
    with pytest.raises(UnknownGame) as caught:
        get_game("checkers")
    assert caught.value.code == "unknown_game"
    assert "checkers" in str(caught.value)
    with pytest.raises(UnknownGame):
        option_specs("go")


def test_defaults_are_the_seeds():
    assert get_game("english").options == {"mandatory_capture": True, "move_limit": None}
    assert get_game("tanzanian").options == {"threefold_repetition": False, "thirty_moves": False}


@pytest.mark.parametrize(
    "options",
    [
        {"mandatory_capture": "false"},
        {"mandatory_capture": "yes"},
        {"mandatory_capture": 1},
        {"move_limit": "80"},
        {"move_limit": True},
        {"move_limit": 80.0},
    ],
)
def test_options_are_strict_no_text_or_number_stands_in_for_another_type(options):
    with pytest.raises(InvalidOption):
        get_game("english", options)


def test_the_command_line_spells_options_as_text_and_they_are_read_by_type():
    specs = {spec.name: spec for spec in option_specs("english")}
    assert specs["mandatory_capture"].from_text("false") is False
    assert specs["move_limit"].from_text("80") == 80
    assert specs["move_limit"].from_text("none") is None


@pytest.mark.parametrize(
    ("name", "options", "mentions"),
    [
        ("english", {"bogus": True}, "bogus"),
        ("english", {"threefold_repetition": True}, "threefold_repetition"),
        ("tanzanian", {"move_limit": 10}, "move_limit"),
        ("english", {"mandatory_capture": "maybe"}, "mandatory_capture"),
        ("english", {"mandatory_capture": 2}, "mandatory_capture"),
        ("english", {"move_limit": "ten"}, "move_limit"),
        ("english", {"move_limit": 2.5}, "move_limit"),
        ("english", {"move_limit": True}, "move_limit"),
        ("english", {"move_limit": 0}, "move_limit"),
        ("english", {"move_limit": -4}, "move_limit"),
        ("tanzanian", {"thirty_moves": "often"}, "thirty_moves"),
        ("chess", {"move_limit": 10}, "move_limit"),
    ],
)
def test_bad_options_are_refused_with_a_clear_error(name, options, mentions):
    with pytest.raises(InvalidOption) as caught:
        get_game(name, options)
    assert caught.value.code == "invalid_option"
    assert mentions in str(caught.value)


def test_option_specs_list_each_games_options():
    assert {spec.name for spec in option_specs("english")} == {"mandatory_capture", "move_limit"}
    assert {spec.name for spec in option_specs("tanzanian")} == {"threefold_repetition", "thirty_moves"}
    assert tuple(option_specs("chess")) == ()
