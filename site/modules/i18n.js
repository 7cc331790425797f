// @ts-check
// The page's texts, from the gettext catalogs the builder embeds in the page's config (`messages`): a
// template filled with values, a plural form chosen by the language's CLDR rules, a refusal's text.
import { gameFacts } from "./game_facts.js";


/** @typedef {import("../types").Messages} Messages */

/**
 * ``template`` with its ``%(name)s`` and ``{name}`` places filled from ``values`` (missing: empty).
 * @param {unknown} template
 * @param {Record<string, unknown>} [values]
 * @returns {string}
 */
export function format(template, values = {}) {
  return String(template).replace(/%\((\w+)\)s|\{(\w+)\}/g, (_, a, b) => String(values[a || b] ?? ""));
}

/**
 * The plural form of ``messages[key]`` ({one, other, ...}) for ``n`` in the page's language, filled with it.
 * @param {Messages} messages
 * @param {string} key
 * @param {number} n
 * @returns {string}
 */
export function plural(messages, key, n) {
  const forms = messages[key];
  const category = new Intl.PluralRules(messages.plural_locale).select(n);
  return format(forms[category] || forms.other, { n });
}

/**
 * The catalog text for a refusal reason (the server's ``error.reason``), with the compulsory captures.
 * @param {Messages} messages
 * @param {string | null | undefined} reason
 * @param {{square?: string, moves?: string[], game?: string}} [details]  ``game`` picks the text naming its
 *   pieces (Swahili's "kipande" in chess, "kete" in draughts) where the catalog has one
 * @returns {string}
 */
export function refusalText(messages, reason, { square = "", moves = [], game = "" } = {}) {
  const family = game ? gameFacts(game).family : "";
  const template = (family && messages[`refusal_${reason}_${family}`]) || messages["refusal_" + reason] || messages.illegal;
  return format(template, { square, moves: moves.join(", ") });
}
