"""Workload A of the seed-peers comparison as a fedflow script, switched to Berth by its imports.

20 tasks: load fills 200 MiB and sleeps 0.5 s; train sleeps 1 s and returns {metric, device};
estimates 300MB / 4GB; interval 1 s and the CPU gate off, as in the fedflow runs. Each task writes
its own timestamps to WORKDIR/../stamps-<task>.json.

    python3 workload_a_fedflow.py WORKDIR [GPUS]       # GPUS: sim:2x24GiB (default)
"""
import json
import os
import sys
import time

# was: from fedflow import FedFlow, Config / from fedflow.core.task import Task / ... TaskGroup
from berth.fedflow import Config, FedFlow, Task, TaskGroup

WORKDIR = os.path.abspath(sys.argv[1])
GPUS = sys.argv[2] if len(sys.argv) > 2 else "sim:2x24GiB"
STAMPS = WORKDIR + ".stamps"


class WorkloadTask(Task):
    def load(self):
        self.loaded_from = time.time()
        self.data = bytearray(200 << 20)
        time.sleep(0.5)
        self.loaded_to = time.time()

    def train(self, device):
        started = time.time()
        time.sleep(1)
        ended = time.time()
        os.makedirs(STAMPS, exist_ok=True)
        with open(os.path.join(STAMPS, "%s.json" % self.task_id), "w") as out:
            json.dump({"load": [self.loaded_from, self.loaded_to], "train": [started, ended], "device": device}, out)
        return {"metric": len(self.data) / 1e6, "device": device}


Config.set_property("scheduler.interval", 1)
Config.set_property("utilization-limit.cpu", 1.01)   # fedflow's way to turn its CPU gate off

group = TaskGroup("wl", estimate_memory="300MB", estimate_cuda_memory="4GB")
for i in range(20):
    group.add_task(WorkloadTask("t%02d" % i))

with FedFlow(gpus=GPUS, workdir=WORKDIR) as flow:
    flow.execute(group)

print("succeeded %d/20" % sum(1 for t in group.tasks if t.result.get("device")))
