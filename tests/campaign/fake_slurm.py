"""A stand-in for SLURM's sbatch / srun / sacct / squeue / scancel, for tests without a cluster.

``python fake_slurm.py <command> <args...>`` (the test puts shell wrappers named after the
commands on PATH). ``sbatch`` records the rendered submission script and its arguments under
``$FAKE_SLURM_DIR``, answers ``Submitted batch job <id>`` and runs the array tasks in the
background, one after the other, with the environment SLURM gives a task; ``srun`` drops its
options and runs the command; ``sacct`` reports tasks whose result file exists as COMPLETED.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

JOB_ID = 4242
RECORD = Path(os.environ.get("FAKE_SLURM_DIR", "."))


def _directive(script: str, name: str) -> str | None:
    m = re.search(rf"^#SBATCH --{name}=(\S+)$", script, flags=re.M)
    return m.group(1) if m else None


def sbatch(args: list[str]) -> None:
    path = Path(args[-1])
    script = path.read_text()
    n = len(list(RECORD.glob("sbatch_*.sh")))
    (RECORD / f"sbatch_{n}.sh").write_text(script)
    (RECORD / f"sbatch_{n}.json").write_text(json.dumps({"args": args, "job_id": JOB_ID + n}))
    print(f"Submitted batch job {JOB_ID + n}", flush=True)
    log = open(RECORD / f"tasks_{n}.log", "w")  # noqa: SIM115 (the child keeps it)
    subprocess.Popen(
        [sys.executable, __file__, "_run_array", str(path), str(JOB_ID + n)],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=os.environ.copy(),
    )


def _run_array(script_path: str, job_id: str) -> None:
    script = Path(script_path).read_text()
    array = _directive(script, "array") or "0-0"
    last = int(array.split("%")[0].split("-")[-1])
    command = script.split("\nsrun ", 1)[1].strip()
    folder = command.rsplit(" ", 1)[-1]
    for task in range(last + 1):
        task_id = f"{job_id}_{task}"
        pickle = Path(folder.replace("%j", task_id)) / f"{task_id}_submitted.pkl"
        deadline = time.time() + 60
        while not pickle.exists() and time.time() < deadline:  # submitit moves it after sbatch
            time.sleep(0.05)
        env = {
            **os.environ,
            "SLURM_JOB_ID": str(int(job_id) * 100 + task),
            "SLURM_ARRAY_JOB_ID": job_id,
            "SLURM_ARRAY_TASK_ID": str(task),
            "SLURM_NTASKS": "1",
            "SLURM_JOB_NUM_NODES": "1",
            "SLURM_NODEID": "0",
            "SLURM_JOB_NODELIST": "localhost",
            "SLURM_PROCID": "0",
            "SLURM_LOCALID": "0",
            "SLURM_CPUS_PER_TASK": _directive(script, "cpus-per-task") or "1",
        }
        subprocess.run(["bash", script_path], env=env, check=False)


def srun(args: list[str]) -> None:
    rest = list(args)
    while rest and rest[0].startswith("--"):
        flag = rest.pop(0)
        if flag in ("--output", "--error"):
            rest.pop(0)
    os.execvp(rest[0], rest)


def sacct(args: list[str]) -> None:
    print("JobID|State|NodeList")
    ids = [args[i + 1] for i, a in enumerate(args) if a == "-j"]
    for jid in ids:
        print(f"{jid}|RUNNING|localhost")  # done is seen from the result files


def main() -> None:
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "sbatch":
        sbatch(args)
    elif cmd == "_run_array":
        _run_array(*args)
    elif cmd == "srun":
        srun(args)
    elif cmd == "sacct":
        sacct(args)
    # squeue, scancel: nothing to do


if __name__ == "__main__":
    main()
