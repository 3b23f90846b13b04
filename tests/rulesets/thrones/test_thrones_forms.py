"""The forms of the Thrones names kept as data (``rulesets/thrones/forms.py``) are the ones the
morphology gives: a post reads «в Винтерфелле», «из Рва Кейлин», «Ланнистеру» the same with or
without the kept table, and the table covers every name of the shipped rules and board. After a
change of the names or of ``orders.compute_forms``, ``python -m voevoda.rulesets.thrones.forms``
writes the file again."""

from __future__ import annotations

from voevoda.rulesets.thrones import forms
from voevoda.rulesets.thrones.orders import compute_forms


def test_the_kept_forms_are_the_morphologys() -> None:
    kept = forms.shipped()
    fresh = forms.table(compute_forms)
    stale = sorted(name for name in fresh if list(kept.get(name, ())) != fresh[name])
    assert not stale, (f"data/forms.json is out of date for {stale[:5]}: run "
                       "python -m voevoda.rulesets.thrones.forms")
    assert set(kept) == set(fresh), "data/forms.json holds names the rules no longer use"
    assert "Винтерфелле" in kept["Винтерфелл"] and "Рва Кейлин" in kept["Ров Кейлин"]
