# bestmove: a stateless HTTP service that returns the best move in tic-tac-toe,
# Connect Four or a JSON game tree.
#
#   docker build -t bestmove:0.2.0 .
#   docker run --rm -p 8080:8080 bestmove:0.2.0
#
# Two stages: a Rust toolchain compiles a release binary (with the Connect
# Four opening book built in, from data/connect4/), and a distroless Debian 12
# image (the builder's glibc, nothing else) runs it as an unprivileged user.

# ---- build ------------------------------------------------------------------
FROM rust:1.95-slim-bookworm AS builder
WORKDIR /build

# Dependencies first, in their own layer: this is only rebuilt when Cargo.toml
# or Cargo.lock change, not on every source edit. Cargo needs every target the
# manifest declares to exist, so the lib, the binary, the `search` bench and
# the `levels` example get empty stand-ins.
COPY Cargo.toml Cargo.lock ./
COPY .cargo ./.cargo
RUN mkdir -p src benches examples \
 && echo 'fn main() {}' > src/main.rs \
 && : > src/lib.rs \
 && echo 'fn main() {}' > benches/search.rs \
 && echo 'fn main() {}' > examples/levels.rs \
 && cargo build --release --locked --bin bestmove \
 && rm -f target/release/bestmove target/release/deps/bestmove-* \
          target/release/deps/libbestmove-*

# The real sources, and the OpenAPI spec that the binary embeds and serves at
# GET /openapi.yaml. COPY keeps the files' original timestamps, which may be
# older than the stand-ins built above: touch them so Cargo rebuilds the crate.
COPY openapi.yaml ./
COPY data ./data
COPY src ./src
RUN find src -type f -exec touch {} + \
 && cargo build --release --locked --bin bestmove \
 && install -D -m 0755 target/release/bestmove /out/bestmove

# ---- run --------------------------------------------------------------------
# Distroless: glibc, libgcc, CA certificates and time zones, no shell and no
# package manager. scripts/image-compare.sh measures it against
# debian:bookworm-slim (size, start time, search speed): the figures are in
# docs/figures.md, "Runtime images".
FROM gcr.io/distroless/cc-debian12:nonroot

LABEL org.opencontainers.image.title="bestmove" \
      org.opencontainers.image.description="Best move in tic-tac-toe, Connect Four or any JSON game tree (minimax, alpha-beta and an engine)" \
      org.opencontainers.image.version="0.2.0" \
      org.opencontainers.image.licenses="MIT"

COPY --from=builder /out/bestmove /usr/local/bin/bestmove
COPY data/connect4/LICENSE.bitbully-databases /usr/share/doc/bestmove/

# Listen on every interface inside the container (the binary's own default is
# loopback only), log one JSON object per line for log collectors.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    LOG_FORMAT=json

# A fixed, numeric uid/gid (no passwd entry needed) so Kubernetes can check
# runAsNonRoot and match runAsUser: 10001 in deploy/kubernetes/deployment.yaml.
USER 10001:10001
EXPOSE 8080

# `bestmove healthcheck` GETs http://127.0.0.1:$PORT/healthz and exits 0 on
# 200, so the image needs neither curl nor a shell for its health check.
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/bestmove", "healthcheck"]

# The server drains in-flight requests and exits 0 on SIGTERM.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/bestmove"]
