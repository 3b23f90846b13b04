"""Rules as data: TOML files validated by Pydantic, overridden by house rules.

A ruleset keeps its numbers (unit stats, prices, tables) in TOML files beside its
code. :func:`load` reads one, deep-merges the game master's overrides over it and
validates the result, so a wrong house rule is refused with the file and field named.
"""

from __future__ import annotations

import copy
import threading
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from voevoda.core.bounds import plain_problem
from voevoda.core.errors import DataError

ModelT = TypeVar("ModelT", bound=BaseModel)
MAX_FILE_CHARS = 10_000_000


def empty_list() -> list[Any]:
    """A ``default_factory`` for a field whose default is an empty list. Pydantic reads the
    signature of every factory when it builds a model, and ``inspect.signature(list)`` takes
    0.4 ms (a plain function's, a hundredth of that): with thirty list fields that was a
    tenth of the time `voevoda status` takes."""
    return []


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """``override`` laid over ``base``: tables merge key by key, any other value replaces.
    The override is first held to the bounds of :func:`plain_problem` (house rules come from a
    person: a table nested two thousand deep is refused, not recursed into)."""
    problem = plain_problem(dict(override))
    if problem:
        raise DataError(f"house rules: {problem}")
    return _merge(base, override)


def _merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = copy.deepcopy(dict(base))
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(result.get(key), Mapping):
            result[key] = _merge(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


_PARSED: dict[Path, tuple[tuple[int, int], dict[str, Any]]] = {}
"""The data files read so far, with the (modification time, size) they were read at: every
game loaded configures its ruleset, and parsing the same TOML again was a tenth of what
loading a game cost the deadline worker (benchmarks/RESULTS.md)."""
_PARSED_LOCK = threading.Lock()


def read_toml(path: Path) -> dict[str, Any]:
    """The file parsed (a fresh copy each time: a caller may change what it is given); a file
    changed since it was last read is read again."""
    try:
        status = path.stat()
        stamp = (status.st_mtime_ns, status.st_size)
        with _PARSED_LOCK:
            held = _PARSED.get(path)
        if held is None or held[0] != stamp:
            with path.open("rb") as handle:
                held = (stamp, tomllib.load(handle))
            with _PARSED_LOCK:
                _PARSED[path] = held
        return copy.deepcopy(held[1])
    except FileNotFoundError as exc:
        raise DataError(f"{path}: no such file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: {exc}") from exc


def validate(model: type[ModelT], raw: Mapping[str, Any], source: str) -> ModelT:
    """Validate ``raw`` as ``model``; a failure names ``source`` and each bad field. Every
    value is first held to the bounds of :func:`voevoda.core.bounds.plain_problem` (nesting,
    size, numbers of at most 10^9), whatever the model says."""
    problem = plain_problem(raw)
    if problem:
        raise DataError(f"{source}: {problem}")
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
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start})") from exc
    return read_house_rules_text(text, str(path), path.name)


def read_house_rules_text(text: str, source: str, filename: str = "") -> dict[str, Any]:
    """House rules (or game options) given as text: TOML, JSON or YAML, chosen by ``filename``'s
    suffix; text without a file name (a web form's field) is JSON when it opens with «{», else
    TOML, else YAML — and a text that is none of them is refused with the TOML reader's words,
    which name the line. ``source`` names it in errors."""
    import json

    import yaml

    if len(text) > MAX_FILE_CHARS:
        raise DataError(f"{source}: longer than {MAX_FILE_CHARS:,} characters")
    suffix = Path(filename).suffix.lower() if filename else ""
    try:
        if suffix == ".toml":
            data: Any = tomllib.loads(text)
        elif suffix == ".json" or (not suffix and text.lstrip().startswith("{")):
            data = json.loads(text)
        elif suffix in (".yaml", ".yml") or suffix:
            data = yaml.safe_load(text)
        else:
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as toml_error:
                try:
                    data = yaml.safe_load(text)
                except yaml.YAMLError:
                    raise toml_error from None
                if not isinstance(data, dict):
                    raise toml_error from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, yaml.YAMLError) as exc:
        raise DataError(f"{source}: {exc}") from exc
    except RecursionError as exc:
        raise DataError(f"{source}: nested too deeply") from exc
    except ValueError as exc:  # a number of more than 4300 digits
        raise DataError(f"{source}: {exc}") from exc
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise DataError(f"{source}: expected a table of overrides at the top level")
    problem = plain_problem(data)
    if problem:
        raise DataError(f"{source}: {problem}")
    return data
