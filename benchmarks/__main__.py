"""Run every benchmark script of this folder in turn: ``python -m benchmarks [NAME ...]``."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(selected: list[str]) -> None:
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda i: i.name):
        if info.name.startswith("_") or (selected and info.name not in selected):
            continue
        module = importlib.import_module(f"benchmarks.{info.name}")
        run = getattr(module, "main", None)
        if callable(run):
            print(f"== {info.name}", flush=True)
            sys.argv = [str(here / f"{info.name}.py")]  # each benchmark runs with its default options
            run()


if __name__ == "__main__":
    main(sys.argv[1:])
