from __future__ import annotations

from pathlib import Path

import pytest

from voevoda.rulesets.steel_rose.rules import Rules, load_rules

SCENARIOS = Path(__file__).parent / "scenarios"


@pytest.fixture(scope="session")
def rules() -> Rules:
    return load_rules()
