"""Issue 25, «Pages»: «a Steel Rose battle-odds calculator (the batched simulator, with progress
while it compiles)». The page streams its answer — the page at once, a line a second while the
simulator compiles or the battles run, then the table — so it shows progress without JavaScript;
the API answers the same odds as JSON."""

from __future__ import annotations

from tests.web.conftest import Site
from voevoda.service import ANONYMOUS
from voevoda.web.pages import ODDS_EXAMPLE

EXAMPLE = ODDS_EXAMPLE.read_text(encoding="utf-8")


def test_the_odds_page_answers_with_the_table(site: Site) -> None:
    browser = site.browser()
    form = browser.get("/odds")
    assert form.status_code == 200 and "[attacker]" in form.text
    answer = browser.post("/odds", {"battle": EXAMPLE, "n": 400})
    assert answer.status_code == 200
    assert 'id="odds-table"' in answer.text and "Алиса — Борис: 400" in answer.text
    assert answer.text.rstrip().endswith("</html>")
    same = site.service.odds(ANONYMOUS, EXAMPLE, n=400)
    rate = f"{100 * same['sides'][0]['win_rate']:.1f}"
    assert f'<td class="num">{rate}</td>' in answer.text


def test_a_bad_battle_file_is_refused_naming_the_line(site: Site) -> None:
    browser = site.browser()
    broken = EXAMPLE.replace("12 копейщиков", "12 копейшиков")
    answer = browser.post("/odds", {"battle": broken, "n": 10})
    assert 'id="odds-error"' in answer.text and "копейщиков" in answer.text and "строка" in answer.text
    bad_toml = browser.post("/odds", {"battle": "[attacker\\nname = 1", "n": 10})
    assert 'id="odds-error"' in bad_toml.text and "Traceback" not in bad_toml.text


def test_the_api_gives_the_odds(site: Site) -> None:
    browser = site.browser()
    browser.get("/login")
    answer = browser.client.post("/api/v1/odds", json={"battle": EXAMPLE, "n": 200},
                                 headers={"X-CSRF-Token": browser.csrf})
    assert answer.status_code == 200, answer.text
    sides = answer.json()["sides"]
    assert len(sides) == 2 and abs(sides[0]["win_rate"] + sides[1]["win_rate"] + answer.json()["draws"] / 200 - 1) < 1e-9


def test_the_page_shows_the_compile_as_it_goes(site: Site, monkeypatch: object) -> None:
    """While the simulator compiles (here: made to look so, and slow), the page says so and ticks
    the time spent each second; once battles come, that the compile is done."""
    import time

    import voevoda.sim.batch as batch

    monkeypatch.setattr(batch, "needs_compiling", lambda: True)  # type: ignore[attr-defined]
    real = site.service.odds

    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(2.5)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(site.service, "odds", slow)  # type: ignore[attr-defined]
    answer = site.browser().post("/odds", {"battle": EXAMPLE, "n": 100})
    text = answer.text
    assert 'id="odds-compiling"' in text and "прошло 0:0" in text
    assert text.index('id="odds-compiling"') < text.index("симулятор скомпилирован за") < text.index('id="odds-table"')
