"""Run the benchmark sections named on the command line, or all of them."""

from __future__ import annotations

import argparse
import importlib
import platform

from bench import SECTIONS


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("sections", nargs="*", help="default: all")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    print(f"Tapis benchmarks — Python {platform.python_version()} on {platform.machine()}")
    for name in args.sections or SECTIONS:
        print(f"\n== {name}")
        importlib.import_module(f"bench.{name}").run(args.seconds)


if __name__ == "__main__":
    main()
