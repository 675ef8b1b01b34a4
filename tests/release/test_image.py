"""The Docker image without a Docker daemon: its Dockerfile replayed in a fresh virtual
environment (only the paths it copies, the dependencies it installs) must boot the bot, which
then connects to the fake Discord, syncs, answers a command and reports healthy. A COPY or a
dependency missing from the image fails here."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.fakediscord import FakeDiscord
from tests.release.conftest import DOCKERFILE, ROOT, Image, instructions
from tests.waiting import until

LOCK = ROOT / "requirements.lock"


def _pins() -> dict[str, str]:
    pins = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"requirements.lock: {line!r} is not name==version"
            pins[canonicalize_name(name)] = version
    return pins


def test_the_lock_pins_every_dependency_within_pyproject() -> None:
    """requirements.lock must satisfy pyproject.toml: regenerate it with `make lock`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = _pins()
    for spec in project["project"]["dependencies"]:
        requirement = Requirement(spec)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in requirements.lock: run `make lock`"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"requirements.lock pins {name}=={pins[name]}, outside {spec}: run `make lock`"
        )


def test_the_dockerfile_installs_from_the_lock_and_has_a_health_check() -> None:
    steps = instructions(DOCKERFILE.read_text(encoding="utf-8"))
    keywords = [keyword for keyword, _ in steps]
    base = next(arguments for keyword, arguments in steps if keyword == "FROM")
    assert base.count(":") == 1 and base.split(":")[1][0].isdigit(), f"unpinned base {base}"
    assert "HEALTHCHECK" in keywords and keywords[-1] == "CMD"
    installs = [a for k, a in steps if k == "RUN" and "pip install" in a]
    assert installs and all("-r requirements.lock" in a for a in installs)
    assert steps[-1][1] == '["python", "-m", "bot"]'


async def test_the_image_boots_against_the_fake_discord(image: Image, fake: FakeDiscord) -> None:
    assert {"bot", "games", "rendering", "requirements.lock"} <= set(image.copied)
    home = image.path(image.workdir)
    env = image.environment(
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        TAPIS_DEV_GUILD=str(fake.guild_id),
        TAPIS_LOG_FORMAT="json",
    )
    process = await asyncio.create_subprocess_exec(
        *image.command(image.cmd),
        cwd=home,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await asyncio.wait_for(fake.identified.wait(), 60)
        await until(lambda: fake.command_syncs, "the commands synced")
        assert fake.command_syncs == [fake.guild_id]
        user = fake.add_user("Dora")
        reply = await (await fake.slash(user, "tapis rules", game="piquet")).reply(timeout=30)
        assert "Piquet" in reply.content

        # Ready (and so healthy) once discord.py stops waiting for more guilds, about 2 s.
        async def healthy() -> bool:
            return (await _health(image, home, env)).returncode == 0

        await until(healthy, "the health check to pass")
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(process.communicate(), 30)
    log = err.decode()
    assert process.returncode == 0, log
    assert "Traceback" not in log, log
    assert (image.path(env["TAPIS_DB"].removeprefix(str(image.root)))).exists()
    stopped = await _health(image, home, env)
    assert stopped.returncode == 1  # no heartbeat once it has stopped


async def _health(
    image: Image, home: object, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return await asyncio.to_thread(
        subprocess.run,
        image.command(image.healthcheck),
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
