"""Rules as data: TOML files validated by Pydantic, overridden by house rules.

A ruleset keeps its numbers (unit stats, prices, tables) in TOML files beside its
code. :func:`load` reads one, deep-merges the game master's overrides over it and
validates the result, so a wrong house rule is refused with the file and field named.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from voevoda.core.errors import DataError

ModelT = TypeVar("ModelT", bound=BaseModel)


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` laid over ``base``: tables merge key by key, any other value replaces."""
    result: dict[str, Any] = copy.deepcopy(dict(base))
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(result.get(key), Mapping):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as exc:
        raise DataError(f"{path}: no such file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: {exc}") from exc


def validate(model: type[ModelT], raw: Mapping[str, Any], source: str) -> ModelT:
    """Validate ``raw`` as ``model``; a failure names ``source`` and each bad field."""
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        details = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}" for err in exc.errors()
        )
        raise DataError(f"{source}: {details}") from exc


def load(model: type[ModelT], path: Path, overrides: Mapping[str, Any] | None = None,
         override_source: str = "house rules") -> ModelT:
    """Read ``path``, lay ``overrides`` over it and validate the whole."""
    raw = read_toml(path)
    source = str(path)
    if overrides:
        raw = deep_merge(raw, overrides)
        source = f"{path} + {override_source}"
    return validate(model, raw, source)


def read_house_rules(path: Path) -> dict[str, Any]:
    """A house-rules file: TOML, JSON or YAML, chosen by its suffix."""
    import json

    import yaml

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror}") from exc
    try:
        if path.suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif path.suffix == ".json":
            data = json.loads(text)
        else:
            data = yaml.safe_load(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, yaml.YAMLError) as exc:
        raise DataError(f"{path}: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise DataError(f"{path}: expected a table of overrides at the top level")
    return data
