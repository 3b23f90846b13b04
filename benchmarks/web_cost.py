"""What one request costs the web app itself (issue 25, «Performance»): the app driven through
raw ASGI calls in one process — no network, no server, no other thread — on the load test's games
(benchmarks/web_load.py: Ring of Power, 8 seats a game, a turn played, a deadline), with its
players signed in, and the process's CPU time per request of each kind, in the load test's mix.

    python benchmarks/web_cost.py [--players 200] [--requests 6000] [--baseline REV] [--rounds N]

``--baseline REV`` measures a git revision's ``src/`` first, in a process of its own, on games
prepared the same way; ``--rounds N`` measures the trees in turn N times (baseline, this tree,
baseline, …) and gives each one's median per kind, so that the machine's speed, which drifts
from minute to minute, falls on both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"view": ("game", "view"), "report": ("reports", "chronicle"), "echo": ("echo",), "post": ("post",)}


async def call(app: Any, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None,
               cookies: dict[str, str] | None = None) -> tuple[int, str]:
    """One request through the ASGI app, as uvicorn would hand it over; cookies kept."""
    raw = [(b"host", b"127.0.0.1"), (b"accept-language", b"ru")]
    if cookies:
        raw.append((b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()))
    if body:
        raw += [(b"content-type", b"application/x-www-form-urlencoded"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "headers": raw,
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "root_path": ""}
    given = False
    status, parts, answer_headers = 0, [], []

    async def receive() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, answer_headers
        if message["type"] == "http.response.start":
            status, answer_headers = message["status"], message["headers"]
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))

    await app(scope, receive, send)
    if cookies is not None:
        for key, value in answer_headers:
            if key == b"set-cookie":
                name, _, rest = value.decode().partition("=")
                cookies[name] = rest.split(";")[0]
    return status, b"".join(parts).decode()


def measure(players: int, requests: int) -> None:
    """In this process (its ``voevoda`` is the one measured): print the CPU per request."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import web_load

    from voevoda.web.app import WebSettings, create_app

    url = f"sqlite:///{Path(tempfile.mkdtemp(prefix='voevoda-cost-')) / 'cost.db'}"
    seats = web_load.prepare(url, players)
    app = create_app(WebSettings(db=url, rate_limits=False))

    async def run() -> None:
        signed = []
        for game, name, token, post in seats:
            cookies: dict[str, str] = {}
            _, page = await call(app, "GET", f"/join/{token}", cookies=cookies)
            csrf = web_load.CSRF.search(page).group(1)
            await call(app, "POST", f"/join/{token}", urlencode({"csrf": csrf}).encode(), cookies=cookies)
            g = quote(game)
            _, orders = await call(app, "GET", f"/g/{g}/orders", cookies=cookies)
            signed.append((g, name, post, cookies, web_load.CSRF.search(orders).group(1)))

        def request(page: str, g: str, name: str, post: str, cookies: dict[str, str], csrf: str) -> Any:
            if page == "echo":
                return call(app, "POST", f"/g/{g}/orders/check", urlencode({"player": name, "text": post}).encode(),
                            {"X-CSRF-Token": csrf}, cookies)
            if page == "post":
                return call(app, "POST", f"/g/{g}/orders",
                            urlencode({"player": name, "text": post, "step": 2, "csrf": csrf}).encode(), None, cookies)
            return call(app, "GET", f"/g/{g}" + ("" if page == "game" else f"/{page}"), cookies=cookies)

        rng = random.Random(1)
        spent: dict[str, list[float]] = {}
        for _ in range(requests):
            kind = rng.choices(list(web_load.RATES), weights=list(web_load.RATES.values()))[0]
            page = rng.choice(KINDS[kind])
            started = time.process_time()
            status, text = await request(page, *rng.choice(signed))
            spent.setdefault(page, []).append(time.process_time() - started)
            if status >= 400:
                raise SystemExit(f"{page}: {status} {text[:300]}")
        every = [t for times in spent.values() for t in times]
        print(f"  every request: {sum(every) / len(every) * 1000:.2f} ms of CPU on average ({len(every)})")
        for page, times in spent.items():
            print(f"  {page:10} {sum(times) / len(times) * 1000:.2f} ms ({len(times)})")
        averages = {"every": sum(every) / len(every), **{p: sum(t) / len(t) for p, t in spent.items()}}
        print("RESULT " + json.dumps({k: v * 1000 for k, v in averages.items()}), flush=True)

    asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--requests", type=int, default=6000)
    parser.add_argument("--baseline", metavar="REV")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.measure:
        measure(args.players, args.requests)
        return
    trees = [("this tree", ROOT / "src")]
    worktree = None
    if args.baseline:
        worktree = Path(tempfile.mkdtemp(prefix="voevoda-baseline-")) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(worktree), args.baseline], cwd=ROOT, check=True,
                       capture_output=True)
        trees.insert(0, (f"baseline {args.baseline}", worktree / "src"))
    found: dict[str, list[dict[str, float]]] = {label: [] for label, _ in trees}
    try:
        for round_ in range(args.rounds):
            for label, src in trees:
                print(f"{label}{f' (round {round_ + 1})' if args.rounds > 1 else ''}: {args.players} players, "
                      f"load average {os.getloadavg()[0]:.2f}", flush=True)
                done = subprocess.run([sys.executable, __file__, "--measure", "--players", str(args.players),
                                       "--requests", str(args.requests)], env={**os.environ, "PYTHONPATH": str(src)},
                                      check=True, capture_output=True, text=True)
                for line in done.stdout.splitlines():
                    if line.startswith("RESULT "):
                        found[label].append(json.loads(line[7:]))
                    else:
                        print(line)
        if args.rounds > 1 or len(trees) > 1:
            import statistics

            kinds = list(found[trees[0][0]][0])
            print(f"median of {args.rounds} round(s), ms of CPU a request:")
            print(f"  {'kind':10}" + "".join(f"{label:>22}" for label, _ in trees) + ("   ratio" if len(trees) > 1 else ""))
            for kind in kinds:
                values = [statistics.median(r[kind] for r in found[label]) for label, _ in trees]
                ratio = f"   {values[-1] / values[0]:.2f}" if len(values) > 1 else ""
                print(f"  {kind:10}" + "".join(f"{v:22.2f}" for v in values) + ratio)
    finally:
        if worktree is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=ROOT, capture_output=True)


if __name__ == "__main__":
    main()
