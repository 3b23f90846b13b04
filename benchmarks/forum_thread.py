"""How fast a saved forum thread page is read (issue 26, «Measured»: «a thread page of 200 posts
read in under a second»).

For each engine the test page of ``tests/forum/pages/`` is grown to 200 posts: its posts with a
spoiler and a quote are copied in turns, each body lengthened to about twenty lines of orders
with bold words (a long post of orders), and 300 KB of script added to the page's head, as a page
saved with Ctrl+S carries. Measured: :func:`voevoda.forum.read_thread` on the page's bytes
(detecting the engine, parsing, finding every post's author, times and body, turning the HTML back
into BBCode), the best and the median of the runs; and once, the whole dry run of the service on
the phpBB page for a Ring of Power game of five seats (reading, and every seat's post checked by
the engine for its echo).

Run: ``PYTHONPATH=src python benchmarks/forum_thread.py [--runs N]`` or ``python -m benchmarks
forum_thread``.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import tempfile
import time
from datetime import UTC, date, datetime
from pathlib import Path

from lxml import html as lxml_html

from voevoda.forum import read_thread

PAGES = Path(__file__).resolve().parents[1] / "tests" / "forum" / "pages"
TARGET = 1.0
POSTS = 200
ENGINES = {  # page, the XPath of a post's container, of its body inside it
    "phpbb": ("phpbb.html", "//div[contains(@class,'post') and starts-with(@id,'p')]", ".//div[@class='content']"),
    "xenforo": ("xenforo.html", "//article[contains(@class,'message--post')]", ".//div[@class='bbWrapper']"),
    "vbulletin": ("vbulletin.html", "//li[contains(@class,'postcontainer')]", ".//blockquote[contains(@class,'postcontent')]"),
    "smf": ("smf.html", "//div[@class='windowbg']", ".//div[@class='inner']"),
    "invision": ("invision.html", "//article[starts-with(@id,'elComment_')]", ".//div[@data-role='commentContent']"),
}
ORDERS = ["ход 0303 -> 0403 -> 0404", "сбор 1 пешки в 0303", "налог 2", "поддержка 0404 из 0405",
          "вражда Борис", "перевод 5 Вере за мир"]


def grown_page(engine: str, posts: int = POSTS) -> bytes:
    """The engine's test page with ``posts`` long posts."""
    name, container_path, body_path = ENGINES[engine]
    root = lxml_html.document_fromstring((PAGES / name).read_text(encoding="utf-8"))
    found = root.xpath(container_path)
    models = found[1:3]  # the post with a spoiler and the one with a quote
    parent = found[0].getparent()
    for element in found:
        parent.remove(element)
    for number in range(posts):
        post = copy.deepcopy(models[number % len(models)])
        for element in post.iter():
            if isinstance(element.tag, str) and element.get("id"):
                element.set("id", f"{element.get('id')}x{number}")
        body = post.xpath(body_path)[0]
        for line in range(20):
            br = lxml_html.Element("br")
            br.tail = f"{ORDERS[line % len(ORDERS)]} " if line % 3 else ""
            body.append(br)
            if line % 3 == 0:
                bold = lxml_html.Element("b")
                bold.text = ORDERS[line % len(ORDERS)]
                body.append(bold)
        parent.append(post)
    script = lxml_html.Element("script")
    script.text = "var a=1;" * 40_000
    root.find("head").append(script)
    return lxml_html.tostring(root, encoding="utf-8", doctype="<!DOCTYPE html>")


def measure(runs: int) -> None:
    print(f"read_thread, {POSTS} posts a page (target: under {TARGET:.0f} s)")
    print(f"{'engine':<10} {'page':>8} {'posts':>6} {'best':>8} {'median':>8}")
    for engine in ENGINES:
        page = grown_page(engine)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            thread = read_thread(page, timezone="Europe/Moscow", today=date(2026, 12, 7))
            times.append(time.perf_counter() - start)
        assert len(thread.posts) == POSTS and not thread.problems, (engine, len(thread.posts), thread.problems[:2])
        mark = "" if max(times) < TARGET else "  (over the target)"
        print(f"{engine:<10} {len(page) / 1024:>6.0f}KB {len(thread.posts):>6} {min(times):>7.3f}s "
              f"{statistics.median(times):>7.3f}s{mark}")


def dry_run() -> None:
    from voevoda.service import OPERATOR, Service

    page = grown_page("phpbb")
    with tempfile.TemporaryDirectory() as folder:
        service = Service(f"sqlite:///{folder}/bench.db", clock=lambda: datetime(2026, 12, 7, 10, tzinfo=UTC))
        service.create_game(OPERATOR, "ring-of-power", "bench", ["Анна", "Борис", "Вера", "Глеб", "Дана"],
                            seed="bench", timezone="Europe/Moscow")
        service.set_forum_names(OPERATOR, "bench", {"Anna_K": "Анна"})
        start = time.perf_counter()
        reading = service.read_thread_page(OPERATOR, "bench", page)
        took = time.perf_counter() - start
    print(f"the service's dry run of the phpBB page ({reading.posts_read} posts, 5 seats, each latest post "
          f"checked): {took:.3f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    measure(args.runs)
    dry_run()


if __name__ == "__main__":
    main()
