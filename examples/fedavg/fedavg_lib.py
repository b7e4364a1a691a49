"""What the federated-averaging example's tasks share: the synthetic data, the model and its files.

The data is a binary classification problem for logistic regression with DIM features. Every
client draws its own shard from its own seed: a different number of samples and a shifted feature
distribution (the shards are not identically distributed, as in real federated learning). The
labels of every shard and of the held-out test set come from one hidden model with some noise, so
the best reachable test accuracy is about 0.9. The features have very different scales, which
makes plain SGD slow on the small ones: the global model keeps improving over several rounds
instead of converging in the first.

Standard library only.
"""
import json
import math
import os
import random

DIM = 8
CLIENTS = 4
TEST_SAMPLES = 1000
LEARNING_RATE = 0.02
LOCAL_EPOCHS = 2

# Feature j is scaled by SCALES[j]; the hidden model is given for the unscaled features.
SCALES = [3.0, 2.0, 1.5, 1.0, 0.6, 0.4, 0.3, 0.2]
_hidden = random.Random(2024)
TRUE_WEIGHTS = [_hidden.choice((-1, 1)) * _hidden.uniform(1.0, 2.0) for _ in range(DIM)]
TRUE_BIAS = 0.5
LABEL_NOISE = 1.0


def shard_size(client):
    """Clients hold 150, 250, 350 and 450 samples: FedAvg weights them by that."""
    return 150 + 100 * client


def _draw(rng, shift):
    raw = [rng.gauss(shift[j], 1.0) for j in range(DIM)]
    score = sum(w * x for w, x in zip(TRUE_WEIGHTS, raw)) + TRUE_BIAS + rng.gauss(0.0, LABEL_NOISE)
    return [x * s for x, s in zip(raw, SCALES)], 1 if score > 0 else 0


def _shift(client):
    rng = random.Random(7919 * (client + 1))
    return [rng.gauss(0.0, 0.7) for _ in range(DIM)]


def make_shard(client):
    """Client `client`'s training data, (features, labels), the same on every call."""
    rng = random.Random(client)
    shift = _shift(client)
    rows = [_draw(rng, shift) for _ in range(shard_size(client))]
    return [x for x, _ in rows], [y for _, y in rows]


def make_test_set():
    """The held-out test set: TEST_SAMPLES points drawn from all clients' distributions alike."""
    rng = random.Random(10_000)
    shifts = [_shift(c) for c in range(CLIENTS)]
    rows = [_draw(rng, shifts[rng.randrange(CLIENTS)]) for _ in range(TEST_SAMPLES)]
    return [x for x, _ in rows], [y for _, y in rows]


def zero_model():
    return {"weights": [0.0] * DIM, "bias": 0.0}


def _sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def _score(model, x):
    return sum(w * v for w, v in zip(model["weights"], x)) + model["bias"]


def evaluate(model, xs, ys):
    """(mean log loss, accuracy) of the model on the data."""
    loss, right = 0.0, 0
    for x, y in zip(xs, ys):
        p = min(max(_sigmoid(_score(model, x)), 1e-12), 1 - 1e-12)
        loss -= math.log(p) if y else math.log(1 - p)
        right += (p >= 0.5) == (y == 1)
    return loss / len(xs), right / len(xs)


def sgd(model, xs, ys, epochs, lr, seed):
    """Plain SGD on the log loss, one sample at a time, in an order shuffled by seed."""
    weights, bias = list(model["weights"]), model["bias"]
    order = list(range(len(xs)))
    rng = random.Random(seed)
    for _ in range(epochs):
        rng.shuffle(order)
        for i in order:
            x = xs[i]
            error = _sigmoid(sum(w * v for w, v in zip(weights, x)) + bias) - ys[i]
            for j in range(DIM):
                weights[j] -= lr * error * x[j]
            bias -= lr * error
    return {"weights": weights, "bias": bias}


def read_model(folder):
    """The model.json in folder, or None when there is none."""
    path = os.path.join(folder, "model.json")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def write_model(folder, model):
    """Writes model.json into folder atomically: a reader never sees half a file."""
    path = os.path.join(folder, "model.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(model, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
