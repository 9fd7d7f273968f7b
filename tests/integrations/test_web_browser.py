"""The web table and the replay page in a real browser: Debian's chromium driven by Playwright.

Skipped (with the reason) where chromium or playwright is missing; CI installs both (.ci/run).
``MUSHGYM_CHROMIUM`` names another chromium binary.
"""

import os
import shutil
import threading

import pytest

import mushgym

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("MUSHGYM_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the dev extra)")
pytest.importorskip("flask", reason="the web extra (pip install 'mushgym[web]') is not installed")
if CHROMIUM is None:
    pytest.skip("no chromium on this machine (Debian: apt-get install chromium)", allow_module_level=True)

from mushgym.agents import make_agent, play_games  # noqa: E402
from mushgym.replay import load_replay  # noqa: E402
from mushgym.web.page import replay_page  # noqa: E402
from mushgym.web.server import create_app, make_server  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The app on a free local port, its replay folder holding one recorded Fungi game."""
    folder = tmp_path_factory.mktemp("replays")
    play_games(
        "fungi_v0",
        [make_agent("greedy", "fungi_v0", seed=1), make_agent("mcts:30", "fungi_v0", seed=2)],
        1,
        seed=5,
        replays=folder,
    )
    server = make_server(create_app(make_agent, replays=folder), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.port}", folder
    server.shutdown()
    thread.join(10)


def start_game(page, url, env_id, opponent, seat=0):
    page.goto(url + "/")
    form = page.locator(f"form:has(input[name=env][value='{env_id}'])")
    form.locator("input[name=seat]").fill(str(seat))
    form.locator("input[name=opponent]").fill(opponent)
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#table svg")


def click_moves(page, limit):
    """Click the first listed move until the game is over or ``limit`` moves are made; the count."""
    made = 0
    while made < limit:
        page.wait_for_function("document.body.dataset.busy !== '1'")
        if page.evaluate("document.body.dataset.over") == "1":
            break
        before = page.evaluate("document.body.dataset.moves")
        page.locator("#legal button.move").first.click()
        page.wait_for_function(
            f"document.body.dataset.busy !== '1' && document.body.dataset.moves !== '{before}'", timeout=120_000
        )
        made += 1
    return made


def click_on_the_picture(page):
    """Play one move by clicking twice on words of the picture that name exactly one legal move
    (a Forest card, the decay pile; the first click highlights it); 1 if one was found, else 0.
    Words naming several moves highlight them all."""
    page.wait_for_function("document.body.dataset.yourTurn === '1' || document.body.dataset.over === '1'")
    texts = page.locator("#table svg text.clickable")
    for i in range(texts.count()):
        words = texts.nth(i).text_content().strip().lower()
        moves = [b.lower() for b in page.locator("#legal button.move").all_text_contents()]
        hits = [m for m in moves if words in m]
        before = page.evaluate("document.body.dataset.moves")
        texts.nth(i).click()
        assert page.locator("#legal button.match").count() == len(hits)
        assert page.evaluate("document.body.dataset.moves") == before  # highlighted, not played
        if len(hits) == 1:
            texts.nth(i).click()
            page.wait_for_function(f"document.body.dataset.busy !== '1' && document.body.dataset.moves !== '{before}'")
            history = page.locator("#moves li").all_text_contents()
            assert hits[0] in [h.lower().split(": ", 1)[1] for h in history]
            return 1
    return 0


def test_a_whole_fungi_game_against_random_in_the_browser(browser, site):
    url, folder = site
    page = browser.new_page()
    start_game(page, url, "fungi_v0", "random", seat=1)
    assert "you are player 1" in page.title()
    made = click_on_the_picture(page)
    made += click_moves(page, 400)
    assert made > 5 and page.evaluate("document.body.dataset.over") == "1"
    assert page.text_content("#status").startswith("Game over")
    page.locator("#legal a").click()  # the finished game, saved in the replay folder
    page.wait_for_selector("#table svg")
    assert page.text_content("#position").startswith("move 0 of")
    page.close()


def test_thirty_moves_of_mycelium_against_greedy_with_a_hint_and_an_undo(browser, site):
    url, _ = site
    env_id = sorted(e for e in mushgym.list_envs() if e.startswith("mycelium"))[-1]
    page = browser.new_page()
    start_game(page, url, env_id, "greedy")
    page.wait_for_function("document.body.dataset.yourTurn === '1'", timeout=120_000)
    page.click("#hint")
    page.wait_for_selector("#hint-out ol.cands li")
    assert "greedy suggests" in page.text_content("#hint-out")
    assert click_moves(page, 30) == 30
    moves = int(page.evaluate("document.body.dataset.moves"))
    page.click("#undo")
    page.wait_for_function(f"document.body.dataset.moves !== '{moves}' && document.body.dataset.busy !== '1'")
    assert int(page.evaluate("document.body.dataset.moves")) < moves
    assert page.locator("#legal button.move").count() > 0
    page.close()


def test_a_replay_page_steps_and_plays(browser, site, tmp_path):
    url, folder = site
    path = sorted(folder.glob("*.jsonl"))[0]
    replay = load_replay(path)
    n = len(replay.moves)
    html_file = tmp_path / "game.html"
    html_file.write_text(replay_page(replay, seat=0))
    page = browser.new_page()
    page.goto(html_file.as_uri())  # self-contained: opened from a file, no server
    assert page.text_content("#position") == f"move 0 of {n}"
    page.click("#next")
    page.click("#next")
    assert page.text_content("#position") == f"move 2 of {n}"
    second = replay.moves[1]
    assert (
        page.locator("#moves li.current").text_content()
        == f"player {second.seat} ({replay.players[second.seat]}): {second.words}"
    )
    page.click("#prev")
    assert page.text_content("#position") == f"move 1 of {n}"
    page.keyboard.press("ArrowRight")
    assert page.text_content("#position") == f"move 2 of {n}"
    page.select_option("#speed", "10")
    page.click("#play")
    page.wait_for_function(f"document.getElementById('position').textContent === 'move {n} of {n}'", timeout=60_000)
    assert page.text_content("#result").startswith("game over")
    page.goto(f"{url}/replays")  # and through the server's replay folder
    page.locator(f"a[href='/replays/{path.name}']").click()
    page.wait_for_selector("#table svg")
    page.click("#last-pos")
    assert page.text_content("#position") == f"move {n} of {n}"
    page.close()
