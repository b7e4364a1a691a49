#!/usr/bin/env python3
"""Trains a logistic regression by gradient descent on the data written by make_data.py.

Reads <data>/train.csv and <data>/val.csv; writes result.json into the working directory.
The data directory defaults to $BERTH_RUN_DIR/prepare/make-data/data. Standard library only.
"""
import argparse
import json
import math
import os
import random
import sys
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lr", type=float, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--epochs", type=int, default=600)
    parser.add_argument("--batch-size", type=int, default=0, help="0 = the whole training set")
    parser.add_argument("--data", help="directory holding train.csv and val.csv")
    parser.add_argument("--out", default="result.json")
    args = parser.parse_args()

    data_dir = args.data or default_data_dir()
    train = read_csv(os.path.join(data_dir, "train.csv"))
    val = read_csv(os.path.join(data_dir, "val.csv"))
    print(f"task {os.environ.get('BERTH_TASK_ID', '-')}: lr={args.lr} seed={args.seed} "
          f"train={len(train)} val={len(val)} device={os.environ.get('BERTH_DEVICE', 'cpu')}", flush=True)

    rng = random.Random(args.seed)
    w = [rng.gauss(0, 0.5) for _ in range(3)]  # bias, w1, w2
    batch = args.batch_size if 0 < args.batch_size < len(train) else len(train)
    started = time.monotonic()
    for epoch in range(1, args.epochs + 1):
        if batch < len(train):
            rng.shuffle(train)
        for i in range(0, len(train), batch):
            step(w, train[i:i + batch], args.lr)
        if epoch % 150 == 0 or epoch == args.epochs:
            loss, acc = evaluate(w, train)
            print(f"epoch {epoch:3d}  loss {loss:.4f}  train_acc {acc:.3f}", flush=True)

    val_loss, val_acc = evaluate(w, val)
    result = {
        "lr": args.lr,
        "seed": args.seed,
        "epochs": args.epochs,
        "loss": round(val_loss, 6),
        "val_acc": round(val_acc, 6),
        "seconds": round(time.monotonic() - started, 3),
    }
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    os.replace(tmp, args.out)
    print(f"done: val_loss {val_loss:.4f}  val_acc {val_acc:.3f} -> {args.out}", flush=True)


def default_data_dir():
    run_dir = os.environ.get("BERTH_RUN_DIR")
    if not run_dir:
        sys.exit("train.py: pass --data DIR, or run under Berth so that BERTH_RUN_DIR is set")
    return os.path.join(run_dir, "prepare", "make-data", "data")


def read_csv(path):
    try:
        with open(path, encoding="utf-8") as f:
            next(f)
            return [(float(a), float(b), int(c)) for a, b, c in (line.strip().split(",") for line in f if line.strip())]
    except FileNotFoundError:
        sys.exit(f"train.py: {path} not found; did the make-data task run?")


def sigmoid(z):
    # Split by sign so that exp never overflows.
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def step(w, batch, lr):
    g0 = g1 = g2 = 0.0
    for x1, x2, y in batch:
        err = sigmoid(w[0] + w[1] * x1 + w[2] * x2) - y
        g0 += err
        g1 += err * x1
        g2 += err * x2
    n = len(batch)
    w[0] -= lr * g0 / n
    w[1] -= lr * g1 / n
    w[2] -= lr * g2 / n


def evaluate(w, rows):
    loss = 0.0
    correct = 0
    for x1, x2, y in rows:
        p = min(max(sigmoid(w[0] + w[1] * x1 + w[2] * x2), 1e-12), 1 - 1e-12)
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        correct += (p >= 0.5) == (y == 1)
    return loss / len(rows), correct / len(rows)


if __name__ == "__main__":
    main()
