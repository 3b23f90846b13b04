"""Issue 30, item 12: the batched simulator's first compile. Its time is benchmarked
(benchmarks/sim_compile.py, figures in benchmarks/RESULTS.md); what is checked here is what keeps
it short: every compiled function of the kernel is compiled for one signature (a constant
argument would make Numba compile a copy per literal value: ``_fight`` was compiled nine times;
three copies, one per kind of pairing, are kept on purpose),
the battle loop is not a ``parallel=True`` compile, the levels above the phases are inlined
into it and it is optimised at ``kernel.TOP_OPT``, and ``voevoda compile-simulator`` compiles
ahead of time, saying so."""

from __future__ import annotations

import ast
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from voevoda.cli import app
from voevoda.sim import batch, kernel

ROOT = Path(__file__).resolve().parents[2]

ARRAY_VIEWS = {"_rf", "_ri", "_ru"}
"""Raw views of arrays of several shapes: one small specialisation per shape, by design."""
LITERAL_ON_PURPOSE = {("_fight", 15)}
"""``_fight``'s kind of pairing: three copies, each without the other kinds' branches (kernel.I64)."""
SPECIALISATIONS = {"_fight": 3}


def _compiled_functions() -> dict[str, object]:
    from numba.core.registry import CPUDispatcher

    return {name: obj for name, obj in vars(kernel).items()
            if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == kernel.__name__}


def _is_constant(node: ast.expr) -> bool:
    """A literal (``2``, ``-1``, ``True``) or a module constant (``F_CHARGE``), which Numba types
    as a literal of its value."""
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, float)  # floats are never literal types
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return not isinstance(node.operand.value, float)
    return isinstance(node, ast.Name) and isinstance(getattr(kernel, node.id, None), int)


def test_no_call_between_compiled_functions_passes_a_constant() -> None:
    """Every argument of a call from one compiled function of the kernel to another that is not
    inlined goes through ``I64``, ``np.bool_`` or ``np.float64`` where it is a constant (but
    ``_fight``'s kind of pairing)."""
    functions = _compiled_functions()
    inlined = {name for name, d in functions.items() if getattr(d, "targetoptions", {}).get("inline") == "always"}
    tree = ast.parse(inspect.getsource(kernel))
    bad = []
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in functions):
        for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)):
            callee = call.func.id
            if callee in functions and callee not in inlined and callee not in ARRAY_VIEWS:
                bad += [f"{fn.name} -> {callee}(... {ast.unparse(a)} ...)" for i, a in enumerate(call.args)
                        if _is_constant(a) and (callee, i) not in LITERAL_ON_PURPOSE]
    assert not bad, "\n".join(bad)
    assert {"_fight", "_volley_shots", "_charge_fight", "_clash"} <= set(functions) - inlined


def _many_signatures() -> dict[str, int] | None:
    """The kernel's functions compiled more often than they should be, or ``None`` when this
    process loaded the kernel from Numba's cache (which records no callee signatures)."""
    batch.warm_up()
    functions = _compiled_functions()
    if not functions["_fight"].signatures:  # type: ignore[attr-defined]
        return None
    return {name: len(d.signatures) for name, d in functions.items()  # type: ignore[attr-defined]
            if len(d.signatures) > SPECIALISATIONS.get(name, 1) and name not in ARRAY_VIEWS}  # type: ignore[attr-defined]


def test_each_function_is_compiled_once_when_compiled_here(tmp_path: Path) -> None:
    """Each function has a single signature when the kernel is compiled (not loaded from Numba's
    cache): checked in this process when it compiled the kernel, else in a new process compiling
    into an empty cache."""
    many = _many_signatures()
    if many is None:
        child = ("import json, sys; sys.path[:0] = [{root!r}, {src!r}]; "
                 "from tests.sim.test_compile_time import _many_signatures; "
                 "print(json.dumps(_many_signatures()))").format(root=str(ROOT), src=str(ROOT / "src"))
        done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=900,
                              env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")})
        assert done.returncode == 0, done.stderr
        many = json.loads(done.stdout.strip().splitlines()[-1])
        assert many is not None, "a new process with an empty cache compiles the kernel"
    assert not many


def test_the_battle_loop_is_not_a_parallel_compile() -> None:
    """``parallel=True`` compiled the loop over chunks in about 45% of the whole first compile: the
    chunks run on Python threads over a ``nogil`` kernel instead."""
    options = kernel.simulate_chunks.targetoptions
    assert not options.get("parallel") and options.get("nogil")


INLINED_INTO_THE_LOOP = ("battle", "_planning")
"""Functions between the battle loop and the phases: each would be one more level at which LLVM
optimises and compiles again the code of every function below it."""


def test_the_levels_above_the_phases_are_inlined_into_the_battle_loop() -> None:
    """``battle`` and ``_planning`` are inlined into ``simulate_chunks`` (Numba's ``inline``, so
    they have no compiled code of their own), and the loop calls ``battle`` at one place only
    (each call site is a copy of it)."""
    functions = _compiled_functions()
    for name in INLINED_INTO_THE_LOOP:
        assert functions[name].targetoptions.get("inline") == "always", name  # type: ignore[attr-defined]
    tree = ast.parse(inspect.getsource(kernel.simulate_chunks.py_func))
    sites = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == "battle"]
    assert len(sites) == 1


def test_the_battle_loop_is_optimised_at_top_opt_and_its_callees_at_the_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The battle loop's module (which holds the code of the whole kernel, linked in) is optimised
    at ``kernel.TOP_OPT``, a function it calls at the level it had, and ``config.OPT`` is the old
    one again afterwards. Checked on two small functions compiled as the kernel's are."""
    import numba
    from numba.core import codegen, config

    assert kernel.TOP_OPT < 3
    assert kernel.simulate_chunks._compiler.pipeline_class is kernel.TopPipeline  # type: ignore[attr-defined]
    levels: dict[str, int] = {}
    optimise = codegen.CPUCodeLibrary._optimize_final_module

    def recording(library: codegen.CPUCodeLibrary) -> None:
        levels[library.name.rsplit(".", 1)[-1]] = int(config.OPT)
        optimise(library)

    monkeypatch.setattr(codegen.CPUCodeLibrary, "_optimize_final_module", recording)
    before = config.OPT

    @numba.njit
    def _callee_of_the_top(x: int) -> int:
        return x * 3 + 1

    @numba.njit(pipeline_class=kernel.TopPipeline)
    def _top_of_the_kernel(x: int) -> int:
        return _callee_of_the_top(x) + 2

    assert _top_of_the_kernel(2) == 9
    assert levels["_top_of_the_kernel"] == kernel.TOP_OPT
    assert levels["_callee_of_the_top"] == before
    assert config.OPT is before


def test_compile_simulator_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """``voevoda compile-simulator`` (``make run`` calls it) compiles the kernel with the notice and
    spinner of a first odds run, and says so when there is nothing to do."""
    from voevoda.cli import battle as battle_cli

    said: list[str] = []
    monkeypatch.setattr(battle_cli.errors, "print", lambda text, **_: said.append(str(text)))
    compiled: list[bool] = []
    monkeypatch.setattr(batch, "needs_compiling", lambda: not compiled)
    monkeypatch.setattr(batch, "warm_up", lambda: compiled.append(True))
    result = CliRunner().invoke(app, ["compile-simulator"])
    assert result.exit_code == 0, result.output
    assert compiled == [True]
    assert any("компилируется пакетный симулятор" in s for s in said)
    assert any("compiled in" in s for s in said)
    said.clear()
    result = CliRunner().invoke(app, ["compile-simulator"])
    assert result.exit_code == 0 and compiled == [True]
    assert any("compiled already" in s and "уже скомпилирован" in s for s in said)


def test_make_setup_compiles_the_simulator_and_make_run_goes_through_it() -> None:
    """``make setup`` (an install) ends with ``voevoda compile-simulator``, and ``make run`` depends
    on ``setup``: the first odds after either does not wait for the compile."""
    rules: dict[str, tuple[str, list[str]]] = {}
    target = ""
    for line in (ROOT / "Makefile").read_text().splitlines():
        if line and not line[0].isspace() and ":" in line and "=" not in line:
            target, deps = line.split(":", 1)
            rules[target] = (deps, [])
        elif line.startswith("\t") and target:
            rules[target][1].append(line.strip())
    assert any(step.endswith("voevoda compile-simulator") for step in rules["setup"][1])
    assert "setup" in rules["run"][0].split()
