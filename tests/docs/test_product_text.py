"""The product speaks of the product: the README, the docs, the source, the benchmark records and
the file names describe the library and its figures, never how the work on it was organised
(work sessions, their numbers and branches, or the people and programs that helped).

The scan reads every file git tracks (text files; the golden playthroughs are data, and this
file names the words it looks for) and every tracked path. What counts as a process word, and the legitimate uses
let through:

- ``session``: no legitimate use in this repository today. Ray and HTTP libraries have sessions;
  a line naming one of those (``ray``, ``requests.Session``, ``tf.Session``) is let through.
- a session tag such as ``s24``, ``_s26`` or ``s18-s24``: an ``s`` and two digits standing alone.
  Not matched inside words or numbers (``items``, ``0.5s``, ``--seconds``, a hex digest).
- ``helper`` as a worker ("its helper", "another helper's work"). In code a helper is a function:
  "index helper", "compiled helpers", "generated helpers", "small helpers", "a helper package",
  "the helpers above", and the test modules ``tests/*_helpers.py``; so the word is flagged only
  in prose (Markdown) and only when no code word stands next to it.
- a tracker reference by number: ``issue 15``, ``issues 12 and 13``, ``issue 13's``, ``Issue #10``,
  ``issue_13`` in a name, ``.../issues/12``, ``ticket 4``, ``PR #7``. A change is named by what
  it did (and its date or version), not by its number. The word without a number passes: "an
  issue of the vector API", the ``Issues`` project URL.
"""

import re
import subprocess
from pathlib import Path

from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

ROOT = REPO_ROOT
SKIP_PREFIXES = ("tests/golden/", "tests/docs/test_product_text.py")  # data, and this file's own examples
SESSION = re.compile(r"\bsessions?\b", re.IGNORECASE)
SESSION_ALLOWED = re.compile(r"\bray\b|requests\.Session|tf\.Session", re.IGNORECASE)
TAG = re.compile(r"(?<![A-Za-z0-9.=/+-])_?s[12][0-9](?![0-9A-Za-z]|\.[0-9])")
HELPER = re.compile(r"\bhelpers?(?:'s)?\b", re.IGNORECASE)
TRACKER = re.compile(
    r"(?<![A-Za-z])(?:issues?|tickets?)[\s_/-]*#?[0-9]+|\bPRs? ?#[0-9]+|\bPRs? [0-9]+\b"
    r"|\bpull requests? #?[0-9]+",
    re.IGNORECASE,
)
CODE_WORDS = (
    "index",
    "compiled",
    "generated",
    "decision-stack",
    "small",
    "function",
    "functions",
    "package",
    "module",
    "modules",
    "above",
    "below",
    "take",
    "named",
    "kernel",
    "stack",
    "these",
)


def tracked_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [p for p in out.stdout.decode().split("\0") if p and not p.startswith(SKIP_PREFIXES)]


def _text(path: Path) -> str | None:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:4096]:
        return None  # binary: pictures, models
    return data.decode("utf-8", errors="replace")


def _helper_as_worker(line: str, match: re.Match) -> bool:
    before = line[: match.start()].split()[-2:]
    after = line[match.end() :].split()[:1]
    near = {w.strip("`*()[],.:;'\"").lower() for w in before + after}
    return not near & set(CODE_WORDS)


def process_words(relpath: str, text: str) -> list[str]:
    """Every process word in ``text`` (a file at ``relpath``), as ``path:line: text``."""
    found = []
    prose = relpath.endswith(".md")
    for number, line in enumerate(text.splitlines(), 1):
        hits = []
        if SESSION.search(line) and not SESSION_ALLOWED.search(line):
            hits.append("session")
        hits += [m.group(0) for m in TAG.finditer(line)]
        hits += [m.group(0) for m in TRACKER.finditer(line)]
        if prose:
            hits += [m.group(0) for m in HELPER.finditer(line) if _helper_as_worker(line, m)]
        if hits:
            found.append(f"{relpath}:{number}: {hits}: {line.strip()[:120]}")
    return found


def test_no_process_words_in_text_or_file_names():
    problems = []
    for relpath in tracked_files():
        name_hits = (
            [m.group(0) for m in TAG.finditer(relpath)]
            + SESSION.findall(relpath)
            + [m.group(0) for m in TRACKER.finditer(relpath)]
        )
        if name_hits:
            problems.append(f"{relpath}: file name {name_hits}")
        text = _text(ROOT / relpath)
        if text is not None:
            problems += process_words(relpath, text)
    assert not problems, "process words (see this test's docstring):\n" + "\n".join(problems)


def test_the_scan_finds_what_it_should_and_lets_code_words_through():
    flagged = [
        "Measured in session 30 on the VM.",
        "the s24 ladders",
        "`fungi_v0_2p_s24.txt`",
        "(s18-s24)",
        "Mycelia: its own helper)",
        "another helper's work",
        '## North American expansion (`expansion="north_america"`, issue 15)',
        "the deck before issue 12",
        "issues 12 and 13",
        "issue 13's engine",
        "Issue #10 item by item",
        "def test_fewer_bytes_than_before_issue_13():",
        "(#hardening-issue-10)",
        "see https://github.com/mushgym/mushgym/issues/12",
        "ticket 4",
        "fixed in PR #7",
    ]
    allowed = [
        "ray.init() starts a session of Ray",
        "the index helper `hand_at`",
        "compiled helpers",
        "a helper package, not a game",
        "items, 0.5s, --seconds 330, 3s2",
        "fungi_helpers.py",
        "an issue of the vector API at 8,192 envs",
        "the `issues` command",
        'Issues = "https://github.com/mushgym/mushgym/issues"',
        "tissue 15",
        "2 issues, 3 fixes",
        'PR = Layout("pan record")',
        "sha s24a9",
        "0.5 s24 x",
    ]
    for line in flagged:
        assert process_words("x.md", line), line
    for line in allowed[:-1]:
        assert not process_words("x.md", line), line
    assert process_words("x.md", allowed[-1])  # a tag standing alone is a tag, whatever surrounds it
    assert not process_words("x.py", "# small helpers")
    assert process_words("x.py", "# Bounds (issue 10): every value the kernels use as an index")  # not prose only
    assert TRACKER.search("benchmarks/issue13_speed.md") and not TRACKER.search("docs/issues.md")
