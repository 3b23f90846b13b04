"""The web app under a bounded load (issue 25, «Performance»): 200 simulated players, each in a
browser of his own (a signed-in session), reading their views and reports and posting near a
deadline, against one `voevoda serve` process on a SQLite file, from this other process on
loopback.

    python -m benchmarks web_load            # or: python benchmarks/web_load.py --players 200 --seconds 30

Each player, at random moments (Poisson arrivals, :data:`RATES`), reads his game's page or his
overview, his report (the player's own, of the last turn) or the public chronicle, checks his post
with the live echo, or stores it (a post near the deadline replaces the one before): 320 views and
reports, 60 echoes and 20 posts a second offered by 200 players. The arrivals are open: each
player's moments are drawn ahead, whatever the server answers, and a request's latency counts from
its moment — a request that had to wait for the player's answer before (one connection a player)
counts that wait too, so a slow server cannot hide its queue by slowing the load. The report
gives, per kind of request, the count, the rate served, and the latency's median, p95 and p99,
with the machine's load average, against the targets of the issue: views and reports at least 300
requests a second with p99 under 100 ms; the live echo under 150 ms at p99; a post stored under
250 ms at p99.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx  # only to wait for the server

ROOT = Path(__file__).resolve().parents[1]
GAMES = 25
PER_GAME = 8
CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')


def prepare(url: str, players: int) -> list[tuple[str, str, str, str]]:
    """Games of Ring of Power with a turn played and a deadline, a seat for every simulated player: (game, player,
    invitation token, a post for the open step — the computer opponent's) for each."""
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
        # a deadline two days on, in the players' time zone, and no early resolution: every page
        # shows the deadline card, and every post wakes the server's deadline worker
        service.set_schedule(OPERATOR, game.record.name, period="2d", timezone="Europe/Moscow", early=False)
        for name in names:
            seats.append((game.record.name, name, service.invite(gm, game.record.name, name, names),
                          game.bot_post(name)))
            if len(seats) == players:
                return seats
    return seats


class Raw:
    """A keep-alive HTTP/1.1 connection spoken by hand: the load generator runs on the same two
    cores as the server, and a full client library costs several times the server's own work
    per request."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
                      ) -> tuple[int, str]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept-Language: ru"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        for key, value in (headers or {}).items():
            lines.append(f"{key}: {value}")
        if body:
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + body
        try:
            self.writer.write(message)
            await self.writer.drain()
            status_line = await self.reader.readline()
        except ConnectionError:
            status_line = b""
        if not status_line:  # the server closed the idle connection (its keep-alive timeout): as a browser does, again
            self.writer.close()
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            self.writer.write(message)
            await self.writer.drain()
            status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = (await self.reader.readline()).decode("latin-1").rstrip("\r\n")
            if not line:
                break
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "set-cookie":
                cookie = value.strip().split(";")[0]
                key, _, val = cookie.partition("=")
                self.cookies[key] = val.strip('"')
        data = await self.reader.readexactly(length)
        return status, data.decode("utf-8", "replace")

    def quote(self, text: str) -> str:
        from urllib.parse import quote

        return quote(text, safe="/")


def form(fields: dict[str, object]) -> bytes:
    from urllib.parse import urlencode

    return urlencode({k: str(v) for k, v in fields.items()}).encode("ascii")


RATES = {"view": 0.8, "report": 0.8, "echo": 0.3, "post": 0.1}
"""Requests a second one player sends, on average (Poisson arrivals): with 200 players, 320 views
and reports, 60 live echoes and 20 posts a second — somewhat more reads than the 300 a second the
target asks to be served."""


async def player(client: Raw, game: str, name: str, token: str, post: str, until: float, duration: float,
                 samples: dict[str, list[float]], rng: random.Random) -> None:
    _, page = await client.request("GET", f"/join/{token}")
    csrf = CSRF.search(page).group(1)  # type: ignore[union-attr]
    await client.request("POST", f"/join/{token}", form({"csrf": csrf}))
    g = client.quote(game)
    _, orders = await client.request("GET", f"/g/{g}/orders")
    csrf = CSRF.search(orders).group(1)  # type: ignore[union-attr]
    calls = {
        "view": lambda: client.request("GET", f"/g/{g}" if rng.random() < 0.5 else f"/g/{g}/view"),
        "report": lambda: client.request("GET", f"/g/{g}/reports" if rng.random() < 0.5 else f"/g/{g}/chronicle"),
        "echo": lambda: client.request("POST", f"/g/{g}/orders/check", form({"player": name, "text": post}),
                                       {"X-CSRF-Token": csrf}),
        "post": lambda: client.request("POST", f"/g/{g}/orders",
                                       form({"player": name, "text": post, "step": 2, "csrf": csrf})),
    }
    kinds = list(RATES)
    total = sum(RATES.values())
    moment = max(time.monotonic(), until - duration)
    while True:
        moment += rng.expovariate(total)  # open arrivals: the next moment does not wait for the answer
        if moment >= until:
            return
        await asyncio.sleep(max(0.0, moment - time.monotonic()))
        kind = rng.choices(kinds, weights=[RATES[k] for k in kinds])[0]
        status, _ = await calls[kind]()
        spent = time.monotonic() - moment  # from the moment the player meant to send it
        if status >= 400:
            samples.setdefault("errors", []).append(spent)
        samples.setdefault(kind, []).append(spent)
        if TIMELINE is not None:
            TIMELINE.append((moment, kind, spent))


TIMELINE: list[tuple[float, str, float]] | None = [] if os.environ.get("VOEVODA_TIMELINE") else None
"""With ``VOEVODA_TIMELINE=FILE``: every request's moment, kind and latency, written to FILE (where
in the run the slow ones fall: a worker's pass, a collection, a burst of posts)."""


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def load(address: str, seats: list[tuple[str, str, str, str]], seconds: float,
               server_pid: int) -> tuple[dict[str, list[float]], float, float, float]:
    """The players' load for ``seconds`` after every player has taken his seat; the samples, the
    time they were taken over, and the CPU seconds the server and this process used meanwhile."""
    samples: dict[str, list[float]] = {}
    host, _, port = address.removeprefix("http://").partition(":")
    clients = [Raw(host, int(port)) for _ in seats]
    started = time.monotonic() + 5.0  # the seats taken first (a write each), then the clock runs
    until = started + seconds
    tasks = [player(c, g, n, t, post, until, seconds, samples, random.Random(i))
             for i, (c, (g, n, t, post)) in enumerate(zip(clients, seats, strict=True))]

    async def cpu_meanwhile() -> tuple[float, float]:
        await asyncio.sleep(max(0.0, started - time.monotonic()))
        server, own = cpu_seconds(server_pid), time.process_time()
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        return cpu_seconds(server_pid) - server, time.process_time() - own

    results: list[Any] = await asyncio.gather(*tasks, cpu_meanwhile())
    server_cpu, own_cpu = results[-1]
    for c in clients:
        if c.writer is not None:
            c.writer.close()
    return samples, until - started, server_cpu, own_cpu


YARDSTICK = """from fastapi import FastAPI
from fastapi.responses import HTMLResponse

app = FastAPI()
PAGE = "<!doctype html><p>" + "x" * 5500 + "</p>"


@app.get("/g/{game}", response_class=HTMLResponse)
async def page(game: str) -> HTMLResponse:
    return HTMLResponse(PAGE)
"""
"""The yardstick: a bare FastAPI page of a game page's size on the same uvicorn, no database."""


def serve_and_load(src: Path, seats: list[tuple[str, str, str, str]], url: str, seconds: float,
                   ) -> tuple[dict[str, list[float]], float, float, float]:
    """One `voevoda serve` process from the source folder ``src`` on the database ``url``, loaded
    by the players of ``seats``."""
    port = 8700 + (os.getpid() + len(str(src))) % 200
    server = subprocess.Popen([sys.executable, "-c", "import sys; from voevoda.cli import main; main()",
                               "serve", "--db", url, "--port", str(port), "--no-rate-limits",
                               *os.environ.get("VOEVODA_SERVE_EXTRA", "").split()],
                              cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(src)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    address = f"http://127.0.0.1:{port}"
    try:
        wait_for(address + "/login")
        # a short warm-up: every game read into the server's memory once (public pages, no seat taken)
        for game in sorted({seat[0] for seat in seats}):
            httpx.get(f"{address}/g/{game}/chronicle", timeout=60)
        if os.environ.get("VOEVODA_PROFILE"):  # py-spy the server while it is loaded: where its CPU goes
            # (--gil: only the thread that holds the interpreter, not threads waiting for a lock)
            subprocess.Popen([str(Path(sys.executable).with_name("py-spy")), "record", "-d", str(int(seconds)),
                              "-o", os.environ["VOEVODA_PROFILE"],
                              "-f", "raw" if os.environ["VOEVODA_PROFILE"].endswith(".txt") else "speedscope",
                              "--nonblocking", "--gil", "-p", str(server.pid)], stdout=subprocess.DEVNULL)
        found = asyncio.run(load(address, seats, seconds, server.pid))
        if TIMELINE is not None:
            start = min((t for t, _, _ in TIMELINE), default=0.0)
            Path(os.environ["VOEVODA_TIMELINE"]).write_text(
                "".join(f"{t - start:.4f} {kind} {spent * 1000:.1f}\n" for t, kind, spent in sorted(TIMELINE)))
            TIMELINE.clear()
        return found
    finally:
        server.terminate()
        server.wait(timeout=30)


def wait_for(address: str) -> None:
    for _ in range(300):
        try:
            if httpx.get(address, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)


def yardstick(players: int, seconds: float) -> tuple[list[float], float, float]:
    """The bare page under the same arrivals (all of them reads): latencies, the server's CPU
    seconds, the time."""
    folder = Path(tempfile.mkdtemp(prefix="voevoda-yardstick-"))
    (folder / "yardstick_app.py").write_text(YARDSTICK)
    port = 8900 + os.getpid() % 99
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "yardstick_app:app", "--port", str(port),
                               "--log-level", "warning"], cwd=str(folder))
    rate = sum(RATES.values())

    async def run() -> tuple[list[float], float]:
        clients = [Raw("127.0.0.1", port) for _ in range(players)]
        until = time.monotonic() + seconds
        latencies: list[float] = []

        async def reader(client: Raw, rng: random.Random) -> None:
            moment = time.monotonic()
            while True:
                moment += rng.expovariate(rate)
                if moment >= until:
                    return
                await asyncio.sleep(max(0.0, moment - time.monotonic()))
                await client.request("GET", "/g/x")
                latencies.append(time.monotonic() - moment)

        before = cpu_seconds(server.pid)
        await asyncio.gather(*(reader(c, random.Random(i)) for i, c in enumerate(clients)))
        return latencies, cpu_seconds(server.pid) - before

    try:
        wait_for(f"http://127.0.0.1:{port}/g/x")
        latencies, cpu = asyncio.run(run())
    finally:
        server.terminate()
        server.wait(timeout=30)
    return latencies, cpu, seconds


def report(label: str, players: int, seconds: float, samples: dict[str, list[float]], spent: float,
           server_cpu: float, own_cpu: float) -> None:
    load_avg = os.getloadavg()
    print(f"{label}: {players} players, {seconds:.0f} s, load average {load_avg[0]:.2f} {load_avg[1]:.2f} "
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
    requests = sum(len(samples.get(kind, [])) for kind in ("view", "report", "echo", "post"))
    print(f"CPU while the players played: the server {server_cpu:.1f} s ({server_cpu / requests * 1000:.2f} ms "
          f"a request), the load generator {own_cpu:.1f} s, over {spent:.0f} s")
    reads = len(samples.get("view", [])) + len(samples.get("report", []))
    print(f"views and reports: {reads / spent:.0f} requests a second (target: at least 300)\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--baseline", metavar="REV", help="also load a server of this git revision, first")
    parser.add_argument("--yardstick", action="store_true",
                        help="also load a bare FastAPI page of the same size (no database): what uvicorn costs")
    args = parser.parse_args()
    trees: list[tuple[str, Path]] = []
    worktree = None
    if args.baseline:
        worktree = Path(tempfile.mkdtemp(prefix="voevoda-baseline-")) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(worktree), args.baseline], cwd=ROOT, check=True,
                       capture_output=True)
        trees.append((f"baseline {args.baseline}", worktree / "src"))
    trees.append(("this tree", ROOT / "src"))
    try:
        for label, src in trees:
            folder = Path(tempfile.mkdtemp(prefix="voevoda-load-"))
            url = f"sqlite:///{folder / 'load.db'}"
            seats = prepare(url, args.players)  # with this tree's code: the same games for both
            result = serve_and_load(src, seats, url, args.seconds)
            report(label, len(seats), args.seconds, *result)
    finally:
        if worktree is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=ROOT, capture_output=True)
    if args.yardstick:
        latencies, cpu, spent = yardstick(args.players, args.seconds)
        print(f"yardstick (a bare FastAPI page, {sum(RATES.values()) * args.players:.0f} a second offered): "
              f"{len(latencies) / spent:.0f} served a second, median {statistics.median(latencies) * 1000:.1f} ms, "
              f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, the server's CPU "
              f"{cpu / len(latencies) * 1000:.2f} ms a request")


if __name__ == "__main__":
    main()
