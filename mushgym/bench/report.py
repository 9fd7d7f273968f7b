"""The tables of ``mushgym bench``: ratios between rows of one run, the printed table
(rich or plain) with its footer, and the JSON encoding of the report."""

from __future__ import annotations

from typing import Any

import numpy as np

from .measure import Row, round_ratio


def _find(rows: list[Row], group: str, name: str, threads: int | None = "any") -> Row | None:
    for r in rows:
        if r.group.startswith(group) and r.name == name and (threads == "any" or r.threads == threads):
            return r
    return None


def derived(result: dict[str, Any], anchors: list[Row]) -> dict[str, Any]:
    """Ratios between rows of one run (the numbers that survive a noisy machine); between rows
    timed in the same interleaved rounds (rollouts and vector rows of the full table), the
    median of the rounds' ratios."""
    import numba

    rows = result["rows"]
    nt = numba.config.NUMBA_NUM_THREADS
    out: dict[str, Any] = {}
    base = _find(rows, "c.", "do-nothing env, wrapped (baseline)")
    wrapped = _find(rows, "c.", "raw_env() in PettingZoo's 3 wrappers")
    fast = _find(rows, "c.", "env() (one-layer standard wrapper)")
    raw = _find(rows, "c.", "raw_env()")
    roll1 = _find(rows, "a.", "Game.random_rollouts", 1)
    rolln = _find(rows, "a.", "Game.random_rollouts", nt)
    vec_rows = [r for r in rows if r.group.startswith("b.") and r.extra.get("batch")]

    def largest(variant: str, threads) -> Row | None:
        found = [r for r in vec_rows if r.extra.get("variant", "default") == variant and r.threads in threads]
        return max(found, key=lambda r: r.extra["batch"]) if found else None

    vec_big = largest("default", (None, nt))

    def ratio(key: str, a: Row, b: Row) -> None:
        """``a / b``, round by round where both were timed in the same rounds (their min-max
        over the rounds under ``key + " per round"``)."""
        value, spread = round_ratio(a, b)
        out[key] = value
        if spread is not None:
            out[key + " per round"] = f"{spread[0]:.3g}x-{spread[1]:.3g}x over {len(a.extra['round_rates'])} rounds"

    if base and wrapped:
        out["AEC raw env in PettingZoo's 3 wrappers / do-nothing wrapped"] = wrapped.steps_per_s / base.steps_per_s
    if base and fast:
        out["AEC env() (one layer) / do-nothing wrapped"] = fast.steps_per_s / base.steps_per_s
    if raw:
        out["AEC raw_env() steps/s"] = raw.steps_per_s
    if roll1:
        out["rollouts 1 thread steps/s"] = roll1.steps_per_s
    if vec_big and rolln:
        ratio(f"vector batch {vec_big.extra['batch']} / rollouts ({nt} threads)", vec_big, rolln)
        out[f"vector batch {vec_big.extra['batch']} steps/s"] = vec_big.steps_per_s
        for variant in ("no obs", "int64 state, float32 obs"):
            other = largest(variant, (None, nt))
            if other and other.extra["batch"] == vec_big.extra["batch"]:
                ratio(f"vector batch {other.extra['batch']} ({variant}) / rollouts ({nt} threads)", other, rolln)
    vec_1k = [
        r
        for r in vec_rows
        if r.extra["batch"] == 1024 and r.extra.get("variant", "default") == "default" and r.threads in (None, nt)
    ]
    if vec_big and vec_1k and vec_big.extra["batch"] > 1024:
        ratio(f"vector batch {vec_big.extra['batch']} / batch 1024", vec_big, vec_1k[0])
    vec_1t, roll_1t = largest("default", (1,)), roll1
    if vec_1t and roll_1t and nt > 1:
        ratio(f"vector batch {vec_1t.extra['batch']} / rollouts (1 thread)", vec_1t, roll_1t)
    for r in rows:
        if r.name.startswith("warm cache"):
            out["warm start s"] = r.extra["seconds"]
    for a in anchors:
        if a.steps_per_s is None:
            continue
        if wrapped:
            out[f"AEC in PettingZoo's 3 wrappers / {a.name}"] = wrapped.steps_per_s / a.steps_per_s
        if vec_big:
            out[f"vector batch {vec_big.extra['batch']} / {a.name}"] = vec_big.steps_per_s / a.steps_per_s
        if roll1:
            out[f"rollouts 1 thread / {a.name}"] = roll1.steps_per_s / a.steps_per_s
    return out


# --- printing ---------------------------------------------------------------------------


def fmt_rate(x: float | None) -> str:
    if x is None:
        return "-"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.3g}{unit}"
    return f"{x:.3g}"


def table_rows(rows: list[Row]) -> list[list[str]]:
    out = []
    for r in rows:
        threads = "all" if r.threads is None else str(r.threads)
        if "seconds" in r.extra:
            spread = f"{r.spread[0]:.2f}-{r.spread[1]:.2f} s" if r.spread else ""
            out.append([r.group, r.name, threads, f"{r.extra['seconds']:.2f} s", "", spread, r.note])
            continue
        spread = f"{fmt_rate(r.spread[0])}-{fmt_rate(r.spread[1])}" if r.spread else ""
        out.append([r.group, r.name, threads, fmt_rate(r.steps_per_s), fmt_rate(r.games_per_s), spread, r.note])
    return out


HEADER = ["measurement", "threads", "steps/s", "games/s", "spread (steps/s)", "note"]


def print_table(title: str, rows: list[list[str]], footer: list[str], console) -> None:
    if console is not None:
        from rich.table import Table

        table = Table(title=title, title_justify="left")
        for i, h in enumerate(HEADER):
            table.add_column(h, justify="right" if 1 <= i <= 4 else "left", no_wrap=i < 5)
        last_group = None
        for r in rows:
            if r[0] != last_group:
                if last_group is not None:
                    table.add_section()
                table.add_row(f"[bold]{r[0]}[/bold]", *[""] * (len(HEADER) - 1))
                last_group = r[0]
            table.add_row("  " + r[1], *r[2:])
        console.print(table)
        for line in footer:
            console.print("  " + line, highlight=False)
        console.print()
        return
    lines: list[list[str]] = []
    last_group = None
    for r in rows:
        if r[0] != last_group:
            lines.append([r[0]] + [""] * (len(HEADER) - 1))
            last_group = r[0]
        lines.append(["  " + r[1]] + r[2:])
    widths = [max([len(HEADER[i])] + [len(x[i]) for x in lines]) for i in range(len(HEADER))]
    print(title)
    print("  ".join(h.ljust(w) for h, w in zip(HEADER, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for x in lines:
        print("  ".join(c.rjust(w) if 1 <= i <= 4 else c.ljust(w) for i, (c, w) in enumerate(zip(x, widths))).rstrip())
    for line in footer:
        print("  " + line)
    print()


def console_for(plain: bool):
    if plain:
        return None
    try:
        from rich.console import Console
    except ImportError:
        return None
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    return console


def footer(result: dict[str, Any], ratios: dict[str, Any]) -> list[str]:
    lines = [
        f"state: {result['state_size']} int64 = {result['state_bytes']:,} bytes per game; "
        f"{result['num_actions']} actions; observation {tuple(result['observation_shape'])}"
    ]
    for variant, parts in result.get("bytes_per_env_step", {}).items():
        detail = ", ".join(f"{k} {v:,}" for k, v in parts.items())
        lines.append(f"vector bytes per env step ({variant}): {sum(parts.values()):,} ({detail})")
    for k, v in ratios.items():
        if isinstance(v, str):
            lines.append(f"{k}: {v}")
        elif k.endswith("steps/s"):
            lines.append(f"{k}: {fmt_rate(v)}")
        elif k.endswith(" s"):
            lines.append(f"{k}: {v:.2f}")
        else:
            lines.append(f"{k}: {v:.3g}x")
    return lines


def json_default(x: Any):
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)
