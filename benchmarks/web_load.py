"""The web app under a bounded load (issue 25, «Performance»): 200 simulated players, each in a
browser of his own (a signed-in session), reading their views and reports and posting near a
deadline, against one `voevoda serve` process on a SQLite file, from this other process on
loopback.

    python -m benchmarks web_load            # or: python benchmarks/web_load.py --players 200 --seconds 30

Each player in turn reads his game's page, his overview, his report (the player's own, of the
last turn) and the public chronicle, checks a post with the live echo, and now and then stores it
(a post near the deadline replaces the one before). The report gives, per kind of request, the
count, requests a second, and the latency's median, p95 and p99, with the machine's load average,
against the targets of the issue: views and reports at least 300 requests a second with p99 under
100 ms; the live echo under 150 ms at p99; a post stored under 250 ms at p99.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
GAMES = 25
PER_GAME = 8
CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')


def prepare(url: str, players: int) -> list[tuple[str, str, str]]:
    """Games of Ring of Power with a turn played, a seat for every simulated player: (game, player,
    invitation token) for each."""
    sys.path.insert(0, str(ROOT / "src"))
    from voevoda.core.engine import Game
    from voevoda.service import OPERATOR, Service

    service = Service(url)
    gm, _ = service.init_gm("Ведущий")
    seats = []
    games = max(1, -(-players // PER_GAME))
    for g in range(games):
        names = [f"Игрок{g:02d}-{i}" for i in range(PER_GAME)]
        game = Game.create("ring-of-power", f"load{g:02d}", names, seed=f"load{g}")
        for name in names:
            game.post(name, game.bot_post(name))
        game.resolve()
        service.add_game(gm, game)
        service.change_settings(OPERATOR, game.record.name, public=True)
        for name in names:
            seats.append((game.record.name, name, service.invite(gm, game.record.name, name, names)))
            if len(seats) == players:
                return seats
    return seats


async def player(client: httpx.AsyncClient, game: str, name: str, token: str, until: float,
                 samples: dict[str, list[float]], post: str) -> None:
    page = await client.get(f"/join/{token}")
    csrf = CSRF.search(page.text).group(1)  # type: ignore[union-attr]
    joined = await client.post(f"/join/{token}", data={"csrf": csrf}, follow_redirects=True)
    csrf = CSRF.search(joined.text).group(1)  # type: ignore[union-attr]
    headers = {"X-CSRF-Token": csrf}
    k = 0
    while time.monotonic() < until:
        for kind, call in (
                ("view", lambda: client.get(f"/g/{game}")),
                ("view", lambda: client.get(f"/g/{game}/view")),
                ("report", lambda: client.get(f"/g/{game}/reports")),
                ("report", lambda: client.get(f"/g/{game}/chronicle")),
                ("echo", lambda: client.post(f"/g/{game}/orders/check", data={"player": name, "text": post},
                                             headers=headers)),
                ("post", lambda: client.post(f"/g/{game}/orders", data={"player": name, "text": post, "step": 2,
                                                                         "csrf": csrf}))):
            if kind == "post" and k % 3:
                continue
            started = time.monotonic()
            response = await call()
            spent = time.monotonic() - started
            if response.status_code >= 400 and not (kind == "post" and response.status_code == 422):
                samples.setdefault("errors", []).append(spent)
            samples.setdefault(kind, []).append(spent)
            if time.monotonic() >= until:
                return
        k += 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def load(address: str, seats: list[tuple[str, str, str]], seconds: float) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {}
    until = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=len(seats) + 10)
    clients = [httpx.AsyncClient(base_url=address, timeout=60, limits=limits) for _ in seats]
    try:
        await asyncio.gather(*(player(c, g, n, t, until, samples, "ход 0303 0202")
                               for c, (g, n, t) in zip(clients, seats, strict=True)))
    finally:
        for c in clients:
            await c.aclose()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="voevoda-load-"))
    url = f"sqlite:///{folder / 'load.db'}"
    seats = prepare(url, args.players)
    port = 8700 + os.getpid() % 200
    server = subprocess.Popen([sys.executable, "-c", "import sys; from voevoda.cli import main; main()",
                               "serve", "--db", url, "--port", str(port), "--no-rate-limits"],
                              cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    address = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(address + "/login", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        # a short warm-up: every game read into the server's memory once (public pages, no seat taken)
        for game in sorted({g for g, _, _ in seats}):
            httpx.get(f"{address}/g/{game}/chronicle", timeout=60)
        if os.environ.get("VOEVODA_PROFILE"):  # py-spy the server while it is loaded: where the time goes
            subprocess.Popen(["py-spy", "record", "-d", str(int(args.seconds)), "-o", os.environ["VOEVODA_PROFILE"],
                              "-f", "speedscope", "-p", str(server.pid)], stdout=subprocess.DEVNULL)
        started = time.monotonic()
        samples = asyncio.run(load(address, seats, args.seconds))
        spent = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=30)
    load_avg = os.getloadavg()
    print(f"{len(seats)} players, {args.seconds:.0f} s, load average {load_avg[0]:.2f} {load_avg[1]:.2f} "
          f"{load_avg[2]:.2f}, one server process, SQLite")
    targets = {"view": 0.100, "report": 0.100, "echo": 0.150, "post": 0.250}
    print(f"{'kind':8} {'count':>7} {'per s':>7} {'median':>8} {'p95':>8} {'p99':>8}  target")
    for kind in ("view", "report", "echo", "post", "errors"):
        values = samples.get(kind, [])
        if not values:
            continue
        p99 = percentile(values, 0.99)
        target = targets.get(kind)
        verdict = "" if target is None else f"p99 < {target * 1000:.0f} ms: {'met' if p99 < target else 'NOT met'}"
        print(f"{kind:8} {len(values):7d} {len(values) / spent:7.1f} {statistics.median(values) * 1000:7.1f}ms "
              f"{percentile(values, 0.95) * 1000:7.1f}ms {p99 * 1000:7.1f}ms  {verdict}")
    reads = len(samples.get("view", [])) + len(samples.get("report", []))
    print(f"views and reports: {reads / spent:.0f} requests a second (target: at least 300)")


if __name__ == "__main__":
    main()
