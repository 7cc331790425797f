// Loaded before the node tests (make test-js: node --import): the game facts the site builder writes into
// every page's config, from the copy tests/site/test_game_facts.py keeps equal to shared_rules/game_facts.py.
import { readFileSync } from "node:fs";
import { useGameFacts } from "../../site/modules/game_facts.js";

useGameFacts(JSON.parse(readFileSync(new URL("./game_facts.json", import.meta.url), "utf8")));
