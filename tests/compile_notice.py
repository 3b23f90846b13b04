"""A shared check for the notice the tools print before a Numba kernel's first compilation."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest


def check_compile_notice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, module: ModuleType, attribute: str,
                         kernel: str, needs_compiling: Callable[[], bool], announce: Callable[[], None],
                         wording: str) -> None:
    """``module.attribute`` is replaced by a stand-in holding ``kernel``, a ``cache=True`` Numba
    function neither compiled in this process nor in the cache: ``needs_compiling`` must say so and
    ``announce`` must print ``wording`` on stderr in both languages; once the cache index exists,
    or once the function is compiled in the process, ``needs_compiling`` must say no."""
    from voevoda.cli import battle as battle_cli

    index = tmp_path / f"{kernel}-1.py311.nbi"
    dispatcher = SimpleNamespace(signatures=[],
                                 _cache=SimpleNamespace(_cache_file=SimpleNamespace(_index_path=str(index))))
    monkeypatch.setattr(module, attribute, SimpleNamespace(**{kernel.rsplit(".", 1)[1]: dispatcher}))
    assert needs_compiling()
    said: list[str] = []
    monkeypatch.setattr(battle_cli.errors, "print", lambda text, **_: said.append(text))
    announce()
    assert said and wording in said[0] and "компилируется" in said[0]
    index.write_bytes(b"")
    assert not needs_compiling()
    dispatcher.signatures = ["(int64[:],)"]
    index.unlink()
    assert not needs_compiling()  # compiled in this process already
