"""Rules as data (src/voevoda/core/rulesdata.py): a data file is parsed once a process (issue 26,
«Measured»: the deadline worker configures a ruleset for each game it loads), yet each caller
gets its own copy and a file changed since is read again."""

from __future__ import annotations

import os
from pathlib import Path

from voevoda.core.rulesdata import read_toml


def test_a_copy_each_time_and_a_changed_file_read_again(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text("[army]\nsize = 3\n", encoding="utf-8")
    first = read_toml(path)
    first["army"]["size"] = 99
    assert read_toml(path) == {"army": {"size": 3}}
    path.write_text("[army]\nsize = 40\n", encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert read_toml(path) == {"army": {"size": 40}}
