"""Reactions, not chat (docs/games.md, "Reactions"): in a game, a player sends one of a fixed set (a few emoji and
preset phrases), never free text; each page words a phrase in its own language, so the other player reads it in
theirs. A player can mute the other's reactions in a game (``ReactionsMuted``); a block, either way, keeps them
out. Reactions are never pushed: they come with the game's updates (its view, polling and the live socket)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from common.errors import DomainError

ReactionKey = Literal[
    "good_game",  # sw "Mchezo mzuri!", en "Good game!", tl "Magandang laro!"
    "well_played",  # tl "Magaling!"
    "congratulations",  # sw "Hongera!"
    "thanks",  # sw "Asante!", tl "Salamat!"
    "sorry",  # sw "Pole!"
    "hello",
    "thumbs_up",  # 👍
    "clap",  # 👏
    "smile",  # 🙂
    "wow",  # 😮
    "handshake",  # 🤝
]
REACTIONS: tuple[ReactionKey, ...] = get_args(ReactionKey)
#: The emoji among them, shown as they are in every language.
EMOJI = {"thumbs_up": "👍", "clap": "👏", "smile": "🙂", "wow": "😮", "handshake": "🤝"}
#: A game's head keeps this many of the latest reactions (its view shows them; older ones are in the log).
REACTIONS_KEPT = 6


class NotYourGame(DomainError, code="not_a_player"):
    """Only the game's two players react, and never to the computer."""


@dataclass(frozen=True)
class Reaction:
    seq: int  # the event's place in the game's log: a page shows each once
    by: str  # the colour that sent it
    key: ReactionKey
    at: int  # epoch ms


def kept(reactions: tuple[Reaction, ...], new: Reaction) -> tuple[Reaction, ...]:
    return (*reactions, new)[-REACTIONS_KEPT:]
