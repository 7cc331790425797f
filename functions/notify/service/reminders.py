"""ReminderFunction: "less than 24 hours left" and "less than 2 hours left" for the player to move, each once.

**What the games head carries** (the games repository sets it in every head write,
``common.persistence.reminder_schedule``):
``reminder_due``, the epoch ms when the next reminder of the current turn is due (``schedule``), and
``reminder_hour``, the hour it falls in spread over ``REMINDER_SHARDS`` keys by game (``index_key``); both
absent when no reminder is coming (game not active, the computer to move, deadline too close). The index
``GamesByReminderHour`` holds only heads that carry them (a sparse index), keyed by that then due time.

**A sweep** (every 15 minutes) reads the index for the last ``LOOKBACK_HOURS`` hours up to now: one Query
per key of each hour (``index_keys``), however many games there are, plus per due game one consistent read of its head, one marker
write, one head update and the pushes. So its cost grows with the games that are due, not with all games.

**Once only**: before sending, a marker item ``reminder#<deadline>#<stage>`` is written with
``attribute_not_exists`` in the push table; a second sweep, a retried one, or a head rewritten with an old
``reminder_due`` finds the marker and sends nothing. Then the head moves on to its next stage with a write
conditional on the head being the one read (``seq`` and ``reminder_due`` unchanged), so a newer head from the
games function is never overwritten. Every read and write of the games table goes through the games
repository (``notify.games.StoredDueGames`` on ``games.repository``).

**Live tables** (``turn_seconds``) have no reminders: their head's ``reminder_due`` is just after the turn's
deadline, and the sweep lets the computer play on for the absent player through the games service
(``GamesService.settle``, the same conditional appends as a request that reads the game), so a game nobody
reads any more still moves on; the other player's page, polling every second, usually settles it first.

The same function sends the daily puzzle's notification (``notify.service.daily``); its entry point is
``notify.handler.reminders``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Protocol

from aws_lambda_powertools import Logger
from common.persistence.reminder_schedule import HOUR_MS, STAGES, reminder_attributes, schedule

from notify.domain.decide import Notice
from notify.domain.games import GameState, other
from notify.service.notifier import Notifier

if TYPE_CHECKING:
    from games.domain import GameHead

logger = Logger()

# The schedule is the games function's too (it sets the attributes in its head write): see common.persistence.reminder_schedule.
__all__ = ["HOUR_MS", "STAGES", "Reminders", "reminder_attributes", "schedule"]

#: Hours of the index read by each sweep (now and the ones before): sweeps missed for up to this long catch up.
LOOKBACK_HOURS = 3


def stage_of(deadline: int, due: int) -> str | None:
    return next((stage for stage, before in STAGES if deadline - before == due), None)


def next_due(deadline: int, due: int) -> int | None:
    later = [deadline - before for _, before in STAGES if deadline - before > due]
    return min(later) if later else None


class DueGames(Protocol):
    def due(self, hour: int, now_ms: int) -> list[str]: ...

    def head(self, game_id: str) -> tuple[GameHead, int | None] | None:
        """The game's head and when its stored reminder is due (None: no reminder), or None."""
        ...

    def advance(self, game_id: str, seq: int, due: int, next_due: int | None) -> bool: ...


#: Settles a live game whose turn ran out (``GamesService.settle``): the game id and the sweep's time.
Settle = Callable[[str, int], object]


class ReminderMarks(Protocol):
    def mark(self, game_id: str, deadline: int, stage: str) -> bool:
        """Remember that ``stage`` was sent for this deadline; False if it already was."""
        ...


@dataclass
class SweepReport:
    due: int = 0
    reminded: int = 0
    skipped: int = 0
    settled: int = 0


class Reminders:
    def __init__(self, games: DueGames, marks: ReminderMarks, notifier: Notifier, settle: Settle | None = None):
        self.games = games
        self.marks = marks
        self.notifier = notifier
        self.settle = settle

    def sweep(self, now_ms: int) -> SweepReport:
        report = SweepReport()
        hour = now_ms // HOUR_MS
        for bucket in range(hour - LOOKBACK_HOURS, hour + 1):
            for game_id in self.games.due(bucket, now_ms):
                report.due += 1
                found = self.games.head(game_id)
                if self._settle_live(game_id, found, now_ms):
                    report.settled += 1
                elif self._remind(game_id, found, now_ms):
                    report.reminded += 1
                else:
                    report.skipped += 1
        logger.info("reminders swept", extra=asdict(report))
        return report

    def _settle_live(self, game_id: str, found: tuple[GameHead, int | None] | None, now_ms: int) -> bool:
        """A live game due in the index: the computer plays on if its turn ran out (True: it was a live game)."""
        if found is None or found[0].turn_seconds is None or self.settle is None:
            return False
        if found[0].turn_over(now_ms):
            try:
                self.settle(game_id, now_ms)
            except Exception:  # one game's failure must not stop the sweep; the next sweep or read settles it
                logger.exception("live turn not settled", extra={"game_id": game_id})
        return True

    def _remind(self, game_id: str, found: tuple[GameHead, int | None] | None, now_ms: int) -> bool:
        head, due = found if found is not None else (None, None)
        if head is None or due is None or due > now_ms:
            return False  # the index was behind the head
        deadline = head.deadline or 0
        stage = stage_of(deadline, due) if head.state == "active" and deadline else None
        sent = False
        if stage is not None and deadline > now_ms and self.marks.mark(game_id, deadline, stage):
            notice = self._notice(head, stage)
            if notice is not None:
                self.notifier.deliver(notice)
                sent = True
        self.games.advance(game_id, head.seq, due, next_due(deadline, due) if stage else None)
        return sent

    @staticmethod
    def _notice(head: GameHead, stage: str) -> Notice | None:
        game = GameState.of_head(head)
        seat, opponent = game.seats[game.turn], game.seats[other(game.turn)]
        if seat.player_id is None or seat.cpu:
            return None
        return Notice(
            player_id=seat.player_id,
            kind="reminder",
            message=f"reminder_{stage}",
            game_id=game.game_id,
            game=game.game,
            opponent=opponent.name,
            opponent_is_computer=opponent.player_id is None,
        )
