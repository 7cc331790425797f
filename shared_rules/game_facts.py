"""What the pages' scripts need to know of each game, read from the rules layer.

The site builder writes these into each page's config (``game_facts``), so a script asks "who moves first?"
or "does the notation name a move's squares?" instead of testing a game's name. Draughts facts come from the variant's
configuration and the game it builds (so no draughts rule is stated twice); chess, which has no such
configuration, has its few facts here.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from . import get_game
from .chess_game import ChessGame
from .draughts.game import DraughtsGame
from .draughts.variants import Variant
from .names import GAME_NAMES, Colour, GameName


class GameFacts(TypedDict):
    #: the catalog's word family for the game's pieces (Swahili: "kipande" in chess, "kete" in draughts)
    family: Literal["chess", "draughts"]
    first_mover: Colour
    #: what players call the side the notation calls white ("red" in English draughts)
    light_side: Literal["white", "red"]
    #: how a position is written: a chess FEN, or a PDN FEN ("W:W21,22:B1,2")
    position: Literal["fen", "pdn"]
    #: how the notation writes a move: SAN ("Nf3", which needs the rules to read, so the board sends UCI),
    #: or by its squares ("22x15x6", "c3-d4")
    notation: Literal["san", "squares"]
    #: a king can be in check, and the notation marks it ("+", "#" for mate)
    check: bool
    #: a man reaching the far row becomes a piece its player picks (else it is crowned a king)
    promotion_choice: bool
    #: under the default options a capture, when there is one, must be played
    compulsory_capture: bool


def game_facts(name: GameName) -> GameFacts:
    """The facts of the game called ``name``, under its default options."""
    game = get_game(name)
    first_mover: Colour = "white" if game.start().turn == "white" else "black"
    if isinstance(game, ChessGame):
        # Chess has no configuration to read these from; python-chess is its rules, stated here once.
        return {
            "family": "chess",
            "first_mover": first_mover,
            "light_side": "white",
            "position": "fen",
            "notation": "san",
            "check": True,
            "promotion_choice": True,
            "compulsory_capture": False,
        }
    assert isinstance(game, DraughtsGame)
    return {
        "family": "draughts",
        "first_mover": first_mover,
        "light_side": "red" if game.variant.light_side == "red" else "white",
        "position": "pdn",
        "notation": "squares",
        "check": False,
        "promotion_choice": False,
        "compulsory_capture": bool(game.mandatory_capture),
    }


#: The fields of a ``Variant`` the pages' draughts rules are configured by (site/modules/draughts_rules.js).
VARIANT_RULE_FIELDS = (
    "size",
    "numbering",
    "first_player",
    "rows_of_men",
    "men_capture_backward",
    "flying_kings",
    "king_landing",
    "crown_mid_capture",
    "maximum_capture",
    "repetition",
    "quiet_plies_limit",
    "countdown",
)


def variant_rules(name: GameName) -> dict[str, Any]:
    """A draughts variant's rules as data, for the rules in the page (pass-and-play): the same description
    shared_rules' one engine is configured by, and the table options' defaults."""
    game = get_game(name)
    if not isinstance(game, DraughtsGame):
        raise ValueError(f"{name!r} is not a draughts variant")
    return rules_of_variant(game.variant)


def rules_of_variant(variant: Variant) -> dict[str, Any]:
    """``variant_rules`` of any ``Variant``, offered to players or not."""
    rules: dict[str, Any] = {field: getattr(variant, field) for field in VARIANT_RULE_FIELDS}
    rules["option_defaults"] = {spec.name: spec.default for spec in variant.options}
    # PDN's GameType tag, as the games' export writes it: the number, or for a private number PDN's long form
    # (the side that starts, the board, the notation).
    starts = "W" if variant.first_player == "white" else "B"
    long_form = f"{variant.gametype},{starts},{variant.size},{variant.size},A0,0"
    rules["pdn_game_type"] = str(variant.gametype) if variant.numbering == "pdn" else long_form
    return rules


def all_game_facts() -> dict[GameName, GameFacts]:
    """Every game's facts, in the order pages list the games."""
    return {name: game_facts(name) for name in GAME_NAMES}


if __name__ == "__main__":  # the node tests' copy: python -m shared_rules.game_facts > tests/js/game_facts.json
    import json

    print(json.dumps(all_game_facts(), indent=2))
