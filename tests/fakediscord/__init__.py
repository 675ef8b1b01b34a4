"""A fake Discord (REST + gateway on 127.0.0.1) for running the real discord.py client."""

from tests.fakediscord.server import FakeDiscord, FakeInteraction, FakeUser, Sent

__all__ = ["FakeDiscord", "FakeInteraction", "FakeUser", "Sent"]
