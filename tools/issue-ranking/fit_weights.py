#!/usr/bin/python3
"""Fits IssueRanking's signal weights on the candidates an `eval --swebench` run recorded (swebench.json: each
instance's first files with their ranking signals and whether each is a gold file).

Coordinate ascent over a grid, objective mean MRR@10 over instances (ties broken towards the smaller change), the
`bm25` weight fixed at 1 (the scale). Reports the fit on all repositories (in sample) and leave-one-repository-out:
each repository's instances ranked by the weights fitted on the other repositories.

Usage: fit_weights.py swebench.json [--system default] [--rounds 4]
"""
import argparse
import json
import math

SIGNALS = ["bm25", "dense", "path", "frame", "module", "stem", "folder", "defines", "doc", "evidence", "fused"]
GRID = [-2, -1, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3]


def load(path, system):
    report = json.load(open(path))
    data = []
    for repo in report["repositories"]:
        for inst in repo["instances"]:
            ans = inst["answers"][system]
            cands = [([s.get(k, 0.0) for k in SIGNALS], s.get("gold", 0.0) > 0) for s in ans["signals"]]
            data.append((repo["repo"], inst["id"], cands))
    return data


def rank_of(cands, w):
    scored = [(-sum(a * b for a, b in zip(f, w)), i, g) for i, (f, g) in enumerate(cands)]
    scored.sort()
    for r, (_, _, g) in enumerate(scored[:10]):
        if g:
            return r + 1
    return 0


def metrics(data, w):
    ranks = [rank_of(c, w) for _, _, c in data]
    n = max(1, len(ranks))
    return {"mrr": sum(1 / r for r in ranks if r) / n, "acc1": sum(1 for r in ranks if r == 1) / n,
            "acc5": sum(1 for r in ranks if 0 < r <= 5) / n, "acc10": sum(1 for r in ranks if 0 < r <= 10) / n}


def fit(data, start, rounds):
    w = list(start)
    best = metrics(data, w)["mrr"]
    for _ in range(rounds):
        moved = False
        for k in range(1, len(SIGNALS)):  # bm25 stays 1
            for v in GRID:
                trial = list(w)
                trial[k] = v
                m = metrics(data, trial)["mrr"]
                if m > best + 1e-9:
                    best, w, moved = m, trial, True
        if not moved:
            break
    return w


def main():
    p = argparse.ArgumentParser()
    p.add_argument("report")
    p.add_argument("--system", default="default")
    p.add_argument("--rounds", type=int, default=4)
    a = p.parse_args()
    data = load(a.report, a.system)
    start = [1] + [0] * (len(SIGNALS) - 1)
    print("bm25 only (weights 1, 0...):", {k: round(v, 3) for k, v in metrics(data, start).items()})
    w = fit(data, start, a.rounds)
    print("in sample:", dict(zip(SIGNALS, w)), {k: round(v, 3) for k, v in metrics(data, w).items()})
    repos = sorted(set(r for r, _, _ in data))
    held = []
    for repo in repos:
        train = [d for d in data if d[0] != repo]
        test = [d for d in data if d[0] == repo]
        wf = fit(train, start, a.rounds)
        m = metrics(test, wf)
        held.extend(test_rank for test_rank in [rank_of(c, wf) for _, _, c in test])
        print(f"held out {repo}: {len(test)} instances", {k: round(v, 3) for k, v in m.items()},
              "weights", dict(zip(SIGNALS, wf)))
    n = len(held)
    print("leave-one-repository-out overall:", {"mrr": round(sum(1 / r for r in held if r) / n, 3),
          "acc1": round(sum(1 for r in held if r == 1) / n, 3), "acc5": round(sum(1 for r in held if 0 < r <= 5) / n, 3),
          "acc10": round(sum(1 for r in held if 0 < r <= 10) / n, 3)})


if __name__ == "__main__":
    main()
