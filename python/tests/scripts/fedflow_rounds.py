"""A fedflow script of the cifar FedAvg example's shape, switched to Berth by its imports alone.

Two groups (a round of clients, then an aggregation) run in order; client "c1" runs out of memory
while loading the first time, client "c2" while training the first time. Like fedflow's examples it
has no ``if __name__ == "__main__"`` guard. It writes what the caller's task objects hold, as JSON,
to the file named by its first argument.
"""
import json
import sys
import time

from berth.fedflow import Config, FedFlow, Task, TaskGroup

OUT, GPUS, WORKDIR = sys.argv[1], sys.argv[2], sys.argv[3]


class Client(Task):
    def __init__(self, client_id):
        super().__init__("c%d" % client_id, estimate_memory="32MiB", estimate_cuda_memory="6GiB")
        self.client_id = client_id

    def load(self):
        self.loaded_at = time.time()
        if self.task_id == "c1" and self.load_numbers == 1:
            raise MemoryError("no room for the shard")
        self.shard = list(range(self.client_id * 10, self.client_id * 10 + 10))

    def train(self, device):
        started = time.time()
        self.set_item("epochs", 2)
        if self.task_id == "c2" and self.train_numbers == 1:
            raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")
        time.sleep(0.5)
        return {"sum": sum(self.shard), "device": device, "started": started, "ended": time.time()}


class Aggregate(Task):
    def load(self):
        self.loaded_at = time.time()

    def train(self, device):
        if self.task_id == "broken":
            raise ValueError("nothing to aggregate")
        return {"loaded": self.loaded_at, "device": device}


Config.set_property("scheduler.interval", 0.2)         # fedflow's seconds
Config.set_property("utilization-limit.cpu", 1.0)
Config.set_property("remain-limit.memory", "1MiB")
Config.set_property("utilization-limit.memory", 1.0)

clients = TaskGroup("round-1")
for i in range(4):
    clients.add_task(Client(i))
aggregate = TaskGroup("aggregate-1", estimate_memory="32MiB", estimate_cuda_memory="1GiB")
aggregate.add_task(Aggregate("mean"))
aggregate.add_task(Aggregate("broken"))

with FedFlow(gpus=GPUS, workdir=WORKDIR) as flow:
    flow.execute(clients)
    flow.execute(aggregate)

summary = {}
for group in (clients, aggregate):
    for task in group.tasks:
        summary[task.task_id] = {"status": task.status.name, "result": task.result, "epochs": task.get_item("epochs"),
                                 "load_numbers": task.load_numbers, "train_numbers": task.train_numbers,
                                 "workdir": task.workdir, "group_result": group.result.get(task.task_id)}
with open(OUT, "w") as out:
    json.dump(summary, out)
