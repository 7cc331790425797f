"""Fair play's rules that need nothing but the head: which endings abort a game instead of deciding it.

A rated game must be played to count (lichess's rule, docs/games.md "Fair play"): one that a player resigns,
agrees drawn, claims or hands to the computer on time before each side has made two moves is aborted (no result,
no rating change). A live table whose turn runs out that early is aborted too: the computer never plays a first
move for someone who never came, and a game starts counting only once both players have played.
"""

from __future__ import annotations

from games.domain.events import Aborted, AnyEvent, DrawAccepted, Resigned, TimeoutClaimed
from games.domain.head import GameHead

#: The endings a player can bring about alone, which abort a rated game played too little to count.
#: (The computer taking over that early aborts it as well: ``GamesService.cpu_takeover``.)
_EARLY_ENDINGS = (Resigned, DrawAccepted, TimeoutClaimed)


def early_end(head: GameHead, event: AnyEvent) -> AnyEvent:
    """``event``, or ``Aborted`` in its place when it would end a rated game in which a side has not yet made
    two moves."""
    if head.rated and head.abortable and isinstance(event, _EARLY_ENDINGS):
        # A claim on time says the other side never came; a resignation is the player's own choice; a draw is
        # both players' (``by`` none: a tournament scores it for neither, as an arena's early draw scores nothing).
        by = None if isinstance(event, DrawAccepted) else event.by
        return Aborted(by=by, at=event.at, reason="no_show" if isinstance(event, TimeoutClaimed) else "aborted")
    return event
