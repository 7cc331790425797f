"""A player, and the refusals of the players service: plain types, no HTTP (``common.web.errors`` maps the codes).
How a player is stored is the repository's (``common.players.repository``: the codec beside the table)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from common.errors import DomainError


class Unauthorized(DomainError, code="unauthorized"): ...


class InvalidName(DomainError, code="invalid_name"): ...


class InvalidCountry(DomainError, code="invalid_country"): ...


#: A country as CloudFront names the viewer's (``CloudFront-Viewer-Country``): ISO 3166-1 alpha-2, upper case:
#: the 249 codes assigned (``tests/unit/test_countries.py`` checks them against the tz database's iso3166.tab)
#: and XK, which CloudFront gives Kosovo.
_COUNTRY_CODES = """AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
    CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
    GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO
    JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR
    MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO
    RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV
    TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW"""
COUNTRIES = frozenset(_COUNTRY_CODES.split())


def viewer_country(header: str | None) -> str | None:
    """The country of a ``CloudFront-Viewer-Country`` header, or None when there is none or it is not a
    country code (a local run sends the header or nothing)."""
    value = (header or "").strip()
    return value if value in COUNTRIES else None


def country_code(value: str) -> str:
    """``value`` if it is a country's code as ``COUNTRIES`` spells it; ``InvalidCountry`` otherwise."""
    if value not in COUNTRIES:
        raise InvalidCountry("country: give a country's ISO 3166-1 alpha-2 code in capitals, such as TZ, KE or PH")
    return value


@dataclass(frozen=True)
class Block:
    """A player this player blocked (``common.players.blocks``), named by one of their games."""

    id: str
    player_id: str
    name: str | None
    game: str
    at: int  # epoch ms


@dataclass(frozen=True)
class Player:
    """A player: its public id, the hash of its token and its name; and, as the read that checked the token
    brought them (no second read): when it was made, whom it blocked, and its puzzle progress in the form the
    puzzles function keeps it (a map only ``puzzles_api.repository`` reads)."""

    player_id: str
    token_hash: str  # hex SHA-256 of the token
    name: str | None = None
    created: int | None = None  # epoch ms; None on a value made before it was stored
    blocks: tuple[Block, ...] = ()  # oldest first
    puzzles: Mapping[str, Any] | None = field(default=None, hash=False, repr=False)
    #: Where the player was when they became a player (CloudFront's viewer country), and whether they hid it:
    #: a hidden country is kept for the player alone and shown to no one else.
    country: str | None = None
    country_hidden: bool = False

    @property
    def shown_country(self) -> str | None:
        """The country anyone may see: None when the player hid it (or has none)."""
        return None if self.country_hidden else self.country

    def public(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name}

    def blocked(self, player_id: str | None) -> bool:
        """Whether this player blocked ``player_id``."""
        return bool(player_id) and any(block.player_id == player_id for block in self.blocks)
