#!/usr/bin/env bash
# Checks that openapi.yaml is a valid OpenAPI 3.1 document, with
# openapi-spec-validator (PyPI) in its own virtualenv under target/.
# The HTTP tests hold the server to the spec's schemas; this holds the spec
# itself to OpenAPI (for example: no `description` on a media type object).
#
# Usage: scripts/validate-spec.sh   (from anywhere in the repo)
# Needs: python3 with venv, and PyPI reachable on the first run (the
# virtualenv under target/spec-venv is reused afterwards).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VALIDATOR_VERSION=0.9.0
VENV=$ROOT/target/spec-venv
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

if [[ "$("$VENV/bin/pip" show openapi-spec-validator 2>/dev/null | sed -n 's/^Version: //p')" != "$VALIDATOR_VERSION" ]]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "openapi-spec-validator==$VALIDATOR_VERSION"
fi
"$VENV/bin/openapi-spec-validator" "$ROOT/openapi.yaml"
