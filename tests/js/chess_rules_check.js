// Pass-and-play's chess (site/modules/chess_rules.js, chess.js under it) over a file of games, in one node
// process, for tests/rules/test_chess_js.py, which compares every answer with shared_rules (python-chess).
// Usage: node tests/js/chess_rules_check.js games.json > answers.jsonl
// games.json: [[uci, ...], ...]; one line a ply (the start too): the legal moves (UCI, sorted), SAN of the
// move played, the status.
import { readFileSync, writeSync } from "node:fs";
import { ChessMatch } from "../../site/modules/chess_rules.js";

const out = [];
for (const game of JSON.parse(readFileSync(process.argv[2], "utf8"))) {
  const match = new ChessMatch();
  const answer = (san) => {
    const { result, reason } = match.status();
    out.push(JSON.stringify([[...match.legal().moves].sort(), san, result, reason]) + "\n");
  };
  answer(null);
  for (const move of game) answer(match.play(move));
}
writeSync(1, out.join(""));
