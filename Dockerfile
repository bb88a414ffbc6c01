# Build stage: the Swift toolchain compiles a static-stdlib release binary. The headers of the
# system libraries it links (libxml2 for the sanitizer, SQLite for GRDB, Cairo and Pango for the
# signed consent copies) are named here
# even though the image has them, so that the build says what it needs.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libxml2-dev libsqlite3-dev libcairo2-dev libpango1.0-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
# The binary carries the templates and static files (the EmbedDefaults plugin builds them in).
COPY Plugins ./Plugins
COPY Templates ./Templates
COPY Public ./Public
RUN swift build -c release --product survey --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/survey" /usr/local/bin/survey

# Runtime stage: a slim Debian with the shared libraries the binary loads (libxml2, SQLite,
# Cairo and Pango, with the DejaVu fonts the copies are set in),
# time zone data and CA certificates (HTTPS webhooks, TLS to PostgreSQL), running as a
# non-root user whose numeric id the host can resolve. Tests/docker checks the packages
# against `ldd` of the binary.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libxml2 libsqlite3-0 libcairo2 libpangocairo-1.0-0 fonts-dejavu-core tzdata ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 survey \
 && useradd --system --uid 10001 --gid survey --create-home --home-dir /srv/survey \
      --shell /usr/sbin/nologin survey
COPY --from=build /usr/local/bin/survey /usr/local/bin/survey
COPY Examples /srv/survey/Examples
COPY schema /srv/survey/schema
WORKDIR /srv/survey
RUN mkdir -p /srv/survey/data && chown 10001:10001 /srv/survey/data
USER 10001:10001
EXPOSE 8080
VOLUME ["/srv/survey/data"]
ENTRYPOINT ["/usr/local/bin/survey"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--data", "/srv/survey/data"]
