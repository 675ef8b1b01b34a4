"""The release checks: the Docker image's install steps and the wheel, each in a fresh virtual
environment outside the checkout (they share one: the image's, with requirements.lock's
dependencies). pip's cache is kept, so after the first run they take seconds."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pytest

from tests.bot.discord.conftest import fake  # noqa: F401  (the fake Discord fixture)

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
# RUN steps the reproduction skips, because they set up the system, not Python: any other RUN
# must be an install step this test can replay, so a new kind of step is noticed here.
SYSTEM_STEPS = ("groupadd ", "useradd ", "mkdir ", "chown ")


def instructions(text: str) -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue  # a comment inside a continued instruction
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        keyword, _, arguments = whole.partition(" ")
        out.append((keyword.upper(), arguments.strip()))
    assert not pending, "the Dockerfile ends inside a continued line"
    return out


@dataclass
class Image:
    """The image rebuilt as folders: ``root`` stands for the image's ``/``."""

    root: Path
    venv: Path
    env: dict[str, str] = field(default_factory=dict)
    workdir: PurePosixPath = field(default_factory=lambda: PurePosixPath("/"))
    cmd: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)
    copied: list[str] = field(default_factory=list)

    def path(self, inside: PurePosixPath | str) -> Path:
        return self.root / str(inside).lstrip("/")

    def mapped(self, value: str) -> str:
        """An image path in an environment value, as the folder that stands for it."""
        return str(self.path(value)) if value.startswith("/") else value

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def environment(self, **extra: str) -> dict[str, str]:
        """The image's ENV (paths mapped), its Python first on PATH, nothing of the checkout."""
        env = {key: self.mapped(value) for key, value in self.env.items()}
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
        env["HOME"] = str(self.root / "home")
        # Speed only: the image installs without a cache, the test keeps pip's between runs,
        # and skips compiling every module to bytecode.
        env.pop("PIP_NO_CACHE_DIR", None)
        env["PIP_NO_COMPILE"] = "1"
        for key in ("PIP_CACHE_DIR", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CONFIG_FILE"):
            if key in os.environ:
                env[key] = os.environ[key]
        env.setdefault("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip"))
        env.update(extra)
        return env

    def command(self, argv: list[str]) -> list[str]:
        """An exec-form command with ``python`` as the image's Python."""
        return [str(self.python) if argv[0] == "python" else argv[0], *argv[1:]]


def _copy(image: Image, arguments: str) -> None:
    parts = [p for p in shlex.split(arguments) if not p.startswith("--")]
    *sources, target = parts
    destination = image.path(image.workdir / target)
    for source in sources:
        origin = ROOT / source
        assert origin.exists(), f"COPY {source}: no such path in the repository"
        image.copied.append(source)
        if origin.is_dir():
            shutil.copytree(
                origin,
                destination,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("__pycache__"),
            )
        else:
            into = destination if target.endswith("/") or target in (".", "./") else None
            place = (into / origin.name) if into is not None else destination
            place.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, place)


def _run(image: Image, command: str) -> None:
    if command.startswith(SYSTEM_STEPS):
        assert "pip" not in command and "apt" not in command, f"replay this step: {command}"
        return
    assert "pip install" in command, f"RUN {command!r}: teach tests/release how to replay it"
    folder = image.path(image.workdir)
    done = subprocess.run(
        ["sh", "-c", command],
        cwd=folder,
        env=image.environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"RUN {command} failed:\n{done.stdout}\n{done.stderr}"


def _pip_shim(image: Image) -> None:
    """``pip`` in the fresh environment: this test run's pip, installing into it (``--python``).

    Speed only, the result is the same: seeding a new environment with its own pip takes
    longer than the whole install, and ``--no-cache-dir`` (right in the image, where no cache
    is kept) is dropped so that pip's cache serves the packages downloaded before."""
    shim = image.venv / "bin" / "pip"
    shim.write_text(
        f"#!{sys.executable}\n"
        "import subprocess, sys\n"
        "args = [a for a in sys.argv[1:] if a != '--no-cache-dir']\n"
        f"command = [{sys.executable!r}, '-m', 'pip', '--python', {str(image.python)!r}]\n"
        "sys.exit(subprocess.call([*command, *args]))\n",
        encoding="utf-8",
    )
    shim.chmod(0o755)


def build(root: Path) -> Image:
    """Replay the Dockerfile: ENV, WORKDIR, COPY (from the repository, only what it names),
    RUN pip … (in a fresh virtual environment standing for the image's Python), CMD and
    HEALTHCHECK."""
    image = Image(root=root, venv=root / "venv")
    venv.create(image.venv, with_pip=False)
    _pip_shim(image)
    for keyword, arguments in instructions(DOCKERFILE.read_text(encoding="utf-8")):
        if keyword == "ENV":
            for pair in shlex.split(arguments):
                key, _, value = pair.partition("=")
                image.env[key] = value
        elif keyword == "WORKDIR":
            image.workdir = image.workdir / arguments
            image.path(image.workdir).mkdir(parents=True, exist_ok=True)
        elif keyword == "COPY":
            _copy(image, arguments)
        elif keyword == "RUN":
            _run(image, arguments)
        elif keyword == "CMD":
            image.cmd = json.loads(arguments)
        elif keyword == "HEALTHCHECK":
            image.healthcheck = json.loads(arguments.partition(" CMD ")[2])
    return image


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The release checks share one built image (a session fixture, a minute to build): when
    the suite runs side by side, they run in one process so that it is built once."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.xdist_group("release"))


@pytest.fixture(scope="session")
def image(tmp_path_factory: pytest.TempPathFactory) -> Image:
    root = tmp_path_factory.mktemp("image")
    assert not str(root).startswith(str(ROOT)), "the image must be built outside the checkout"
    return build(root)
