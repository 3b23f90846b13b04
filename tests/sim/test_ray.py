"""The Ray backend of ``voevoda balance`` (issue 5: «the tests start a local Ray cluster to
prove it»). Ray is an optional extra (``pip install 'voevoda[ray]'``)."""

from __future__ import annotations

import importlib.util

import pytest

from voevoda.rulesets.steel_rose.rules import Rules
from voevoda.sim import balance as bal

HAVE_RAY = importlib.util.find_spec("ray") is not None


@pytest.mark.skipif(not HAVE_RAY, reason="Ray is not installed (pip install 'voevoda[ray]'): "
                                         "the Ray backend cannot be tested here")
def test_ray_sweep_equals_the_local_sweep(rules: Rules) -> None:
    """A sweep run as Ray tasks on a local cluster gives exactly the local matrix."""
    import ray

    sweep = bal.prepare(rules, 800, 400, "ray", ["empire", "void_cult"])
    local = bal.run_local(sweep)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = bal.run_ray(sweep, min_task_seconds=0.05)
    finally:
        ray.shutdown()
    assert remote == local


def test_missing_ray_is_a_clear_error(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without Ray the backend says what to install (in both languages) instead of a traceback."""
    import builtins

    real = builtins.__import__

    def no_ray(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    sweep = bal.prepare(rules, 800, 10, "ray", ["empire"])
    with pytest.raises(bal.DataError, match="voevoda\\[ray\\]"):
        bal.run_ray(sweep)
