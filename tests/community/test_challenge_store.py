"""The challenges' repository contract on memory, moto and dynalite: the receiver's item decides (an answer is
stored once, conditionally on the challenge being open), the sender's copy follows, and "Delete my data" forgets a
player's challenges."""

from __future__ import annotations

from dataclasses import replace

import pytest
from community.challenges.domain import Challenge, Challenger

from tests.stores import STORES, on_each_store

ASHA = Challenger("asha-0000001", "Asha", "aa" * 32)
BARAKA = Challenger("baraka-00001", None, "bb" * 32)


@pytest.fixture(params=STORES)
def challenges(request):
    from community.challenges.repository import DynamoChallenges, InMemoryChallenges

    return on_each_store(request, InMemoryChallenges, DynamoChallenges)


def offer(challenge_id: str = "c1", at: int = 1_000) -> Challenge:
    return Challenge(challenge_id, ASHA, BARAKA, "chess", {"days_per_move": 3, "private": True}, True, "random", at)


def test_a_challenge_is_answered_once_and_the_sender_sees_it(challenges):
    sent = offer()
    challenges.add(sent)
    assert challenges.received(BARAKA.player_id, "c1") == sent
    assert challenges.sent(ASHA.player_id, "c1") == sent
    assert challenges.received(ASHA.player_id, "c1") is None and challenges.sent(BARAKA.player_id, "c1") is None
    accepted = sent.answer("accept", "G" * 12, 2_000)
    assert challenges.answer(accepted) is True
    assert challenges.answer(sent.answer("decline", None, 2_001)) is False  # answered already: nothing changes
    assert challenges.received(BARAKA.player_id, "c1") == accepted
    assert challenges.sent(ASHA.player_id, "c1") == accepted


def test_lists_oldest_first_and_forget(challenges):
    challenges.add(offer("c2", at=3_000))
    challenges.add(offer("c1", at=1_000))
    other = replace(offer("c3", at=2_000), sender=BARAKA, receiver=ASHA)
    challenges.add(other)
    assert [item.id for item in challenges.received_by(BARAKA.player_id)] == ["c1", "c2"]
    assert [item.id for item in challenges.sent_by(ASHA.player_id)] == ["c1", "c2"]
    assert [item.id for item in challenges.received_by(ASHA.player_id)] == ["c3"]
    assert challenges.forget(ASHA.player_id) == 3
    assert challenges.sent_by(ASHA.player_id) == [] and challenges.received_by(ASHA.player_id) == []
    # Her challenges are gone from his side too: nothing of hers is left in his lists.
    assert challenges.received_by(BARAKA.player_id) == [] and challenges.sent_by(BARAKA.player_id) == []
