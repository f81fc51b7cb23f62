"""What `make install` keeps ahead (judge/kept.py) is used only where it is exactly what the work would give.

A kept value stands in for work done again at every start (a map's TOML parsed, judge/board/loader.py): it must
be found only by the very text it was made from, and a file that does not fit this Python must be left unread
rather than trusted.
"""

from __future__ import annotations

import marshal
import tomllib
from pathlib import Path
from typing import Any

from judge import kept
from judge.board.loader import keep_shipped_maps, load_map_file, maps_dir, parse_map_text


def _same(first: Any, second: Any) -> bool:
    """Equal, and of the same types all the way down (True == 1 in Python; a kept map must not turn one into
    the other)."""
    if type(first) is not type(second):
        return False
    if isinstance(first, dict):
        return list(first) == list(second) and all(_same(first[k], second[k]) for k in first)
    if isinstance(first, list):
        return len(first) == len(second) and all(_same(a, b) for a, b in zip(first, second, strict=True))
    return bool(first == second)


def test_every_shipped_map_is_kept_as_tomllib_parses_it(tmp_path: Path) -> None:
    path = str(tmp_path / "maps.bin")
    count = keep_shipped_maps(path)
    shipped = sorted(maps_dir().glob("*.toml"))
    assert count == len(shipped) > 0
    values = kept.load(path)
    for file in shipped:
        text = file.read_text(encoding="utf-8")
        assert _same(marshal.loads(values[text]), tomllib.loads(text)), file.name


def test_a_map_changed_since_is_parsed_afresh(tmp_path: Path) -> None:
    """A map file edited after `make install` finds nothing kept under its new text and is read as written."""
    standard = (maps_dir() / "standard.toml").read_text(encoding="utf-8")
    changed = standard.replace('name = "Standard Diplomacy"', 'name = "Standard Diplomacy, edited"', 1)
    assert changed != standard
    assert parse_map_text(changed)["map"]["name"] == tomllib.loads(changed)["map"]["name"]
    edited = tmp_path / "standard.toml"
    edited.write_text(changed, encoding="utf-8")
    assert load_map_file(edited).name == tomllib.loads(changed)["map"]["name"]


def test_a_kept_value_is_a_fresh_copy_each_time() -> None:
    """The loader merges and amends what it parses: two reads of one text must not share a dict."""
    standard = (maps_dir() / "standard.toml").read_text(encoding="utf-8")
    first, second = parse_map_text(standard), parse_map_text(standard)
    assert first == second
    assert first is not second and first["map"] is not second["map"]


def test_a_file_of_another_python_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "kept.bin"
    kept.write(str(path), {"x = 1": [1, 2]})
    assert kept.load(str(path)) != {}
    _header, values = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps(("3.10.0 cpython-310 -O0", values)))
    assert kept.load(str(path)) == {}


def test_a_missing_or_broken_file_keeps_nothing(tmp_path: Path) -> None:
    assert kept.load(str(tmp_path / "absent.bin")) == {}
    broken = tmp_path / "broken.bin"
    broken.write_bytes(b"\x00not marshal at all")
    assert kept.load(str(broken)) == {}
    assert kept.load(None) == {}
