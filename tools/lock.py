"""Regenerate requirements.lock: the exact versions the Docker image installs.

    python3 tools/lock.py        (or: make lock)

Installs the dependencies listed in pyproject.toml into a new, empty virtual environment and
writes what pip resolved (``pip freeze``) to requirements.lock, under a header. Run it when a
dependency changes in pyproject.toml, then run the tests: tests/release/ check that the lock
satisfies pyproject.toml and that the image's install steps work with it.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
HEADER = """\
# The exact versions the Docker image installs (pip install -r requirements.lock).
# Generated from pyproject.toml's dependencies by `python3 tools/lock.py`; do not edit by hand.
"""


def main() -> int:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dependencies = project["project"]["dependencies"]
    with tempfile.TemporaryDirectory() as folder:
        venv.create(folder, with_pip=True)
        python = str(Path(folder) / "bin" / "python")
        pip = [python, "-m", "pip", "--disable-pip-version-check"]
        subprocess.run([*pip, "install", "--quiet", *dependencies], check=True)
        frozen = subprocess.run([*pip, "freeze"], check=True, capture_output=True, text=True).stdout
    pins = sorted((line for line in frozen.splitlines() if "==" in line), key=str.lower)
    LOCK.write_text(HEADER + "\n".join(pins) + "\n", encoding="utf-8")
    print(f"wrote {len(pins)} pins to {LOCK.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
