"""One ``berth run`` of a spec the package wrote, read back as a :class:`RunReport`."""

import os

from . import _command, _payload
from ._report import RunReport


def run_spec(spec, inputs, gpus=None, host_ledger=None, berth=None, echo=True, extra_args=()):
    """Writes ``spec`` into the folder ``inputs`` (inside the run's workdir, which may thus hold
    files before the run's first start), runs it from there and returns its report."""
    os.makedirs(inputs, exist_ok=True)
    path = _command.write_spec(os.path.join(inputs, "spec.json"), spec)
    # from the inputs folder, so that no ./config.yaml of the caller's is read behind its back
    berth_run(path, ["--workdir-allow-nonempty"] + list(extra_args), gpus=gpus, host_ledger=host_ledger,
              berth=berth, echo=True if echo is None else echo, cwd=inputs,
              env=_command.child_environment(_payload.caller_paths()))
    return RunReport(spec["workdir"])


def berth_run(path, flags=(), gpus=None, host_ledger=None, berth=None, echo=True, cwd=None, env=None):
    """Runs ``berth run FLAGS PATH`` without its progress line, with the package's ``gpus`` and
    ``host_ledger`` options as Berth's flags."""
    args = ["run", "--no-progress"] + list(flags)
    if gpus is not None:
        args.append("--gpus=%s" % gpus)
    if host_ledger is not None:
        args.append("--host-ledger=%s" % ("on" if host_ledger else "off"))
    args.append(path)
    _command.invoke(args, berth=berth, cwd=cwd, env=env, echo=echo)


def spec_keys(values, fields):
    """The ``fields`` set in ``values`` under the spec's names for them (``gpu_memory`` is ``gpu-memory``)."""
    return {field.replace("_", "-"): values[field] for field in fields if values.get(field) is not None}


def nest(flat):
    """Dotted config keys (``{"scheduler.max-process": 4}``) as a spec's nested ``config:``."""
    tree = {}
    for key, value in flat.items():
        node = tree
        parts = str(key).split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        if isinstance(value, dict):
            merge(node.setdefault(parts[-1], {}), nest(value))
        else:
            node[parts[-1]] = value
    return tree


def merge(into, other):
    """Merges nested mappings, ``other`` winning."""
    for key, value in other.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = value
    return into
