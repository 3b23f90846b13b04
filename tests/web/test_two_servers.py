"""Issue 25, «Storage and scale»: «Several workers on one PostgreSQL are correct: a test starts two
server processes and races posts and resolutions through both (nothing lost, one resolution per
step)». Two `voevoda serve` processes on one database (PostgreSQL, and SQLite too); twenty seats
post through their API tokens, alternating servers, while the game master resolves the step
through each server at once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from tests.web.browser import free_port
from voevoda.service import ANONYMOUS, Service

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [f"P{i:02d}" for i in range(20)]
SERVE = """
import sys
sys.path[:0] = [{root!r}, {src!r}]
from voevoda.core import registry
from tests.core.toy import Guess, Twenty
registry.register(Guess)
registry.register(Twenty)
from voevoda.cli import app
app(["serve", "--port", "{port}", "--db", {url!r}], prog_name="voevoda")
"""


def start_server(url: str) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    code = SERVE.format(root=str(ROOT), src=str(ROOT / "src"), port=port, url=url)
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    address = f"http://127.0.0.1:{port}"
    deadline = time.time() + 300  # a loaded machine takes its time to import the app
    while True:
        assert process.poll() is None, process.communicate()[0]
        try:
            if httpx.get(address + "/api/v1/rulesets", timeout=2).status_code == 200:
                return process, address
        except httpx.HTTPError:
            pass
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.2)


def test_two_servers_race_posts_and_resolutions(store_url: str) -> None:
    service = Service(store_url)
    gm, login = service.init_gm("Ведущий")
    service.create_game(gm, "toy-guess", "race", PLAYERS, seed="race")
    tokens = {}
    for player in PLAYERS:
        seat = service.join(service.invite(gm, "race", player, PLAYERS), ANONYMOUS)
        tokens[player] = service.create_api_token(seat.person, "race", player)
    servers = [start_server(store_url), start_server(store_url)]
    try:
        grant = service.sign_in_with_link(login)
        from voevoda.web.auth import Signer, installation_key

        cookie = Signer(installation_key(service)).sessions.dumps(grant.token)

        def post(i: int) -> httpx.Response:
            player = PLAYERS[i]
            address = servers[i % 2][1]
            return httpx.post(f"{address}/api/v1/games/race/posts", timeout=120,
                              headers={"Authorization": f"Bearer {tokens[player]}"},
                              json={"player": player, "text": f"guess {1 + i % 6} #{player}", "step": 1})

        def resolve(k: int) -> httpx.Response:
            return httpx.post(f"{servers[k][1]}/api/v1/games/race/resolve", timeout=120,
                              cookies={"voevoda_session": cookie}, headers={"X-CSRF-Token": grant.csrf},
                              json={"step": 1, "force": True})

        with ThreadPoolExecutor(max_workers=24) as pool:
            posts = [pool.submit(post, i) for i in range(len(PLAYERS))]
            time.sleep(0.3)
            resolutions = [pool.submit(resolve, k) for k in (0, 1)]
            post_answers = [f.result() for f in posts]
            resolve_answers = [f.result() for f in resolutions]
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(timeout=30)
    codes = sorted(r.status_code for r in resolve_answers)
    assert codes == [200, 409], [(r.status_code, r.text) for r in resolve_answers]
    assert "step 1 is already resolved" in next(r for r in resolve_answers if r.status_code == 409).json()[
        "error"]["message_en"]
    for answer in post_answers:
        assert answer.status_code in (201, 409), answer.text  # stored, or «already resolved: send it again»
        if answer.status_code == 409:
            assert "post again for step 2" in answer.json()["error"]["message_en"]
    game = service.store.load("race")
    assert game.step_number == 1 and [e.kind for e in game.record.entries].count("resolve") == 1
    stored = {PLAYERS[i] for i, a in enumerate(post_answers) if a.status_code == 201}
    assert stored == {p for p, s in game.steps[0].submissions.items() if s.source != "default"}
