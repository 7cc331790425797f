"""Whole names that look alike: UTS #39 skeletons from Unicode's confusables data, and the rating list's numbers."""

from __future__ import annotations

from common.players.lookalikes import lookalike_numbers, skeleton
from common.players.names import clean_name

CYRILLIC_ASHA = "\u0410\u0455\u04bb\u0430"  # А ѕ һ а: every letter Cyrillic, so clean_name accepts it


def test_a_whole_name_in_another_script_has_the_same_skeleton():
    assert clean_name(CYRILLIC_ASHA) == CYRILLIC_ASHA  # one script: not refused at naming
    assert skeleton(CYRILLIC_ASHA) == skeleton("Asha") == skeleton("asha")
    assert skeleton("Greek \u0391\u03b2") != skeleton("Asha")
    assert skeleton("Baraka") != skeleton("Asha") and skeleton("Neema") == skeleton("Neerna")  # m looks like rn


def test_the_look_alike_gets_the_number_whichever_is_placed_higher():
    assert lookalike_numbers([CYRILLIC_ASHA, "Baraka", "Asha"]) == [2, None, None]
    assert lookalike_numbers(["Asha", CYRILLIC_ASHA]) == [None, 2]
    # Two players of one name (or of one name but its case): the higher placed keeps it plain.
    assert lookalike_numbers(["Asha", None, "asha", "ASHA"]) == [None, None, 2, 3]
    assert lookalike_numbers(["Juma", "Neema", None]) == [None, None, None]
