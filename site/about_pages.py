"""What the help, terms and privacy pages (Msaada, Masharti, Faragha) are built from."""

from __future__ import annotations

import os
from typing import Any

from help_topics import FEEDBACK_CATEGORIES, TERMS, TOPICS
from play_messages import PLAY_MESSAGES
from stored_data import STORED_TABLES

#: The AWS region the stack is deployed to (``make deploy``); the privacy page names it.
REGION_VARIABLE = "UBAO_AWS_REGION"
DEFAULT_REGION = "af-south-1 (Cape Town)"


#: The refusals the community page words itself (``error_<code>`` in ``play_messages``).
COMMUNITY_ERRORS = (
    "player_not_found",
    "cannot_follow_yourself",
    "you_blocked_player",
    "too_many_players_followed",
    "rate_limited",
)


#: The refusals the clubs page words itself.
CLUB_ERRORS = (
    "club_not_found",
    "wrong_club_code",
    "club_full",
    "too_many_clubs",
    "not_club_owner",
    "not_club_member",
    "owner_stays_in_club",
    "invalid_name",
    "rate_limited",
)


#: The refusals the friends strip words itself (home, play, community and profile pages).
STRIP_ERRORS = (
    "not_a_friend",
    "challenge_not_found",
    "challenge_closed",
    "already_challenged",
    "too_many_challenges",
    "you_blocked_player",
    "player_not_found",
    "rate_limited",
)


def strip_errors() -> dict[str, str]:
    return {code: PLAY_MESSAGES["error_" + code] for code in STRIP_ERRORS}


def context(key: str) -> dict[str, Any]:
    if key == "jamii":
        return {"error_texts": {code: PLAY_MESSAGES["error_" + code] for code in COMMUNITY_ERRORS}}
    if key == "jamii/klabu":
        return {"error_texts": {code: PLAY_MESSAGES["error_" + code] for code in CLUB_ERRORS}}
    if key == "msaada":
        return {"topics": TOPICS, "feedback_categories": FEEDBACK_CATEGORIES}
    if key == "masharti":
        return {"terms": TERMS}
    return {"stored_tables": STORED_TABLES, "region": os.environ.get(REGION_VARIABLE) or DEFAULT_REGION}
