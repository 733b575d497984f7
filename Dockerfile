# Parlor online's server in a container: the static musl binary `parlor-server` alone (no shell, no libc), run as a
# user without privileges, its database and log in the volume /data, its health asked by the binary itself.
#
#   docker build -t parlor-server .
#   docker run -p 7878:7878 -v parlor-data:/data parlor-server
#   docker run -e PARLOR_LOG_FORMAT=json -e PARLOR_MAX_CONNECTIONS_PER_IP=128 ... parlor-server
#
# Every option is an environment variable too (docs/ONLINE.md, "Running a server"); a flag after the image's name
# wins over it. The release workflow (.github/workflows/release.yml) builds it on a tag and pushes it to the
# repository's registry.

# The build, as scripts/static-test.sh builds the static binary: Debian's musl-gcc for the C of the bundled
# SQLite, the musl target.
FROM rust:1-bookworm AS build
# musl-tools is not pinned: bookworm's is one version, and a pin breaks the build at Debian's next point release.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends musl-tools \
    && rm -rf /var/lib/apt/lists/* \
    && rustup target add x86_64-unknown-linux-musl
WORKDIR /src
COPY . .
ENV CC_x86_64_unknown_linux_musl=musl-gcc
RUN cargo build --locked --release -p parlor-server --bin parlor-server --target x86_64-unknown-linux-musl \
    && cp target/x86_64-unknown-linux-musl/release/parlor-server /parlor-server \
    && mkdir /data \
    && chown 10001:10001 /data

# The image: the binary, the data directory, nothing else.
FROM scratch
COPY --from=build /parlor-server /parlor-server
COPY --from=build --chown=10001:10001 /data /data
USER 10001:10001
ENV PARLOR_LISTEN=0.0.0.0:7878 \
    PARLOR_DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 7878
# `--health-check` asks the server on PARLOR_LISTEN's port for /healthz: 200 (the hub and the store answer) or not.
HEALTHCHECK --interval=30s --timeout=10s --start-period=10s --retries=3 \
    CMD ["/parlor-server", "--health-check"]
ENTRYPOINT ["/parlor-server"]
