# One image for the three roles of docker-compose.yml: Scrapyd (the default
# command, which refuses to start without SCRAPYD_USERNAME and SCRAPYD_PASSWORD),
# crawl workers (scrapy crawl skeleton ...) and one-off commands (scrapy tree /
# diff). No secrets in it: REDIS_URL and the Scrapyd credentials come from the
# environment at run time.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Rendering (-a render=js, skeleton/middlewares/render.py): Debian's Chromium and
# ChromeDriver, driven by Selenium; about 300 MB. Without them (--build-arg
# WITH_CHROMIUM=0) the image is as small as before and a worker given
# -a render=js stops at once with a configuration error.
ARG WITH_CHROMIUM=1
RUN if [ "$WITH_CHROMIUM" = "1" ]; then \
        apt-get update \
        && apt-get install -y --no-install-recommends chromium chromium-driver \
        && rm -rf /var/lib/apt/lists/*; \
    fi

WORKDIR /app
COPY requirements.txt ./
RUN pip install -r requirements.txt

COPY scrapy.cfg setup.py ./
COPY skeleton ./skeleton
COPY docker/scrapyd.conf /etc/scrapyd/scrapyd.conf
COPY docker/healthcheck.py /usr/local/bin/scrapyd-healthcheck
COPY docker/worker /usr/local/bin/skeleton-worker
COPY docker/scrapyd /usr/local/bin/skeleton-scrapyd

# The user the services run as owns where they write: Scrapyd's folder and the
# project's data folder (.scrapy, for commands run in /app without REDIS_URL).
RUN useradd --system --create-home --home-dir /var/lib/scrapyd skeleton \
    && chmod 0755 /usr/local/bin/scrapyd-healthcheck /usr/local/bin/skeleton-worker \
       /usr/local/bin/skeleton-scrapyd \
    && mkdir -p /app/.scrapy && chown skeleton /app /app/.scrapy
USER skeleton

EXPOSE 6800
# Scrapyd runs outside /app, so its jobs import the project from the deployed
# egg (scrapyd-deploy), never from this copy; the workers run in /app.
WORKDIR /var/lib/scrapyd
CMD ["skeleton-scrapyd"]
