from __future__ import annotations

import pytest

from tests.core.toy import Twenty
from voevoda.core import registry


@pytest.fixture(autouse=True, scope="session")
def _toy_rulesets() -> None:
    registry.register(Twenty)
