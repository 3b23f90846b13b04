"""Where Numba keeps the compiled simulator, chosen before Numba is imported.

Numba caches a ``cache=True`` kernel in ``__pycache__`` beside its source, else in the user's
cache directory (``~/.cache/numba``). When the package is installed where nobody may write
(a system site-packages, a read-only container image) and the user's cache is not writable
either (no home, a read-only home), Numba finds no place at all and the import of the kernel
fails. So, unless ``NUMBA_CACHE_DIR`` is set already: beside the source when that is writable
(Numba's own choice), else ``$XDG_CACHE_HOME/voevoda/numba`` (``~/.cache/voevoda/numba``; the
platform's cache folder on macOS and Windows), else a folder of the system's temporary
directory. The compile (one to two minutes) then happens once per user, not on every run.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

ENV = "NUMBA_CACHE_DIR"


def writable(folder: Path) -> bool:
    """Whether files can be created in ``folder`` (made if missing), tried as Numba tries it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def user_cache_dir() -> Path:
    """The platform's per-user cache folder."""
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def choose(source: Path) -> Path | None:
    """The folder to give Numba, or ``None`` when the in-tree ``__pycache__`` of ``source`` (the
    simulator's package folder) is writable and Numba's default serves."""
    if writable(source / "__pycache__"):
        return None
    candidates: list[Path] = []
    with contextlib.suppress(RuntimeError):  # no home directory at all
        candidates.append(user_cache_dir() / "voevoda" / "numba")
    uid = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
    candidates.append(Path(tempfile.gettempdir()) / f"voevoda-numba-{uid}")
    for folder in candidates:
        if writable(folder):
            return folder
    return None


def configure() -> str | None:
    """Set ``NUMBA_CACHE_DIR`` when the simulator's folder is not writable; the folder chosen,
    or ``None`` when it was set already or Numba's default serves."""
    if os.environ.get(ENV):
        return None
    folder = choose(Path(__file__).parent)
    if folder is None:
        return None
    os.environ[ENV] = str(folder)
    if "numba" in sys.modules:  # imported already by someone else: make it read the variable again
        from numba.core import config

        config.reload_config()  # type: ignore[no-untyped-call]
    return str(folder)
