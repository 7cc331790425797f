// A history row's words (site/modules/history_text.js) and the API path of a page from the page's filters.
import assert from "node:assert/strict";
import { test } from "node:test";

import { historyParts, historyPath, ratingText } from "../../site/modules/history_text.js";

const texts = {
  vs: "dhidi ya {name}", computer: "kompyuta (kiwango {level})", nobody: "anasubiri mpinzani",
  unnamed: "mchezaji asiye na jina", win: "Ushindi", loss: "Kushindwa", draw: "Sare", ongoing: "Unaendelea",
  private: "faragha",
};
const titles = { chess: "Chesi", english: "Drafti ya Kiingereza" };

test("a row says the game, the opponent, the result, the day and the rating change", () => {
  const row = {
    game: "chess", opponent: { id: "p1", name: "Baraka", cpu_level: null }, result: "loss",
    created_at: "2026-12-03T10:00:00Z", rating_change: -7, private: true,
  };
  const parts = historyParts(texts, titles, row, "en");
  assert.deepEqual([parts[0], parts[1], parts[2]], ["Chesi", "dhidi ya Baraka", "Kushindwa"]);
  assert.match(parts[3], /2026/);
  assert.deepEqual(parts.slice(4), ["\u22127", "faragha"]);
});

test("the computer, a seat nobody took yet and a casual game", () => {
  const cpu = { game: "english", opponent: { id: null, name: null, cpu_level: 3 }, result: "win", created_at: "", rating_change: null };
  assert.deepEqual(historyParts(texts, titles, cpu, "sw"), ["Drafti ya Kiingereza", "kompyuta (kiwango 3)", "Ushindi"]);
  const alone = { ...cpu, opponent: { id: null, name: null, cpu_level: null }, result: "ongoing" };
  assert.equal(historyParts(texts, titles, alone, "sw")[1], "anasubiri mpinzani");
  assert.equal(ratingText(0), "±0");
  assert.equal(ratingText(12), "+12");
});

test("the page's filters become the API's query; another player's games go to their public list", () => {
  assert.equal(historyPath("?result=loss&game=chess&junk=1", null, 20), "/v1/players/me/history?game=chess&result=loss&limit=20");
  assert.equal(historyPath("?player=abc&kind=rated", "CUR", 5), "/v1/players/abc/games?kind=rated&limit=5&cursor=CUR");
});
