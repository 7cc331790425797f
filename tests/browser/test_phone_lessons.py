"""A lesson on a 360x740 phone: every exercise board is whole (nothing of it cut at the card's edges, a tap at
its edge lands on it), and the lesson's first exercise is one tap from the top."""

from __future__ import annotations

import pytest

PHONE = {"width": 360, "height": 740}

# For each exercise in turn: scroll it into view, wait until its board is the playable grid, then read the
# grid's box and what a tap one pixel inside each edge (and each corner) would hit.
EDGES = """async () => {
  const found = [];
  for (const article of document.querySelectorAll(".exercise")) {
    article.scrollIntoView({block: "center"});
    const deadline = Date.now() + 10000;
    while (!article.querySelector(".board-host .grid") && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 25));
    }
    const grid = article.querySelector(".board-host .grid");
    if (!grid) { found.push({id: article.id, missing: true}); continue; }
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const box = grid.getBoundingClientRect();
    const midX = box.left + box.width / 2, midY = box.top + box.height / 2;
    const points = {
      left: [box.left + 1, midY], right: [box.right - 1, midY], top: [midX, box.top + 1],
      bottom: [midX, box.bottom - 1], topLeft: [box.left + 1, box.top + 1],
      bottomRight: [box.right - 1, box.bottom - 1],
    };
    const missed = Object.entries(points)
      .filter(([, [x, y]]) => !grid.contains(document.elementFromPoint(x, y)))
      .map(([name]) => name);
    found.push({id: article.id, box: [box.left, box.top, box.right, box.bottom], missed});
  }
  return found;
}"""


@pytest.mark.parametrize(("lang", "game"), [("sw", "chess"), ("tl", "english"), ("tl", "chess"), ("sw", "tanzanian")])
def test_every_exercise_board_is_whole_on_a_phone(contexts, lang, game):
    page = contexts.new_page(viewport=PHONE)
    page.goto(f"/{lang}/jifunze/{game}/")
    boards = page.evaluate(EDGES)
    assert len(boards) >= 20
    for board in boards:
        assert not board.get("missing"), f"{board['id']}: never became playable"
        left, top, right, bottom = board["box"]
        assert left >= 0 and right <= PHONE["width"] and top >= 0 and bottom <= PHONE["height"], board
        assert board["missed"] == [], f"{board['id']}: a tap at its {board['missed']} edge misses the board"
    assert contexts.problems == []
