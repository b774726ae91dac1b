#!/usr/bin/env bash
# Runs the demo that ../demo.sh builds: HBase, a Tomcat node and a Jetty node, until Ctrl-C.
# Options: --help. Ctrl-C reaches every process of the terminal's group; the children ignore it and the
# launcher stops the nodes, then HBase, in order.
cd "$(dirname "$0")/.." || exit 1
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" @demo/target/demo.args "$@"
