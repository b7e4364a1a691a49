"""Federated averaging as call tasks of an engine pool: the same clients and aggregation as client.py
and aggregate.py, written as plain functions that Berth calls in warm Python engines.

warm():          each engine's setup, run once: imports the shared code and builds the test set.
client(client):  builds the client's shard, trains from the previous global model (the model.json in
                 the folder of the aggregate this task runs after, BERTH_DEP_AGGREGATE_<K>_DIR; zeros
                 in round 1), writes model.json into its own folder (BERTH_TASK_DIR) and returns the
                 result, which Berth writes to result.json.
aggregate():     averages the clients' models (their folders are in BERTH_DEPS_FILE), writes the
                 global model and returns its test accuracy.
"""
import json
import os

import fedavg_lib as lib

_test_set = None


def warm():
    global _test_set
    _test_set = lib.make_test_set()


def _previous_global_model():
    dirs = [v for k, v in os.environ.items() if k.startswith("BERTH_DEP_") and k.endswith("_DIR")]
    found = [m for m in (lib.read_model(d) for d in dirs) if m is not None]
    if not found:
        return lib.zero_model(), 0
    model = found[0]
    return {"weights": model["weights"], "bias": model["bias"]}, int(model["round"])


def client(client):
    xs, ys = lib.make_shard(client)
    start, previous_round = _previous_global_model()
    round_ = previous_round + 1
    model = lib.sgd(start, xs, ys, lib.LOCAL_EPOCHS, lib.LEARNING_RATE, seed=1000 * round_ + client)
    loss, acc = lib.evaluate(model, xs, ys)
    lib.write_model(os.environ["BERTH_TASK_DIR"], dict(model, samples=len(xs), round=round_, client=client))
    return {"round": round_, "client": client, "samples": len(xs), "loss": round(loss, 4), "acc": round(acc, 4),
            "engine": os.environ.get("BERTH_ENGINE")}


def aggregate():
    with open(os.environ["BERTH_DEPS_FILE"], encoding="utf-8") as f:
        deps = json.load(f)
    models = [lib.read_model(dep["dir"]) for _, dep in sorted(deps.items())]
    if any(m is None for m in models):
        raise ValueError("a client left no model.json")
    round_ = models[0]["round"]
    total = sum(m["samples"] for m in models)
    weights = [sum(m["weights"][j] * m["samples"] for m in models) / total for j in range(lib.DIM)]
    bias = sum(m["bias"] * m["samples"] for m in models) / total
    model = {"weights": weights, "bias": bias}
    loss, acc = lib.evaluate(model, *(_test_set or lib.make_test_set()))
    lib.write_model(os.environ["BERTH_TASK_DIR"], dict(model, round=round_, samples=total, clients=len(models)))
    print("round %d: test accuracy %.3f, loss %.4f (%d clients, %d samples)"
          % (round_, acc, loss, len(models), total), flush=True)
    return {"round": round_, "acc": round(acc, 4), "loss": round(loss, 4), "clients": len(models), "samples": total}
