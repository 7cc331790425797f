"""`make messages` on unchanged strings changes no catalog: the template keeps its creation date unless a message
changed (site/pot_date.py)."""

from __future__ import annotations

from pot_date import keep_date, main

HEADER = 'msgid ""\nmsgstr ""\n"Project-Id-Version: ubao VERSION\\n"\n"POT-Creation-Date: {date}\\n"\n'
MESSAGE = '\nmsgid "{text}"\nmsgstr ""\n'


def template(date: str, *texts: str) -> str:
    return HEADER.format(date=date) + "".join(MESSAGE.format(text=text) for text in texts)


def test_only_the_date_changed_keeps_the_old_date():
    before, after = template("2026-12-01 10:00+0000", "Play"), template("2026-12-06 14:57+0000", "Play")
    assert keep_date(before, after) == before


def test_a_changed_message_takes_the_new_date():
    before, after = template("2026-12-01 10:00+0000", "Play"), template("2026-12-06 14:57+0000", "Play", "Watch")
    assert keep_date(before, after) == after


def test_the_file_is_rewritten_in_place(tmp_path):
    (tmp_path / "before.pot").write_text(template("2026-12-01 10:00+0000", "Play"), "utf-8")
    (tmp_path / "messages.pot").write_text(template("2026-12-06 14:57+0000", "Play"), "utf-8")
    main(str(tmp_path / "before.pot"), str(tmp_path / "messages.pot"))
    assert "2026-12-01 10:00" in (tmp_path / "messages.pot").read_text("utf-8")
    main(str(tmp_path / "missing.pot"), str(tmp_path / "messages.pot"))  # no copy before: left as extracted
    assert "2026-12-01 10:00" in (tmp_path / "messages.pot").read_text("utf-8")
