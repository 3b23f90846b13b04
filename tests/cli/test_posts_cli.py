"""`voevoda order` as a forum player meets it (issue 17 «Posts in»): the echo says what was
read, what was not read as orders, what a second post replaces, and what the rules still
expect; nothing a player writes is ever read as terminal markup."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from typer.testing import CliRunner

import voevoda.cli as cli_package
from voevoda.cli import app

runner = CliRunner()
CLI_SOURCES = Path(cli_package.__file__).parent


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input)
    return result.exit_code, result.output


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return str(tmp_path / "posts.db")


def new_rop(db: str) -> None:
    code, out = run("new", "ring-of-power", "--game", "r", "--players", "Анна,Борис", "--seed", "cli", "--db", db)
    assert code == 0, out


FORUM_POST = """Всем привет [red]всем[/red] :smile: [nope]
[b]ход 0303 -> 0403[/b]
[quote="Борис"]вражда Анна[/quote]
[B]вражда[/B] Борис [/B]
--
Анна
"""


NOT_AN_ORDER = ("не прочитано как приказы (строка не начинается как приказ) / "
                "not read as orders (the line does not begin like an order):")
NOT_BOLD = ("не прочитано как приказы (не выделено жирным, а учитывается только жирное) / "
            "not read as orders (not in bold, and only bold text counts):")


def test_each_line_not_read_says_why(db: str) -> None:
    """Issue 17: every line is read as an order or echoed as not read, with its reason. In New
    Worlds (000 «II. Механика, 3»: «Указывайте бонус и действия жирным, иначе они не
    учитываются») an order written without bold is not read because it is not in bold, and the
    player must see that; a greeting because it does not begin like an order. The errors of a
    refused post say the same."""
    code, out = run("new", "new-worlds", "--game", "nw", "--players", "Анна,Борис", "--seed", "cli", "--db", db)
    assert code == 0, out
    post = "Всем привет!\n[b]религия дуализм[/b]\nзанять E7\n"
    code, out = run("order", "nw", "--player", "Анна", "-", "--check", "--db", db, input=post)
    assert code == 0, out
    assert NOT_AN_ORDER + "\n  1: Всем привет!" in out
    assert NOT_BOLD + "\n  3: занять E7" in out
    code, out = run("order", "nw", "--player", "Анна", "-", "--check", "--db", db,
                    input=post.replace("религия дуализм", "горд F8"))
    assert code == 1, out
    assert NOT_AN_ORDER + "\n  1: Всем привет!" in out
    assert NOT_BOLD + "\n  3: занять E7" in out


def test_echo_lists_orders_prose_and_quotes_verbatim(db: str) -> None:
    """Issue 17: lines that do not begin like an order are «echoed under "not read as
    orders"», quotes are set aside; and «Nothing a player writes is interpreted as terminal
    markup: [/B] in a post crashes the CLI today, and tags vanish from error messages»."""
    new_rop(db)
    code, out = run("order", "r", "--player", "Анна", "-", "--db", db, input=FORUM_POST)
    assert code == 0, out
    assert "принято 2 приказа / 2 orders accepted" in out
    assert "ход 0303 → 0403" in out and "вражда: Борис" in out
    assert NOT_AN_ORDER in out
    assert "1: Всем привет [red]всем[/red] :smile: [nope]" in out  # as written: no markup, no emoji
    assert "5: --" in out and "6: Анна" in out
    assert "quotes and spoilers set aside: строка / line 3" in out


def test_refused_post_keeps_brackets_in_its_errors(db: str) -> None:
    """«tags vanish from error messages»: an error quoting the player's text shows it whole."""
    new_rop(db)
    code, out = run("order", "r", "--player", "Анна", "-", "--db", db,
                    input="Привет [i]всем[/i]\nперевод 10 [Кощей]\n")
    assert code == 1
    assert "нет получателя «[Кощей]»" in out and "no recipient '[Кощей]'" in out
    assert NOT_AN_ORDER + "\n  1: Привет всем" in out


def test_second_post_replaces_the_first_and_says_so(db: str) -> None:
    """Issue 17: «A second post in a step replaces the first: say so in the echo ("replaces your
    post of HH:MM, N orders") and show the whole standing set»."""
    new_rop(db)
    assert run("order", "r", "--player", "Анна", "-", "--db", db, input="ход 0303 0304\nвражда Борис\n")[0] == 0
    code, out = run("order", "r", "--player", "Анна", "-", "--check", "--db", db, input="роспуск 0303\n")
    assert code == 0 and "заменит ваш пост от" in out and "(2 приказа)" in out and "would replace" in out
    code, out = run("order", "r", "--player", "Анна", "-", "--db", db, input="роспуск 0303\n")
    assert code == 0, out
    assert "заменяет ваш пост от" in out and "UTC (2 приказа) / replaces your post of" in out
    assert "(2 orders)" in out and "роспуск отрядов в 0303" in out and "ход 0303" not in out


def test_a_tax_still_owed_is_a_warning(db: str) -> None:
    """003 «Необходимо платить налоги»: «Warn (not refuse) when something the rules expect is
    missing, such as a tax still owed»."""
    new_rop(db)
    run("order", "r", "--player", "Анна", "-", "--db", db, input="вражда Борис\n")
    run("order", "r", "--player", "Борис", "-", "--db", db, input="мир Анна\n")
    assert run("resolve", "r", "--db", db)[0] == 0
    code, out = run("order", "r", "--player", "Анна", "-", "--db", db, input="ход 0303 0304\n")
    assert code == 0, out
    assert "предупреждения / warnings:" in out and "налог к уплате" in out and "tax due" in out


def test_names_with_brackets_never_break_a_command(db: str) -> None:
    """Issue 16: «Names of games and players holding brackets crash `games` and `status` for the
    whole database»."""
    code, out = run("new", "toy-guess", "--game", "g[/b]", "--players", "[red]Анна[/red],Бо[/B],:smile:",
                    "--seed", "x", "--db", db)
    assert code == 0, out
    assert "g[/b]" in out and "[red]Анна[/red]" in out and "Бо[/B]" in out and ":smile:" in out
    code, out = run("games", "--db", db)
    assert code == 0 and "g[/b]" in out
    code, out = run("status", "g[/b]", "--as", "gm", "--db", db)
    assert code == 0 and "[red]Анна[/red]" in out and ":smile:" in out
    code, out = run("order", "g[/b]", "--player", "Бо[/B]", "-", "--db", db, input="число [/b]7\n")
    assert code == 1 and "число [/b]7" in out


def _string_constants(tree: ast.AST) -> list[str]:
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]


@pytest.mark.parametrize("path", sorted(CLI_SOURCES.glob("*.py")), ids=lambda p: p.name)
def test_command_modules_hold_no_rich_markup(path: Path) -> None:
    """The command line's consoles never read markup (voevoda.cli.common): a string with Rich
    markup in it would print its tags, and a print with markup switched back on would read
    what players wrote. Colour goes in as a style."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for text in _string_constants(tree):
        for tag in ("[red]", "[green]", "[bold]", "[/red]", "[/green]", "[/bold]", "[dim]", "[yellow]"):
            assert tag not in text, f"{path.name}: Rich markup {tag} in {text!r}"
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "markup":
            assert isinstance(node.value, ast.Constant) and node.value.value is False, \
                f"{path.name}:{node.value.lineno}: markup switched on"
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Console":
            assert path.name == "common.py", f"{path.name}: a console of its own; use voevoda.cli.common's"
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Typer":
            mode = [k for k in node.keywords if k.arg == "rich_markup_mode"]
            assert mode and isinstance(mode[0].value, ast.Constant) and mode[0].value.value is None, \
                f"{path.name}:{node.lineno}: a Typer app must not read help texts as Rich markup"


def test_the_consoles_read_no_markup_or_emoji() -> None:
    from voevoda.cli import common

    for console in (common.console, common.errors):
        assert not console._markup and not console._emoji


def test_a_post_over_64_kb_is_refused_before_it_is_read_whole(db: str, tmp_path: Path) -> None:
    """Issue 16: «Posts: a size limit (say 64 KB) with a clear error; a 1 MB post is accepted
    today and makes every later command on that game take 17 s»."""
    new_rop(db)
    big = tmp_path / "log.txt"
    big.write_text("ход 0303 0304\n" * 80_000, encoding="utf-8")  # about 1 MB
    code, out = run("order", "r", "--player", "Анна", str(big), "--db", db)
    assert code == 1 and "пост длиннее 64 КБ" in out and "longer than 64 KB" in out
    code, out = run("order", "r", "--player", "Анна", "-", "--db", db, input="вражда Борис\n" * 6000)
    assert code == 1 and "longer than 64 KB" in out
    code, out = run("status", "r", "--as", "gm", "--db", db)
    assert "… Анна" in out  # nothing was stored


def test_a_post_with_a_bad_line_keeps_its_good_ones(db: str) -> None:
    """Issue 30 item 1: `order` stores the good lines of a post with a bad one (exit 0), says at
    the top «принято N приказов, не принято M» and lists the refused line with its reason; a
    follow-up («P.S.») adds to it and the echo lists the whole set (item 3)."""
    new_rop(db)
    post = "Привет!\n[b]ход 0303 -> 0304[/b]\n[b]прыгать 0404[/b]\nвражда Борис\n"
    code, out = run("order", "r", "--player", "Анна", "-", "--db", db, input=post)
    assert code == 0, out
    assert out.startswith("принято 2 приказа, не принято 1 / 2 orders accepted, 1 refused, шаг / step 1\n"), out
    assert "не принято / refused:\n  строка 3:4, «прыгать 0404»" in out and "✓ Анна" in out
    code, out = run("order", "r", "--player", "Анна", "-", "--db", db, input="P.S. налог 1\n")
    assert code == 0, out
    assert "дополняет ваш пост от" in out and "(2 приказа) / adds to your post" in out
    assert "  2: ход 0303 → 0304" in out and "  + 1: налог: 1 монету в казну" in out, out


def test_the_step_status_prints_is_the_step_a_post_goes_to(db: str) -> None:
    """Issue 30 item 4: «`status` prints «шаг N» meaning steps already resolved, while `order`
    posts for step N+1 and `--step N` is then refused as «already resolved». Print the step that
    is open (the one a post goes to), and let `--step` take that number»."""
    new_rop(db)
    code, out = run("status", "r", "--db", db)
    assert code == 0 and "шаг / step 1\n" in out, out
    assert run("order", "r", "--player", "Анна", "--step", "1", "-", "--check", "--db", db, input="вражда Борис\n")[0] == 0
    assert run("order", "r", "--player", "Анна", "--step", "1", "-", "--db", db, input="вражда Борис\n")[0] == 0
    assert run("resolve", "r", "--force", "--step", "1", "--db", db)[0] == 0
    code, out = run("status", "r", "--as", "Анна", "--db", db)
    assert code == 0 and "шаг / step 2\n" in out, out
    code, out = run("order", "r", "--player", "Анна", "--step", "2", "-", "--db", db, input="вражда Борис\n")
    assert code == 0 and "шаг / step 2" in out, out
    code, out = run("order", "r", "--player", "Анна", "--step", "1", "-", "--check", "--db", db, input="вражда Борис\n")
    assert code == 1 and "step 1 has already been resolved" in out, out
    code, out = run("show", "r", "--as", "Анна", "--db", db)
    assert code == 0 and "шаг / step 2 — глазами" in out.split("\n")[0], out
