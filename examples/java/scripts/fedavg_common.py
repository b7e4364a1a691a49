"""Shared by the federated-averaging example's train and aggregate scripts. Standard library only.

The data: each client holds points of two 2-D Gaussian blobs (label 0 around (2, 2), label 1 around
(4, 4)), shifted a little per client so that the clients differ; the model is a logistic regression
with weights [bias, w1, w2], which needs a few rounds to learn its bias from a start at zero.
"""
import json
import math
import os
import random

CENTRE = 3.0


def client_data(client, n=200, seed=0):
    rng = random.Random(1000 * seed + client)
    shift = (client % 3 - 1) * 0.4
    rows = []
    for _ in range(n):
        label = rng.random() < 0.5
        centre = CENTRE + (1.0 if label else -1.0)
        rows.append((rng.gauss(centre + shift, 1.2), rng.gauss(centre - shift, 1.2), 1 if label else 0))
    return rows


def test_data(n=1000):
    rng = random.Random(424242)
    rows = []
    for _ in range(n):
        label = rng.random() < 0.5
        centre = CENTRE + (1.0 if label else -1.0)
        rows.append((rng.gauss(centre, 1.2), rng.gauss(centre, 1.2), 1 if label else 0))
    return rows


def sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def evaluate(w, rows):
    loss, correct = 0.0, 0
    for x1, x2, y in rows:
        p = min(max(sigmoid(w[0] + w[1] * x1 + w[2] * x2), 1e-12), 1 - 1e-12)
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        correct += (p >= 0.5) == (y == 1)
    return loss / len(rows), correct / len(rows)


def dependency_dirs():
    """The folders of the tasks this one depends on, from berth-deps.json (BERTH_DEPS_FILE)."""
    path = os.environ.get("BERTH_DEPS_FILE")
    if not path:
        return {}
    with open(path, encoding="utf-8") as f:
        return {task: entry["dir"] for task, entry in json.load(f).items()}


def write_json(name, value):
    tmp = name + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(value, f)
        f.write("\n")
    os.replace(tmp, name)
