// What the game page, the inbox and the puzzle page say about a game (site/static/game_text.js,
// site/static/fumbo_text.js), with catalog texts made up for the test.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError } from "../../site/static/api.js";
import { colourName, failureText, invitationText, refusalOf, resultText, seatName } from "../../site/modules/game_text.js";
import { goalText, ratingText, themeText, turnText } from "../../site/modules/fumbo_text.js";

const m = {
  white: "White", black: "Black", red: "Red", nobody_yet: "nobody yet", anonymous: "a guest",
  computer_level: "computer %(level)s", result_white: "White won.", result_red: "Red won.",
  result_black: "Black won.", result_draw: "A draw.", reason_checkmate: "by checkmate",
  error_not_your_turn: "Not your turn.", request_refused: "Refused.", illegal: "Not allowed.",
  refusal_blocked: "Blocked.", game_titles: { english: "English draughts" },
  invited_by: "%(name)s invites you to %(game)s", invited_anonymous: "You are invited to %(game)s",
  invite_you_play: "You play %(colour)s. %(days)s", plural_locale: "en",
  days_per_move: { one: "{n} day a move", other: "{n} days a move" },
  white_to_move: "White to move.", red_to_move: "Red to move.", black_to_move: "Black to move.",
  rating: "rating %(rating)s",
};

test("White is Red in English draughts", () => {
  assert.equal(colourName(m, "english", "white"), "Red");
  assert.equal(colourName(m, "chess", "white"), "White");
  assert.equal(colourName(m, "english", "black"), "Black");
  assert.equal(turnText(m, "english", "white"), "Red to move.");
  assert.equal(turnText(m, "tanzanian", "white"), "White to move.");
});

test("a seat is named by its player, the computer and its level, or nobody yet", () => {
  assert.equal(seatName(m, { name: "Asha" }), "Asha");
  assert.equal(seatName(m, { cpu_level: 3 }), "computer 3");
  assert.equal(seatName(m, {}), "a guest");
  assert.equal(seatName(m, null), "nobody yet");
});

test("a result names the winner and, when the catalog has it, the reason", () => {
  assert.equal(resultText(m, { game: "chess", status: { result: "white", reason: "checkmate" } }), "White won by checkmate.");
  assert.equal(resultText(m, { game: "english", status: { result: "white", reason: "unknown" } }), "Red won.");
  assert.equal(resultText(m, { game: "chess", status: { result: "draw" } }), "A draw.");
  assert.equal(resultText(m, { game: "chess", status: { result: "black" } }), "Black won.");
});

test("a refusal is said by its reason, else by its code, else in general terms", () => {
  assert.equal(refusalOf(m, { code: "illegal_move", reason: "blocked" }), "Blocked.");
  assert.equal(refusalOf(m, { code: "not_your_turn" }), "Not your turn.");
  assert.equal(refusalOf(m, { code: "something_new" }), "Refused.");
  assert.equal(refusalOf(m, null), "Refused.");
});

test("a failed request is told as the server's refusal, or else as a network failure", () => {
  const said = { ...m, network_error: "No connection.", error_not_your_turn: "Not your turn." };
  assert.equal(failureText(said, new ApiError(409, { error: { code: "not_your_turn" } })), "Not your turn.");
  assert.equal(failureText(said, new ApiError(502, null)), "Refused.");
  assert.equal(failureText(said, new TypeError("Failed to fetch")), "No connection.");
  assert.equal(failureText(said, undefined), "No connection.");
});

test("an invitation names its host, the game, the guest's colour and the days per move", () => {
  const game = { game: "english", players: { white: null, black: { name: "Juma" } }, options: { days_per_move: 1 } };
  assert.deepEqual(invitationText(m, game, ["white", "black"]), {
    invitation: "Juma invites you to English draughts", terms: "You play Red. 1 day a move",
  });
  const anonymous = { game: "chess", players: { white: { name: "" } }, options: {} };
  assert.deepEqual(invitationText(m, anonymous, ["white", "black"]), {
    invitation: "You are invited to chess", terms: "You play Black. ",
  });
});

test("a puzzle's goal comes from its themes, a mate in n first", () => {
  const f = { goal_mate: "Mate in %(n)s.", goal_countdown: "Countdown.", goal_promotion: "Crown.",
    goal_promote_chess: "Promote.", goal_material: "Win material.", goal_best: "Best move.", goal_game_win: "Win." };
  assert.equal(goalText(f, { game: "chess", themes: ["fork", "mateIn2"] }), "Mate in 2.");
  assert.equal(goalText(f, { game: "chess", themes: ["promotion"] }), "Promote.");
  assert.equal(goalText(f, { game: "english", themes: ["promotion"] }), "Crown.");
  assert.equal(goalText(f, { game: "tanzanian", themes: [] }), "Best move.");
});

test("themes are named in the page's language, and a rating is provisional while uncertain", () => {
  const f = { themes_label: "Themes: %(themes)s", rating_provisional: "rating %(rating)s?" };
  assert.equal(themeText(f, { fork: "uma" }, ["fork", "pin"]), "Themes: uma, pin");
  assert.equal(ratingText(m, f, { rating: 1500.4, rating_deviation: 110 }), "rating 1500?");
  assert.equal(ratingText(m, f, { rating: 1499.6, rating_deviation: 60 }), "rating 1500");
});

test("a live turn's seconds count down from the server's time left, whatever the phone's clock", async () => {
  const { isLive, secondsLeft } = await import("../../site/modules/turn_clock.js");
  assert.equal(isLive({ options: { turn_seconds: 30 } }), true);
  assert.equal(isLive({ options: { turn_seconds: null, days_per_move: 3 } }), false);
  assert.equal(secondsLeft(30000, 0), 30);
  assert.equal(secondsLeft(30000, 250), 30); // a part of a second left counts as a second
  assert.equal(secondsLeft(30000, 29001), 1);
  assert.equal(secondsLeft(30000, 31000), 0);
  assert.equal(secondsLeft(null, 0), null);
});
