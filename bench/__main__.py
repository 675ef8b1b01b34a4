"""Run the benchmark sections named on the command line, or all of them."""

from __future__ import annotations

import argparse
import importlib
import platform

from bench import SECTIONS, machine


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("sections", nargs="*", help="default: all")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    # The computer opponent's section takes options of its own (matches, jobs, games).
    bench_ai = importlib.import_module("bench.ai")
    bench_ai.add_arguments(parser)
    # The Discord section's capacity part: --rate (and --matches, shared with the above).
    bench_discord = importlib.import_module("bench.discord")
    bench_discord.add_arguments(parser)
    # The coach's section: --positions (and --matches, --game, shared with the above).
    bench_coach = importlib.import_module("bench.coach")
    bench_coach.add_arguments(parser)
    args = parser.parse_args()
    unknown = sorted(set(args.sections) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section {', '.join(unknown)}: sections are {', '.join(SECTIONS)}")
    print(f"Tapis benchmarks — Python {platform.python_version()} on {platform.machine()}")
    for name in args.sections or SECTIONS:
        print(f"\n== {name}")
        module = importlib.import_module(f"bench.{name}")
        before = machine.reference_seconds()
        if module in (bench_ai, bench_discord, bench_coach):
            module.run(args.seconds, args)
        else:
            module.run(args.seconds)
        print(machine.describe(before, machine.reference_seconds()))


if __name__ == "__main__":
    main()
