# Tapis, the Discord bot, in a small image.
#   docker build -t tapis .
#   docker run -d --name tapis --env-file .env -v tapis-data:/app/data tapis
# The code lives in /opt/tapis (the fonts inside rendering/); /app/data is the volume that holds
# the database, so the image can be replaced without losing a match.
#
# The base image is pinned by its version tag. Its digest has not been looked up yet; once it is
# (`docker buildx imagetools inspect python:3.11.11-slim-bookworm`), pin that too:
# FROM python:3.11.11-slim-bookworm@sha256:<digest>
FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

WORKDIR /opt/tapis

# Dependencies first, at the exact versions of requirements.lock (made from pyproject.toml by
# tools/lock.py), so a code change does not reinstall them and every build gets the same ones.
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock

COPY games games
COPY ai ai
COPY rendering rendering
COPY bot bot

RUN groupadd --system --gid 10001 tapis \
    && useradd --system --uid 10001 --gid 10001 --create-home --home-dir /app tapis \
    && mkdir -p /app/data \
    && chown 10001:10001 /app/data

ENV PYTHONPATH=/opt/tapis \
    TAPIS_DB=/app/data/tapis.db
WORKDIR /app
USER 10001:10001
VOLUME ["/app/data"]
# The web site, served by the bot when TAPIS_WEB_PORT is set, e.g. with
#   -e TAPIS_WEB_PORT=8080 -e TAPIS_WEB_HOST=0.0.0.0 -p 127.0.0.1:8080:8080
# and a reverse proxy (TLS, TAPIS_WEB_FORWARDED=1) in front of it.
EXPOSE 8080

# Healthy while the bot is connected to Discord: it touches /app/data/tapis.db.alive every 30 s.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
