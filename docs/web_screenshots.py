"""The screenshots of docs/watch-and-play.md, taken in a real browser (Debian's chromium driven by
Playwright, as tests/integrations/test_web_browser.py does).

    apt-get install chromium && pip install -e ".[web,dev]"
    python docs/web_screenshots.py            # writes docs/pictures/web_*.png

It records a Fungi game (MCTS against greedy) and a Mycelium game as replays, starts
``mushgym serve`` on a free local port, plays a few moves of Fungi against greedy with a hint
shown, and photographs the game page, a replay page and the leaderboard (1280 pixels wide).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "pictures"


def main() -> int:
    from playwright.sync_api import sync_playwright

    import mushgym
    from mushgym.agents import make_agent, play_games
    from mushgym.web.server import create_app, make_server

    chromium = os.environ.get("MUSHGYM_CHROMIUM") or shutil.which("chromium")
    if chromium is None:
        raise SystemExit("no chromium: apt-get install chromium (or set MUSHGYM_CHROMIUM)")
    folder = Path(tempfile.mkdtemp(prefix="mushgym-replays-"))
    play_games(
        "fungi_v0",
        [make_agent("mcts:200", "fungi_v0", seed=1), make_agent("greedy", "fungi_v0", seed=2)],
        1,
        seed=7,
        replays=folder,
    )
    mycelium = sorted(e for e in mushgym.list_envs() if e.startswith("mycelium"))[-1]
    play_games(mycelium, [make_agent("greedy", mycelium, seed=s) for s in range(4)], 1, seed=3, replays=folder)
    server = make_server(
        create_app(make_agent, replays=folder, ladders=ROOT / "benchmarks" / "search_ladder"), "127.0.0.1", 0
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.port}"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 760})
        page.goto(url + "/")
        form = page.locator("form:has(input[name=env][value='fungi_v0'])")
        form.locator("input[name=opponent]").fill("greedy")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#table svg")
        for _ in range(6):
            before = page.evaluate("document.body.dataset.moves")
            page.locator("#legal button.move").first.click()
            page.wait_for_function(f"document.body.dataset.moves !== '{before}'")
        page.click("#hint")
        page.wait_for_selector("#hint-out ol.cands li")
        page.screenshot(path=str(OUT / "web_table.png"))
        fungi = next(folder.glob("fungi_v0-*.jsonl")).name
        page.goto(f"{url}/replays/{fungi}")
        for _ in range(12):
            page.click("#next")
        page.screenshot(path=str(OUT / "web_replay.png"))
        other = next(folder.glob(f"{mycelium}-*.jsonl")).name
        page.goto(f"{url}/replays/{other}?seat=0")
        for _ in range(40):
            page.click("#next")
        page.screenshot(path=str(OUT / "web_replay_mycelium.png"))
        page.goto(url + "/leaderboard")
        page.screenshot(path=str(OUT / "web_leaderboard.png"))
        browser.close()
    server.shutdown()
    shutil.rmtree(folder, ignore_errors=True)
    for name in ("web_table", "web_replay", "web_replay_mycelium", "web_leaderboard"):
        print(f"wrote {OUT / name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
