"""The community repository's contract, the same on memory, moto and dynalite."""

from __future__ import annotations

from community.domain import Card, Feedback, Follow


def test_cards_are_kept_and_replaced(repository):
    assert repository.card("asha0000001") is None
    repository.save_card(Card("asha0000001", "ab" * 32, "Asha"))
    repository.save_card(Card("asha0000001", "ab" * 32, None))
    assert repository.card("asha0000001") == Card("asha0000001", "ab" * 32, None)


def test_a_follow_is_stored_once_and_mirrored(repository):
    assert repository.add_follow("asha", Follow("baraka", "Baraka", 2_000)) is True
    assert repository.add_follow("asha", Follow("baraka", "Baraka", 3_000)) is False  # the first one stays
    assert repository.add_follow("asha", Follow("chausiku", None, 1_000)) is True
    assert repository.add_follow("chausiku", Follow("asha", "Asha", 4_000)) is True
    assert repository.follows("asha") == [Follow("chausiku", None, 1_000), Follow("baraka", "Baraka", 2_000)]
    assert repository.followers("baraka") == {"asha"} and repository.followers("asha") == {"chausiku"}
    assert repository.follows("baraka") == [] and repository.followers("nobody") == set()


def test_an_unfollow_removes_the_follow_and_its_mirror(repository):
    repository.add_follow("asha", Follow("baraka", None, 1))
    assert repository.remove_follow("asha", "baraka") is True
    assert repository.remove_follow("asha", "baraka") is False
    assert repository.follows("asha") == [] and repository.followers("baraka") == set()


def stored_feedback(repository) -> list[dict]:
    """The feedback as stored: the in-memory list, or the table's feedback items."""
    if hasattr(repository, "feedback"):
        return [
            {"category": f.category, "text": f.text, "lang": f.lang, "expires": at} for f, at in repository.feedback
        ]
    from common.persistence import store
    from common.persistence.attributes import from_item

    items = store.client().scan(TableName=repository.table)["Items"]
    return [from_item(item) for item in items if item["pk"]["S"].startswith("feedback#")]


def test_feedback_is_stored_with_its_expiry_and_no_player(repository):
    repository.add_feedback(Feedback("idea", "Ongeza dama ya Kirusi", "sw", 1_750_000_000_000), 1_765_552_000)
    [item] = stored_feedback(repository)
    assert {key: item[key] for key in ("category", "text", "lang", "expires")} == {
        "category": "idea",
        "text": "Ongeza dama ya Kirusi",
        "lang": "sw",
        "expires": 1_765_552_000,
    }
    assert not any("player" in key or "token" in key for key in item)
