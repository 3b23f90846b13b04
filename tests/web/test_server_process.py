"""docs/web.md, «Reading fast»: a server process sets aside from the garbage collector what it
loaded to serve and scans its oldest generation ten times less often; the app a test builds
(``create_app``) leaves the collector alone."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from voevoda.web import app as web_app


@pytest.fixture()
def collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_the_server_process_settles_the_collector(collector: None, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    gc.unfreeze()
    monkeypatch.setenv("VOEVODA_DATABASE_URL", f"sqlite:///{tmp_path / 'served.db'}")
    web_app.create_app(web_app.WebSettings(db=f"sqlite:///{tmp_path / 'test.db'}"))
    assert gc.get_freeze_count() == 0 and gc.get_threshold()[2] != web_app.OLDEST_GENERATION_PATIENCE
    web_app.from_environment()  # what `voevoda serve` runs in each worker
    assert gc.get_freeze_count() > 10_000  # the modules, rules and templates loaded to serve
    young, middle, oldest = gc.get_threshold()
    assert oldest == web_app.OLDEST_GENERATION_PATIENCE == 100
    garbage: list[object] = []
    garbage.append(garbage)  # a cycle made after the start is still collected
    del garbage
    assert gc.collect() >= 1
