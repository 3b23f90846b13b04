"""What every command shares: the console, ``--db``, reading posts, and turning errors
into a clear two-language message with exit status 1."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer

from voevoda.core.errors import DataError, GameError, OrdersRejected

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


class LazyConsole:
    """A Rich console made on first use: importing Rich costs more than `voevoda --version` may
    take, and most commands print only plain text. Everything is forwarded to the console;
    ``real`` is the console itself (for Rich objects that want one, such as a progress bar)."""

    def __init__(self, **options: Any) -> None:
        self._options = {"highlight": False, "soft_wrap": True, "markup": False, "emoji": False, **options}
        self._console: Console | None = None

    @property
    def real(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(**self._options)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def real(target: Any) -> Console:
    """The Rich console behind ``target`` (a :class:`LazyConsole` or a console)."""
    return target.real if isinstance(target, LazyConsole) else target


console: Any = LazyConsole()
errors: Any = LazyConsole(stderr=True)
"""The command line's two consoles. Neither reads Rich markup or emoji codes: names of games and
players, posts and error messages hold what players wrote (``[/B]``, ``[color=red]``, ``:smile:``),
and it is printed exactly as written. Colour, where wanted, goes in as a style
(``errors.print(text, style="red")`` or :func:`red`), never as markup in a string; every
command module prints through these two (tests/cli/test_posts_cli.py)."""


def red(label: str, rest: str = "") -> Text:
    """``label`` in red, then ``rest`` as it is."""
    from rich.text import Text

    return Text.assemble((label, "red"), rest)


DbOption = Annotated[
    str | None,
    typer.Option("--db", help="database URL or SQLite path (default ./voevoda.db or $VOEVODA_DATABASE_URL)"),
]


def print_text(text: str) -> None:
    """Print an output of :mod:`voevoda.core.outputs` as it is: never read as markup, never
    wrapped."""
    sys.stdout.write(text + "\n")  # as it is: no Rich needed (nor imported) for plain text
    sys.stdout.flush()


def print_table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]], align: str = "",
                out: Console | None = None) -> None:
    """A table on standard output. On a terminal Rich draws it; written to a file or a pipe it is
    plain aligned columns that are never wrapped and whose cells are never cut (a report pasted
    into a forum or read by a program must hold every word)."""
    target = real(out or console)
    if target.is_terminal:
        from rich.table import Table as RichTable

        table = RichTable(title=title)
        for i, name in enumerate(header):
            table.add_column(name, justify="right" if i < len(align) and align[i] == "r" else "left",
                             no_wrap=True, overflow="fold")
        for row in rows:
            table.add_row(*row)
        target.print(table)
        return
    from voevoda.core.markup import Document, Table, render

    text = render(Document(None, [Table(list(header), [list(r) for r in rows], align)]), "text")
    target.file.write(f"{title}\n{text}")
    target.file.flush()


def plain_console(stderr: bool = False) -> Any:
    """A console for a command's output that never wraps and never reads markup or emoji codes
    from its text (made on first use, see :class:`LazyConsole`)."""
    return LazyConsole(stderr=stderr)


def fail(message: str) -> NoReturn:
    errors.print(red("ошибка / error:", " " + message))
    raise typer.Exit(1)


def read_text_argument(source: str) -> str:
    """A post from a file path, or ``-`` for standard input. Never more is read than a post may
    hold (docs/posts.md: 64 KB): a longer one is refused here with the same clear error the
    engine gives, before a pasted log or a wrong file is taken into memory."""
    from voevoda.core.posts import MAX_POST_BYTES, check_size, too_long

    try:
        if source == "-":
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a text stream without bytes (tests): read it as text
                text = sys.stdin.read(MAX_POST_BYTES + 1)
                check_size(text)
                return text
            data: bytes = stream.read(MAX_POST_BYTES + 1)
            name = "stdin"
        else:
            with Path(source).open("rb") as handle:
                data = handle.read(MAX_POST_BYTES + 1)
            name = source
    except OSError as exc:
        raise DataError(f"{source}: {exc.strerror}") from exc
    if len(data) > MAX_POST_BYTES:
        too_long()  # only the first bytes were read: the size is not known
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{name}: not UTF-8 text (byte {exc.start})") from exc


ResultT = TypeVar("ResultT")


@contextlib.contextmanager
def working(label: str | None) -> Iterator[None]:
    """While long work runs (a resolution, a replay, a check of a whole game): a spinner with
    ``label`` and the time spent, on standard error when it is a terminal; nothing otherwise, so
    that pipes and files get only the result."""
    target = real(errors) if label else None
    if label is None or target is None or not target.is_terminal:
        yield
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), TimeElapsedColumn(),
                  console=target, transient=True, redirect_stdout=False, redirect_stderr=False) as progress:
        progress.add_task(label, total=None)
        yield


def run_guarded(action: Callable[[], ResultT], then: Callable[[ResultT], Any] | None = None,
                busy: str | None = None) -> None:
    """Run a command body; known errors become a message and exit status 1.

    ``then`` prints what ``action`` did, after it has been committed: whatever goes wrong
    while printing (a closed pipe, text the terminal cannot show) is said on stderr and the
    command still succeeds, so that a stored post is never reported as refused."""
    from voevoda.core.outputs import error_text

    try:
        with working(busy):
            result = action()
    except (OrdersRejected, GameError, DataError) as exc:
        errors.print(error_text(exc), markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(1) from exc
    if then is None:
        return
    try:
        then(result)
    except Exception as exc:  # the change is committed: output must not turn it into a failure
        with contextlib.suppress(Exception):  # stderr itself may be gone; the exit status still says success
            errors.print(f"сохранено, но вывод не удался / stored, but the output failed: "
                         f"{type(exc).__name__}: {exc}", markup=False)
