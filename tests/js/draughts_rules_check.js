// The pages' draughts rules (site/modules/draughts_rules.js) over a file of cases, in one node process, for
// tests/rules/test_draughts_js.py, which compares every answer with shared_rules (the reference).
// Usage: node tests/js/draughts_rules_check.js cases.json > answers.jsonl
// cases.json: {"variant": {...}, "options": {...}, "positions": [fen, ...], "games": [{"fen": fen|null, "moves": [...]}]}
// Each position answers one line; each game one line a ply (the start too): its legal moves, sorted, and status.
import { readFileSync, writeSync } from "node:fs";
import { DraughtsRules } from "../../site/modules/draughts_rules.js";

const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
const rules = new DraughtsRules(cases.variant, cases.options || {});
const out = [];
const flush = () => {
  writeSync(1, out.join(""));
  out.length = 0;
};
const answer = (position) => {
  const { result, reason } = position.status();
  const moves = position.legalMoves().map((m) => m.notation).sort();
  out.push(JSON.stringify([moves, result, reason, position.fen()]) + "\n");
  if (out.length >= 5000) flush();
};
for (const fen of cases.positions || []) answer(rules.fromFen(fen));
for (const game of cases.games || []) {
  let position = game.fen ? rules.fromFen(game.fen) : rules.start();
  answer(position);
  for (const move of game.moves) {
    position = position.play(move);
    answer(position);
  }
}
flush();
