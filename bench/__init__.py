"""Benchmarks: `make bench` (or `python -m bench [section ...]`) prints figures.

Each section is a module with a ``run(seconds)`` function. Timings are measured, printed
and never asserted: the test suite does not depend on this machine's speed.
"""

SECTIONS = ("engines", "ai", "coach", "rendering", "service", "storage", "discord", "web")
