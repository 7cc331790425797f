// @ts-check
// The positions of a game, ply by ply, for a board that steps through its moves. The server keeps the
// position after each move and hands them out a page at a time (GET /v1/games/{id}/moves?positions=true):
// a page is fetched only when a step reaches a ply not yet known, and kept, so stepping costs the same at
// ply 3,000 as at ply 10, and stepping back and forth again costs nothing.

/**
 * @typedef {object} PositionPage  a page of moves with the position after each
 * @property {number | null} moves_from  how many moves come before the first one listed
 * @property {string[] | null} [fens]  fens[i]: the position after move moves_from + i + 1
 * @property {number | null} earlier  the `before` of the page before this one; null at the start
 * @property {string | null} [start_fen]  the position before move 1, on the page that reaches it
 */

export class PositionCache {
  /** @param {(before: number | null) => Promise<PositionPage>} fetchPage  null: the latest page */
  constructor(fetchPage) {
    this.fetchPage = fetchPage;
    /** @type {Map<number, string>} the position after ply n (0: the start) */
    this.fens = new Map();
    /** @type {number} the newest ply a fetched latest page covered; -1 before any */
    this.newestFetched = -1;
    /** @type {number | null | undefined} where older pages go on: undefined before any page, null at the start */
    this.older = undefined;
  }

  /** A position the page already holds (the game's current one, at each render). @param {number} ply @param {string} fen */
  remember(ply, fen) {
    this.fens.set(ply, fen);
  }

  /** @param {PositionPage} page */
  absorb(page) {
    const from = page.moves_from || 0;
    (page.fens || []).forEach((fen, i) => this.fens.set(from + i + 1, fen));
    if (page.start_fen && from === 0) this.fens.set(0, page.start_fen);
    return from + (page.fens || []).length;
  }

  /**
   * The position after ply ``ply``: from what is kept, else from the latest page (when ``ply`` is newer than
   * any page fetched), then from older pages one at a time until it is found. Null when the game has none.
   * @param {number} ply
   * @returns {Promise<string | null>}
   */
  async fenAt(ply) {
    if (this.fens.has(ply)) return this.fens.get(ply) || null;
    if (ply > this.newestFetched) {
      const latest = await this.fetchPage(null);
      this.newestFetched = this.absorb(latest);
      if (this.older === undefined) this.older = latest.earlier; // older pages go on from the first one
    }
    while (!this.fens.has(ply) && this.older) {
      const page = await this.fetchPage(this.older);
      this.absorb(page);
      this.older = page.earlier;
    }
    return this.fens.get(ply) || null;
  }
}
