"""The simulator's compiled cache when the package is installed where nobody may write (issue 17
«The command line»: «the simulator's compiled cache also works when the package is installed
into a read-only location»). Nothing is compiled here: what matters is where Numba is told to
keep the compile, and that importing the kernel does not fail."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import voevoda
from voevoda.sim import numba_cache

SRC = Path(voevoda.__file__).resolve().parents[1]


def unwritable(folder: Path) -> Path:
    """A path where no folder can be made, even by root: below a plain file."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("a file, not a folder")
    return folder / "below"


def test_the_tree_is_used_when_writable(tmp_path: Path) -> None:
    assert numba_cache.choose(tmp_path) is None


def test_a_read_only_tree_falls_back_to_the_user_cache_then_to_temp(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "site-packages" / "voevoda" / "sim"
    source.mkdir(parents=True)
    (source / "__pycache__").write_text("not a folder: the tree is read-only")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert numba_cache.choose(source) == tmp_path / "cache" / "voevoda" / "numba"
    monkeypatch.setenv("XDG_CACHE_HOME", str(unwritable(tmp_path / "cache-file")))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    chosen = numba_cache.choose(source)
    assert chosen is not None and chosen.parent == tmp_path / "tmp" and chosen.name.startswith("voevoda-numba-")


def _read_only_install(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the package whose simulator folder cannot be written, and an environment with no
    writable home cache."""
    site = tmp_path / "site"
    shutil.copytree(SRC / "voevoda", site / "voevoda", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (site / "voevoda" / "sim" / "__pycache__").write_text("read-only install")
    home = unwritable(tmp_path / "home-file")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(PYTHONPATH=str(site), HOME=str(home), TMPDIR=str(tmp_path / "tmp"), PYTHONDONTWRITEBYTECODE="1")
    (tmp_path / "tmp").mkdir()
    return site, env


def test_numba_alone_cannot_cache_in_such_an_install(tmp_path: Path) -> None:
    """Why the fallback exists: with neither the tree nor the home cache writable, a
    ``cache=True`` function cannot even be defined."""
    site, env = _read_only_install(tmp_path)
    module = site / "lonely"
    module.mkdir()
    (module / "__pycache__").write_text("read-only")
    (module / "__init__.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x\n")
    done = subprocess.run([sys.executable, "-c", "import lonely"], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode != 0 and "cannot cache" in done.stderr


def test_the_simulator_imports_and_knows_its_cache_in_a_read_only_install(tmp_path: Path) -> None:
    site, env = _read_only_install(tmp_path)
    script = textwrap.dedent("""
        import os
        from voevoda.sim import batch
        print(os.environ["NUMBA_CACHE_DIR"])
        print(batch.needs_compiling())
    """)
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    folder, needs = done.stdout.split()
    assert Path(folder).parent == tmp_path / "tmp" and needs == "True"
