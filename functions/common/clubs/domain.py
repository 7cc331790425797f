"""A club (klabu, plural vilabu): its values, its limits and its refusals. Plain types, no HTTP
(``common.web.errors`` maps the codes). The clubs function acts on them; the tournaments read membership.

A club is for one game or for all three; it is joined with its invite, ``<club id>-<code>`` (six characters
each, from an alphabet without the look-alikes 0/O, 1/I/L), typed or opened as a link; the owner renews the
code (the old one stops opening it) and removes members. At most ``MAX_MEMBERS`` members a club and
``MAX_CLUBS`` clubs a player (owned ones included); both hold under races, see ``common.clubs.repository``.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from typing import Literal

from common.errors import DomainError

MAX_MEMBERS = 500
MAX_CLUBS = 20
#: Letters and digits nobody misreads on a phone or on paper (no 0, O, 1, I, L).
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
ID_CHARS = CODE_CHARS = 6
ID_PATTERN = f"^[{ALPHABET}]{{{ID_CHARS}}}$"
CODE_PATTERN = f"^[{ALPHABET}]{{{CODE_CHARS}}}$"
ClubGame = Literal["chess", "english", "tanzanian", "all"]
CLUB_GAMES: tuple[ClubGame, ...] = ("chess", "english", "tanzanian", "all")


def new_id() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(ID_CHARS))


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_CHARS))


def is_club_id(text: str) -> bool:
    return re.fullmatch(ID_PATTERN, text) is not None


def games_of(game: ClubGame) -> tuple[str, ...]:
    """The games a club plays: its one game, or all three."""
    return ("chess", "english", "tanzanian") if game == "all" else (game,)


class ClubNotFound(DomainError, code="club_not_found"):
    """No club has this id (or a typed invite's first half is wrong)."""


class WrongClubCode(DomainError, code="wrong_club_code"):
    """The code does not open this club (never was its code, or the owner renewed it)."""


class ClubFull(DomainError, code="club_full"):
    """The club has ``MAX_MEMBERS`` members."""


class TooManyClubs(DomainError, code="too_many_clubs"):
    """The player is in ``MAX_CLUBS`` clubs, owned ones included."""


class NotClubOwner(DomainError, code="not_club_owner"):
    """Only the owner renews the code or removes a member."""


class NotClubMember(DomainError, code="not_club_member"):
    """The player (the asker leaving, or the member to remove) is not in the club."""


class ClubMembersOnly(DomainError, code="club_members_only"):
    """A tournament for a club's members, made or joined by someone else."""


class OwnerStaysInClub(DomainError, code="owner_stays_in_club"):
    """The owner cannot leave (nor be removed from) a club that has other members."""


@dataclass(frozen=True)
class Member:
    player_id: str
    name: str | None
    joined: int  # epoch ms


@dataclass(frozen=True)
class ClubTournament:
    """A tournament for the club's members (written by the tournaments function when it is made)."""

    tournament_id: str
    name: str | None
    game: str
    format: str
    created: int


@dataclass(frozen=True)
class Club:
    id: str
    name: str
    game: ClubGame
    owner: str  # the owner's player id
    code: str
    created: int
    #: The members' ids: the one authority on membership (the member items only add names and dates).
    member_ids: frozenset[str] = field(default_factory=frozenset)

    @property
    def invite(self) -> str:
        return f"{self.id}-{self.code}"


@dataclass(frozen=True)
class ClubPage:
    """A club as its page shows it: the club, its members (those listed in ``member_ids``) and its tournaments."""

    club: Club
    members: tuple[Member, ...] = ()
    tournaments: tuple[ClubTournament, ...] = ()
