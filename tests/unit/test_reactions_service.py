"""Reactions on the in-memory games repository: the log keeps each as an event, and folding the log again gives
the stored head (its latest reactions and mutes) exactly."""

from __future__ import annotations

from games.domain import apply_all
from games.domain.reactions import REACTIONS_KEPT, ReactionKey
from games.repository import InMemoryGameStore, in_memory_games
from games.repository.codec import head_from
from games.service import GamesService
from games.service.reactions import Reactions

from tests.clocks import ManualClock
from tests.unit.seats import PLAYERS, started


def test_reactions_fold_from_the_log_to_the_stored_head():
    store = InMemoryGameStore()
    service = GamesService(in_memory_games(store), clock=ManualClock())
    game_id = started(service)
    reactions = Reactions(service.log, None)
    keys: list[ReactionKey] = ["good_game", "thanks", "clap", "wow", "smile", "sorry", "hello", "well_played"]
    for index, key in enumerate(keys):
        assert reactions.react(PLAYERS["white" if index % 2 == 0 else "black"], game_id, key)
    reactions.mute(PLAYERS["black"], game_id, True)
    reactions.mute(PLAYERS["black"], game_id, True)  # again: nothing more is written
    head, events = service.store.load(game_id)
    assert head is not None
    assert [item.key for item in head.reactions] == keys[-REACTIONS_KEPT:]
    assert head.reactions_muted == frozenset({"black"})
    assert [event.kind for event in events].count("mute_reactions") == 1
    stored = store.get_head(game_id)
    assert stored is not None and apply_all(None, events) == head == head_from(stored)
    assert not reactions.react(PLAYERS["white"], game_id, "clap")  # Black muted: not written
    assert service.store.load(game_id)[0] == head
