"""Starting the bot: settings from the environment or .env, clear errors, sync only on change."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from bot.discord import run
from bot.discord.client import TapisBot
from bot.discord.config import ConfigError, Settings, environment, read_dotenv
from tests.bot.discord.conftest import StartBot
from tests.fakediscord import FakeDiscord
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[3]


def test_settings_read_the_environment_and_check_it() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": ' "abc" ',
            "DISCORD_API_BASE": "https://proxy:8080/api/v10/",
            "DISCORD_GATEWAY_URL": "wss://gw.example/",
            "TAPIS_DEV_GUILD": "123",
            "TAPIS_DB": "x/y.db",
        }
    )
    assert settings.token == "abc" and settings.api_base == "https://proxy:8080/api/v10"
    assert settings.dev_guild == 123 and settings.database == Path("x/y.db")
    assert Settings.from_env({"DISCORD_TOKEN": "t"}).api_base == "https://discord.com/api/v10"
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        Settings.from_env({})
    with pytest.raises(ConfigError, match="ws://"):
        Settings.from_env({"DISCORD_TOKEN": "t", "DISCORD_GATEWAY_URL": "http://x"})
    with pytest.raises(ConfigError, match="server id"):
        Settings.from_env({"DISCORD_TOKEN": "t", "TAPIS_DEV_GUILD": "my server"})


def test_the_token_is_never_printed_and_travels_only_over_https() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "s3cret-token"})
    assert "s3cret" not in repr(settings) and "s3cret" not in str(settings)
    assert "s3cret" not in f"{settings!r} {[settings]}"
    for base in ("http://proxy:8080/api/v10", "http://10.0.0.1/api", "ftp://x/api", "https://"):
        with pytest.raises(ConfigError, match="DISCORD_API_BASE"):
            Settings.from_env({"DISCORD_TOKEN": "t", "DISCORD_API_BASE": base})
    for local in ("http://127.0.0.1:8080/api/v10", "http://localhost/api", "http://[::1]:9/a"):
        assert Settings.from_env({"DISCORD_TOKEN": "t", "DISCORD_API_BASE": local}).api_base


def test_dotenv_is_read_and_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# secrets\nDISCORD_TOKEN='from-file'\nexport TAPIS_DEV_GUILD=42\n\n")
    assert read_dotenv(dotenv) == {"DISCORD_TOKEN": "from-file", "TAPIS_DEV_GUILD": "42"}
    monkeypatch.setenv("TAPIS_DEV_GUILD", "7")
    assert environment(dotenv)["TAPIS_DEV_GUILD"] == "7"


def test_a_missing_token_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    assert run() == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


async def test_a_rejected_token_is_a_clear_error(fake: FakeDiscord, tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot",
        cwd=tmp_path,
        env={
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "not-the-token",
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
        },
        stderr=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 1
    assert "Discord rejected DISCORD_TOKEN" in err.decode()


async def test_commands_sync_to_the_dev_guild_only_when_they_change(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    bot = await start_bot()
    assert fake.command_syncs == [fake.guild_id] and None not in fake.commands
    await start_bot()
    assert fake.command_syncs == [fake.guild_id]
    # A changed command set is synced again.
    record = bot._sync_hashes()
    record.write_text(record.read_text().replace('"guild', '"old-guild'))
    await start_bot()
    assert fake.command_syncs == [fake.guild_id, fake.guild_id]


async def test_without_a_dev_guild_commands_are_synced_globally(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    await start_bot(dev_guild=False)
    assert fake.command_syncs == [None]
    assert "play" in {c["name"] for c in fake.commands[None]}


async def test_python_m_bot_runs_against_the_fake_and_stops_cleanly_on_sigterm(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The whole entry point: settings from .env, the gateway, the sync, then `docker stop`."""
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={fake.token}\nDISCORD_API_BASE={fake.api_base}\n"
        f"DISCORD_GATEWAY_URL={fake.gateway_url}\nTAPIS_DEV_GUILD={fake.guild_id}\n"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot",
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT)},
        stderr=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        await asyncio.wait_for(fake.identified.wait(), 30)
        assert fake.command_syncs == [fake.guild_id]
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, err.decode()
    assert "Traceback" not in err.decode()
    assert (tmp_path / "data" / "tapis.db").exists()


async def test_descriptions_are_in_french_and_swedish_too(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    await start_bot()
    play = next(c for c in fake.commands[fake.guild_id] if c["name"] == "play")
    assert play["description_localizations"]["fr"].startswith("Jouer votre coup")
    assert play["description_localizations"]["sv-SE"].startswith("Gör ditt drag")
    assert "name_localizations" not in play or not play["name_localizations"]


async def test_every_description_has_its_translations(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    await start_bot()

    def walk(items: list[dict[str, object]]) -> list[dict[str, object]]:
        found = []
        for item in items:
            found.append(item)
            found.extend(walk(item.get("options", [])))  # type: ignore[arg-type]
        return found

    for item in walk(fake.commands[fake.guild_id]):
        localized = item.get("description_localizations") or {}
        assert {"fr", "sv-SE"} <= set(localized), item["description"]  # type: ignore[arg-type]


async def test_the_running_bot_keeps_a_heartbeat_and_removes_it_on_close(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    from bot.process import health

    bot = await start_bot()
    path = health.heartbeat_path(bot.settings.database)
    await until(path.exists, "the heartbeat")
    assert health.problem(path) is None
    await bot.close()
    assert not path.exists()


def test_the_bot_keeps_no_cache_of_messages() -> None:
    """It answers commands and buttons, whose events carry what they need: discord.py's cache
    of the last 1,000 messages would only keep them alive, each in a cycle left to the
    collector once pushed out."""
    bot = TapisBot(Settings.from_env({"DISCORD_TOKEN": "t"}))
    assert bot._connection.max_messages is None
    assert list(bot.cached_messages) == []
