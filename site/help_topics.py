"""The help page's questions (Msaada), in the order a new player meets them. Each has an id, the anchor other
pages link to (``/{lang}/msaada/#live``), and an optional link to the page where it happens."""

from __future__ import annotations

from dataclasses import dataclass

from catalogs import N_


@dataclass(frozen=True)
class Topic:
    id: str
    question: str  # msgid
    answer: str  # msgid
    link: tuple[str, str] | None = None  # (page key, msgid of the link's text)


TOPICS: tuple[Topic, ...] = (
    Topic(
        "start",
        N_("How do I start?"),
        N_(
            "Open Play, choose a game and send its link to a friend, or take a challenge from the lobby. There is no account: your browser keeps a secret token that is you on ubao, so play from the same browser."
        ),
        ("mchezo", N_("Play")),
    ),
    Topic(
        "correspondence",
        N_("What is a correspondence game, and what is a live table?"),
        N_(
            "In a correspondence game each player has days for a move, so you can play between other things. At a live table each move has 30 or 60 seconds, and both players stay on the page."
        ),
    ),
    Topic(
        "ratings",
        N_("How do ratings work?"),
        N_(
            "A rated game changes both players' ratings (Glicko-2): a win against a stronger player counts more. Casual games and games against the computer change nothing. The rating list names the rules for being listed."
        ),
        ("vinara", N_("Rating list")),
    ),
    Topic(
        "notifications",
        N_("How do notifications work?"),
        N_(
            "Switch them on at Play: your phone tells you when it is your move, when a game ends and when a move is nearly due. Switch them off there at any time; ubao never sends e-mail or text messages."
        ),
        ("mchezo", N_("Play")),
    ),
    Topic(
        "offline",
        N_("Can I play without a network?"),
        N_(
            "Pages you have opened once work offline. A move you make offline waits on your phone and is sent when the network is back; the rules and lessons can be saved to read offline."
        ),
    ),
    Topic(
        "fair-play",
        N_("What is fair play?"),
        N_(
            "Play your own moves, with no engine and no help. If another player bothers you, block them from the game page: they can no longer join your games, offer you a rematch or send you notifications."
        ),
    ),
    Topic(
        "computer",
        N_("When does the computer play?"),
        N_(
            "You can play the computer at five levels. If your opponent lets the time for a move pass, you can let the computer play on for them, at about their own strength, until they come back."
        ),
    ),
    Topic(
        "privacy",
        N_("What does ubao keep about me?"),
        N_(
            "Only what playing needs: your chosen name, your games, ratings and puzzles, your blocks and notification subscriptions. The privacy policy lists every item, why and for how long."
        ),
        ("faragha", N_("Privacy policy")),
    ),
)


@dataclass(frozen=True)
class Section:
    id: str
    title: str  # msgid
    text: str  # msgid


#: The terms of service (Masharti ya Huduma), short enough to be read on a phone.
TERMS: tuple[Section, ...] = (
    Section(
        "service",
        N_("The service"),
        N_(
            "ubao is a free place to learn, solve puzzles and play chess, English draughts and Tanzanian draughts. Its code is free software (GPL-3.0-or-later). It comes as it is, with no promise that it is always up or free of faults."
        ),
    ),
    Section(
        "no-account",
        N_("No account"),
        N_(
            "You need no account, e-mail or phone number. Your browser keeps a secret token that is you on ubao: whoever has it can play as you, and if it is lost, ubao cannot give it back."
        ),
    ),
    Section(
        "fair-play",
        N_("Fair play"),
        N_(
            "Play your own moves: no engine, no help from another player, no games lost on purpose to raise someone's rating. A result that breaks this can be taken out of the ratings."
        ),
    ),
    Section(
        "no-chat",
        N_("No chat"),
        N_(
            "There is no free text between players: only a name and a fixed set of reactions. Choose a name that does not hurt anyone; a hurtful name can be removed."
        ),
    ),
    Section(
        "blocks",
        N_("Blocks"),
        N_(
            "You can block any player you have played: they can no longer join your games, offer you a rematch or send you notifications."
        ),
    ),
    Section(
        "data",
        N_("Your data"),
        N_(
            "ubao keeps only what playing needs, and says on the privacy page what it keeps, why and for how long. There you can download all of it, or delete it: your name, follows, clubs, ratings and subscriptions go, your games keep their moves as a former player's, and your link stops working."
        ),
    ),
    Section(
        "changes",
        N_("Changes"),
        N_("These terms may change as ubao grows; the version on this page is the one that holds."),
    ),
)


#: The feedback form's categories (``community.domain.FEEDBACK_CATEGORIES``, in the same order).
FEEDBACK_CATEGORIES: tuple[tuple[str, str], ...] = (
    ("bug", N_("Something does not work")),
    ("idea", N_("An idea")),
    ("words", N_("A word or a translation")),
    ("fair_play", N_("Fair play")),
    ("other", N_("Something else")),
)
