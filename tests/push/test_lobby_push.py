"""The seeker of an open challenge hears, in each phone's language, that someone accepted it."""

from __future__ import annotations

from tests.push.test_notify import Stream, subscribe


def test_the_seeker_hears_who_accepted_their_challenge(games_api, push_api, push_service, notify):
    stream = Stream(notify)
    seeker, taker = games_api.new_player("Asha"), games_api.new_player("Baraka")
    phones = {lang: subscribe(push_api, push_service, seeker["token"], lang=lang) for lang in ("sw", "tl", "en")}
    taker_phone = subscribe(push_api, push_service, taker["token"], lang="en")
    made = games_api.call("POST", "/v1/seeks", {"game": "tanzanian", "rated": True}, token=seeker["token"])
    accepted = games_api.call("POST", f"/v1/seeks/{made.body['seek']['id']}/accept", token=taker["token"])
    assert accepted.status == 201
    assert stream.flush() == {"batchItemFailures": []}
    push_service.wait_for(3)
    bodies = {lang: push_service.deliveries(phone.endpoint)[0].json for lang, phone in phones.items()}
    assert bodies["en"]["title"] == "Challenge accepted"
    assert bodies["en"]["body"] == "Baraka accepted your challenge"
    assert bodies["sw"]["body"] == "Baraka amekubali changamoto yako"
    assert bodies["tl"]["body"] == "Tinanggap ng kalaban mo (Baraka) ang hamon mo"  # the native review's wording
    game_id = accepted.body["game"]["id"]
    assert {body["url"] for body in bodies.values()} == {f"/{lang}/mchezo/?id={game_id}" for lang in ("sw", "tl", "en")}
    assert push_service.deliveries(taker_phone.endpoint) == []  # the taker has the game in the answer


def test_a_rematch_with_both_seats_is_not_an_accepted_challenge(games_api, push_api, push_service, notify):
    stream = Stream(notify)
    game_id, seats = games_api.start_game()
    phones = [subscribe(push_api, push_service, token, lang="en") for token in seats.values()]
    assert games_api.call("POST", f"/v1/games/{game_id}/resign", token=seats["white"]).status == 200
    stream.flush()
    push_service.wait_for(2)  # game over, to both
    assert games_api.call("POST", f"/v1/games/{game_id}/rematch", token=seats["black"]).status == 200  # an offer
    rematch = games_api.call("POST", f"/v1/games/{game_id}/rematch", {"action": "accept"}, token=seats["white"])
    assert rematch.status == 201, rematch.body
    stream.flush()
    bodies = [delivery.json["body"] for phone in phones for delivery in push_service.deliveries(phone.endpoint)]
    assert not any("challenge" in body for body in bodies), bodies
