"""Playing by hand in a terminal: the numbered menu of legal moves, in words.

One numbering everywhere (``mushgym play``, ``examples/play_vs_model.py``): the legal
actions in increasing action id, numbered from 1, each described by the game's
``action_to_string``::

    from mushgym.human import ask_move, format_menu, move_menu
    print(format_menu(move_menu(game, state)))
    action = ask_move(game, state)          # None when the player types q
"""

from __future__ import annotations

from typing import Callable

QUIT_WORDS = ("q", "quit", "exit")


def move_menu(game, state) -> list[tuple[int, int, str]]:
    """``(number, action id, words)`` for every legal action, numbered from 1."""
    return [(i + 1, int(a), game.action_to_string(state, int(a))) for i, a in enumerate(game.legal_actions(state))]


def format_menu(menu: list[tuple[int, int, str]]) -> str:
    width = len(str(len(menu)))
    return "\n".join(f"  {n:>{width}}  {words}" for n, _, words in menu)


def ask_move(
    game,
    state,
    input_fn: Callable[[str], str] | None = None,
    print_fn: Callable[..., None] = print,
    prompt: str = "your move (number, q to quit)> ",
) -> int | None:
    """Show the menu, read a number until it names a legal move; the action id, or None for q / end of input."""
    if input_fn is None:
        import builtins

        input_fn = builtins.input  # looked up per call, so a test's (or a GUI's) replacement is used
    menu = move_menu(game, state)
    print_fn("your actions:")
    print_fn(format_menu(menu))
    while True:
        try:
            text = input_fn(prompt).strip().lower()
        except EOFError:
            print_fn()
            return None
        if text in QUIT_WORDS:
            return None
        if not text.isdigit():
            print_fn(f"type one of the numbers listed (1 to {len(menu)}), or q to quit")
            continue
        n = int(text)
        if not 1 <= n <= len(menu):
            print_fn(f"{n} is not a legal action now: type a number from 1 to {len(menu)}, or q to quit")
            continue
        return menu[n - 1][1]


def legend(game) -> str:
    """What the abbreviations in the game's text mean (from its ``render.legend()``), or ''."""
    from .render import render_module

    module = render_module(game)
    fn = getattr(module, "legend", None) if module is not None else None
    return fn() if fn else ""
