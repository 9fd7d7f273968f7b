"""Where the repository and the tests' shared files are, for tests in any folder under tests/."""

from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
