# Parlor online's server in a container: the static musl binary `parlor-server` alone (no shell, no libc), run as a
# user without privileges, its database and log in the volume /data.
#
#   docker build -t parlor-server .
#   docker run -p 7878:7878 -v parlor-data:/data parlor-server
#
# The release workflow (.github/workflows/release.yml) builds it on a tag and pushes it to the repository's registry.

FROM rust:1-alpine AS build
# SQLite (bundled by rusqlite) and ring are C: musl's headers and a C compiler.
RUN apk add --no-cache musl-dev
WORKDIR /src
COPY . .
RUN cargo build --locked --release -p parlor-server --bin parlor-server \
    && cp target/release/parlor-server /parlor-server \
    && mkdir /data \
    && chown 10001:10001 /data

FROM scratch
COPY --from=build /parlor-server /parlor-server
COPY --from=build --chown=10001:10001 /data /data
USER 10001:10001
VOLUME ["/data"]
EXPOSE 7878
ENTRYPOINT ["/parlor-server", "--listen", "0.0.0.0:7878", "--data-dir", "/data"]
