#!/usr/bin/env python3
"""Writes a small synthetic binary classification dataset: two overlapping 2-D Gaussian blobs.

Output: <out>/train.csv and <out>/val.csv with columns x1,x2,label.
Standard library only.
"""
import argparse
import os
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="data", help="output directory (created if missing)")
    parser.add_argument("--n", type=int, default=3000, help="number of points")
    parser.add_argument("--val-fraction", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    rows = []
    for _ in range(args.n):
        label = rng.randint(0, 1)
        cx, cy = (1.0, 1.0) if label else (-1.0, -0.5)
        rows.append((rng.gauss(cx, 1.1), rng.gauss(cy, 1.1), label))

    n_val = int(len(rows) * args.val_fraction)
    os.makedirs(args.out, exist_ok=True)
    write_csv(os.path.join(args.out, "val.csv"), rows[:n_val])
    write_csv(os.path.join(args.out, "train.csv"), rows[n_val:])
    print(f"wrote {len(rows) - n_val} training and {n_val} validation points to {args.out}/", flush=True)


def write_csv(path, rows):
    # Write then rename, so a reader never sees a half-written file.
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("x1,x2,label\n")
        for x1, x2, label in rows:
            f.write(f"{x1:.6f},{x2:.6f},{label}\n")
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
