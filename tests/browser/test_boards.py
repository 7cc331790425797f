"""Every kind of board on the site, read from the browser's computed styles at a phone's and a desktop's size,
in the three languages: square names on every board (numbers on English draughts boards, files and ranks on
chess and Tanzanian ones) turned with the board, at least 11 px and 4.5:1 against their square; legal-move
markers and last-move rings at 3:1 against both square colours; squares of at least 42 px on a 360 px phone
and boards of at most 560 px; tap targets of 44x44 px; a valid ARIA grid; the keyboard alone plays a move.

One test per viewport and language visits every page with boards, so the browser and server are shared and
the run stays short.
"""

from __future__ import annotations

import pytest

from tests.browser.boards import page_config

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 900}
LANGS = ("sw", "tl", "en")
GAMES = ("chess", "english", "tanzanian")
START = {
    "chess": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "english": "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "tanzanian": "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8",
}

# The WCAG contrast of two computed colours, and the checks of one board, run in the page.
MEASURE = """
() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const hex = (text) => text.startsWith("#")
    ? [1, 3, 5].map((i) => parseInt(text.slice(i, i + 2), 16)) : rgb(text);
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const boards = [];
  for (const grid of document.querySelectorAll(".grid")) {
    const rows = [...grid.children].filter((n) => n.getAttribute("role") === "row");
    const cells = rows.map((r) => [...r.children].filter((n) => n.getAttribute("role") === "gridcell").length);
    const labels = [...grid.querySelectorAll(".lbl")].map((l) => {
      const style = getComputedStyle(l);
      const square = getComputedStyle(l.parentElement).backgroundColor;
      return { text: l.textContent, kind: l.classList[1], size: parseFloat(style.fontSize),
        contrast: ratio(rgb(style.color), rgb(style.backgroundColor)), chip: style.backgroundColor, square,
        own: l.parentElement.querySelector("button")?.dataset.square || null, visible: l.getBoundingClientRect().width > 0 };
    });
    const cell = grid.querySelector(".cell").getBoundingClientRect();
    boards.push({ kind: "grid", orientation: grid.dataset.orientation, rows: rows.length, cells, labels,
      square: cell.width, width: grid.getBoundingClientRect().width,
      named: [...grid.querySelectorAll("button[data-square]")].every((b) => (b.getAttribute("aria-label") || "").includes(b.dataset.square)) });
  }
  for (const svg of document.querySelectorAll("svg.board")) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const group = svg.querySelector("g.labels");
    const labels = [...group.querySelectorAll("text")].map((t) => {
      const chip = t.previousElementSibling;
      const box = t.getBoundingClientRect();
      return { text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * scale, x: box.x, y: box.y,
        contrast: ratio(hex(group.getAttribute("fill")), hex(chip.getAttribute("fill"))), chip: chip.getAttribute("fill") };
    });
    boards.push({ kind: "svg", labels, square: svg.getBoundingClientRect().width * 45 / svg.viewBox.baseVal.width,
      width: svg.getBoundingClientRect().width });
  }
  return boards;
}
"""

PROBE = """
async ([games, starts]) => {
  const { Board } = await import("/static/board.js");
  const cfg = JSON.parse(document.getElementById("ubao-config").textContent);
  for (const game of games) for (const orientation of ["white", "black"]) {
    const section = document.createElement("section");
    section.className = "puzzle probe";
    const host = document.createElement("div");
    host.className = "board-host";
    section.append(host);
    document.querySelector("main").append(section);
    new Board(host, { game, fen: starts[game], squares: cfg.squares[game], orientation, legal: null, messages: cfg.messages });
  }
}
"""


def check_boards(boards: list[dict], viewport: dict) -> None:
    assert boards
    for board in boards:
        labels = board["labels"]
        assert labels, board["kind"]
        for label in labels:
            assert label["size"] >= 11, label
            assert label["contrast"] >= 4.5, label
        if board["kind"] == "grid":
            assert board["rows"] == 8 and board["cells"] == [8] * 8
            assert board["named"]
            for label in labels:
                assert label["chip"] == label["square"], label  # the chip is the square's own colour
            numbers = [label for label in labels if label["kind"] == "n"]
            if numbers:  # English draughts: each dark square shows its own PDN number
                assert len(numbers) == 32 and all(label["text"] == label["own"] for label in numbers)
            else:
                ranks = [label["text"] for label in labels if label["kind"] == "r"]
                files = [label["text"] for label in labels if label["kind"] == "f"]
                white = board["orientation"] == "white"
                assert ranks == (list("87654321") if white else list("12345678")), board["orientation"]
                assert files == (list("abcdefgh") if white else list("hgfedcba")), board["orientation"]
        else:
            texts = [label["text"] for label in sorted(labels, key=lambda item: (round(item["y"]), item["x"]))]
            if all(text.isdigit() for text in texts):
                assert texts in ([str(n) for n in range(1, 33)], [str(n) for n in range(32, 0, -1)])
            else:
                files = [label for label in labels if label["text"].isalpha()]
                ranks = [
                    label["text"] for label in sorted(labels, key=lambda item: item["y"]) if label["text"].isdigit()
                ]
                order = "".join(label["text"] for label in sorted(files, key=lambda item: item["x"]))
                assert order in ("abcdefgh", "hgfedcba")
                assert ranks == (list("87654321") if order == "abcdefgh" else list("12345678"))  # turned together
        if viewport["width"] <= 400:
            assert board["square"] >= 42, board["square"]
        assert board["width"] <= 560.5
        if viewport["width"] >= 1000:
            assert board["width"] >= 540


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_board_names_its_squares_legibly(contexts, server, lang, viewport):
    page = contexts.new_page(viewport=viewport)
    seen = {"grid": 0, "svg": 0}
    for path in [f"/{lang}/sheria/{game}/" for game in GAMES] + [f"/{lang}/jifunze/{game}/" for game in GAMES]:
        page.goto(path)
        if "/jifunze/" in path:  # a lesson's exercise is made playable once near the view
            exercise = page.locator(".exercise").first
            exercise.scroll_into_view_if_needed()
            exercise.locator(".grid button[data-square]").first.wait_for()
        boards = page.evaluate(MEASURE)
        check_boards(boards, viewport)
        for board in boards:
            seen[board["kind"]] += 1
    page.goto(f"/{lang}/fumbo/")
    page.evaluate(
        server.with_assets(PROBE), [list(GAMES), START]
    )  # every game in both orientations, beside the day's puzzles
    boards = page.evaluate(MEASURE)
    orientations = {board["orientation"] for board in boards if board["kind"] == "grid"}
    assert orientations == {"white", "black"}
    check_boards(boards, viewport)
    assert seen["svg"] >= 6 and seen["grid"] >= 3, seen


MARKERS = """
async () => {
  const { Board } = await import("/static/board.js");
  const cfg = JSON.parse(document.getElementById("ubao-config").textContent);
  const host = document.createElement("div");
  host.className = "board-host";
  document.querySelector("main").prepend(host);
  const legal = [{ from: "e2", to: "e4", path: ["e4"], san: "e4" }, { from: "e2", to: "e3", path: ["e3"], san: "e3" },
                 { from: "g1", to: "f3", path: ["f3"], san: "Nf3" }];
  const board = new Board(host, { game: "chess", fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    legal, messages: cfg.messages, orientation: "white" });
  board.setPosition(board.fen, { legal, last: ["d7", "d5"] });
  board.click("e2");
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const light = rgb(getComputedStyle(host.querySelector(".cell.light")).backgroundColor);
  const dark = rgb(getComputedStyle(host.querySelector(".cell.dark")).backgroundColor);
  const cell = (sq) => host.querySelector(`button[data-square="${sq}"]`);
  const dot = getComputedStyle(cell("e4"), "::after");
  const ring = getComputedStyle(cell("d5")).boxShadow;
  return {
    dests: [...host.querySelectorAll("button.dest")].map((b) => b.dataset.square).sort(),
    dot: [ratio(rgb(dot.backgroundColor), light), ratio(rgb(dot.backgroundColor), dark)],
    dotAlpha: (dot.backgroundColor.match(/[\\d.]+/g) || []).length === 4 ? Number(dot.backgroundColor.match(/[\\d.]+/g)[3]) : 1,
    ring: [ratio(rgb(ring), light), ratio(rgb(ring), dark)],
    ringWidth: parseFloat(ring.match(/(\\d+(?:\\.\\d+)?)px\\s*$/)?.[1] || ring.match(/ (\\d+)px/g)?.pop() || "0"),
  };
}
"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_markers_stand_out_on_both_square_colours(contexts, server, viewport):
    page = contexts.new_page(viewport=viewport)
    page.goto("/en/fumbo/")
    found = page.evaluate(server.with_assets(MARKERS))
    assert found["dests"] == ["e3", "e4"]
    assert found["dotAlpha"] == 1 and min(found["dot"]) >= 3, found
    assert min(found["ring"]) >= 3, found


def test_controls_are_big_enough_to_tap(contexts, server):
    page = contexts.new_page(viewport=PHONE)
    for path in ("/sw/mchezo/", "/tl/fumbo/", "/en/sheria/english/"):
        page.goto(path)
        small = page.evaluate(
            """() => [...document.querySelectorAll("header a, .langs a, button, select, .button, input:not([type=checkbox])")]
                 .filter((n) => n.offsetParent !== null && !n.closest(".grid"))
                 .map((n) => { const r = n.getBoundingClientRect(); return [n.outerHTML.slice(0, 60), r.width, r.height]; })
                 .filter(([, w, h]) => w < 44 || h < 44)"""
        )
        assert small == [], (path, small)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    page.goto("/sw/mchezo/")
    box = page.locator("#opponent-choice").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


# A chess board at the start, on its own at the top of the page's main, in a host of the given class; the move
# it plays goes to window.played.
MOUNT = """
async ([hostClass, legal, fen]) => {
  const { Board } = await import("/static/board.js");
  const cfg = JSON.parse(document.getElementById("ubao-config").textContent);
  const host = document.createElement("div");
  host.className = `board-host ${hostClass}`;
  document.querySelector("main").prepend(host);
  window.played = null;
  new Board(host, { game: "chess", fen, legal, messages: cfg.messages, orientation: "white",
    onMove: (move) => (window.played = move.san) });
}
"""
E2_E4 = {"from": "e2", "to": "e4", "path": ["e4"], "san": "e4"}


def mount_chess_board(page, server, host_class: str, legal: list[dict]) -> None:
    page.evaluate(server.with_assets(MOUNT), [host_class, legal, START["chess"]])


def test_the_board_is_played_from_the_keyboard(contexts, server):
    page = contexts.new_page(viewport=PHONE)
    page.goto("/en/fumbo/")
    messages = page_config(page)["messages"]
    mount_chess_board(page, server, "keyboard", [E2_E4])
    grid = page.locator(".keyboard .grid")
    assert grid.get_attribute("role") == "grid"
    page.locator('.keyboard button[data-square="a8"]').focus()  # the square that takes Tab first
    for key in ["ArrowDown"] * 6 + ["ArrowRight"] * 4:  # a8 -> a2 -> e2
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.dataset.square") == "e2"
    page.keyboard.press("Enter")
    label = page.locator('.keyboard button[data-square="e4"]')
    assert messages["legal_here"] in label.get_attribute("aria-label") and "pawn" in messages["piece_P"]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    assert page.evaluate("window.played") == "e4"


def test_a_piece_can_be_dragged(contexts, server):
    page = contexts.new_page(viewport=PHONE)
    page.goto("/sw/fumbo/")
    mount_chess_board(page, server, "dragging-probe", [E2_E4, {"from": "e2", "to": "e3", "path": ["e3"], "san": "e3"}])
    start = page.locator('.dragging-probe button[data-square="e2"]').bounding_box()
    end = page.locator('.dragging-probe button[data-square="e4"]').bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    assert "dest" in page.locator('.dragging-probe button[data-square="e4"]').get_attribute("class")
    page.mouse.up()
    assert page.evaluate("window.played") == "e4"
