"""Build the docs site and photograph its pages in a real browser (headless Chromium), to look
at them as a reader would. Not part of CI: run it after changing the site, then open the PNGs.

    apt-get install chromium                  # Debian's package (or set CHROMIUM=/path/to/browser)
    python docs/screenshots.py [--out DIR] [--site DIR] [PAGE ...]

PAGE is a path of the site (default: the home page, the Mycelia env page, the agents page and
the API reference). The site is built with ``mkdocs build --strict`` into a temporary folder
(``--site DIR`` uses an existing build), served on 127.0.0.1 by Python's own HTTP server, and
each page is saved as ``DIR/<page>.png`` (1280 pixels wide). The browser runs with its own empty
profile and without background networking.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("", "envs/mycelia_v1/", "agents/", "api/")
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def browser() -> str:
    found = os.environ.get("CHROMIUM") or next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
    if not found:
        raise SystemExit("no Chromium found: apt-get install chromium, or set CHROMIUM=/path/to/browser")
    return found


def build_site(site: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise SystemExit(f"mkdocs build --strict failed:\n{result.stdout}{result.stderr}")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def screenshot(chromium: str, url: str, out: Path, height: int) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                f"--screenshot={out}",
                f"--window-size=1280,{height}",
                "--virtual-time-budget=5000",
                url,
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", default=list(PAGES), metavar="PAGE")
    parser.add_argument("--out", type=Path, default=None, help="folder for the PNGs (default: a new temporary one)")
    parser.add_argument("--site", type=Path, default=None, help="an already built site (default: build one)")
    parser.add_argument("--height", type=int, default=2000, help="window height in pixels (default 2000)")
    args = parser.parse_args()
    chromium = browser()
    out = args.out or Path(tempfile.mkdtemp(prefix="mushgym-screenshots-"))
    out.mkdir(parents=True, exist_ok=True)
    site = args.site
    if site is None:
        site = Path(tempfile.mkdtemp(prefix="mushgym-site-"))
        build_site(site)
    server, port = serve(site)
    try:
        for page in args.pages:
            name = page.strip("/").replace("/", "-") or "home"
            path = out / f"{name}.png"
            screenshot(chromium, f"http://127.0.0.1:{port}/{page}", path, args.height)
            print(f"{path}  (http://127.0.0.1:{port}/{page})")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
