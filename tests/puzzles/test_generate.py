"""``make puzzles`` is reproducible: the same seed gives the same puzzles, whatever the number of
worker processes, and a small count gives the start of the committed set."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from puzzles import generate

ROOT = Path(__file__).resolve().parents[2]


def committed(game: str, count: int) -> list[dict]:
    with (ROOT / "puzzles" / f"{game}.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for _, line in zip(range(count), lines)]


def test_same_seed_same_puzzles_and_the_committed_set_starts_with_them(tmp_path):
    """The command (two processes) writes what one process makes, and the committed set starts with both:
    one puzzle in process and two by the command (a verified puzzle costs tens of CPU-seconds)."""
    in_process = generate.generate("english", 1)
    assert generate.main(["--games", "english", "--count", "2", "--jobs", "2", "--out", str(tmp_path)]) == 0
    written = [json.loads(line) for line in (tmp_path / "english.jsonl").read_text().splitlines()]
    assert len(written) == 2 and written[:1] == in_process
    assert not (tmp_path / "english.jsonl.partial").exists()
    if "difficulty" not in committed("english", 1)[0]:
        pytest.skip("english.jsonl was made by an older generator: run `make puzzles` (see puzzles/README.md)")
    assert written == committed("english", 2)


def test_another_seed_gives_other_puzzles():
    unverified = generate.Settings(seed=generate.COMMITTED.seed + 1, verify=False)  # the sources are the point
    other = generate.generate("english", 2, unverified)
    assert [p["fen"] for p in other] != [p["fen"] for p in committed("english", 2)]
    assert all("seed 2025" in p["source"] for p in other)


def test_a_top_up_keeps_the_set_and_goes_on_from_the_sources_after_it():
    kept = committed("english", 4)
    numbers = generate.next_sources(kept)
    assert set(numbers) <= {"game", "ending"} and numbers
    unverified = generate.Settings(verify=False)
    outcomes: list = []
    topped = generate.generate("english", 6, unverified, existing=kept, outcomes=outcomes)
    assert topped[:4] == kept and len(topped) == 6 and not outcomes  # nothing verified: none asked for
    for puzzle in topped[4:]:
        ((kind, number),) = generate.next_sources([puzzle]).items()
        assert number > numbers.get(kind, 0), puzzle["source"]  # a source after the set's last one


def test_fitted_knots_spread_the_ratings_and_keep_the_order():
    rng = random.Random(7)
    difficulties = [round(rng.lognormvariate(7, 0.5)) for _ in range(900)]  # bunched, with a long tail
    knots = generate.fit_knots(difficulties)
    ratings = [generate.rating_of("english", value, knots) for value in difficulties]
    bands = Counter(generate.band_of(rating) for rating in ratings)
    assert set(bands) == set(range(600, 2400, 200))
    assert max(bands.values()) <= len(ratings) / 5
    in_order = [rating for _, rating in sorted(zip(difficulties, ratings))]
    assert in_order == sorted(in_order) and min(ratings) == 600 and max(ratings) == 2400


def test_fitted_knots_keep_every_band_within_its_share_when_difficulties_tie():
    # 1,500 puzzles, with a group of 20 equal difficulties across three of the even edges: a knot on one puts
    # the whole group in the band above, so a fit by the ninths alone gives that band 179 (11.9%). (Groups at
    # the first, fourth and seventh edges cannot all be kept whole within 172: the bands between would stretch.)
    rng = random.Random(11)
    difficulties = sorted(rng.sample(range(100, 100_000), 1500))
    for ninth in (2, 5, 8):
        edge = round(1500 * ninth / 9)
        difficulties[edge - 12 : edge + 8] = [difficulties[edge - 12]] * 20
    knots = generate.fit_knots(difficulties)
    ratings = [generate.rating_of("tanzanian", value, knots) for value in difficulties]
    bands = Counter(generate.band_of(rating) for rating in ratings)
    assert set(bands) == set(range(600, 2400, 200))
    assert max(bands.values()) <= generate.COMMITTED.band_share * len(ratings)
    assert ratings == sorted(ratings) and min(ratings) == 600 and max(ratings) == 2400


def test_a_full_rating_band_refuses_more_puzzles_as_a_full_motif_does():
    spread = generate.Spread(generate.COMMITTED)
    holding = {600: 12, 1000: 10} | {band: 11 for band in (800, *range(1200, 2400, 200))}
    for band, count in holding.items():
        for _ in range(count):
            spread.add({"rating": band + 50, "themes": ["material"]})
    spread.add({"rating": 2250, "themes": ["material"]})  # 100 puzzles: past the first ones' slack
    # One more in a band makes it hold its count + 1 of 101: over 11.5% from 12 on.
    assert not spread.admits({"rating": 700, "themes": ["material"]})  # 13 of 101
    assert not spread.admits({"rating": 999, "themes": ["material"]})  # band 800: 12 of 101
    assert spread.admits({"rating": 1000, "themes": ["material"]})  # band 1000: 11 of 101


def test_a_relaxed_band_share_admits_what_the_committed_one_refuses():
    committed, relaxed = generate.Spread(generate.COMMITTED), generate.Spread(replace(generate.COMMITTED, band_share=1))
    for spread in (committed, relaxed):
        for index in range(101):  # past the first puzzles' slack: 20 in the 600 band, the rest over seven others
            spread.add(
                {"rating": 700, "themes": ["material"]}
                if index < 20
                else {"rating": 1000 + index % 7 * 200, "themes": ["material"]}
            )
    assert not committed.admits({"rating": 700, "themes": ["material"]})
    assert relaxed.admits({"rating": 700, "themes": ["material"]})


@pytest.mark.parametrize("share", ["0", "-0.1", "1.5"])
def test_a_band_share_outside_0_to_1_is_refused_before_anything_runs(share, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        generate.main(["--games", "tanzanian", "--band-share", share, "--out", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "--band-share must be above 0 and at most 1" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
