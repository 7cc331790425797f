"""What the notify function knows of a game: its seats and its state after one event (read-only), through
the games function's own repository (``games.repository``), which reads every stored layout, and its fold.

The event item is the commit (the games function writes it first, the head after), so notifications are
decided per event, with the head as it is when the record is handled:

* head at the event (``seq`` equal): the state after the event, exactly;
* head behind (the games function died between its two writes, or the stream was quicker than the head
  write): the missing events are read and folded onto it with the games function's own fold, so the
  notification is the same as if the head had been written;
* head ahead (the record is handled late): the game has moved on; what the event did is still known
  (who moved, whether the game ended), and a "your move" that has been answered already is not sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from notify.domain.games import GameState

if TYPE_CHECKING:
    from games.domain import AnyEvent, GameHead
    from games.repository import GameRepository


class GameReader(Protocol):
    def state_after(self, game_id: str, event: AnyEvent) -> GameState | None:
        """The game after ``event`` (see the module docstring); None when there is no such game."""
        ...


class GameStates:
    """``GameReader`` on the games repository (DynamoDB unless given another), with the games' own fold."""

    def __init__(self, games: GameRepository | None = None):
        if games is None:
            from games.repository import dynamodb_games

            games = dynamodb_games()
        self.games = games

    def state_after(self, game_id: str, event: AnyEvent) -> GameState | None:
        head = self.games.get_head(game_id)
        if head is not None and head.seq >= event.seq:
            return GameState.of_head(head, later=head.seq > event.seq)
        return self._folded(game_id, head, event.seq)

    def _folded(self, game_id: str, head: GameHead | None, seq: int) -> GameState | None:
        from games.domain import DamagedHead

        try:
            return self._fold(game_id, head, seq)
        except DamagedHead:  # a head that cannot give its position (an older layout): fold the whole log
            return self._fold(game_id, None, seq)

    def _fold(self, game_id: str, start: GameHead | None, seq: int) -> GameState | None:
        from games.domain import apply_all

        events = [event for event in self.games.events_after(game_id, start.seq if start else 0) if event.seq <= seq]
        if not events and start is None:
            return None
        folded = apply_all(start, events)
        return GameState.of_head(folded) if folded.seq == seq else None


class StoredDueGames:
    """``DueGames`` (``notify.service.reminders``) on the games repository: its sparse reminder index and heads."""

    def __init__(self, games: GameRepository | None = None):
        if games is None:
            from games.repository import dynamodb_games

            games = dynamodb_games()
        self.games = games

    def due(self, hour: int, now_ms: int) -> list[str]:
        return self.games.due_for_reminders(hour, now_ms)

    def head(self, game_id: str) -> tuple[GameHead, int | None] | None:
        """The game's head and when its stored reminder is due (None: no reminder), or None."""
        found = self.games.reminder_of(game_id)
        return (found.head, found.due) if found is not None else None

    def advance(self, game_id: str, seq: int, due: int, next_due: int | None) -> bool:
        """Move the head's reminder on to ``next_due`` (None: no more), if the head is still the one read."""
        return self.games.advance_reminder(game_id, seq, due, next_due)
