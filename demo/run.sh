#!/usr/bin/env bash
# Runs the demo that ../demo.sh builds (and then runs through this script): HBase, a Tomcat node and a
# Jetty node, until Ctrl-C. Options: --help.
#
# Why a script around the java command: Ctrl-C in a terminal signals every process of the foreground
# group, HBase included, and HBase's own reaction to SIGINT stops its ZooKeeper before its region
# server, which then hangs for about 20 s and recovers slowly at the next start. So the launcher runs
# as a background job of this non-interactive shell, which makes it, and every process it starts,
# ignore SIGINT; this script turns Ctrl-C into one SIGTERM to the launcher, which stops the nodes and
# then HBase cleanly.
cd "$(dirname "$0")/.." || exit 1

java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
"$java" @demo/target/demo.args "$@" &
launcher=$!
trap 'kill -TERM "$launcher" 2>/dev/null; signalled=130' INT
trap 'kill -TERM "$launcher" 2>/dev/null; signalled=143' TERM

# A trapped signal ends `wait` early: wait again until the launcher has stopped everything.
while true; do
  wait "$launcher"
  status=$?
  kill -0 "$launcher" 2>/dev/null || break
done
exit "${signalled:-$status}"
