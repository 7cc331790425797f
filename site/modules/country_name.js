// @ts-check
// Countries as the pages show them: a code's name in the page's language (the browser's own names), and the
// rating list's scope read from its address.

/**
 * The country's name in ``lang`` (the browser's names; the code where it has none).
 * @param {string} code ISO 3166-1 alpha-2, as the API gives it
 * @param {string} lang the page's language
 */
export function countryName(code, lang) {
  try {
    return new Intl.DisplayNames([lang], { type: "region" }).of(code) || code;
  } catch {
    return code;
  }
}

/**
 * The country of a rating list's address (``?country=TZ``), or "" for everyone (absent, or not two capitals: the
 * API would refuse it).
 * @param {string} search the address's query, as ``location.search``
 */
export function scopeOf(search) {
  const asked = new URLSearchParams(search).get("country") || "";
  return /^[A-Z]{2}$/.test(asked) ? asked : "";
}
