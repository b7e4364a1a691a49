#!/usr/bin/env python3
"""The aggregation step of a federated-averaging round, a two-stage Berth task.

load  (on the CPU): builds the held-out synthetic test set.
train: reads BERTH_DEPS_FILE, the JSON map of the tasks this one runs after (this round's clients:
       id -> {group, dir, status}), averages the model.json in their folders weighted by each
       client's shard size (FedAvg), writes the global model to model.json in its own folder,
       evaluates it on the test set, prints the accuracy, publishes it as the item "acc" (fedflow's
       set_item) and returns {"round", "acc", ...}, which Berth writes to result.json.
"""
import json
import os

import fedavg_lib as lib
from berth.task import run_task


def load(ctx):
    return lib.make_test_set()


def client_models():
    deps_file = os.environ.get("BERTH_DEPS_FILE")
    if not deps_file:
        raise ValueError("BERTH_DEPS_FILE is not set: run this task after the round's clients")
    with open(deps_file, encoding="utf-8") as f:
        deps = json.load(f)
    models = []
    for task_id, dep in sorted(deps.items()):
        model = lib.read_model(dep["dir"]) if dep.get("status") == "SUCCEEDED" else None
        if model is None:
            raise ValueError("client %s (%s) left no model.json in %s" % (task_id, dep.get("status"), dep["dir"]))
        models.append(model)
    if not models:
        raise ValueError("no client models in %s" % deps_file)
    return models


def train(test_set, device, ctx):
    models = client_models()
    rounds = {m["round"] for m in models}
    if len(rounds) != 1:
        raise ValueError("the client models come from different rounds: %s" % sorted(rounds))
    round_ = rounds.pop()
    total = sum(m["samples"] for m in models)
    weights = [sum(m["weights"][j] * m["samples"] for m in models) / total for j in range(lib.DIM)]
    bias = sum(m["bias"] * m["samples"] for m in models) / total
    model = {"weights": weights, "bias": bias}
    loss, acc = lib.evaluate(model, *test_set)
    lib.write_model(ctx.workdir, dict(model, round=round_, samples=total, clients=len(models)))
    print("round %d: test accuracy %.3f, loss %.4f (%d clients, %d samples)"
          % (round_, acc, loss, len(models), total), flush=True)
    ctx.set_item("acc", acc)
    return {"round": round_, "acc": round(acc, 4), "loss": round(loss, 4), "clients": len(models), "samples": total}


if __name__ == "__main__":
    run_task(load, train)
