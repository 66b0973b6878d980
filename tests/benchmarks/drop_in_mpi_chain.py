#!/usr/bin/env python3
"""The MPI drop-in at the size MPI programs have: examples/drop_in_cvode/chain_cvode_mpi.c (a chain
of damped masses and springs on SUNDIALS' parallel vector, BDF with the matrix-free GMRES) run by
mpiexec on 1 and 2 ranks, audited and with --no-audit, interleaved. Reports for each rank count:

  - the audit's added time: the integration loop's time (the slowest rank's, --report) audited over
    unaudited, per repetition pair, with its median and spread, and the steps of both (equal);
  - δ_C, and its relative difference from the 1-rank run (the whole state in one process);
  - each rank's peak resident memory (getrusage) of audited runs of two lengths, and the steps.

Not a test and not run by CTest; see docs/benchmarks.md, the drop-in on a million states. Run from
the build directory:

    python3 ../tests/benchmarks/drop_in_mpi_chain.py --repetitions 3
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time


def run(args, ranks, options):
    """One run of the example: its loop time, steps, δ_C (None unaudited), peak RSS per rank and
    the whole process's wall time."""
    command = [args.mpiexec, "-n", str(ranks), args.program, "--states", str(args.states), *options, "--report"]
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=args.environment)
    wall = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"drop_in_mpi_chain: {' '.join(command)} exited with {done.returncode}:\n{done.stderr}")
    report = re.search(r"loop time ([0-9.]+) s; peak RSS per rank \[kB\]:([ 0-9]+)", done.stderr)
    steps = re.search(r"nst = (\d+)", done.stdout)
    delta = re.search(r"delta_C to the last digit = (\S+)", done.stdout)
    if report is None or steps is None:
        sys.exit(f"drop_in_mpi_chain: no report or counters from {' '.join(command)}")
    return {
        "loop": float(report.group(1)),
        "rss": [int(value) for value in report.group(2).split()],
        "steps": int(steps.group(1)),
        "delta": float(delta.group(1)) if delta else None,
        "wall": wall,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", default="bin/chain_cvode_mpi")
    parser.add_argument("--mpiexec", default="mpiexec")
    parser.add_argument("--states", type=int, default=1_000_000)
    parser.add_argument("--t-end", type=float, default=0.1, help="the timed runs' final time")
    parser.add_argument("--memory-t-ends", type=float, nargs=2, default=[0.02, 0.3],
                        help="the final times of the two audited runs whose peak memory is compared")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    # As root, OpenMPI must be told that it may run, and on few cores that it may start the ranks.
    args.environment = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                            OMPI_MCA_rmaps_base_oversubscribe="1")

    print(f"chain_cvode_mpi, {args.states} states, t_end = {args.t_end}, {args.repetitions} repetitions "
          f"(audited and unaudited interleaved)")
    reference_delta = None
    for ranks in args.ranks:
        ratios, walls, audited_runs, plain_runs = [], [], [], []
        for _ in range(args.repetitions):
            plain = run(args, ranks, ["--t-end", str(args.t_end), "--no-audit"])
            audited = run(args, ranks, ["--t-end", str(args.t_end)])
            if plain["steps"] != audited["steps"]:
                sys.exit(f"drop_in_mpi_chain: {plain['steps']} steps unaudited, {audited['steps']} audited")
            ratios.append(audited["loop"] / plain["loop"])
            walls.append(audited["wall"] / plain["wall"])
            plain_runs.append(plain)
            audited_runs.append(audited)
        delta = audited_runs[0]["delta"]
        if reference_delta is None:
            reference_delta = delta
        print(f"\n{ranks} rank(s): {audited_runs[0]['steps']} steps audited and unaudited")
        print("  loop time unaudited [s]: " + " ".join(f"{r['loop']:.2f}" for r in plain_runs))
        print("  loop time audited   [s]: " + " ".join(f"{r['loop']:.2f}" for r in audited_runs))
        print(f"  audited / unaudited: median {statistics.median(ratios):.3f}, "
              f"min {min(ratios):.3f}, max {max(ratios):.3f} (whole process: median {statistics.median(walls):.3f})")
        print(f"  delta_C = {delta:.17e}, relative difference from the first rank count's "
              f"{abs(delta - reference_delta) / reference_delta:.2e}")
        for t_end in args.memory_t_ends:
            measured = run(args, ranks, ["--t-end", str(t_end)])
            print(f"  audited, t_end = {t_end}: {measured['steps']} steps, peak RSS per rank [kB]: "
                  + " ".join(str(value) for value in measured["rss"]))
        print("  unaudited, t_end = {}: peak RSS per rank [kB]: {}".format(
            args.t_end, " ".join(str(value) for value in plain_runs[0]["rss"])))


if __name__ == "__main__":
    main()
