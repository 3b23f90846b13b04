"""Issue 27, «Hidden information»: the bot builds every message about a game through a channel of
`voevoda.core.outputs` for the chat's own viewer (a service sight, or the service's echo): no module
of `voevoda.chat` reads a view, a report, a map or an export itself, and none chooses a viewer."""

from __future__ import annotations

import ast
from pathlib import Path

import voevoda.chat

FORBIDDEN = {"view", "report", "report_document", "map_svg", "map_png", "export", "awaiting", "events_for",
             "chronicle", "dashboard", "status_text", "echo_data", "render", "render_messages", "to_png"}
"""What produces a viewer's output: only `voevoda.core.outputs` calls these for the bot."""


def _allowed(node: ast.Call) -> bool:
    receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
    return isinstance(receiver, ast.Name) and receiver.id in ("outputs", "sight")


def scan(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                node.func.id if isinstance(node.func, ast.Name) else ""
            if name in FORBIDDEN and not _allowed(node):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.keyword) and node.arg == "viewer":
            found.append(f"{node.value.lineno}: viewer={ast.unparse(node.value)}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "sight" \
                and len(node.args) > 2:
            found.append(f"{node.lineno}: a sight through chosen eyes: {ast.unparse(node)}")
    return found


def test_the_bot_builds_its_messages_only_through_the_outputs_module() -> None:
    found = []
    for path in sorted(Path(voevoda.chat.__file__).parent.rglob("*.py")):
        found.extend(f"{path.name}:{line}" for line in scan(path.read_text(encoding="utf-8")))
    assert not found, "the bot producing output around voevoda.core.outputs:\n" + "\n".join(found)


def test_the_scan_catches_a_bot_that_reads_a_report_or_picks_its_viewer() -> None:
    planted = ("async def report(game, sight, service, actor):\n"
               "    a = game.report('Анна')\n"
               "    b = service.sight(actor, 'g', 'Борис')\n"
               "    c = sight.chat_report(1, 'ru')\n")
    assert [line.split(":")[0] for line in scan(planted)] == ["2", "3"]
