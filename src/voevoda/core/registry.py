"""The one place where the engine finds games.

Every subpackage of :mod:`voevoda.rulesets` that exposes ``RULESET`` (a
:class:`~voevoda.core.ruleset.Ruleset` subclass), or ``RULESETS`` (several games sharing one
package and its data), or ``RULESET_MODULES`` (id → ``"module:Class"``, so that loading one of
several games of a package does not import the others), is found by scanning; a game shipped
in another distribution registers itself under the ``voevoda.rulesets`` entry-point
group. Adding a game touches no file of the core.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Mapping
from functools import cache
from typing import Any

from voevoda.core.errors import GameError
from voevoda.core.ruleset import Ruleset

ENTRY_POINT_GROUP = "voevoda.rulesets"


_MANUAL: dict[str, type[Ruleset]] = {}


def _load(target: str) -> type[Ruleset]:
    module, _, name = target.partition(":")
    cls: type[Ruleset] = getattr(importlib.import_module(module), name)
    return cls


def _classes(module: Any, wanted: str | None = None) -> list[type[Ruleset]]:
    """The games a ruleset package offers (only ``wanted`` when the package names its games'
    modules in ``RULESET_MODULES``, so that the other games are not imported)."""
    lazy: Mapping[str, str] | None = getattr(module, "RULESET_MODULES", None)
    if lazy is not None:
        if wanted is not None:
            return [_load(lazy[wanted])] if wanted in lazy else []
        return [_load(target) for target in lazy.values()]
    classes = list(getattr(module, "RULESETS", ()))
    single = getattr(module, "RULESET", None)
    if single is not None:
        classes.append(single)
    return classes


@cache
def _scanned() -> dict[str, type[Ruleset]]:
    import voevoda.rulesets as package

    found: dict[str, type[Ruleset]] = {}
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if not info.ispkg:
            continue
        for cls in _classes(importlib.import_module(info.name)):
            found[cls.id] = cls
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        cls = entry.load()
        found.setdefault(cls.id, cls)
    return found


def available() -> dict[str, type[Ruleset]]:
    """Ruleset id -> class, for every installed game (imports every ruleset package)."""
    return dict(sorted({**_scanned(), **_MANUAL}.items()))


def _guess(ruleset_id: str) -> type[Ruleset] | None:
    """The ruleset found without importing every game: the package named after the id
    (``ring-of-power`` → ``ring_of_power``), else after a shorter prefix of it
    (``steel-rose-battle`` → ``steel_rose``). Loading one game's status must not load the
    others (docs/posts.md, benchmarks/cli_startup.py)."""
    parts = ruleset_id.split("-")
    for k in range(len(parts), 0, -1):
        name = "voevoda.rulesets." + "_".join(parts[:k])
        if not name.replace(".", "").replace("_", "").isalnum():
            return None
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        for cls in _classes(importlib.import_module(name), ruleset_id):
            if cls.id == ruleset_id:
                return cls
    return None


def get(ruleset_id: str) -> type[Ruleset]:
    found = _MANUAL.get(ruleset_id) or _guess(ruleset_id)
    if found is not None:
        return found
    rulesets = available()
    if ruleset_id not in rulesets:
        known = ", ".join(rulesets) or "none"
        raise GameError(f"нет правил «{ruleset_id}» (есть: {known})",
                        f"no ruleset '{ruleset_id}' (installed: {known})")
    return rulesets[ruleset_id]


def configure(ruleset_id: str, config: Mapping[str, Any] | None = None,
              house_rules: Mapping[str, Any] | None = None) -> Ruleset:
    """A ruleset bound to a game's config and house rules."""
    return get(ruleset_id)(config, house_rules)


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Add a ruleset by hand (tests, notebooks); entry points are the way for packages."""
    _MANUAL[cls.id] = cls
    return cls
