#!/usr/bin/env bash
# The demo in one command, from a fresh clone (JDK 17 and Maven): builds what it needs, then starts an
# embedded HBase, a Tomcat node (port 8080) and a Jetty node (port 8081) serving one shop whose
# sessions live in HBase, until Ctrl-C. Options (ports, data directory): ./demo.sh --help
set -eo pipefail
cd "$(dirname "$0")"

echo "Building the demo (the first build downloads its dependencies and takes a few minutes) ..."
build_log=$(mktemp)
if ! mvn -B -q install -DskipTests -pl demo -am > "$build_log" 2>&1; then
  cat "$build_log"
  rm -f "$build_log"
  echo "error: the build failed (output above)" >&2
  exit 1
fi
rm -f "$build_log"
exec demo/run.sh "$@"
