#!/usr/bin/env python3
"""One client's local training in a federated-averaging round.

Starts from the previous round's aggregate (model.json in the folder of the task this one depends
on, found through berth-deps.json), or from zeros in the first round; runs a few epochs of gradient
descent on its own data; writes model.json (weights and sample count) and result.json into its
working folder.
"""
import argparse
import json
import os

from fedavg_common import client_data, dependency_dirs, evaluate, sigmoid, write_json


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--client", type=int, required=True)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=0.5)
    args = parser.parse_args()

    w = [0.0, 0.0, 0.0]
    for folder in dependency_dirs().values():
        with open(os.path.join(folder, "model.json"), encoding="utf-8") as f:
            w = json.load(f)["weights"]

    rows = client_data(args.client)
    for _ in range(args.epochs):
        g = [0.0, 0.0, 0.0]
        for x1, x2, y in rows:
            err = sigmoid(w[0] + w[1] * x1 + w[2] * x2) - y
            g[0] += err
            g[1] += err * x1
            g[2] += err * x2
        w = [wi - args.lr * gi / len(rows) for wi, gi in zip(w, g)]

    loss, acc = evaluate(w, rows)
    write_json("model.json", {"weights": w, "n": len(rows)})
    write_json("result.json", {"client": args.client, "train_loss": round(loss, 6), "train_acc": round(acc, 6)})
    print(f"client {args.client}: train_acc {acc:.3f}", flush=True)


if __name__ == "__main__":
    main()
