#!/usr/bin/env bash
# The demo in one command, from a fresh clone (JDK 17 and Maven): builds what it needs, then starts an
# embedded HBase, a Tomcat node (port 8080) and a Jetty node (port 8081) serving one shop whose
# sessions live in HBase, until Ctrl-C. Options (ports, data directory): ./demo.sh --help
set -eo pipefail
cd "$(dirname "$0")"

echo "Building the demo (the first build downloads its dependencies and takes a few minutes) ..."
mvn -B -q install -DskipTests -pl demo -am
exec demo/run.sh "$@"
