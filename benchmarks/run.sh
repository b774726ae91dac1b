#!/usr/bin/env bash
# The benchmark suite in one command (see docs/benchmarks.md):
#   benchmarks/run.sh --quick   # every part, small sizes: about 20 minutes once built
#   benchmarks/run.sh --full    # the published run: about 45 minutes
# Further options go to the suite, e.g. --profile (JFR profiles of HBase and the nodes in the work directory)
# or --parts failover (only the region server failover runs), or --pin-backend-cpus 0 (HBase, Redis and PostgreSQL on
# CPU 0, the nodes and the load generator on the others; results in results-<mode>-pinned).
# Installs what it needs from the operating system's packages (redis-server, postgresql, wrk, gnuplot),
# starts Redis and PostgreSQL on 127.0.0.1 for the run, builds the benchmark modules, runs the suite
# and stops what it started. Results: benchmarks/target/results-<mode>/results.md (and http.png, failover-*.png, sizing-rewrite.png).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
shift || true
case "$mode" in
  # A quick run of 2026-12-03 reached its last part (failover) after 15 minutes: 30 leaves room on a busy machine.
  --quick) time_limit=30m ;;
  --full) time_limit=90m ;;
  *) echo "usage: benchmarks/run.sh --quick|--full" >&2; exit 2 ;;
esac
pin_backend_cpus=""
options=("$@")
for i in "${!options[@]}"; do
  if [ "${options[i]}" = --pin-backend-cpus ]; then pin_backend_cpus=${options[i + 1]:-}; fi
done
backend_cpus=()
output="$PWD/benchmarks/target/results-${mode#--}"
if [ -n "$pin_backend_cpus" ]; then
  if ! taskset -c "$pin_backend_cpus" true 2>/dev/null; then
    echo "--pin-backend-cpus $pin_backend_cpus: taskset -c $pin_backend_cpus cannot run a command" \
      "(is taskset installed, and is $pin_backend_cpus a CPU list of this machine?)" >&2
    exit 2
  fi
  backend_cpus=(taskset -c "$pin_backend_cpus")
  # A pinned run's figures are not the shared run's: they must not overwrite them.
  output="$output-pinned"
fi
redis_port=${BENCH_REDIS_PORT:-16379}
pg_version=15
pg_database=hbase_sessions_bench
pg_user=hbase_sessions_bench
pg_password=hbase_sessions_bench
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
as_postgres() {
  if [ -z "$sudo" ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

install_peers() {
  local missing=()
  command -v redis-server >/dev/null || missing+=(redis-server)
  command -v wrk >/dev/null || missing+=(wrk)
  command -v gnuplot >/dev/null || missing+=(gnuplot-nox)
  [ -x "/usr/lib/postgresql/$pg_version/bin/postgres" ] || missing+=(postgresql)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]}"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

postmaster_pid() {
  local data_directory
  data_directory=$(pg_lsclusters -h | awk -v v="$pg_version" '$1 == v && $2 == "main" {print $6}')
  $sudo head -1 "$data_directory/postmaster.pid"
}

# The postmaster and every process it forked (checkpointer, WAL writer, backends); later backends fork from the
# postmaster and inherit its affinity. $1: a taskset CPU list.
pin_postgres() {
  local postmaster pid
  postmaster=$(postmaster_pid)
  for pid in $postmaster $(pgrep -P "$postmaster"); do
    $sudo taskset -a -cp "$1" "$pid" >/dev/null
  done
  echo "PostgreSQL (postmaster $postmaster and its children) on CPUs $1"
}

started_redis=""
started_postgres=""
postgres_cpus_before=""
stop_peers() {
  if [ -n "$started_redis" ]; then
    redis-cli -h 127.0.0.1 -p "$redis_port" shutdown nosave >/dev/null 2>&1 || kill "$(cat "$output/redis.pid")" 2>/dev/null || true
  fi
  if [ -n "$started_postgres" ]; then
    $sudo pg_ctlcluster "$pg_version" main stop || true
  elif [ -n "$postgres_cpus_before" ]; then
    pin_postgres "$postgres_cpus_before" || true
  fi
}
trap stop_peers EXIT

start_peers() {
  mkdir -p "$output"
  "${backend_cpus[@]}" redis-server --bind 127.0.0.1 --port "$redis_port" --save '' --appendonly no \
    --daemonize yes --pidfile "$output/redis.pid" --logfile "$output/redis.log"
  started_redis=yes
  if ! pg_lsclusters -h | awk -v v="$pg_version" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .; then
    $sudo pg_ctlcluster "$pg_version" main start
    started_postgres=yes
  fi
  if [ -n "$pin_backend_cpus" ]; then
    # A cluster that ran before this run gets its CPUs back at the end.
    [ -n "$started_postgres" ] || postgres_cpus_before=$(taskset -pc "$(postmaster_pid)" | awk '{print $NF}')
    pin_postgres "$pin_backend_cpus"
  fi
  # A user and database of its own. Jetty's JDBC store creates its table, and the Spring Session JDBC node its two
  # (from the script in Spring Session's jar), dropped here for a clean start; Tomcat's DataSourceStore needs its
  # table made beforehand, by the benchmark's user, who then owns it: the one of Tomcat's manager docs, in
  # PostgreSQL's types.
  as_postgres psql -q -v ON_ERROR_STOP=1 <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$pg_user') THEN
    CREATE ROLE $pg_user LOGIN PASSWORD '$pg_password';
  END IF;
END \$\$;
SELECT 'CREATE DATABASE $pg_database OWNER $pg_user' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$pg_database')\gexec
SQL
  as_postgres psql -q -v ON_ERROR_STOP=1 -d "$pg_database" <<SQL
DROP TABLE IF EXISTS jettysessions;
DROP TABLE IF EXISTS spring_session_attributes;
DROP TABLE IF EXISTS spring_session;
DROP TABLE IF EXISTS tomcat_sessions;
SET ROLE $pg_user;
CREATE TABLE tomcat_sessions (
  session_id    varchar(100) NOT NULL PRIMARY KEY,
  valid_session char(1) NOT NULL,
  max_inactive  int NOT NULL,
  last_access   bigint NOT NULL,
  app_name      varchar(255),
  session_data  bytea
);
CREATE INDEX tomcat_sessions_app_name ON tomcat_sessions (app_name);
SQL
  for i in $(seq 50); do redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1 && return; sleep 0.2; done
  echo "Redis did not answer on 127.0.0.1:$redis_port: see $output/redis.log" >&2
  exit 1
}

peer_versions() {
  printf '%s; %s; %s' \
    "$(redis-server --version | awk '{print "redis-server", substr($3, 3)}')" \
    "$(as_postgres psql -tAc 'SHOW server_version' | awk '{print "PostgreSQL", $1}')" \
    "$(wrk --version 2>&1 | head -1 | awk '{print "wrk", $2}')"
}

install_peers
echo "Building the benchmark modules"
mvn -B -q -DskipTests package -pl benchmarks/benchmark-suite -am
start_peers
suite_classpath="benchmarks/benchmark-suite/target/classes:$(cat benchmarks/benchmark-suite/target/suite.classpath)"
timeout "$time_limit" java -Xms2g -Xmx2g -cp "$suite_classpath" io.hbasesessions.benchmarks.BenchmarkSuite "$mode" \
  --output "$output" \
  --redis "127.0.0.1:$redis_port" \
  --jdbc-url "jdbc:postgresql://127.0.0.1:5432/$pg_database?user=$pg_user&password=$pg_password" \
  --load-generator wrk \
  --peer-versions "$(peer_versions)" \
  "$@"
if command -v gnuplot >/dev/null && [ -s "$output/http.tsv" ]; then
  gnuplot -e "data='$output/http.tsv'; out='$output/http.png'" benchmarks/http.gnuplot
fi
if command -v gnuplot >/dev/null && [ -s "$output/failover.charts" ]; then
  while IFS= read -r chart; do gnuplot -e "$chart" benchmarks/failover.gnuplot; done < "$output/failover.charts"
fi
if command -v gnuplot >/dev/null && [ -s "$output/sizing-rewrite.chart" ]; then
  gnuplot -e "$(cat "$output/sizing-rewrite.chart")" benchmarks/sizing.gnuplot
fi
echo "Results: $output/results.md"
