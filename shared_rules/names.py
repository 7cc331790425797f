"""The names every part of ubao spells the same way: games, page languages and colours.

One source: the functions' request models, the site's builder (which passes them to the scripts in each
page's config), the puzzle sets and the tests all import these instead of spelling them again.
"""

from __future__ import annotations

from typing import Literal, get_args

GameName = Literal["chess", "english", "tanzanian"]
Language = Literal["sw", "tl", "en"]
Colour = Literal["white", "black"]

#: The games, in the order pages list them.
GAME_NAMES: tuple[GameName, ...] = get_args(GameName)
#: The page languages, Swahili first (the site's default), then Tagalog and English.
LANGUAGES: tuple[Language, ...] = get_args(Language)
#: The two sides (which moves first is the variant's rule: black in English draughts, white otherwise).
COLOURS: tuple[Colour, ...] = get_args(Colour)
