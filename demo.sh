#!/usr/bin/env bash
# The demo in one command, from a fresh clone (JDK 17 and Maven): builds what it needs, then starts an
# embedded HBase, a Tomcat node (port 8080) and a Jetty node (port 8081) serving one shop whose
# sessions live in HBase, until Ctrl-C. Options (ports, data directory): ./demo.sh --help
# Ctrl-C reaches every process of the terminal's group; the nodes and HBase ignore it and the launcher
# stops the nodes, then HBase, in order. HBASE_SESSIONS_SKIP_BUILD=1 runs what an earlier build left
# (the build's own demo test does).
set -eo pipefail
cd "$(dirname "$0")"

if [ -z "${HBASE_SESSIONS_SKIP_BUILD:-}" ]; then
  echo "Building the demo (the first build downloads its dependencies and takes a few minutes) ..."
  build_log=$(mktemp)
  if ! mvn -B -q install -DskipTests -pl demo/demo-launcher -am > "$build_log" 2>&1; then
    cat "$build_log"
    rm -f "$build_log"
    echo "error: the build failed (output above)" >&2
    exit 1
  fi
  rm -f "$build_log"
fi
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" @demo/demo-launcher/target/demo.args "$@"
