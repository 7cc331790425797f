"""The community service on the in-memory stores: the follow limit, and a refused follow changes nothing."""

from __future__ import annotations

import pytest
from common.players.domain import Player
from common.players.repository import InMemoryPlayers
from community.domain import MAX_FOLLOWS, Card, TooManyFollows
from community.repository import InMemoryCommunity
from community.service import Community


def test_a_player_follows_at_most_the_limit():
    repository = InMemoryCommunity()
    community = Community(repository, InMemoryPlayers(), clock=lambda: 1_750_000_000.0)
    asha = Player("asha0000001", "a" * 64, "Asha")
    for number in range(MAX_FOLLOWS + 1):
        repository.save_card(Card(f"player{number:05d}", f"{number:064x}", None))
    for number in range(MAX_FOLLOWS):
        assert community.follow(asha, f"player{number:05d}")[1] is True
    with pytest.raises(TooManyFollows):
        community.follow(asha, f"player{MAX_FOLLOWS:05d}")
    assert len(repository.follows(asha.player_id)) == MAX_FOLLOWS
    assert community.follow(asha, "player00007")[1] is False  # one followed already is still answered
