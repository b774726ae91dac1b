#!/usr/bin/env bash
# By hand, not part of the build: the sticky scenario of StickyTomcatAndTomcatSessionsIT and
# StickyJettyAndJettySessionsIT behind HAProxy from the distribution's package (apt-get install haproxy), configured
# with haproxy.cfg beside this script, the configuration docs/operations.md shows. It starts an embedded HBase, two
# nodes (Tomcat 10.1 or Jetty 12.1, the tests' node programs) with stickySessions=true and the routes node1 and node2,
# serving the test WAR, and HAProxy in front of them; then
#   1. 200 requests of 4 logged-in users, every fourth an increment: HBase reads per request from the nodes' counters;
#   2. kill -9 of node1: its users' next requests, their sessions, logins and routes;
#   3. node1 started again; node2 put in maintenance (still running, its copies held): everyone back on node1, and
#      a write; node2 ready again: the users stay on node1, and a request with node2's old route, sent
#      stickyStalenessMillis after that write, is answered with it (from HBase, not node2's copy).
# Needs a built clone (mvn -B install -DskipTests), JDK 17, curl, unzip and haproxy.
#   integration-tests/by-hand/sticky-behind-haproxy.sh [tomcat|jetty]
# MVN overrides the Maven command (MVN="mvn -o -q -Dmaven.repo.local=..."); ports: BASE_PORT (default 28080) to +9.
# Logs and data stay in $WORK (default: a new /tmp/sticky-haproxy.XXXX).
set -euo pipefail

CONTAINER=${1:-tomcat}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MVN=${MVN:-mvn -q}
BASE_PORT=${BASE_PORT:-28080}
LB_PORT=$BASE_PORT
NODE1_PORT=$((BASE_PORT + 1))
NODE2_PORT=$((BASE_PORT + 2))
ADMIN_PORT=$((BASE_PORT + 8))
ZK_PORT=$((BASE_PORT + 9))
WORK=${WORK:-$(mktemp -d /tmp/sticky-haproxy.XXXX)}
STALENESS_MS=1000
USERS=(u1 u2 u3 u4)
REQUESTS=200

case "$CONTAINER" in
  tomcat) NODE_JAR=$ROOT/testing/tomcat-node/target/tomcat-node-0.1.0-SNAPSHOT.jar
          NODE_MAIN=io.hbasesessions.testing.tomcat.TomcatNodeMain
          LISTING=io/hbasesessions/testing/tomcat/node.classpath ;;
  jetty)  NODE_JAR=$ROOT/testing/jetty-node/target/jetty-node-0.1.0-SNAPSHOT.jar
          NODE_MAIN=io.hbasesessions.testing.jetty.JettyNodeMain
          LISTING=io/hbasesessions/testing/jetty/node.classpath ;;
  *) echo "usage: $0 [tomcat|jetty]" >&2; exit 2 ;;
esac
NODE_CP=$NODE_JAR:$(unzip -p "$NODE_JAR" "$LISTING")
WAR=$ROOT/testing/test-webapp/target/test-webapp.war
echo "work directory: $WORK ($CONTAINER nodes)"

PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
  wait 2> /dev/null || true
}
trap cleanup EXIT

await_line() { # file pattern seconds
  for _ in $(seq $(($3 * 10))); do
    grep -q "$2" "$1" 2> /dev/null && return 0
    sleep 0.1
  done
  echo "error: no '$2' in $1 within $3 s" >&2
  exit 1
}

# ------------------------------------------------------------------ HBase, the nodes, HAProxy
$MVN -f "$ROOT/testing/embedded-hbase/pom.xml" dependency:build-classpath -DincludeScope=runtime \
  -Dmdep.outputFile="$WORK/hbase.cp" > /dev/null
java -cp "$ROOT/testing/embedded-hbase/target/classes:$(cat "$WORK/hbase.cp")" io.hbasesessions.embedded.EmbeddedHBaseMain \
  --data-dir "$WORK/hbase" --zookeeper-port "$ZK_PORT" > "$WORK/hbase.out" 2>&1 &
PIDS+=($!)
await_line "$WORK/hbase.out" "HBase is up" 120

declare -A NODE_PID
start_node() { # name port
  java --add-opens=java.base/java.nio=ALL-UNNAMED -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$NODE_CP" \
    "$NODE_MAIN" --port "$2" --war "$WAR" --context-path /app --work-dir "$WORK/$1" --route "$1" \
    --store-setting zookeeperQuorum=127.0.0.1:$ZK_PORT --store-setting stickySessions=true \
    --store-setting regions=1 --user alice:demo:shopper --user bob:demo:shopper >> "$WORK/$1.log" 2>&1 &
  NODE_PID[$1]=$!
  PIDS+=($!)
}
start_node node1 "$NODE1_PORT"
start_node node2 "$NODE2_PORT"
await_line "$WORK/node1.log" "NODE READY" 120
await_line "$WORK/node2.log" "NODE READY" 120

sed -e "s/@LB_PORT@/$LB_PORT/" -e "s/@NODE1_PORT@/$NODE1_PORT/" -e "s/@NODE2_PORT@/$NODE2_PORT/" \
  -e "s/@ADMIN_PORT@/$ADMIN_PORT/" "$ROOT/integration-tests/by-hand/haproxy.cfg" > "$WORK/haproxy.cfg"
haproxy -db -f "$WORK/haproxy.cfg" > "$WORK/haproxy.log" 2>&1 &
PIDS+=($!)

admin() { # an HAProxy runtime API command
  exec 3<> "/dev/tcp/127.0.0.1/$ADMIN_PORT"
  printf '%s\n' "$1" >&3
  cat <&3
  exec 3<&-
}
server_status() { # node1|node2: UP, DOWN, MAINT, ...
  admin "show stat" | awk -F, -v s="$1" '$1=="app" && $2==s {print $18}'
}
await_status() { # server status seconds
  for _ in $(seq $(($3 * 10))); do
    [ "$(server_status "$1")" = "$2" ] && return 0
    sleep 0.1
  done
  echo "error: HAProxy does not see $1 $2 within $3 s (it is $(server_status "$1"))" >&2
  exit 1
}
sleep 0.5
await_status node1 UP 10
await_status node2 UP 10

# ------------------------------------------------------------------ helpers
session() { # user query: the answer's key=value lines, then status=CODE
  curl -s -b "$WORK/$1.cookies" -c "$WORK/$1.cookies" -w 'status=%{http_code}\n' \
    "http://127.0.0.1:$LB_PORT/app/session?$2"
}
with_cookie() { # cookie query: as a tab still holding that cookie
  curl -s -H "Cookie: JSESSIONID=$1" -w 'status=%{http_code}\n' "http://127.0.0.1:$LB_PORT/app/session?$2"
}
value() { sed -n "s/^$1=//p"; }
cookie_of() { awk '$6=="JSESSIONID" {v=$7} END {print v}' "$WORK/$1.cookies"; }
route_of() { cookie_of "$1" | awk -F. '{print $NF}'; }
counter() { # port name
  curl -s "http://127.0.0.1:$1/app/counters" | value "$2"
}
node_port() { [ "$1" = node1 ] && echo "$NODE1_PORT" || echo "$NODE2_PORT"; }
failed=0
check() { # what expected actual
  if [ "$2" = "$3" ]; then echo "  ok   $1: $3"; else echo "  FAIL $1: expected $2, was $3"; failed=$((failed + 1)); fi
}

# ------------------------------------------------------------------ 1. sticky traffic
echo "1. $REQUESTS requests of ${#USERS[@]} users through HAProxy"
declare -A COUNT
for user in "${USERS[@]}"; do
  session "$user" "op=create" > /dev/null
  session "$user" "op=login&user=alice&password=demo" > /dev/null
  session "$user" "op=put&name=cart&value=book-$user" > /dev/null
  COUNT[$user]=0
  echo "  $user: route $(route_of "$user")"
done
loads_before=$(( $(counter "$NODE1_PORT" loads) + $(counter "$NODE2_PORT" loads) ))
hits_before=$(( $(counter "$NODE1_PORT" stickyHits) + $(counter "$NODE2_PORT" stickyHits) ))
wrong=0
started=$(date +%s%N)
for i in $(seq 0 $((REQUESTS - 1))); do
  user=${USERS[$((i % ${#USERS[@]}))]}
  if [ $(((i / ${#USERS[@]}) % 4)) = 0 ]; then
    COUNT[$user]=$((COUNT[$user] + 1))
    answer=$(session "$user" "op=incr&name=count")
  else
    answer=$(session "$user" "op=get")
  fi
  [ "$(value attr.count <<< "$answer")" = "${COUNT[$user]}" ] || wrong=$((wrong + 1))
done
elapsed_ms=$((($(date +%s%N) - started) / 1000000))
loads=$(( $(counter "$NODE1_PORT" loads) + $(counter "$NODE2_PORT" loads) - loads_before ))
hits=$(( $(counter "$NODE1_PORT" stickyHits) + $(counter "$NODE2_PORT" stickyHits) - hits_before ))
echo "  loads=$loads stickyHits=$hits in ${elapsed_ms} ms; HBase reads per request" \
  "$(awk -v l="$loads" -v h="$hits" -v r="$REQUESTS" 'BEGIN {printf "%.3f", (l - h) / r}')"
check "answers with a wrong count" 0 "$wrong"

# ------------------------------------------------------------------ 2. failover
echo "2. kill -9 of node1"
ON_NODE1=()
for user in "${USERS[@]}"; do [ "$(route_of "$user")" = node1 ] && ON_NODE1+=("$user"); done
kill -9 "${NODE_PID[node1]}"
killed=$(date +%s%N)
for user in "${ON_NODE1[@]}"; do
  answer=$(session "$user" "op=get")
  check "$user's first request after the kill, $((($(date +%s%N) - killed) / 1000000)) ms after it" 200 \
    "$(value status <<< "$answer")"
  check "$user's cart" "Note(book-$user)" "$(value attr.cart <<< "$answer")"
  check "$user's login" alice "$(value principal <<< "$answer")"
  check "$user's route" node2 "$(route_of "$user")"
  session "$user" "op=put&name=cart&value=written-on-node2" > /dev/null
done
echo "  HAProxy sees node1 $(sleep 1.5; server_status node1)"

# ------------------------------------------------------------------ 3. failback
echo "3. node1 again; node2 in maintenance (running); node2 ready again"
start_node node1 "$NODE1_PORT"
await_line "$WORK/node1.log" "NODE READY" 120
await_status node1 UP 10
admin "set server app/node2 state maint" > /dev/null
declare -A TAB_ON_NODE2
for user in "${USERS[@]}"; do
  TAB_ON_NODE2[$user]=$(cookie_of "$user")
  cart=book-$user
  for moved in "${ON_NODE1[@]}"; do [ "$moved" = "$user" ] && cart=written-on-node2; done
  answer=$(session "$user" "op=get")
  check "$user's cart on node1" "Note($cart)" "$(value attr.cart <<< "$answer")"
  check "$user's route" node1 "$(route_of "$user")"
  session "$user" "op=put&name=cart&value=written-on-node1" > /dev/null
done
last_write=$(date +%s%N)
admin "set server app/node2 state ready" > /dev/null
await_status node2 UP 10
for user in "${USERS[@]}"; do
  check "$user's cart with node2 back" "Note(written-on-node1)" "$(session "$user" "op=get" | value attr.cart)"
done
sleep "$(awk -v w="$last_write" -v now="$(date +%s%N)" -v s="$STALENESS_MS" \
  'BEGIN {d = (w + s * 1000000 - now) / 1e9; print (d > 0 ? d : 0)}')"
hits_before=$(counter "$NODE2_PORT" stickyHits)
invalidations=$(counter "$NODE2_PORT" stickyInvalidations)
for user in "${USERS[@]}"; do
  check "a tab of $user with node2's route" "Note(written-on-node1)" \
    "$(with_cookie "${TAB_ON_NODE2[$user]}" "op=get" | value attr.cart)"
done
check "requests of those tabs node2 answered from a copy" 0 $(( $(counter "$NODE2_PORT" stickyHits) - hits_before ))
echo "  node2's stickyInvalidations: $invalidations"
echo "failures: $failed (logs in $WORK)"
exit $((failed > 0))
