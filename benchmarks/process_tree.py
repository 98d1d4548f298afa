"""Run one benchmark job as a child process and measure its whole process tree (Linux /proc).

What a job costs is what the parent *and* its worker processes cost: ``ru_maxrss`` names only
the largest single process, so memory is sampled instead.

- wall: seconds from start to exit (``time.perf_counter``);
- CPU: user + system seconds of the child and every descendant it waited for, from
  ``os.wait4``; a descendant never waited for (reparented to init) is counted from its last
  ``/proc/<pid>/stat`` sample instead, whichever is larger;
- peak RSS: the largest sum, over the tree's live processes, of resident memory, sampled every
  :data:`SAMPLE_SECONDS`; shared pages (a forked worker's copy-on-write pages, the libraries)
  count once per process, so it overstates what the machine gave the tree;
- peak PSS: the same for proportional set size (shared pages divided among their sharers)
  from ``/proc/<pid>/smaps_rollup``, sampled every :data:`PSS_EVERY` samples (reading it
  costs the job time), or ``None`` where that file cannot be read.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SAMPLE_SECONDS = 0.02
PSS_EVERY = 10
"""PSS is read at every this many samples (every 0.2 s) and whenever the tree's RSS has grown
by :data:`PSS_GROWTH` since it was last read; RSS at each sample. Reading ``smaps_rollup``
walks a process's page tables: read every 20 ms from the three processes of a build, it took
~9% of the build's wall time on two cores (RSS, from ``stat``, costs ~1%)."""
PSS_GROWTH = 1.1
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class TreeUsage:
    """What one job cost: ``wall_s`` and ``cpu_s`` in seconds, ``peak_rss`` and ``peak_pss`` in
    bytes (``peak_pss`` ``None`` where smaps_rollup is unreadable), ``processes`` seen."""

    wall_s: float
    cpu_s: float
    peak_rss: int
    peak_pss: int | None
    processes: int


def _children(pid: int) -> list[int]:
    """``pid``'s child processes (from every thread's ``children`` file); [] once it is gone."""
    kids: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                kids.extend(int(k) for k in f.read().split())
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return kids


def _stat(pid: int) -> tuple[float, int] | None:
    """``(user + system CPU seconds, RSS bytes)`` of ``pid``, or ``None`` once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # Fields after "(comm)": state is index 0, so utime (14th field) is 11, stime 12, rss 21.
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND, int(fields[21]) * PAGE_BYTES


def _pss(pid: int) -> int | None:
    """``pid``'s proportional set size in bytes, or ``None`` if smaps_rollup is unreadable."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    return None


def pss_readable() -> bool:
    """Whether this machine lets a process read ``/proc/<pid>/smaps_rollup`` (PSS reported)."""
    return _pss(os.getpid()) is not None


class _Sampler(threading.Thread):
    """Samples the tree under ``root`` until :meth:`stop`; keeps peaks and last CPU per pid."""

    def __init__(self, root: int, with_pss: bool):
        super().__init__(daemon=True)
        self.root, self.with_pss = root, with_pss
        self.peak_rss, self.peak_pss = 0, 0
        self.cpu_by_pid: dict[int, float] = {}
        self._done = threading.Event()

    def run(self) -> None:
        count, rss_at_pss = 0, 0
        while not self._done.is_set():
            pids, rss = self.sample()
            if self.with_pss and (count % PSS_EVERY == 0 or rss >= rss_at_pss * PSS_GROWTH):
                self.peak_pss = max(self.peak_pss, sum(_pss(pid) or 0 for pid in pids))
                rss_at_pss = rss
            count += 1
            self._done.wait(SAMPLE_SECONDS)

    def sample(self) -> tuple[list[int], int]:
        """Read the tree's processes' CPU and RSS; returns the pids alive and their RSS summed."""
        rss, alive = 0, []
        todo = [self.root]
        while todo:
            pid = todo.pop()
            todo.extend(_children(pid))
            stat = _stat(pid)
            if stat is None:
                continue
            alive.append(pid)
            self.cpu_by_pid[pid] = stat[0]
            rss += stat[1]
        self.peak_rss = max(self.peak_rss, rss)
        return alive, rss

    def stop(self) -> None:
        self._done.set()
        self.join()


def run_tree(args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> TreeUsage:
    """Run ``args`` to completion as a child process and measure its tree (see the module doc).

    Its output is discarded; raises ``RuntimeError`` naming the command and ending with its
    stderr when it exits with a non-zero status."""
    with_pss = pss_readable()
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(args, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errors)
        sampler = _Sampler(proc.pid, with_pss)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        sampler.stop()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            errors.seek(0)
            raise RuntimeError(f"{' '.join(args)} exited with status {proc.returncode}:\n"
                               f"{errors.read()[-4000:].decode('utf-8', 'replace')}")
    waited = usage.ru_utime + usage.ru_stime
    return TreeUsage(wall, max(waited, sum(sampler.cpu_by_pid.values())), sampler.peak_rss,
                     sampler.peak_pss if with_pss else None, len(sampler.cpu_by_pid))
