"""The wheel carries everything the pictures need: built from the project, installed into a
fresh environment outside the checkout, it draws a hand and a table (names in several scripts,
so the fallback fonts are read from the installed package too)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.release.conftest import ROOT, Image

SKIP = shutil.ignore_patterns(
    ".git", ".venv", "tests", "__pycache__", "build", "dist", "*.egg-info", "data", ".*_cache"
)

DRAW = """
import sys
from pathlib import Path

import games
import rendering
from rendering.fonts import CHAIN, font_bytes

here = Path(rendering.__file__).resolve()
assert "site-packages" in here.parts, here
state = games.get("piquet").new_match(seed=7)
hand = rendering.hand_png(state.view(0))
table = rendering.table_png(state.view(None), ("Zoé 李小龙", "محمد 😀"))
for picture in (hand, table):
    assert picture.startswith(b"\\x89PNG"), picture[:8]
for face in CHAIN:
    assert font_bytes(face.regular) and font_bytes(face.bold)
print(len(hand), len(table))
"""


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built from a copy of the sources (no build files in the checkout)."""
    source = tmp_path_factory.mktemp("source") / "tapis"
    shutil.copytree(ROOT, source, ignore=SKIP)
    dist = source.parent / "dist"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(dist),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (built,) = dist.glob("tapis-*.whl")
    return built


def test_the_wheel_ships_the_fonts_and_their_licences(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    fonts = {n for n in names if n.startswith("rendering/typefaces/")}
    shipped = {p.relative_to(ROOT).as_posix() for p in (ROOT / "rendering" / "typefaces").iterdir()}
    assert fonts == shipped
    assert any(n.endswith(".dist-info/METADATA") for n in names)
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    assert "License-Expression: MIT" in zipfile.ZipFile(wheel).read(metadata).decode()


def test_the_installed_wheel_draws_outside_the_checkout(
    wheel: Path, image: Image, tmp_path: Path
) -> None:
    env = image.environment()
    env.pop("PYTHONPATH", None)  # the image's code folder: here only the installed wheel counts
    install = subprocess.run(
        [str(image.venv / "bin" / "pip"), "install", "--quiet", "--no-deps", str(wheel)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    done = subprocess.run(
        [str(image.python), "-I", "-c", DRAW],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    hand, table = (int(n) for n in done.stdout.split())
    assert hand > 1000 and table > 1000
