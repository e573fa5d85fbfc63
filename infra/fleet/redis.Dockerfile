# Redis from Debian's packages for infra/fleet/compose.yaml, so a fleet needs no image but
# Debian and Seekframe's own. Any Redis 6.2+ works (a managed one too: point REDIS_URL at it).
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim
FROM ${BASE_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown redis:redis /data
USER redis
WORKDIR /data
ENTRYPOINT ["redis-server"]
