# Tapis, the Discord bot, in a small image.
#   docker build -t tapis .
#   docker run -d --name tapis --env-file .env -v tapis-data:/app/data tapis
# The code lives in /opt/tapis (fonts included); /app/data is the volume that holds the
# database, so the image can be replaced without losing a match.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

WORKDIR /opt/tapis

# Dependencies first, from pyproject.toml alone: a code change does not reinstall them.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > requirements.txt \
    && pip install -r requirements.txt \
    && rm requirements.txt

COPY games games
COPY rendering rendering
COPY bot bot

RUN useradd --system --uid 10001 --create-home --home-dir /app tapis \
    && mkdir -p /app/data \
    && chown tapis:tapis /app/data

ENV PYTHONPATH=/opt/tapis \
    TAPIS_DB=/app/data/tapis.db
WORKDIR /app
USER tapis
VOLUME ["/app/data"]

CMD ["python", "-m", "bot"]
