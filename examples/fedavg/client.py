#!/usr/bin/env python3
"""One federated-averaging client, a two-stage Berth task.

load  (on the CPU): builds this client's shard of the synthetic dataset; the client id comes from
                    the matrix value `client` (BERTH_PARAM_CLIENT).
train (on the device Berth hands over; "cpu" here): starts from the previous round's global model,
                    the model.json in the folder of the aggregate task this one runs after
                    (BERTH_DEP_AGGREGATE_<K>_DIR), or from zeros in round 1; runs a few epochs of SGD,
                    writes model.json (the weights, its shard size and the round) into its own
                    folder and returns {"loss", "acc", ...}, which Berth writes to result.json.

Run by hand it loads client 0 (or BERTH_PARAM_CLIENT), trains from zeros and prints the result.
"""
import fedavg_lib as lib
from berth.task import run_task


def load(ctx):
    client = int(ctx.params.get("client", "0"))
    xs, ys = lib.make_shard(client)
    ctx.set_item("samples", len(xs))
    return {"client": client, "xs": xs, "ys": ys}


def previous_global_model(ctx):
    """The aggregate model this client starts from, and the round it finished; zeros and 0 at first."""
    found = [m for m in (lib.read_model(d) for d in ctx.dependency_dirs.values()) if m is not None]
    if not found:
        return lib.zero_model(), 0
    if len(found) > 1:
        raise ValueError("expected one previous aggregate model, found %d in %s" % (len(found), ctx.dependency_dirs))
    model = found[0]
    return {"weights": model["weights"], "bias": model["bias"]}, int(model["round"])


def train(state, device, ctx):
    start, previous_round = previous_global_model(ctx)
    round_ = previous_round + 1
    xs, ys = state["xs"], state["ys"]
    model = lib.sgd(start, xs, ys, lib.LOCAL_EPOCHS, lib.LEARNING_RATE, seed=1000 * round_ + state["client"])
    loss, acc = lib.evaluate(model, xs, ys)
    lib.write_model(ctx.workdir, dict(model, samples=len(xs), round=round_, client=state["client"]))
    return {"round": round_, "client": state["client"], "samples": len(xs),
            "loss": round(loss, 4), "acc": round(acc, 4), "device": device}


if __name__ == "__main__":
    run_task(load, train)
