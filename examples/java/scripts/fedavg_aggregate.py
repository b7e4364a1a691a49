#!/usr/bin/env python3
"""Federated averaging: reads model.json of every train task this one depends on (their folders
come from berth-deps.json), averages the weights by sample count, tests the average on held-out
data and writes model.json and result.json ({"round", "accuracy", "loss"}) into its working folder.
"""
import argparse
import json
import os
import sys

from fedavg_common import dependency_dirs, evaluate, test_data, write_json


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--round", type=int, required=True)
    args = parser.parse_args()

    models = []
    for task, folder in sorted(dependency_dirs().items()):
        with open(os.path.join(folder, "model.json"), encoding="utf-8") as f:
            models.append(json.load(f))
    if not models:
        sys.exit("fedavg_aggregate.py: no train task to aggregate; run it after the round's train tasks")
    total = sum(m["n"] for m in models)
    w = [sum(m["weights"][i] * m["n"] for m in models) / total for i in range(3)]

    loss, acc = evaluate(w, test_data())
    write_json("model.json", {"weights": w, "n": total})
    write_json("result.json", {"round": args.round, "clients": len(models), "accuracy": round(acc, 6), "loss": round(loss, 6)})
    print(f"round {args.round}: {len(models)} clients, accuracy {acc:.3f}", flush=True)


if __name__ == "__main__":
    main()
