"""The results table, its geomeans, the saved files and the plot.

Each row's floor is the larger of two times: the essential bytes over the
measured copy bandwidth, and the flops over the measured bf16 matmul rate.
The larger one names the row's bound ("mem" or "mma") and the rate column
(GB/s or TFLOP/s); % of floor = floor / measured time. Our time is the
fastest plan's kernels, as the peers' are their kernels'; the plan and the
time of a whole call (each call alone, L2 flushed, as the leaderboard
times it) get columns of their own. Geomeans are per format (the ranked
figure) and over every row.
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


def _time(row, impl, key="us") -> Optional[float]:
    entry = row["impls"].get(impl)
    if not entry or not entry.get("passed") or entry.get(key) is None:
        return None
    return entry[key]


def geomean(values: List[float]) -> Optional[float]:
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def number(value, pattern="%.1f"):
    return "-" if value is None else pattern % value


def _ratio(numerator, denominator):
    return numerator / denominator if numerator and denominator else None


def table(rows: List[Dict], with_ours: bool) -> str:
    """A Markdown table: per implementation the kernels' time and the whole
    call's, then one geomean row per format and one over every row."""
    impls = [i for i in IMPLS if with_ours or i[0] != "ours"]
    header = ["B,Q,L,H", "kv", "M", "bound", "floor us"]
    for _, name in impls:
        header += [name + " us", name + " call us", name + " rate",
                   name + " %floor"]
    if with_ours:
        header += ["ours plan", "ours vs Triton", "ours vs PyTorch",
                   "ours call vs Triton call"]
    header += ["Triton config"]
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        cells = [row["shape"] + ("*" if row.get("l2_resident") else ""),
                 row["fmt"], str(row["rows"]), row["bound"],
                 "%.1f" % row["floor_us"]]
        for impl, _ in impls:
            us = _time(row, impl)
            if us is None:
                entry = row["impls"].get(impl) or {}
                reason = "FAIL" if entry.get("check") else (
                    "error" if entry.get("error") else "-")
                cells += [reason, "-", "-", "-"]
                continue
            cells += ["%.1f" % us, number(_time(row, impl, "call_us")),
                      rate_text(row, us),
                      "%.0f%%" % (100.0 * row["floor_us"] / us)]
        if with_ours:
            ours = _time(row, "ours")
            cells += [(row["impls"].get("ours") or {}).get("plan", "-")
                      if ours else "-"]
            cells += [number(_ratio(_time(row, peer), ours), "%.2fx")
                      for peer in ("triton", "torch")]
            cells.append(number(_ratio(_time(row, "triton", "call_us"),
                                       _time(row, "ours", "call_us")),
                                "%.2fx"))
        cells.append((row["impls"].get("triton") or {}).get("config", "-"))
        lines.append("| " + " | ".join(cells) + " |")
    formats = list(dict.fromkeys(row["fmt"] for row in rows))
    groups = [("geomean " + fmt, [r for r in rows if r["fmt"] == fmt])
              for fmt in formats]
    if len(groups) > 1:
        groups.append(("geomean", rows))
    for label, group in groups:
        lines.append("| " + " | ".join(_geomean_cells(label, group, impls,
                                                      with_ours)) + " |")
    return "\n".join(lines)


def _geomean_cells(label, rows, impls, with_ours):
    """Geomeans over `rows`: times, whole-call times, % of floor (rate
    cells stay empty: their units differ between rows) and speedups."""
    cells = [label, "", "", "", number(geomean([r["floor_us"]
                                                for r in rows]))]
    for impl, _ in impls:
        times = [_time(r, impl) for r in rows]
        complete = all(t is not None for t in times)
        cells += [number(geomean(times)) if complete else "-",
                  number(geomean([_time(r, impl, "call_us") for r in rows]))
                  if all(_time(r, impl, "call_us") for r in rows) else "-",
                  "",
                  number(geomean([100.0 * r["floor_us"] / t for r, t in
                                  zip(rows, times)]), "%.0f%%")
                  if complete else "-"]
    if with_ours:
        cells.append("")
        for peer, key in (("triton", "us"), ("torch", "us"),
                          ("triton", "call_us")):
            ratios = [_ratio(_time(r, peer, key), _time(r, "ours", key))
                      for r in rows]
            cells.append(number(geomean(ratios), "%.2fx")
                         if all(ratios) else "-")
    cells.append("")
    return cells


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
            if entry.get("call_check"):
                checks["%s[call]" % impl] = entry["call_check"]
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
