"""Round four's pages on a 360x740 phone, in Swahili and Tagalog, with a player who has games: nothing wider than
the phone; every link, button and field that stands alone (not a link inside a sentence) at least 44 px tall;
every button's words readable on it (a white "Send by WhatsApp" on white was not); the check boxes whole."""

from __future__ import annotations

import json

import pytest

from tests.browser.harness import http
from tests.browser.test_historia import a_game

PHONE = {"width": 360, "height": 740}
PAGES = ("historia", "mchezaji", "tazama", "vinara", "mashindano", "jamii", "msaada", "masharti", "faragha")
#: And the pages whose links issue 45 moved or added: home, a rules page, a lesson (its hints and answers).
ALSO = ("", "sheria/chess/", "jifunze/english/")

MEASURE = """() => {
  const found = {wide: [], small: [], unreadable: [], boxes: []};
  for (const node of document.querySelectorAll("body *")) {
    const box = node.getBoundingClientRect();
    if (box.width && box.right > innerWidth + 1) found.wide.push(node.tagName + "." + node.className);
  }
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary";
  for (const node of document.querySelectorAll(controls)) {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    if (!box.width || !box.height || style.visibility === "hidden" || node.classList.contains("skip")) continue;
    const name = `${node.tagName} "${(node.textContent || node.value || "").trim().slice(0, 30)}"`;
    if (node.matches("input[type=checkbox]")) found.boxes.push([box.width, box.height]);
    const label = node.closest("label");
    const height = Math.max(box.height, label ? label.getBoundingClientRect().height : 0);
    const inSentence = node.tagName === "A" && style.display === "inline" && node.closest("p, dd");
    if (height < 44 && !inSentence) found.small.push(`${name} ${Math.round(box.width)}x${Math.round(box.height)}`);
    const background = style.backgroundColor;
    if (node.textContent.trim() && background !== "rgba(0, 0, 0, 0)" && background === style.color) {
      found.unreadable.push(name);
    }
  }
  return found;
}"""


@pytest.fixture(scope="module")
def players(server):
    asha = http(server.origin, "POST", "/v1/players", {"name": "Asha"})
    baraka = http(server.origin, "POST", "/v1/players", {"name": "Baraka Mwinyi"})
    a_game(server.origin, asha, baraka, ["e4", "e5"], baraka)
    a_game(server.origin, asha, baraka, ["d4"], None)
    return asha, baraka


@pytest.mark.slow  # twelve pages a language, each to its network's rest: about half a minute
@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_round_four_pages_fit_a_phone(contexts, needs_dynamodb, players, lang):
    asha, baraka = players
    page = contexts.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    kept = {"player_id": asha["player_id"], "token": asha["token"]}
    page.add_init_script(f"localStorage.setItem('ubao.player', {json.dumps(json.dumps(kept))})")
    for name in (*PAGES, *ALSO):
        path = f"/{lang}/{name}" + ("/" if name in PAGES else "")
        page.goto(path + (f"?id={baraka['player_id']}" if name == "mchezaji" else ""), wait_until="networkidle")
        found = page.evaluate(MEASURE)
        assert found["wide"] == [], f"{path}: wider than the phone: {found['wide']}"
        assert found["small"] == [], f"{path}: under 44 px to tap: {found['small']}"
        assert found["unreadable"] == [], f"{path}: words the colour of their button: {found['unreadable']}"
        assert all(box == [24, 24] for box in found["boxes"]), f"{path}: check boxes {found['boxes']}"
    assert contexts.problems == []
