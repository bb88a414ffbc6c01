# Build stage: the Swift toolchain compiles a static-stdlib release binary.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends libxml2-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product survey --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/survey" /usr/local/bin/survey

# Runtime stage: a slim Debian with libxml2 and time zone data, running as a non-root user.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libxml2 tzdata ca-certificates libcurl4 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /srv/survey --uid 10001 survey
COPY --from=build /usr/local/bin/survey /usr/local/bin/survey
COPY Examples /srv/survey/Examples
COPY Templates /srv/survey/Templates
COPY Public /srv/survey/Public
COPY schema /srv/survey/schema
WORKDIR /srv/survey
RUN mkdir -p /srv/survey/data && chown survey:survey /srv/survey/data
USER survey
EXPOSE 8080
VOLUME ["/srv/survey/data"]
ENTRYPOINT ["/usr/local/bin/survey"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--data", "/srv/survey/data"]
