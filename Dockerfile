# syntax=docker/dockerfile:1
# `outposts` in a container, e.g. the orchestrator on Daytona or CoreWeave:
#
#   docker build -t outposts .
#   docker run -d --name outposts-orchestrator --restart unless-stopped \
#     --env-file /etc/outposts/outposts.env -v outposts-state:/var/lib/outposts outposts
#
# The default command is `outposts orchestrator run` with JSON logs and /metrics, /readyz and
# /livez on port 9464 (the health check asks /livez: unhealthy only when the loop is wedged).
# Any other command works too: `docker run --rm --env-file … outposts doctor`.
# Settings come from the environment (--env-file); the token is never baked into the image.
# Written to be correct by construction; the repository's CI does not run docker.

# --- build: the release binary (LTO, one codegen unit, stripped: see Cargo.toml) -------------
FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
# ring needs a C compiler; rust:slim has gcc and libc6-dev. No protoc: build.rs reads the
# descriptor set vendored in proto/.
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin outposts \
 && install -m 0755 target/release/outposts /usr/local/bin/outposts

# --- run ----------------------------------------------------------------------------------
FROM debian:bookworm-slim
# ca-certificates: TLS to Devin, Daytona and CoreWeave. tini: PID 1 that forwards SIGTERM and
# reaps children. bubblewrap, util-linux (nsenter), git and curl: only for `--provider local`,
# which additionally needs a container allowed to create user namespaces (e.g. docker run
# --security-opt seccomp=unconfined --security-opt apparmor=unconfined); Daytona and
# CoreWeave need none of that.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tini bubblewrap util-linux git curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /home/outposts --uid 10001 outposts \
 && install -d -m 0700 -o outposts -g outposts /var/lib/outposts
COPY --from=build /usr/local/bin/outposts /usr/local/bin/outposts
USER outposts
WORKDIR /home/outposts
# No OS keyring in a container; STATE_DIR on the volume so a restart reattaches to its claims
# (one volume per replica: never share a STATE_DIR between two orchestrators).
ENV OUTPOSTS_NO_KEYRING=1 \
    STATE_DIR=/var/lib/outposts/state \
    OUTPOSTS_LOCAL_ROOT=/var/lib/outposts/sandboxes
VOLUME ["/var/lib/outposts"]
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD curl -fsS http://127.0.0.1:9464/livez >/dev/null || exit 1
# SIGTERM: stop claiming, persist, exit within 30 s; sandboxes and remotes keep running.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--", "outposts"]
CMD ["orchestrator", "run", "--metrics-addr", "0.0.0.0:9464", "--log-format", "json"]
