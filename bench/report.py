"""The results table, its geomeans, the saved files and the plot.

Each row's floor is the larger of two times: the essential bytes over the
measured copy bandwidth, and the flops over the measured bf16 matmul rate.
The larger one names the row's bound ("mem" or "mma") and the rate column
(GB/s or TFLOP/s); % of floor = floor / measured time. Our time is the
fastest plan's kernels, as the peers' are their kernels'; the plan and the
time of a whole call (planning included) get columns of their own.
"""

import json
import math
import os
from typing import Dict, List, Optional

IMPLS = (("triton", "Triton"), ("torch", "PyTorch"), ("ours", "ours"))


def classify(nbytes, flops, bandwidth, matmul_rate):
    """(bound, floor_us, mem_floor_us, mma_floor_us)."""
    mem_us = nbytes / bandwidth * 1e6
    mma_us = flops / matmul_rate * 1e6
    return ("mma" if mma_us > mem_us else "mem", max(mem_us, mma_us), mem_us,
            mma_us)


def rate_text(row, us):
    if row["bound"] == "mma":
        return "%.0f TF/s" % (row["flops"] / (us * 1e6))
    return "%.0f GB/s" % (row["bytes"] / (us * 1e3))


def _time(row, impl) -> Optional[float]:
    entry = row["impls"].get(impl)
    if not entry or not entry.get("passed") or entry.get("us") is None:
        return None
    return entry["us"]


def geomean(values: List[float]) -> Optional[float]:
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _fmt(value, pattern="%.1f"):
    return "-" if value is None else pattern % value


def table(rows: List[Dict], with_ours: bool) -> str:
    """A Markdown table with a geomean row."""
    impls = [i for i in IMPLS if with_ours or i[0] != "ours"]
    header = ["B,Q,L,H", "kv", "M", "bound", "floor us"]
    for _, name in impls:
        header += [name + " us", name + " rate", name + " %floor"]
    if with_ours:
        header += ["ours plan", "ours whole us", "ours vs Triton",
                   "ours vs PyTorch"]
    header += ["Triton config"]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    percents = {impl: [] for impl, _ in impls}
    speedups = {"triton": [], "torch": []}
    for row in rows:
        cells = [row["shape"] + ("*" if row.get("l2_resident") else ""),
                 row["fmt"], str(row["rows"]), row["bound"],
                 "%.1f" % row["floor_us"]]
        for impl, _ in impls:
            us = _time(row, impl)
            entry = row["impls"].get(impl) or {}
            if us is None:
                reason = "FAIL" if entry.get("check") else (
                    "error" if entry.get("error") else "-")
                cells += [reason, "-", "-"]
                percents[impl].append(None)
                continue
            percent = 100.0 * row["floor_us"] / us
            percents[impl].append(percent)
            cells += ["%.1f" % us, rate_text(row, us), "%.0f%%" % percent]
        if with_ours:
            ours = _time(row, "ours")
            entry = row["impls"].get("ours") or {}
            passed = ours is not None
            cells += [entry.get("plan", "-") if passed else "-",
                      _fmt(entry.get("whole_us") if passed else None)]
            for peer in ("triton", "torch"):
                other = _time(row, peer)
                ratio = other / ours if ours and other else None
                speedups[peer].append(ratio)
                cells.append(_fmt(ratio, "%.2fx"))
        cells.append((row["impls"].get("triton") or {}).get("config", "-"))
        lines.append("| " + " | ".join(cells) + " |")
    cells = ["geomean", "", "", "", ""]
    for impl, _ in impls:
        cells += ["", "", _fmt(geomean(percents[impl]), "%.0f%%")]
    if with_ours:
        cells += ["", "", _fmt(geomean(speedups["triton"]), "%.2fx"),
                  _fmt(geomean(speedups["torch"]), "%.2fx")]
    cells.append("")
    lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _check_text(entry):
    return entry.get("check") or entry.get("error") or "-"


def checks_table(rows: List[Dict]) -> str:
    """Every check; an entry with plans (ours) gets one line per plan."""
    lines = ["| B,Q,L,H | kv | seed | impl | check |", "|---|---|---|---|---|"]
    for row in rows:
        checks = {}
        for impl, entry in row["impls"].items():
            if "plans" not in entry:
                checks[impl] = _check_text(entry)
                continue
            for plan, each in entry["plans"].items():
                checks["%s[%s]" % (impl, plan)] = _check_text(each)
        for impl, text in sorted(checks.items()):
            lines.append("| %s | %s | %d | %s | %s |" % (
                row["shape"], row["fmt"], row["seed"], impl, text))
    return "\n".join(lines)


def document(meta: Dict, rows: List[Dict], with_ours: bool) -> str:
    """The whole report: header, table, notes, checks."""
    parts = ["# MLA decode on %s, %s, commit %s" % (
        meta["device_name"], meta["date"], meta["commit"]), ""]
    parts += ["- %s: %s" % (key, meta[key]) for key in meta["header_keys"]]
    parts += ["", table(rows, with_ours), ""]
    parts += ["- " + note for note in meta["notes"]]
    parts += ["", "## Checks (float64 reference; rtol = atol = 1e-2, "
              "rel. Frobenius < 1e-2, no NaN)", "", checks_table(rows), ""]
    return "\n".join(parts)


def save(directory: str, stem: str, meta: Dict, rows: List[Dict],
         with_ours: bool) -> List[str]:
    """Writes STEM.md, STEM.json and STEM.png; returns the paths written."""
    os.makedirs(directory, exist_ok=True)
    written = []
    path = os.path.join(directory, stem + ".md")
    with open(path, "w") as f:
        f.write(document(meta, rows, with_ours))
    written.append(path)
    path = os.path.join(directory, stem + ".json")
    with open(path, "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1, sort_keys=True)
    written.append(path)
    png = os.path.join(directory, stem + ".png")
    message = plot(png, meta, rows, with_ours)
    if message:
        print(message)
    else:
        written.append(png)
    return written


def plot(path: str, meta: Dict, rows: List[Dict], with_ours: bool):
    """Bars of % of floor per shape and format; returns a message when no
    plot could be made."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "plot: matplotlib is not importable; no PNG written"
    impls = [i for i in IMPLS if with_ours or i[0] != "ours"]
    labels = ["%s\n%s %s" % (r["shape"], r["fmt"], r["bound"]) for r in rows]
    width = 0.8 / len(impls)
    figure, axes = plt.subplots(figsize=(max(8, 0.55 * len(rows) + 2), 5))
    for k, (impl, name) in enumerate(impls):
        values = []
        for row in rows:
            us = _time(row, impl)
            values.append(0 if us is None else 100.0 * row["floor_us"] / us)
        positions = [i + (k - (len(impls) - 1) / 2) * width
                     for i in range(len(rows))]
        axes.bar(positions, values, width, label=name)
    axes.axhline(100, color="black", linewidth=0.8, linestyle="--")
    axes.set_xticks(range(len(rows)))
    axes.set_xticklabels(labels, rotation=90, fontsize=7)
    axes.set_ylabel("% of floor (max of bytes/copy BW, flops/bf16 MMA)")
    axes.set_title("MLA decode, %s, %s (B,Q,L,H)" % (meta["device_name"],
                                                     meta["date"]))
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return None
