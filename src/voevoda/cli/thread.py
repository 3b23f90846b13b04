"""``voevoda thread GAME page.html``: a forum thread's posts, pasted once (docs/forum.md).

Reads a saved thread page (phpBB, XenForo, vBulletin, SMF, Invision) or its RSS/Atom feed, shows
the dry run (each seat's latest post of the step and its echo, who did not post, names tied to no
seat) and, without ``--dry-run``, stores the posts that pass. ``--map "forum name=Seat"`` ties a
forum name to a seat for the game once and for all (``name=-``: not a seat's posts; ``name=``:
forget it); with ``--dry-run`` the ties are tried and not stored."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from voevoda.cli.common import DbOption, print_text, run_guarded

if TYPE_CHECKING:
    from datetime import datetime


def _moment(value: str | None, what: str) -> datetime | None:
    if value is None:
        return None
    from datetime import datetime

    from voevoda.core.errors import GameError

    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError as exc:
        raise GameError(f"{what}: «{value}» — не время; пример: 2026-12-06T18:00+03:00",
                        f"{what}: '{value}' is not a time; for example 2026-12-06T18:00+03:00") from exc
    if moment.tzinfo is None:
        raise GameError(f"{what}: укажите часовой пояс (2026-12-06T18:00+03:00)",
                        f"{what}: give the offset (2026-12-06T18:00+03:00)")
    return moment


def _page(path: Path) -> bytes:
    from voevoda.core.errors import DataError
    from voevoda.forum import MAX_PAGE_BYTES, ThreadError

    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_PAGE_BYTES + 1)
    except OSError as exc:
        raise DataError(f"{path}: {exc.strerror}") from exc
    if len(data) > MAX_PAGE_BYTES:
        raise ThreadError(f"{path}: страница больше {MAX_PAGE_BYTES // (1024 * 1024)} МБ",
                          f"{path}: the page is over {MAX_PAGE_BYTES // (1024 * 1024)} MB")
    return data


def thread(
    name: Annotated[str, typer.Argument(help="game name")],
    page: Annotated[Path, typer.Argument(help="the saved thread page (HTML) or its RSS/Atom feed")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="show what would be stored; store nothing")] = False,
    mapping: Annotated[list[str] | None, typer.Option(
        "--map", help='"forum name=Seat" (repeatable; "name=-": not a seat\'s posts, "name=": forget it)')] = None,
    timezone: Annotated[str | None, typer.Option(
        "--tz", help="the zone the page's times are shown in (default: the game's)")] = None,
    deadline: Annotated[str | None, typer.Option(
        "--deadline", help="posts after it are late, e.g. 2026-12-06T18:00+03:00")] = None,
    since: Annotated[str | None, typer.Option(
        "--since", help="count posts from then (default: when the step opened)")] = None,
    db: DbOption = None,
) -> None:
    """Read the posts of a forum thread page into the open step. / Приказы из темы форума."""

    def action() -> str:
        from voevoda.service import OPERATOR, Service
        from voevoda.service.forum import parse_mapping, stored_text

        service = Service(db)
        ties = parse_mapping(mapping or [])
        data = _page(page)
        reading = service.read_thread_page(OPERATOR, name, data, timezone=timezone,
                                           deadline=_moment(deadline, "--deadline"), since=_moment(since, "--since"),
                                           mapping=ties)
        if dry_run:
            return reading.text() + "\n\n(--dry-run: ничего не сохранено / nothing stored)"
        stored = service.store_thread(OPERATOR, name, reading.to_store(), step=reading.step, mapping=ties)
        return reading.text() + "\n\n" + stored_text(stored)

    run_guarded(action, print_text, busy="тема форума / the thread")


def register(app: typer.Typer) -> None:
    app.command(name="thread")(thread)
